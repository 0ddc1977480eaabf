"""domino-api: an async JSON/WebSocket game service for dominoes."""
