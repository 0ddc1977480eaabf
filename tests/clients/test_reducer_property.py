"""The clients' reducers against the server (issue 40): for random tables, the events each seat
receives, applied by the reducer to its first view, give exactly the view the server serves
next, field by field.

Random tables: every preset, house-nines with 2-4 seats, partnership with 4, guests and hot-seat
seats and computers mixed, low targets so hands and matches end. Each step one human seat acts
(a random legal move, the next hand, a word of table talk); then every human seat reads its
events and its view over the API. The Python reducer (`bots/reducer.py`) is checked in-process,
and /play's `play/reducer.js` in node over the same recorded (view, events, next view) triples
(tools/replay-reducer.mjs). A move's own answer is checked too: its events applied to the
mover's view give the answer's view, which is all /play uses after a move.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domino_api.bots.reducer import apply_event, can_apply
from domino_api.engine.event_types import AnyEvent
from domino_api.engine.view_types import ViewOut
from tests.support.servers import ServerProcess, fresh_database_sync

DB = os.environ.get("DOMINO_CLIENTS_DB", f"domino_clients_{os.getpid()}")
ROOT = Path(__file__).resolve().parents[2]
REPLAY = ROOT / "tools" / "replay-reducer.mjs"
PRESETS = [
    *("all-fives", "house-nines", "draw-50", "draw", "block", "classic", "fives-and-threes"),
    *("partners-block", "partners-all-fives"),  # four seats, two teams (docs/RULES.md 14)
]
OVER = ("finished", "abandoned", "cancelled")
STEPS = 36  # actions per table: a hand or two at these targets

# What no event carries: the server's clock, and the away rule's moments, which move with every
# sighting of a holder (docs/API.md, "The away rule").
NOT_CARRIED = {"now"}
SEAT_NOT_CARRIED = {"away_deadline", "away_since"}

Triple = tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    url = fresh_database_sync(DB)
    process = ServerProcess(url, tmp_path_factory.mktemp(DB) / "server.log")
    process.start()
    try:
        process.wait_ready()
        yield process
    finally:
        process.stop()


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    preset = draw(st.sampled_from(PRESETS))
    players = draw(st.integers(2, 4)) if preset == "house-nines" else 2
    if preset.startswith("partners-"):
        players = 4
    kinds = ["guest", "hotseat", "plain", "planner", "random"]
    others = [draw(st.sampled_from(kinds)) for _ in range(players - 1)]
    return {
        "preset": preset,
        "seats": ["host", *others],
        "target": draw(st.sampled_from([5, 20, 60, 150])),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


def _seat_body(kind: str, number: int) -> dict[str, Any]:
    if kind == "host":
        return {"type": "human"}
    if kind == "hotseat":
        return {"type": "human", "holder": "host", "name": f"Kid{number}"}
    if kind == "guest":
        return {"type": "human"}
    return {"type": "bot", "strategy": kind}


class Table:
    """One random table over the API: who holds which seat, and each seat's last view."""

    def __init__(self, http: httpx.Client, spec: dict[str, Any]) -> None:
        self.http, self.rng = http, random.Random(spec["seed"])
        host = self.player("Host")
        seats = [_seat_body(kind, n) for n, kind in enumerate(spec["seats"])]
        options = spec.get("options", {"target": spec.get("target")})
        body = {"ruleset": spec["preset"], "seats": seats, "options": options}
        created = self.ok(http.post("/v1/matches", json=body, headers=host))
        self.id = created["id"]
        self.holders: dict[int, dict[str, str]] = {}
        for number, kind in enumerate(spec["seats"]):
            if kind in ("host", "hotseat"):
                self.holders[number] = host
            elif kind == "guest":
                guest = self.player(f"Guest{number}")
                join = {"code": created["code"]}
                self.ok(http.post("/v1/matches/join", json=join, headers=guest))
                self.holders[number] = guest
        self.ok(http.post(f"/v1/matches/{self.id}/start", json={}, headers=host))
        self.views = {seat: self.view(seat) for seat in self.holders}
        self.backs = [back["id"] for back in self.ok(http.get("/v1/tile-backs", headers=host))]

    def player(self, name: str) -> dict[str, str]:
        created = self.ok(self.http.post("/v1/players", json={"name": name}))
        return {"Authorization": f"Bearer {created['token']}"}

    @staticmethod
    def ok(response: httpx.Response) -> Any:
        assert response.status_code in (200, 201), response.text
        return response.json()

    def view(self, seat: int) -> dict[str, Any]:
        path = f"/v1/matches/{self.id}"
        return self.ok(self.http.get(path, params={"seat": seat}, headers=self.holders[seat]))

    def events(self, seat: int, after: int, upto: int) -> list[dict[str, Any]]:
        params = {"after": after, "seat": seat, "limit": 5000}
        path = f"/v1/matches/{self.id}/events"
        got = self.ok(self.http.get(path, params=params, headers=self.holders[seat]))["events"]
        return [event for event in got if event["seq"] <= upto]

    def act(self) -> Triple | None:
        """One human seat's action; the mover's (view, answer's events, answer's view) when
        the action answers with them."""
        seats = sorted(self.holders)
        seat = self.rng.choice(seats)
        view = self.views[seat]
        headers = self.holders[seat]
        roll = self.rng.random()
        if roll < 0.1:
            body = {"text": f"hello {view['seq']}", "seat": seat}
            self.ok(self.http.post(f"/v1/matches/{self.id}/messages", json=body, headers=headers))
            return None
        if roll < 0.14:
            self.side_step(seat, view, headers)
            return None
        if view["status"] == "hand_over":
            body = {"seq": view["seq"]}
            self.ok(self.http.post(f"/v1/matches/{self.id}/hands", json=body, headers=headers))
            return None
        movers = [s for s in seats if self.views[s]["legal"]]
        if not movers:
            return None
        seat = self.rng.choice(movers)
        view, headers = self.views[seat], self.holders[seat]
        option = self.rng.choice(view["legal"])
        body = {"action": option["action"], "seq": view["seq"], "seat": seat}
        if option["action"] == "play":
            body |= {"tile": option["tile"], "end": option["end"]}
        answer = self.ok(self.http.post(f"/v1/matches/{self.id}/moves", json=body, headers=headers))
        events = answer["events"]
        if events and events[0]["seq"] == view["seq"] + 1:
            return view, events, answer["view"]
        return None

    def side_step(self, seat: int, view: dict[str, Any], headers: dict[str, str]) -> None:
        """What changes a seat rather than the hand: a tile back, the computer playing for a
        seat of the host's, a resignation."""
        path = f"/v1/matches/{self.id}"
        what = self.rng.choice(["back", "autopilot", "resign"])
        if what == "back":
            back = self.rng.choice(self.backs)
            self.http.patch("/v1/players/me", json={"tile_back": back}, headers=headers)
        elif what == "autopilot" and seat != 0 and self.holders[seat] is self.holders[0]:
            on = view["seats"][seat]["autopilot"]
            method = self.http.delete if on else self.http.put
            method(f"{path}/seats/{seat}/autopilot", headers=headers)  # refused once forfeited
        elif what == "resign" and seat != 0 and self.rng.random() < 0.3:
            self.http.post(f"{path}/resign", json={"seat": seat}, headers=headers)

    def follow(self) -> list[Triple]:
        """Every seat reads its view and the events since its last one."""
        triples = []
        for seat in sorted(self.holders):
            before = self.views[seat]
            after = self.view(seat)
            triples.append((before, self.events(seat, before["seq"], after["seq"]), after))
            self.views[seat] = after
        return triples

    @property
    def over(self) -> bool:
        return all(v["status"] in OVER for v in self.views.values())


