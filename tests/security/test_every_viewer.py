"""Issue 26, item 1: every byte each viewer gets, over every feed, is what that viewer may know.

At a running four-seat table the viewers are: a seat in play, a resigned seat (by REST and
over its own socket), a seat on autopilot, a holder whose seat was claimed away, and a
spectator. Each opens every kind of feed (a new socket without `after`, with `after=0`, with
`?seat=N`, `GET .../events?after=0` and the view); play then runs into a new hand. Every event
that arrives must equal the stored event with the public part plus, at most, the private part
of the one seat that viewer may see at that seq (the oracle below is written from the stored
rows, not with the service's own projection). A seat forfeited by the away clock exists only at
a two-seat table, where the forfeit ends the match; that table, private, also shows that an
outsider gets nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

import asyncpg
import httpx
from websockets.exceptions import ConnectionClosed

from domino_api.store.db import to_plain_url
from tests.realtime.wsclient import Socket
from tests.security.conftest import LiveServer, player

OVER = ("finished", "abandoned", "cancelled")
SeatAt = Callable[[int], int | None]  # seq -> the seat whose private part the viewer may see


class Feed:
    """One socket's every frame, parsed and raw, until the server closed it or we stopped."""

    def __init__(self, name: str, socket: Socket, seat_at: SeatAt) -> None:
        self.name, self.socket, self.seat_at = name, socket, seat_at
        self.raw: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def drain(self, final_seq: int, timeout: float = 60.0) -> None:
        """Every frame up to the event `final_seq`, until the server closes the socket, or
        (what the checks then catch) until `timeout` has passed."""
        try:
            async with asyncio.timeout(timeout):
                while not self.events() or self.events()[-1]["seq"] < final_seq:
                    self.raw.append(str(await self.socket.connection.recv()))
        except ConnectionClosed as closed:
            if closed.rcvd is not None:
                self.closed = (closed.rcvd.code, closed.rcvd.reason)
        except TimeoutError:
            pass

    def messages(self) -> list[dict[str, Any]]:
        return [json.loads(text) for text in self.raw]

    def events(self) -> list[dict[str, Any]]:
        return [m["event"] for m in self.messages() if m["type"] == "event"]

    def snapshot(self) -> dict[str, Any]:
        first = self.messages()[0]
        assert first["type"] == "snapshot", (self.name, first)
        view: dict[str, Any] = first["view"]
        return view


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def expected(row: asyncpg.Record, seat: int | None) -> dict[str, Any]:
    """What a viewer allowed `seat`'s private part may get of one stored event."""
    data = json.loads(row["data"]) if isinstance(row["data"], str) else dict(row["data"])
    private = row["private"]
    private = json.loads(private) if isinstance(private, str) else dict(private or {})
    if seat is not None:
        data.update(private.get(str(seat), {}))
    return {"seq": row["seq"], "type": row["type"], "at": _iso(row["at"]), "data": data}


async def stored(database: str, match_id: str) -> tuple[list[asyncpg.Record], str]:
    connection = await asyncpg.connect(to_plain_url(database))
    try:
        rows = await connection.fetch(
            "SELECT seq, type, at, data::text AS data, private::text AS private"
            " FROM match_events WHERE match_id = $1 ORDER BY seq",
            match_id,
        )
        secret = await connection.fetchval("SELECT secret FROM matches WHERE id = $1", match_id)
    finally:
        await connection.close()
    return list(rows), bytes(secret).hex()


def check_events(name: str, got: list[dict[str, Any]], rows: dict[int, Any], seat_at: SeatAt):
    assert got, f"{name} received no event"
    for event in got:
        want = expected(rows[event["seq"]], seat_at(event["seq"]))
        assert event == want, (name, event["seq"], event["type"])


def _leaks(feed: Feed, rows: dict[int, Any]) -> int:
    """Events whose data holds more than the public part plus the allowed seat's."""
    return sum(
        1
        for event in feed.events()
        if event["data"] != expected(rows[event["seq"]], feed.seat_at(event["seq"]))["data"]
    )


