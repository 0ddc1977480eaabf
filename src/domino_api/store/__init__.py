"""Persistence: SQLAlchemy models, repositories and session handling."""
