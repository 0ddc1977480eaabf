"""The sweep logs what it ends (issue 25): one structured line per forfeit, abandonment or
cancellation, with the match id, the seat and the cause, not only a count."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

import httpx
import pytest

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from domino_api.logs import JsonFormatter
from tests.api.helpers import create_match, new_player, view
from tests.jobs.factory import HUMANS, two_seat_match


def _lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    records = [r for r in caplog.records if r.name == "domino_api.jobs.sweeper"]
    return [json.loads(JsonFormatter().format(r)) for r in records if hasattr(r, "outcome")]


async def test_each_forfeit_and_abandonment_by_the_sweep_is_logged(
    client: httpx.AsyncClient, clock: FakeClock, core: Any, caplog: pytest.LogCaptureFixture
) -> None:
    start = clock.now()
    _, bob, away = await two_seat_match(client, "all-fives", options={"away_forfeit_s": 5})
    ana = await new_player(client, "Cy")
    waiting = await create_match(client, ana, "draw", HUMANS)
    clock.set(start + timedelta(seconds=2))
    await view(client, bob, away["id"])  # Bob stays; Ana (seat 0) is away from the start
    clock.set(start + timedelta(minutes=30))
    with caplog.at_level(logging.INFO, logger="domino_api.jobs.sweeper"):
        report = await sweep_pass(core)
    assert {o.match_id for o in report.outcomes} == {away["id"], waiting["id"]}
    found = sorted(
        (
            (line["match_id"], line["outcome"], line["seat"], line["cause"])
            for line in _lines(caplog)
        ),
        key=str,
    )
    assert found == sorted(
        [
            (away["id"], "forfeit", 0, "away"),
            (waiting["id"], "abandoned", None, "abandon_waiting"),
        ],
        key=str,
    )
    # The text says it too, for a reader without a JSON viewer.
    messages = [line["msg"] for line in _lines(caplog)]
    assert any(away["id"] in m and "seat 0" in m and "away" in m for m in messages), messages