def check_view(name: str, view: dict[str, Any], seat: int | None) -> None:
    if seat is None:
        assert view["you"] is None and view["legal"] == [], name
    else:
        assert view["you"]["seat"] == seat, name
    assert isinstance(view["stock"], int), name  # a count, never the tiles
    # The number is the key to the seats: only a viewer at its own seat sees it, and only
    # while the match is live (an ended match gave its number back).
    live = view["status"] not in OVER
    assert (view["code"] is not None) == (seat is not None and live), name


async def _view(http: httpx.AsyncClient, who: dict[str, Any], mid: str, **params: Any) -> Any:
    return (await http.get(f"/v1/matches/{mid}", params=params, headers=who["headers"])).json()


async def _claim(http: httpx.AsyncClient, who: dict[str, Any], code: str) -> dict[str, Any]:
    """Join by number and name until the old holder's lease has lapsed."""
    for _ in range(300):
        r = await http.post("/v1/matches/join", json={"code": code}, headers=who["headers"])
        if r.status_code == 200:
            return dict(r.json())
        assert r.status_code == 404, r.text
        await asyncio.sleep(0.1)
    raise AssertionError("the seat was never claimable")


async def _autopilot_once_away(
    http: httpx.AsyncClient, host: dict[str, Any], mid: str, seat: int
) -> None:
    """The host hands the seat to the computer once its holder's lease has lapsed."""
    for _ in range(300):
        r = await http.put(f"/v1/matches/{mid}/seats/{seat}/autopilot", headers=host["headers"])
        if r.status_code == 200:
            return
        assert r.status_code == 409 and r.json()["code"] == "seat_in_use", r.text
        await asyncio.sleep(0.1)
    raise AssertionError("the holder never counted as away")


async def _play_into_a_new_hand(
    http: httpx.AsyncClient, ana: dict[str, Any], mid: str, since: int
) -> int:
    """Ana (the one human in play) moves until a hand has started after `since`; final seq."""
    for _ in range(400):
        v = await _view(http, ana, mid)
        r = await http.get(
            f"/v1/matches/{mid}/events", params={"after": since}, headers=ana["headers"]
        )
        if any(e["type"] == "hand_started" for e in r.json()["events"]) or v["status"] in OVER:
            return int(v["seq"])
        if v["status"] == "hand_over":
            await http.post(f"/v1/matches/{mid}/hands", json={}, headers=ana["headers"])
            continue
        assert v["turn"]["seat"] == 0, v["turn"]
        legal = {k: x for k, x in v["legal"][0].items() if k != "points" and x is not None}
        moved = await http.post(
            f"/v1/matches/{mid}/moves", json={**legal, "seq": v["seq"]}, headers=ana["headers"]
        )
        assert moved.status_code == 200, moved.text
    raise AssertionError("no new hand started")


def _forfeit_seq(rows: list[Any], seat: int) -> int:
    return next(
        r["seq"] for r in rows if r["type"] == "forfeit" and json.loads(r["data"])["seat"] == seat
    )


