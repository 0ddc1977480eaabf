"""The socket's opening and requests: a snapshot on every (re)connect, then the missed events;
`start` over the socket; the reference bot checking in and playing a tournament match."""

from __future__ import annotations

import asyncio

import httpx

from domino_api.bot_client import BotClient
from tests.realtime.wsclient import Socket, new_player, rest_step, start, two_seat_match
from tests.support.servers import ServerProcess


async def test_a_resume_gets_a_snapshot_then_the_missed_events(
    servers: list[ServerProcess],
) -> None:
    a, b = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, created = await two_seat_match(http)
        match_id = created["id"]
        await start(http, ana, match_id)
        seen = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()["seq"]
        for _ in range(3):
            await rest_step(http, match_id, {0: ana, 1: bob})
        now = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        socket = await Socket.open(b.ws_url, match_id, ana["token"], after=seen)
        first = await socket.recv()
        assert first["type"] == "snapshot"
        view = first["view"]
        assert view["seq"] >= now["seq"] and view["you"]["seat"] == 0
        # The seat on turn learns its legal actions from the snapshot itself.
        assert bool(view["legal"]) == (view["turn"]["seat"] == 0)
        missed = await socket.events_until(now["seq"])
        assert [e["seq"] for e in missed] == list(range(seen + 1, now["seq"] + 1))
        await socket.close()


async def test_the_host_starts_over_the_socket(servers: list[ServerProcess]) -> None:
    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, created = await two_seat_match(http)
        match_id = created["id"]
        guest = await Socket.open(a.ws_url, match_id, bob["token"])
        refused = await guest.request({"type": "start"})
        assert refused["type"] == "error" and refused["error"]["code"] == "not_host"
        host = await Socket.open(a.ws_url, match_id, ana["token"])
        assert (await host.recv())["type"] == "snapshot"
        answer = await host.request({"type": "start", "cut": "moon"})
        assert answer["type"] == "ack", answer
        view = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        assert view["status"] == "playing" and view["seq"] <= answer["seq"]
        # The events came before the ack (request() passed over them): read them back.
        events = await http.get(f"/v1/matches/{match_id}/events", headers=ana["headers"])
        started_events = [e for e in events.json()["events"] if e["type"] == "match_started"]
        assert [e["data"]["cut"] for e in started_events] == ["moon"]
        again = await host.request({"type": "start"})
        assert again["type"] == "error" and again["error"]["code"] == "match_in_progress"
        await host.close()
        await guest.close()


async def test_the_reference_bot_checks_in_and_plays_a_tournament_match(
    servers: list[ServerProcess],
) -> None:
    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        host, ana, bob = [await new_player(http, name) for name in ("Host", "Ana", "Bob")]
        body = {
            "name": "Bot cup",
            "format": "single_elimination",
            "match": {"target": 30},
            "max_entrants": 2,
        }
        created = await http.post("/v1/tournaments", json=body, headers=host["headers"])
        assert created.status_code == 201, created.text
        tid = created.json()["id"]
        for player in (ana, bob):
            r = await http.post(f"/v1/tournaments/{tid}/entrants", headers=player["headers"])
            assert r.status_code == 200, r.text
        started = await http.post(f"/v1/tournaments/{tid}/start", headers=host["headers"])
        assert started.status_code == 200, started.text
        (match,) = started.json()["rounds"][0]["matches"]
        notes: list[str] = []
        bots = [
            BotClient(a.base_url, match["id"], p["token"], "random", say=notes.append)
            for p in (ana, bob)
        ]
        statuses = await asyncio.gather(*(bot.play() for bot in bots))
        assert statuses == ["finished", "finished"], notes
        view = (await http.get(f"/v1/tournaments/{tid}", headers=host["headers"])).json()
        assert view["status"] == "finished"
        assert view["champion"] in (ana["id"], bob["id"])


async def test_a_socket_without_a_seat_is_refused_unless_the_table_admits_spectators(
    servers: list[ServerProcess],
) -> None:
    from websockets.exceptions import ConnectionClosed

    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, eve = await new_player(http, "Ana"), await new_player(http, "Eve")
        for spectators in (False, True):
            body = {
                "ruleset": "draw",
                "seats": [{"type": "human"}, {"type": "human"}],
                "options": {"spectators": spectators},
            }
            created = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
            socket = await Socket.open(a.ws_url, created["id"], eve["token"])
            if spectators:
                snapshot = await socket.recv()
                assert snapshot["type"] == "snapshot"
                assert snapshot["view"]["you"] is None and snapshot["view"]["code"] is None
                await socket.close()
                continue
            try:
                await socket.recv()
            except ConnectionClosed as closed:
                assert closed.rcvd is not None
                assert (closed.rcvd.code, closed.rcvd.reason) == (4403, "not_seated")
            else:
                raise AssertionError("a socket without a seat was served")
