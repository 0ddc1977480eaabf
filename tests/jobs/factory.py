"""Building tables for sweeper tests and the benchmark: over REST, and cloned in bulk by SQL."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import func, insert, select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import PassReport, sweep_pass
from domino_api.store.models import Match, MatchEvent, Player, Seat
from tests.api.helpers import create_match, first_legal, new_player, view

HUMANS = [{"type": "human"}, {"type": "human"}]
BLITZ = {"turn_clock": {"allowance_s": 2, "grace_s": 1}}


def parse(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00"))


async def two_seat_match(
    client: httpx.AsyncClient,
    ruleset: str = "classic",
    options: dict[str, Any] | None = None,
    names: tuple[str, str] = ("Ana", "Bob"),
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Two humans seated and the match started: (host, joiner, host's view)."""
    ana, bob = await new_player(client, names[0]), await new_player(client, names[1])
    created = await create_match(client, ana, ruleset, HUMANS, options)
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200, joined.text
    started = await client.post(
        f"/v1/matches/{created['id']}/start", json={"cut": "sweeper"}, headers=ana["headers"]
    )
    assert started.status_code == 200, started.text
    return ana, bob, started.json()


async def events(client: httpx.AsyncClient, player: dict[str, Any], match_id: str) -> list[Any]:
    response = await client.get(f"/v1/matches/{match_id}/events", headers=player["headers"])
    assert response.status_code == 200, response.text
    return list(response.json()["events"])


async def status(client: httpx.AsyncClient, player: dict[str, Any], match_id: str) -> str:
    return str((await view(client, player, match_id))["status"])


def _columns(model: Any, replaced: str) -> tuple[str, str]:
    """(target list, select list) for copying rows of `model` with `replaced` set to m.id."""
    names = [c.name for c in model.__table__.columns]
    picks = ["m.id" if n == replaced else f"x.{n}" for n in names]
    return ", ".join(names), ", ".join(picks)


async def clone_matches(
    maker: async_sessionmaker[AsyncSession],
    template_id: str,
    copies: int,
    own_players: bool = False,
) -> list[str]:
    """Copies of a match (row, seats, events) under new ids and no code; returns the ids.

    With `own_players` each copy gets its own players (named like the template's), so copies
    finishing at once do not all update the same players' records.
    """
    names = [c.name for c in Match.__table__.columns if c.name not in ("id", "code")]
    cols = ", ".join(names)
    async with maker() as session, session.begin():
        rows = await session.execute(
            text(
                f"INSERT INTO matches (id, code, {cols}) "
                f"SELECT gen_random_uuid()::text, NULL, {cols} "
                "FROM matches, generate_series(1, :copies) WHERE id = :template RETURNING id"
            ),
            {"copies": copies, "template": template_id},
        )
        ids = [r[0] for r in rows]
        seats = list(
            (await session.execute(select(Seat).where(Seat.match_id == template_id))).scalars()
        )
        holders = {s.player_id for s in seats if s.player_id}
        templates = {
            p.id: p
            for p in (await session.execute(select(Player).where(Player.id.in_(holders)))).scalars()
        }
        new_players: list[dict[str, Any]] = []
        new_seats: list[dict[str, Any]] = []
        seat_columns = [c.name for c in Seat.__table__.columns]
        for match_id in ids:
            mapping = {pid: pid for pid in holders}
            if own_players:
                for pid, player in templates.items():
                    mapping[pid] = str(uuid.uuid4())
                    new_players.append(
                        {
                            "id": mapping[pid],
                            "name": player.name,
                            "tile_back": player.tile_back,
                            "plan": player.plan,
                            "settings": {},
                            "created_at": player.created_at,
                        }
                    )
            for seat in seats:
                row = {c: getattr(seat, c) for c in seat_columns}
                row["match_id"] = match_id
                row["player_id"] = mapping.get(seat.player_id or "", seat.player_id)
                new_seats.append(row)
        if new_players:
            await session.execute(insert(Player), new_players)
        await session.execute(insert(Seat), new_seats)
        target, picks = _columns(MatchEvent, "match_id")
        await session.execute(
            text(
                f"INSERT INTO match_events ({target}) SELECT {picks} "
                "FROM match_events x, unnest(CAST(:ids AS text[])) AS m(id) "
                "WHERE x.match_id = :template"
            ),
            {"ids": ids, "template": template_id},
        )
    return ids


async def event_types(
    maker: async_sessionmaker[AsyncSession], match_id: str
) -> list[tuple[int, str]]:
    async with maker() as session:
        stmt = (
            select(MatchEvent.seq, MatchEvent.type)
            .where(MatchEvent.match_id == match_id)
            .order_by(MatchEvent.seq)
        )
        return [(seq, kind) for seq, kind in (await session.execute(stmt)).all()]


async def count_due(maker: async_sessionmaker[AsyncSession], now: datetime) -> int:
    async with maker() as session:
        stmt = select(func.count()).select_from(Match).where(Match.due_at <= now)
        return int((await session.execute(stmt)).scalar_one())


async def sweep_while_a_move_commits(
    client: httpx.AsyncClient,
    clock: FakeClock,
    core: Any,
    mover: dict[str, Any],
    match: dict[str, Any],
    tick: timedelta,
    monkeypatch: Any,
) -> PassReport:
    """`mover` moves one tick before the deadline; right after its step is saved, before its
    unit of work returns, the clock passes the deadline and a sweep runs: that sweep's report."""
    from domino_api.store import matches_repo

    mine = await view(client, mover, match["id"])
    deadline = parse(match["turn"]["deadline"])
    clock.set(deadline - tick)
    body = {**first_legal(mine), "seq": mine["seq"]}
    real = matches_repo.save_each
    reports: list[PassReport] = []
    swept: list[bool] = []

    async def save_then_sweep(*args: Any, **kwargs: Any) -> dict[str, int]:
        versions = await real(*args, **kwargs)
        if not swept:  # the move's save (the sweep's own saves come through here too)
            swept.append(True)
            clock.set(deadline + timedelta(seconds=1))
            reports.append(await sweep_pass(core))
        return versions

    monkeypatch.setattr(matches_repo, "save_each", save_then_sweep)
    try:
        r = await client.post(
            f"/v1/matches/{match['id']}/moves", json=body, headers=mover["headers"]
        )
    finally:
        monkeypatch.setattr(matches_repo, "save_each", real)
    assert r.status_code == 200, r.text
    assert len(reports) == 1
    return reports[0]


async def leave(
    maker: async_sessionmaker[AsyncSession], match_id: str, seat: int, gone: Any
) -> None:
    """The seat's holder was last seen (socket or request) at `gone`: as if they had left then."""
    async with maker() as session, session.begin():
        await session.execute(
            text(
                "UPDATE seats SET last_seen_at = :gone, connected_until = :gone "
                "WHERE match_id = :m AND seat = :s"
            ),
            {"gone": gone, "m": match_id, "s": seat},
        )
