"""Live tables: LISTEN/NOTIFY listener, the per-process hub, the WebSocket route, presence."""
