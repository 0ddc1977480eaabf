"""Two bearer-token primitives under their old address (they live in domino_api/web/tokens.py)."""

from __future__ import annotations

# realtime/socket.py still imports them from here; drop this module once it imports tokens.
from domino_api.web.tokens import hash_token, parse_bearer

__all__ = ["hash_token", "parse_bearer"]
