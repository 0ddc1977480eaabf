"""The lobby's tables (migration 0016): public tables, seeks and the lobby's feed.

Reference tables on Citus (store/citus.py): small, written by the lobby alone, and never
joined to a match's rows by a foreign key (a lobby row whose match is gone is closed by the
lobby's sweep, lobby/tables.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from domino_api.store.json_types import JSONObject
from domino_api.store.models import Base


class LobbyTable(Base):
    """A waiting table its host made public, under an id of its own (never its game number)."""

    __tablename__ = "lobby_tables"

    public_id: Mapped[str] = mapped_column(String(22), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(36), unique=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    free_seats: Mapped[int] = mapped_column(Integer)  # as last announced (seats_changed)
    created_at: Mapped[datetime]

    __table_args__ = (
        Index("ix_lobby_tables_ruleset_created", "ruleset", "created_at", "public_id"),
    )


class Seek(Base):
    """A player asking to be paired for a preset and options; open while its lease holds."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    options: Mapped[JSONObject]
    options_key: Mapped[str] = mapped_column(Text)  # the options as canonical JSON
    status: Mapped[str] = mapped_column(String(16))  # open, paired, cancelled, expired
    match_id: Mapped[str | None] = mapped_column(String(36))
    seat: Mapped[int | None] = mapped_column(Integer)
    # The player this seeker pairs with as one team (migration 0026, lobby/seek_teams.py).
    partner_id: Mapped[str | None] = mapped_column(String(36))
    lease_until: Mapped[datetime]
    created_at: Mapped[datetime]

    __table_args__ = (
        Index(
            "ix_seeks_open",
            "ruleset",
            "options_key",
            "created_at",
            postgresql_where=text("status = 'open'"),
        ),
    )


class LobbyEventRow(Base):
    """One lobby event, as sent (`body`); `seek_id` set: for that seek's holder alone;
    `player_id` set: for that player's lobby sockets alone (social/events.py)."""

    __tablename__ = "lobby_events"

    seq: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    seek_id: Mapped[str | None] = mapped_column(String(36))
    # Set: for that player's lobby sockets alone (`your_turn`, migration 0023).
    player_id: Mapped[str | None] = mapped_column(String(36))
    body: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime]
