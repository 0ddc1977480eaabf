"""The outbox's sender: each API process sends the notices due in `push_outbox`.

A notice is claimed for `BACKOFF_S` x 2^attempts (store/push_repo.py `claim`): sent, it leaves
the outbox; refused with 404 or 410 (the push service forgot the subscription), the
subscription leaves with all its notices; any other failure (the service away, a 5xx, a 429)
leaves it to be claimed again when that pause is over, until `MAX_ATTEMPTS`. A process that
dies mid-send leaves its claims to come due again: a notice may then arrive twice, never be
lost while its subscription lives. The sender wakes when this process enqueued notices
(`wake`), and reads the outbox every `POLL_S` for the others' (the recovery job's) and for
retries. Encryption, signing and the request run in a thread (pywebpush is synchronous): the
event loop never waits on them.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from urllib.parse import urlsplit

import msgspec
import requests
from pywebpush import WebPushException, webpush

from domino_api.config import Settings
from domino_api.errors import database_state
from domino_api.push.keys import PushKeys, VapidKeys
from domino_api.store import push_repo
from domino_api.store.db import Pool
from domino_api.store.push_repo import Claimed

log = logging.getLogger(__name__)

POLL_S = 2.0
BATCH = 20
BACKOFF_S = 10.0
MAX_ATTEMPTS = 8
SEND_TIMEOUT_S = 10.0
# How long a push service keeps a notice for a device that is offline (a day: a turn lasts
# hours at least).
TTL_S = 86_400
GONE = (404, 410)


def _public(endpoint: str) -> bool:
    """Whether every address the endpoint's host resolves to is public: a name checked when it
    was subscribed (push/subscriptions.py) may point into the operator's network since."""
    host = urlsplit(endpoint).hostname or ""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except OSError:
        return True  # unresolvable: the request fails and is retried like any failure
    return all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_global for info in found)


class SubscriptionKeys(msgspec.Struct, frozen=True):
    p256dh: str
    auth: str


class SubscriptionInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A subscription as pywebpush takes it (its `subscription_info`, the browser's own form)."""

    endpoint: str
    keys: SubscriptionKeys


def _post(row: Claimed, keys: VapidKeys, subject: str, allow_local: bool) -> int | None:
    """Encrypt, sign and send one notice (in a worker thread); the push service's status, or
    None when it could not be reached. An endpoint on a private address is taken as gone."""
    if not allow_local and not _public(row.endpoint):
        return 410
    info = SubscriptionInfo(endpoint=row.endpoint, keys=SubscriptionKeys(row.p256dh, row.auth))
    try:
        response = webpush(
            msgspec.to_builtins(info),
            data=row.body,
            vapid_private_key=keys.vapid,
            vapid_claims={"sub": subject},
            ttl=TTL_S,
            timeout=SEND_TIMEOUT_S,
        )
    except WebPushException as exc:
        return None if exc.response is None else int(exc.response.status_code)
    except requests.RequestException:
        return None
    return int(getattr(response, "status_code", 201))


class PushSender:
    """Sends the outbox's due notices, for as long as the process runs."""

    def __init__(self, pool: Pool, settings: Settings, keys: PushKeys) -> None:
        self._pool = pool
        self._settings = settings
        self._keys = keys
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.sent = 0  # how many notices this process delivered (tests, logs)

    def wake(self) -> None:
        self._wake.set()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="push-sender")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_S)
            self._wake.clear()
            try:
                while await self.send_due() == BATCH:
                    pass
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database away: the next pass sends them
                level = logging.WARNING if database_state(exc) is not None else logging.ERROR
                log.log(level, "push outbox pass failed (%s)", exc)

    async def send_due(self) -> int:
        """Claim and send one batch of due notices; returns how many were claimed."""
        async with self._pool.acquire() as connection:
            rows = await push_repo.claim(connection, BATCH, BACKOFF_S)
        if not rows:
            return 0
        keys = await self._keys.get()
        subject = self._settings.vapid_subject
        local = self._settings.push_allow_local
        statuses = await asyncio.gather(
            *(asyncio.to_thread(_post, row, keys, subject, local) for row in rows)
        )
        finished, gone = [], set()
        for row, status in zip(rows, statuses, strict=True):
            if status is not None and status < 300:
                self.sent += 1
                finished.append(row.id)
            elif status in GONE:
                gone.add(row.subscription_id)
            elif row.attempts >= MAX_ATTEMPTS:
                log.warning("push notice %s given up after %d attempts", row.id, row.attempts)
                finished.append(row.id)
        async with self._pool.acquire() as connection, connection.transaction():
            await push_repo.done(connection, finished)
            for subscription_id in gone:
                await push_repo.forget(connection, subscription_id)
        return len(rows)
