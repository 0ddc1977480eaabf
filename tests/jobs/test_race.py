"""Two sweepers and a reader racing on 200 due matches: each forfeited once, no duplicate events."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import timedelta
from typing import Any

import httpx
from sqlalchemy import select, update

from domino_api.app.wiring import write_core
from domino_api.clock import FakeClock
from domino_api.config import Settings
from domino_api.jobs.liveness import outages_of
from domino_api.jobs.sweeper import sweep_pass
from domino_api.store.models import Match, MatchEvent
from tests.jobs.factory import BLITZ, clone_matches, count_due, parse, two_seat_match

COPIES = 199


async def test_two_sweepers_and_a_reader_forfeit_each_match_once(
    app: Any, client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    ana, _, v = await two_seat_match(client, options=BLITZ)
    ids = [v["id"], *await clone_matches(maker, v["id"], COPIES, own_players=True)]
    clock.set(parse(v["turn"]["deadline"]) + timedelta(seconds=1))
    assert await count_due(maker, clock.now()) == 200
    async with maker() as session, session.begin():  # Ana may watch the copies (spectators)
        await session.execute(update(Match).where(Match.id.in_(ids)).values(spectators=True))
    settings = Settings(database_url=app.state.database_url, log_json=False)
    async with write_core(app.state.database_url, settings, clock, outages_of) as (second, _):
        reads: Counter[str] = Counter()

        async def reader() -> None:
            for match_id in random.sample(ids, len(ids)):
                # Ana holds the template only; a spectator's read enforces timeouts all the same.
                response = await client.get(f"/v1/matches/{match_id}", headers=ana["headers"])
                assert response.status_code == 200, response.text
                reads[response.json()["status"]] += 1

        one, two, _ = await asyncio.gather(
            sweep_pass(core),
            sweep_pass(second),
            reader(),
        )
    swept = [o.match_id for o in one.outcomes + two.outcomes if o.action == "forfeit"]
    assert len(swept) == len(set(swept))  # no match forfeited by both sweepers
    assert all(o.action in ("forfeit", "none") for o in one.outcomes + two.outcomes)
    assert reads["finished"] == 200  # the reader never saw a match still in play
    async with maker() as session:
        statuses = Counter(
            (await session.execute(select(Match.status).where(Match.id.in_(ids)))).scalars()
        )
        assert statuses == {"finished": 200}
        rows = (
            await session.execute(
                select(MatchEvent.match_id, MatchEvent.seq, MatchEvent.type)
                .where(MatchEvent.match_id.in_(ids))
                .order_by(MatchEvent.match_id, MatchEvent.seq)
            )
        ).all()
    by_match: dict[str, list[tuple[int, str]]] = {}
    for match_id, seq, kind in rows:
        by_match.setdefault(match_id, []).append((seq, kind))
    assert set(by_match) == set(ids)
    for seqs in by_match.values():
        assert [s for s, _ in seqs] == list(range(1, len(seqs) + 1))  # no gap, no repeat
        kinds = Counter(k for _, k in seqs)
        assert kinds["forfeit"] == 1 and kinds["match_ended"] == 1
        assert seqs[-1][1] == "match_ended"
    assert await count_due(maker, clock.now()) == 0
