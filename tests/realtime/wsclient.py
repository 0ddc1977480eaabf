"""Test helpers: players and matches over REST, and a small socket wrapper over `websockets`."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

OVER = ("finished", "abandoned", "cancelled")


async def new_player(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    response = await http.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    body["headers"] = {"Authorization": f"Bearer {body['token']}"}
    return body


async def two_seat_match(
    http: httpx.AsyncClient, ruleset: str = "house-nines", target: int = 20
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Ana hosts, Bob joins; not started."""
    ana, bob = await new_player(http, "Ana"), await new_player(http, "Bob")
    body = {
        "ruleset": ruleset,
        "seats": [{"type": "human"}, {"type": "human"}],
        "options": {"target": target},
    }
    created = await http.post("/v1/matches", json=body, headers=ana["headers"])
    assert created.status_code == 201, created.text
    view = created.json()
    joined = await http.post(
        "/v1/matches/join", json={"code": view["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200, joined.text
    return ana, bob, view


async def start(http: httpx.AsyncClient, host: dict[str, Any], match_id: str) -> None:
    r = await http.post(
        f"/v1/matches/{match_id}/start", json={"cut": "moon"}, headers=host["headers"]
    )
    assert r.status_code == 200, r.text


async def rest_step(
    http: httpx.AsyncClient,
    match_id: str,
    holders: dict[int, dict[str, Any]],
    drivers: dict[int, Socket] | None = None,
) -> str:
    """One action by whoever must act (moves over `drivers` sockets when given); returns the
    status before it."""
    anyone = holders[0]
    v = (await http.get(f"/v1/matches/{match_id}", headers=anyone["headers"])).json()
    if v["status"] in OVER:
        return str(v["status"])
    if v["status"] == "hand_over":
        r = await http.post(f"/v1/matches/{match_id}/hands", headers=anyone["headers"], json={})
        assert r.status_code == 200, r.text
        return "hand_over"
    seat = v["turn"]["seat"]
    player = holders[seat]
    mine = (
        await http.get(f"/v1/matches/{match_id}", params={"seat": seat}, headers=player["headers"])
    ).json()
    legal = dict(mine["legal"][0])
    legal.pop("points", None)
    body = {**legal, "seq": mine["seq"], "seat": seat}
    if drivers is not None:
        answer = await drivers[seat].request({"type": "move", **body})
        assert answer["type"] == "ack", answer
        return "playing"
    r = await http.post(f"/v1/matches/{match_id}/moves", json=body, headers=player["headers"])
    assert r.status_code == 200, r.text
    return "playing"


async def events_of(
    http: httpx.AsyncClient,
    player: dict[str, Any],
    match_id: str,
    seat: int | None = None,
    after: int = 0,
) -> list[dict[str, Any]]:
    params: dict[str, Any] = {"after": after, "limit": 5000}
    if seat is not None:
        params["seat"] = seat
    r = await http.get(f"/v1/matches/{match_id}/events", params=params, headers=player["headers"])
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


class Socket:
    """A test client: header auth by default; `recv` skips keepalives unless asked for them."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.keepalives = 0

    @classmethod
    async def open(
        cls,
        ws_base: str,
        match_id: str,
        token: str | None,
        *,
        after: int | None = None,
        seat: int | None = None,
    ) -> Socket:
        query = []
        if after is not None:
            query.append(f"after={after}")
        if seat is not None:
            query.append(f"seat={seat}")
        url = f"{ws_base}/v1/matches/{match_id}/ws" + ("?" + "&".join(query) if query else "")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        connection = await connect(url, additional_headers=headers, max_size=None)
        return cls(connection)

    async def send(self, message: Any) -> None:
        text = message if isinstance(message, str | bytes) else json.dumps(message)
        await self.connection.send(text)

    async def recv(self, timeout: float = 5.0, keepalive: bool = False) -> dict[str, Any]:
        while True:
            raw = await asyncio.wait_for(self.connection.recv(), timeout)
            message: dict[str, Any] = json.loads(raw)
            if message["type"] == "keepalive" and not keepalive:
                self.keepalives += 1
                continue
            return message

    async def events_until(self, seq: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Every event message up to and including `seq` (other messages are dropped)."""
        out: list[dict[str, Any]] = []
        while not out or out[-1]["seq"] < seq:
            message = await self.recv(timeout)
            if message["type"] == "event":
                out.append(message["event"])
        return out

    async def request(self, message: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send a request with a fresh id; return its ack or error (events are dropped)."""
        self.requests = getattr(self, "requests", 0) + 1
        client_id = f"r{self.requests}"
        await self.send({**message, "id": client_id})
        while True:
            answer = await self.recv(timeout)
            if answer["type"] in ("ack", "error") and answer.get("id") == client_id:
                return answer

    async def close(self) -> None:
        await self.connection.close()


async def seat_sockets(
    ws_base: str, match_id: str, holders: dict[int, dict[str, Any]], after: int | None = None
) -> dict[int, Socket]:
    """One socket per seat, each opened with that seat's holder's token."""
    return {
        seat: await Socket.open(ws_base, match_id, holder["token"], after=after)
        for seat, holder in holders.items()
    }
