"""The VAPID key pair (RFC 8292) push services know this deployment by.

The operator's (`DOMINO_VAPID_PRIVATE_KEY`), else the one stored in the database: the first
process to start without one makes a P-256 pair and stores it (`push_keys`, one row); a
process that starts at the same moment keeps whichever was stored first, so every process
signs with the same key and a browser's subscription stays valid across restarts and
replicas. The public key is published (`GET /v1/push/key`) for `PushManager.subscribe`."""

from __future__ import annotations

import asyncio
import base64
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid

from domino_api.config import Settings
from domino_api.store import push_repo
from domino_api.store.db import Pool


@dataclass(frozen=True)
class VapidKeys:
    vapid: Vapid
    public_key: str  # the uncompressed point, base64url without padding (applicationServerKey)
    source: str  # "setting" or "database"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _generate_pem() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return pem.decode()


def _keys(text: str, source: str) -> VapidKeys:
    text = text.strip()
    vapid = Vapid.from_pem(text.encode()) if "PRIVATE KEY" in text else Vapid.from_string(text)
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return VapidKeys(vapid, b64url(point), source)


class PushKeys:
    """The process's VAPID keys, read (or made) once, on first use."""

    def __init__(self, pool: Pool, settings: Settings) -> None:
        self._pool = pool
        self._settings = settings
        self._keys: VapidKeys | None = None
        self._lock = asyncio.Lock()

    async def get(self) -> VapidKeys:
        if self._keys is not None:
            return self._keys
        async with self._lock:
            if self._keys is None:
                self._keys = await self._load()
        return self._keys

    async def _load(self) -> VapidKeys:
        if self._settings.vapid_private_key:
            return await asyncio.to_thread(_keys, self._settings.vapid_private_key, "setting")
        async with self._pool.acquire() as connection:
            pem = await push_repo.key_pem(connection)
        if pem is None:
            made = await asyncio.to_thread(_generate_pem)
            async with self._pool.acquire() as connection:
                pem = await push_repo.keep_key(connection, made)
        return await asyncio.to_thread(_keys, pem, "database")
