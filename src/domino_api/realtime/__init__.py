"""Live tables: announcements after commit (PostgreSQL or NATS), their listener, the
per-process hub, the WebSocket route, presence."""
