"""A process's Web Push parts: its keys and its outbox sender (app/runtime.py starts them)."""

from __future__ import annotations

from domino_api.config import Settings
from domino_api.push.keys import PushKeys
from domino_api.push.sender import PushSender
from domino_api.store.db import Pool


class Push:
    def __init__(self, pool: Pool, settings: Settings) -> None:
        self.pool = pool
        self.settings = settings
        self.keys = PushKeys(pool, settings)
        self.sender = PushSender(pool, settings, self.keys)

    async def start(self) -> None:
        """On start: the key pair read, or made and stored by the first process (push/keys.py);
        then the sender runs."""
        await self.keys.get()
        self.sender.start()

    async def stop(self) -> None:
        await self.sender.stop()
