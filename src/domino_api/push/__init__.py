"""Web Push (issue 50): the deployment's VAPID keys (`keys`), a player's devices'
subscriptions (`routes`, `subscriptions`) and the outbox's sender (`sender`). What is sent is
decided by turns/notices.py after a step commits; nothing here reads a match."""
