"""Friends, challenges and players' presence (social/, migration 0023).

Reference tables on Citus (store/citus.py): small rows of players, never joined to a match's
rows by a foreign key. Their tables join `Base.metadata` when this module is imported
(store/social_repo.py does; the migrations' env and the tests' conftest import it)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, String, Text, func, text
from sqlalchemy.orm import Mapped, mapped_column

from domino_api.store.models import Base, Player

_PLAYER = "players.id"


class FriendLink(Base):
    """A player asked to be friends with another; a link each way is a friendship."""

    __tablename__ = "friend_links"

    player_id: Mapped[str] = mapped_column(
        ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True
    )
    friend_id: Mapped[str] = mapped_column(
        ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime]


class Challenge(Base):
    """A challenge of a named player (`to_id`), or an invitation (no `to_id`) anyone signed in
    who holds its link (`token`) may take; open until answered or `expires_at`."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    token: Mapped[str] = mapped_column(String(32))
    from_id: Mapped[str] = mapped_column(ForeignKey(_PLAYER, ondelete="CASCADE"), index=True)
    to_id: Mapped[str | None] = mapped_column(ForeignKey(_PLAYER, ondelete="CASCADE"), index=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    options_key: Mapped[str] = mapped_column(Text)  # the options as canonical JSON
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16))  # open, accepted, declined, cancelled
    match_id: Mapped[str | None] = mapped_column(String(36))
    taken_by: Mapped[str | None] = mapped_column(String(36))  # who accepted it
    created_at: Mapped[datetime]
    expires_at: Mapped[datetime]

    __table_args__ = (Index("uq_challenges_token", "token", unique=True),)


class PlayerPresence(Base):
    """A player's online lease (its sockets, renewed by their process's presence pass) and
    whether its friends were last told it is online."""

    __tablename__ = "player_presence"

    player_id: Mapped[str] = mapped_column(
        ForeignKey(_PLAYER, ondelete="CASCADE"), primary_key=True
    )
    online_until: Mapped[datetime]
    online: Mapped[bool] = mapped_column(Boolean)

    __table_args__ = (
        # Each presence pass looks for the online leases that ran out (social/presence.py).
        Index("ix_player_presence_online_until", "online_until", postgresql_where=text("online")),
    )


# A player named in any case (store/social_repo.py `named`).
Index("ix_players_lower_name", func.lower(Player.name))
