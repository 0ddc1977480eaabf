"""Web Push's rows (push/, migration 0023): the VAPID key pair, subscriptions, the outbox.

Their tables join `Base.metadata` when this module is imported (store/push_repo.py does; the
migrations' env and the tests' conftest import it, as they do store/lobby_models.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Integer, SmallInteger, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from domino_api.store.models import Base


class PushKey(Base):
    """The deployment's VAPID key pair (one row, id 1), made by the first process to start
    without `DOMINO_VAPID_PRIVATE_KEY` (push/keys.py)."""

    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    private_pem: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime]


class PushSubscription(Base):
    """One device's Web Push subscription (the browser's PushSubscription), its player's."""

    __tablename__ = "push_subscriptions"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(Text, unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime]


class PushOutbox(Base):
    """A notice to send to one subscription: retried with a growing pause until sent, refused
    for good (the subscription is gone) or out of attempts (push/sender.py)."""

    __tablename__ = "push_outbox"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    subscription_id: Mapped[str] = mapped_column(
        ForeignKey("push_subscriptions.id", ondelete="CASCADE")
    )
    body: Mapped[str] = mapped_column(Text)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    next_at: Mapped[datetime] = mapped_column(index=True)
    created_at: Mapped[datetime]