def play(server: ServerProcess, spec: dict[str, Any], steps: int = STEPS) -> list[Triple]:
    """The table played `steps` actions (or to its end): every recorded triple, in order."""
    triples: list[Triple] = []
    with httpx.Client(base_url=server.base_url, timeout=30) as http:
        table = Table(http, spec)
        for _ in range(steps):
            answered = table.act()
            if answered is not None:
                triples.append(answered)
            triples += table.follow()
            if table.over:
                break
    return triples


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in view.items() if key not in NOT_CARRIED}
    out["seats"] = [
        {key: value for key, value in seat.items() if key not in SEAT_NOT_CARRIED}
        for seat in view["seats"]
    ]
    return out


def assert_same(got: dict[str, Any], served: dict[str, Any], events: list[dict[str, Any]]) -> None:
    mine, theirs = comparable(got), comparable(served)
    assert mine.keys() == theirs.keys()
    for key in theirs:
        assert mine[key] == theirs[key], (key, [e["type"] for e in events])


def reduce_all(view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The view after the events, or None where the client must read the view again (an end
    that shows a forfeited seat's holder its seats: `can_apply`). The Python reducer reads what
    was sent as the contract's types and its result is compared as the JSON it would send."""
    typed = msgspec.convert(view, ViewOut)
    for event in msgspec.convert(events, list[AnyEvent]):
        if not can_apply(typed, event):
            return None
        typed = apply_event(typed, event)
    reduced: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(typed))
    return reduced


def node_reduced(triples: list[Triple], folder: Path) -> list[dict[str, Any]]:
    """/play's reducer run in node over the recorded views and events."""
    recorded = folder / "triples.jsonl"
    with recorded.open("w") as out:
        for before, events, _ in triples:
            out.write(json.dumps({"view": before, "events": events}) + "\n")
    ran = subprocess.run(
        ["node", str(REPLAY), str(recorded)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0, ran.stderr
    return [json.loads(line) for line in ran.stdout.splitlines()]


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(spec=tables())
def test_each_reducer_gives_the_view_served_next(
    server: ServerProcess, spec: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> None:
    triples = play(server, spec)
    assert triples
    python = [reduce_all(before, events) for before, events, _ in triples]
    reduced = node_reduced(triples, tmp_path_factory.mktemp("reducer"))
    assert len(reduced) == len(triples)
    # Both reducers ask for a fresh view in the same places, and only at such an end.
    assert [got is None for got in reduced] == [got is None for got in python]
    assert all(
        events[-1]["type"] == "match_ended"
        for got, (_, events, _) in zip(python, triples, strict=True)
        if got is None
    )
    for mine, got, (_, events, after) in zip(python, reduced, triples, strict=True):
        if mine is not None:
            assert_same(mine, after, events)
            assert_same(got, after, events)


def test_mexican_train_reducers_give_the_view_served_next(
    server: ServerProcess, tmp_path: Path
) -> None:
    """Mexican Train's hub, trains and markers (docs/TRAINS.md) rebuilt from events by both
    reducers: one round of three seats, two of them the host's."""
    spec = {
        "preset": "mexican-train",
        "seats": ["host", "hotseat", "plain"],
        "options": {"rounds": 1},
        "seed": 11,
    }
    triples = play(server, spec, steps=120)
    assert triples
    assert all("markers" in after["board"] for _, _, after in triples if after["board"]["tiles"])
    python = [reduce_all(before, events) for before, events, _ in triples]
    reduced = node_reduced(triples, tmp_path)
    for mine, got, (_, events, after) in zip(python, reduced, triples, strict=True):
        assert mine is not None and got is not None
        assert_same(mine, after, events)
        assert_same(got, after, events)


# Presence (issue 47): a seat that goes away is told by `seat_disconnected` with its away
# moments, and /play shows an away seat's countdown from them instead of reading the view again.
PRESENCE_ENV = {"DOMINO_PRESENCE_LEASE_S": "2", "DOMINO_PRESENCE_REFRESH_S": "1"}


@pytest.fixture(scope="module")
def presence_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    url = fresh_database_sync(f"{DB}_presence")
    log = tmp_path_factory.mktemp(f"{DB}_presence") / "server.log"
    process = ServerProcess(url, log, env=PRESENCE_ENV)
    process.start()
    try:
        process.wait_ready()
        yield process
    finally:
        process.stop()


def _away_and_back(table: Table) -> list[Triple]:
    """The guest goes quiet until its lease lapses (the host's reads keep her seat present),
    then comes back with a request: the host's view before and after each."""
    before = table.views[0]
    away = before
    for _ in range(60):  # polled, not timed: the lapse is recorded within a refresh or two
        away = table.view(0)
        if not away["seats"][1]["connected"]:
            break
        time.sleep(0.5)
    gone = table.events(0, before["seq"], away["seq"])
    assert "seat_disconnected" in [event["type"] for event in gone]
    table.view(1)  # the guest is seen again: `seat_connected`
    back = table.view(0)
    return [(before, gone, away), (away, table.events(0, away["seq"], back["seq"]), back)]


def test_presence_events_give_the_away_seat_as_served(
    presence_server: ServerProcess, tmp_path: Path
) -> None:
    spec = {"preset": "all-fives", "seats": ["host", "guest"], "target": 150, "seed": 47}
    with httpx.Client(base_url=presence_server.base_url, timeout=30) as http:
        triples = _away_and_back(Table(http, spec))
    (_, _, away), (_, _, back) = triples
    assert away["seats"][1]["away_since"] and away["seats"][1]["away_deadline"]
    assert back["seats"][1]["connected"] and back["seats"][1]["away_since"] is None
    in_node = node_reduced(triples, tmp_path)
    for (before, events, after), got in zip(triples, in_node, strict=True):
        mine = reduce_all(before, events)
        assert mine is not None
        for reduced in (mine, got):
            assert_same(reduced, after, events)
            guest, shown = reduced["seats"][1], after["seats"][1]
            assert guest["away_since"] == shown["away_since"]
            if not shown["connected"]:  # a connected seat's deadline moves with each sighting
                assert guest["away_deadline"] == shown["away_deadline"]
