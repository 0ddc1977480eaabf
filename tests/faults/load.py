"""Players that keep playing through a fault, and what every answer was.

Each player plays one match against a computer (tests/ops/test_crash.py's `Client`, whose
answered events the audit checks against the database). An answer of 503 `service_busy`
(the database away) is waited out and the move sent again from a fresh view; any other
5xx is a failure the tests count. Every answer is kept with its moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.ops.test_crash import Client, move_body, new_match

# Generous: a recovery takes about a second; a process that never recovers fails here.
RECOVERY_DEADLINE_S = 60.0


@dataclass(frozen=True)
class Answer:
    at: float  # time.monotonic() when it came
    sent: float  # and when its request went
    process: int
    status: int
    code: str | None
    retry_after: str | None


@dataclass
class Answers:
    """Every answer of a run, in order."""

    seen: list[Answer] = field(default_factory=list)

    def add(self, process: int, response: httpx.Response) -> None:
        code = None
        if response.headers.get("content-type", "").startswith("application/problem+json"):
            code = response.json().get("code")
        retry = response.headers.get("retry-after")
        at = time.monotonic()
        sent = at - response.elapsed.total_seconds()
        self.seen.append(Answer(at, sent, process, response.status_code, code, retry))

    def failures(self) -> list[Answer]:
        """Answers a client must never get: a 5xx other than 503 `service_busy` with a
        Retry-After."""
        return [
            a
            for a in self.seen
            if a.status >= 500
            and not (a.status == 503 and a.code == "service_busy" and a.retry_after)
        ]

    def busy(self) -> list[Answer]:
        return [a for a in self.seen if a.status == 503]


async def seat_players(http: httpx.AsyncClient, count: int, prefix: str) -> list[Client]:
    """`count` players, each at a started match of their own against a computer."""
    players = []
    for index in range(count):
        created = await http.post("/v1/players", json={"name": f"{prefix}{index}"})
        assert created.status_code == 201, created.text
        player = Client(token=created.json()["token"])
        await new_match(http, player)
        players.append(player)
    return players


async def keep_playing(
    http: httpx.AsyncClient, process: int, player: Client, answers: Answers, stop: asyncio.Event
) -> None:
    """Move (or deal the next hand) until `stop`; a 200 is an acknowledgement to keep."""
    mid = player.match_id
    while not stop.is_set() and player.view["status"] in ("playing", "hand_over"):
        if player.view["status"] == "hand_over":
            path, body = f"/v1/matches/{mid}/hands", {}
        else:
            path, body = f"/v1/matches/{mid}/moves", move_body(player.view)
        player.in_flight = {"path": path, "body": body, "seq": player.view["seq"]}
        try:
            response = await http.post(path, json=body, headers=player.headers)
        except httpx.TransportError:
            await asyncio.sleep(0.05)
            continue
        answers.add(process, response)
        if response.status_code == 200:
            player.in_flight = None
            answer = response.json()
            if "events" in answer:
                player.acked.extend(answer["events"])
                player.view = answer["view"]
                player.moves += 1
            else:
                player.view = answer
            continue
        # Refused (503 while the database is away; 409 when a move whose answer was lost
        # did commit): read the table again and go on from there.
        await asyncio.sleep(0.05)
        await refresh(http, process, player, answers, stop)


async def refresh(
    http: httpx.AsyncClient, process: int, player: Client, answers: Answers, stop: asyncio.Event
) -> None:
    """The player's view read again, once the service answers (or `stop`)."""
    while not stop.is_set():
        try:
            response = await http.get(f"/v1/matches/{player.match_id}", headers=player.headers)
        except httpx.TransportError:
            await asyncio.sleep(0.05)
            continue
        answers.add(process, response)
        if response.status_code == 200:
            player.view = response.json()
            player.in_flight = None
            return
        await asyncio.sleep(0.05)


async def newcomers(
    http: httpx.AsyncClient, process: int, answers: Answers, stop: asyncio.Event
) -> None:
    """New players, one after another (each a transaction of the ORM's sessions)."""
    while not stop.is_set():
        with contextlib.suppress(httpx.TransportError):
            answers.add(process, await http.post("/v1/players", json={"name": "Newcomer"}))
        await asyncio.sleep(0.02)


async def answering(http: httpx.AsyncClient, process: int, answers: Answers, since: float) -> float:
    """The moment a request sent after `since` was first served (201), polled."""
    deadline = since + RECOVERY_DEADLINE_S
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = await http.post("/v1/players", json={"name": "Probe"})
        except httpx.TransportError as exc:
            last = exc
        else:
            answers.add(process, last)
            if last.status_code == 201:
                return time.monotonic()
        await asyncio.sleep(0.02)
    detail = last.text if isinstance(last, httpx.Response) else repr(last)
    pytest.fail(f"still failing {RECOVERY_DEADLINE_S} s after the database was back: {detail}")