async def test_every_viewer_of_a_running_table_gets_exactly_what_it_may_know(
    live_server: LiveServer, security_database: str
) -> None:
    env = {
        "DOMINO_PRESENCE_LEASE_S": "1",
        "DOMINO_PRESENCE_REFRESH_S": "0.5",
        # The claim below polls until the old device's lease has lapsed: no budget refuses it.
        "DOMINO_CLAIM_FAILURES_PER_CODE": "100000",
        "DOMINO_CLAIM_FAILURES_PER_CALLER": "100000",
        "DOMINO_CLAIM_FAILURES_PER_NETWORK": "100000",
    }
    async with live_server(**env) as server, httpx.AsyncClient(base_url=server.base_url) as http:
        ana, bob, cy, dee, sam = [await player(http, n) for n in ("Ana", "Bob", "Cy", "Dee", "Sam")]
        body = {
            "ruleset": "house-nines",
            "seats": [{"type": "human"}] * 4,
            "options": {"spectators": True, "target": 500},
        }
        made = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
        mid, code = made["id"], made["code"]
        for other in (bob, cy, dee):
            r = await http.post("/v1/matches/join", json={"code": code}, headers=other["headers"])
            assert r.status_code == 200, r.text
        r = await http.post(
            f"/v1/matches/{mid}/start", json={"cut": "moon"}, headers=ana["headers"]
        )
        assert r.status_code == 200, r.text
        ws = server.ws_url
        # Sockets open across the change of state: each may see its seat until the change.
        bob_old = await Socket.open(ws, mid, bob["token"])
        cy_own = await Socket.open(ws, mid, cy["token"])
        dee_old = await Socket.open(ws, mid, dee["token"])
        r = await http.post(f"/v1/matches/{mid}/resign", json={}, headers=bob["headers"])
        assert r.status_code == 200, r.text
        assert (await cy_own.request({"type": "resign"}))["type"] == "ack"
        # A seat whose socket is open and renewed is never taken (docs/API.md, presence): the
        # old device leaves first, and its feed up to then is checked below.
        await dee_old.close()
        new_dee = await player(http, "Dee")  # the same person on a new device
        assert (await _claim(http, new_dee, code))["you"]["seat"] == 3
        await _autopilot_once_away(http, ana, mid, 3)

        # viewer -> (token holder, the seat it may see now, the seat it names)
        viewers = {
            "playing": (ana, 0, 0),
            "resigned": (bob, None, 1),
            "resigned_on_socket": (cy, None, 2),
            "autopilot": (new_dee, 3, 3),
            "claimed_away": (dee, None, None),
            "spectator": (sam, None, None),
        }
        feeds: list[Feed] = []
        rest_views: dict[str, dict[str, Any]] = {}
        for name, (who, seat, named) in viewers.items():
            now_seat: SeatAt = lambda _seq, seat=seat: seat  # noqa: E731
            feeds.append(Feed(f"{name}/new", await Socket.open(ws, mid, who["token"]), now_seat))
            after = await Socket.open(ws, mid, who["token"], after=0)
            feeds.append(Feed(f"{name}/after", after, now_seat))
            if named is not None:
                named_socket = await Socket.open(ws, mid, who["token"], seat=named)
                feeds.append(Feed(f"{name}/seat", named_socket, now_seat))
            rest_views[name] = await _view(http, who, mid)
        since = rest_views["playing"]["seq"]
        final = await _play_into_a_new_hand(http, ana, mid, since)

        rows, secret = await stored(security_database, mid)
        by_seq = {row["seq"]: row for row in rows}
        bob_out, cy_out = _forfeit_seq(rows, 1), _forfeit_seq(rows, 2)
        feeds.append(Feed("resigned/open", bob_old, lambda s: 1 if s <= bob_out else None))
        feeds.append(Feed("resigned_on_socket/open", cy_own, lambda s: 2 if s <= cy_out else None))
        for feed in feeds:
            await feed.drain(final)
        # The attack's figure: events carrying a private part the viewer may not see.
        leaks = {feed.name: _leaks(feed, by_seq) for feed in feeds}
        assert sum(leaks.values()) == 0, leaks
        for feed in feeds:
            name = feed.name.split("/")[0]
            _, seat, _ = viewers[name]
            if not feed.name.endswith("/open"):
                check_view(feed.name, feed.snapshot(), seat)
            check_events(feed.name, feed.events(), by_seq, feed.seat_at)
            assert not any(secret in text for text in feed.raw), feed.name
        for feed in feeds:
            await feed.socket.close()
        hands = [e for e in feeds[0].events() if e["type"] == "hand_started" and e["seq"] > since]
        assert hands, "play never reached a new hand"

        # REST, same rule: the view and the events from the start.
        for name, (who, seat, _) in viewers.items():
            check_view(f"{name}/rest", rest_views[name], seat)
            r = await http.get(
                f"/v1/matches/{mid}/events",
                params={"after": 0, "limit": 5000},
                headers=who["headers"],
            )
            got = [e for e in r.json()["events"] if e["seq"] <= final]
            check_events(f"{name}/events", got, by_seq, lambda _s, seat=seat: seat)
            assert secret not in r.text


