"""Accounts on every device: passkeys (WebAuthn), device sessions, link codes and API keys."""
