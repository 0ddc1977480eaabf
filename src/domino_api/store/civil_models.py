"""A civil table's rows (matches/civil.py, migration 0014): mutes, blocks and reports.

Their tables join `Base.metadata` when this module is imported (store/civil_repo.py does; the
migrations' env and the tests' conftest import it, as they do store/lobby_models.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from domino_api.store.models import Base


class Mute(Base):
    """A seat's talk at one match that a player does not want to read (on every device)."""

    __tablename__ = "mutes"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime]


class Block(Base):
    """A player kept from the tables another hosts: its joins there are refused."""

    __tablename__ = "blocks"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    # The blocked player's name at the table it was blocked from (its profile name may change).
    name: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime]


class Report(Base):
    """A message reported to the operators (`domino-api reports`), kept as it was said."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(String(36))
    seq: Mapped[int] = mapped_column(Integer)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    # The seat's holder when the report was made, and the message as it was sent.
    reported_id: Mapped[str | None] = mapped_column(String(36))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str | None] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(index=True)

    __table_args__ = (Index("uq_reports_once", "reporter_id", "match_id", "seq", unique=True),)