async def _refused(socket: Socket) -> tuple[int, str]:
    """A refused socket gets no frame at all, only its close."""
    try:
        frame = await asyncio.wait_for(socket.connection.recv(), 10.0)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None
        return closed.rcvd.code, closed.rcvd.reason
    raise AssertionError(f"a refused socket got a frame: {frame!r}")


async def test_a_seat_forfeited_by_the_clock_and_an_outsider(
    live_server: LiveServer, security_database: str
) -> None:
    # Eve's socket keeps her present (a 10 s lease renewed every second); Fay is never seen
    # after the deal, so the away rule (1 s) forfeits her seat and ends the two-seat match.
    env = {
        "DOMINO_PRESENCE_LEASE_S": "10",
        "DOMINO_PRESENCE_REFRESH_S": "1",
        "DOMINO_WORKER_INTERVAL_S": "0.2",
    }
    async with live_server(**env) as server, httpx.AsyncClient(base_url=server.base_url) as http:
        eve, fay, sam = [await player(http, n) for n in ("Eve", "Fay", "Sam")]
        body = {"ruleset": "all-fives", "seats": [{"type": "human"}] * 2}
        body["options"] = {"away_forfeit_s": 1}
        made = (await http.post("/v1/matches", json=body, headers=eve["headers"])).json()
        mid, ws = made["id"], server.ws_url
        r = await http.post("/v1/matches/join", json={"code": made["code"]}, headers=fay["headers"])
        assert r.status_code == 200, r.text
        eve_socket = await Socket.open(ws, mid, eve["token"])
        # Before the deal, the outsider is refused on every feed (a private table).
        outsider = [
            await Socket.open(ws, mid, sam["token"]),
            await Socket.open(ws, mid, sam["token"], after=0),
            await Socket.open(ws, mid, sam["token"], seat=0),
        ]
        assert [(await _refused(s))[0] for s in outsider] == [4403, 4403, 4403]
        r = await http.post(f"/v1/matches/{mid}/start", json={"cut": "sun"}, headers=eve["headers"])
        assert r.status_code == 200, r.text
        for _ in range(300):
            view = await _view(http, eve, mid)
            if view["status"] in OVER:
                break
            await asyncio.sleep(0.1)
        assert view["status"] == "finished" and view["seats"][1]["forfeited"] is True

        rows, _ = await stored(security_database, mid)
        by_seq, final = {row["seq"]: row for row in rows}, rows[-1]["seq"]
        assert any(r["type"] == "forfeit" for r in rows)
        # Once the match is over the deal is public: the forfeited seat sees its own part.
        fay_seat: SeatAt = lambda _seq: 1  # noqa: E731
        feeds = [
            Feed("forfeited/new", await Socket.open(ws, mid, fay["token"]), fay_seat),
            Feed("forfeited/after", await Socket.open(ws, mid, fay["token"], after=0), fay_seat),
            Feed(
                "forfeited/seat",
                await Socket.open(ws, mid, fay["token"], seat=1, after=0),
                fay_seat,
            ),
            Feed("playing/open", eve_socket, lambda _seq: 0),
        ]
        new = feeds[0]  # opened after the last event: its snapshot is all there is
        new.raw.append(str(await asyncio.wait_for(new.socket.connection.recv(), 30.0)))
        for feed in feeds[1:]:
            await feed.drain(final)
        assert sum(_leaks(feed, by_seq) for feed in feeds) == 0
        for feed in feeds:
            if feed.name.startswith("forfeited"):
                check_view(feed.name, feed.snapshot(), 1)
            if feed.name != "forfeited/new":  # opened after the last event: nothing follows
                check_events(feed.name, feed.events(), by_seq, feed.seat_at)
            await feed.socket.close()
        got = await http.get(
            f"/v1/matches/{mid}/events", params={"after": 0}, headers=fay["headers"]
        )
        check_events("forfeited/events", got.json()["events"], by_seq, fay_seat)
        # After the end, still nothing for the outsider.
        for path in ("", "/events"):
            r = await http.get(f"/v1/matches/{mid}{path}", headers=sam["headers"])
            assert r.status_code == 403 and r.json()["code"] == "not_seated", r.text
        late = await Socket.open(ws, mid, sam["token"], after=0)
        assert await _refused(late) == (4403, "not_seated")
