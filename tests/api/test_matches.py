"""Matches over REST: creation, joining, starting, moves and every refusal on the way."""

from __future__ import annotations

import asyncio

import httpx
import msgspec
import pytest

from domino_api.clock import FakeClock
from tests.api.helpers import create_match, first_legal, new_player, play_to_end, view

HUMANS = [{"type": "human"}, {"type": "human"}]


async def _two_player_table(
    client: httpx.AsyncClient, ruleset: str = "draw-50", options: dict | None = None
):
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, ruleset, HUMANS, options)
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200, joined.text
    return ana, bob, created


async def test_create_shows_code_commitment_and_host_view(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    v = await create_match(client, ana, "all-fives", HUMANS)
    assert len(v["code"]) == 4 and v["code"].isdigit()
    assert len(v["commitment"]) == 64 and v["status"] == "waiting"
    assert v["you"]["seat"] == 0 and v["host_seat"] == 0
    assert "secret" not in str(v)


async def test_bad_create_requests(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    h = ana["headers"]
    cases = [
        ({"ruleset": "chess"}, 422, "unknown_ruleset"),
        ({"ruleset": "all-fives", "options": {"hand_size": 8}}, 422, "bad_options"),
        ({"ruleset": "all-fives", "options": {"draw": "one"}}, 422, "bad_options"),
        ({"ruleset": "all-fives", "options": {"target": "150"}}, 422, "bad_options"),
        ({"ruleset": "all-fives", "seats": [{"type": "human"}] * 3}, 422, "bad_options"),
        # Eight seats fit the contract (Mexican Train); five are too many for house nines.
        ({"ruleset": "house-nines", "seats": [{"type": "human"}] * 5}, 422, "bad_options"),
        ({"ruleset": "mexican-train", "seats": [{"type": "human"}] * 9}, 422, "validation_error"),
        ({"ruleset": "all-fives", "seats": [{"type": "alien"}]}, 422, "validation_error"),
        ({"ruleset": "x" * 10_000}, 422, "validation_error"),
    ]
    for body, status, code in cases:
        response = await client.post("/v1/matches", json=body, headers=h)
        assert (response.status_code, response.json()["code"]) == (status, code), body


async def test_join_rules(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _two_player_table(client)
    again = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert again.json()["you"]["seat"] == 1
    cy = await new_player(client, "Cy")
    full = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=cy["headers"]
    )
    assert full.status_code == 409 and full.json()["code"] == "match_full"
    missing = await client.post(
        "/v1/matches/join",
        json={"code": "0000" if created["code"] != "0000" else "0001"},
        headers=cy["headers"],
    )
    assert missing.status_code == 404 and missing.json()["code"] == "code_not_found"
    bad = await client.post("/v1/matches/join", json={"code": "12a4"}, headers=cy["headers"])
    assert bad.status_code == 422


async def test_rejoin_by_name_only_when_holder_is_gone(client: httpx.AsyncClient, clock) -> None:
    ana, bob, created = await _two_player_table(client)
    bob2 = await new_player(client, "Bob")  # the same name on a new device
    refused = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob2["headers"]
    )
    assert refused.status_code == 409 and refused.json()["code"] == "seat_in_use"
    clock.advance(31)
    taken = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob2["headers"]
    )
    assert taken.status_code == 200 and taken.json()["you"]["seat"] == 1
    old = await client.get(f"/v1/matches/{created['id']}", headers=bob["headers"])
    # The old device holds no seat now, and the table is not open to spectators (docs/API.md).
    assert old.status_code == 403 and old.json()["code"] == "not_seated"


async def test_start_rules(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    created = await create_match(client, ana, "draw-50", HUMANS)
    url = f"/v1/matches/{created['id']}/start"
    empty = await client.post(url, json={}, headers=ana["headers"])
    assert empty.status_code == 409 and empty.json()["code"] == "seats_empty"
    bob = await new_player(client, "Bob")
    await client.post("/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"])
    not_host = await client.post(url, json={}, headers=bob["headers"])
    assert not_host.status_code == 403 and not_host.json()["code"] == "not_host"
    long_cut = await client.post(url, json={"cut": "x" * 65}, headers=ana["headers"])
    assert long_cut.status_code == 422
    started = await client.post(url, json={"cut": "moon"}, headers=ana["headers"])
    assert started.status_code == 200 and started.json()["status"] == "playing"
    twice = await client.post(url, json={}, headers=ana["headers"])
    assert twice.status_code == 409 and twice.json()["code"] == "match_in_progress"


async def test_fill_with_bots(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "human"}, {"type": "human"}]
    created = await create_match(client, ana, "house-nines", seats)
    r = await client.post(
        f"/v1/matches/{created['id']}/start", json={"fill_with_bots": True}, headers=ana["headers"]
    )
    assert r.status_code == 200
    types = [(s["type"], s["strategy"]) for s in r.json()["seats"]]
    assert types == [("human", None), ("bot", "planner"), ("bot", "planner")]


async def test_move_refusals_change_nothing(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _two_player_table(client)
    mid = created["id"]
    await view(client, bob, mid)  # his arrival (seat_connected) comes before the deal
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    v = await view(client, ana, mid)
    on_turn = v["turn"]["seat"]
    mover, other = (ana, bob) if on_turn == 0 else (bob, ana)
    mv = await view(client, mover, mid)
    url = f"/v1/matches/{mid}/moves"
    seq = mv["seq"]
    checks = [
        (other, {**first_legal(mv), "seq": seq}, 409, "not_your_turn"),
        (mover, {**first_legal(mv), "seq": seq - 1}, 409, "stale_seq"),
        (mover, {**first_legal(mv), "seq": seq + 5}, 409, "stale_seq"),
        (mover, {"action": "play", "tile": [9, 9], "end": None, "seq": seq}, 409, "illegal_move"),
        (mover, {"action": "play", "tile": "55", "seq": seq}, 422, "validation_error"),
        (mover, {"action": "fly", "seq": seq}, 422, "validation_error"),
        (mover, {**first_legal(mv), "seq": seq, "seat": 1 - on_turn}, 403, "not_your_seat"),
    ]
    for player, body, status, code in checks:
        r = await client.post(url, json=body, headers=player["headers"])
        assert (r.status_code, r.json()["code"]) == (status, code), (body, r.text)
    stale = await client.post(
        url, json={**first_legal(mv), "seq": seq - 1}, headers=mover["headers"]
    )
    assert stale.json()["seq"] == seq
    assert (await view(client, mover, mid))["seq"] == seq
    unknown = await client.post(
        "/v1/matches/nope/moves", json={**first_legal(mv), "seq": seq}, headers=mover["headers"]
    )
    assert unknown.status_code == 404 and unknown.json()["code"] == "match_not_found"
    cy = await new_player(client, "Cy")
    outsider = await client.post(url, json={**first_legal(mv), "seq": seq}, headers=cy["headers"])
    assert outsider.status_code == 403 and outsider.json()["code"] == "not_seated"


async def test_ledger_sealed_until_over_then_resign_opens_it(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _two_player_table(client)
    mid = created["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    sealed = await client.get(f"/v1/matches/{mid}/ledger", headers=ana["headers"])
    assert sealed.status_code == 409 and sealed.json()["code"] == "ledger_sealed"
    r = await client.post(f"/v1/matches/{mid}/resign", json={}, headers=bob["headers"])
    assert r.status_code == 200
    assert r.json()["result"]["winner"] == 0 and r.json()["result"]["forfeited_by"] == 1
    ledger = (await client.get(f"/v1/matches/{mid}/ledger", headers=ana["headers"])).json()
    assert len(ledger["deal"]["secret"]) == 64


async def test_fifty_concurrent_identical_moves_apply_once(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _two_player_table(client)
    mid = created["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    v = await view(client, ana, mid)
    mover = ana if v["turn"]["seat"] == 0 else bob
    mv = await view(client, mover, mid)
    body = {**first_legal(mv), "seq": mv["seq"]}
    answers = await asyncio.gather(
        *[
            client.post(f"/v1/matches/{mid}/moves", json=body, headers=mover["headers"])
            for _ in range(50)
        ]
    )
    codes = sorted(r.status_code for r in answers)
    assert codes.count(200) == 1 and codes.count(409) == 49


async def test_table_talk_does_not_make_moves_stale(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _two_player_table(client)
    mid = created["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    v = await view(client, ana, mid)
    mover = ana if v["turn"]["seat"] == 0 else bob
    mv = await view(client, mover, mid)
    said = await client.post(
        f"/v1/matches/{mid}/messages", json={"text": "hi"}, headers=bob["headers"]
    )
    assert said.status_code == 201 and said.json()["data"]["text"] == "hi"
    too_long = await client.post(
        f"/v1/matches/{mid}/messages", json={"text": "x" * 501}, headers=bob["headers"]
    )
    assert too_long.status_code == 422
    r = await client.post(
        f"/v1/matches/{mid}/moves",
        json={**first_legal(mv), "seq": mv["seq"]},
        headers=mover["headers"],
    )
    assert r.status_code == 200, r.text


async def test_autopilot_host_hands_seat_and_holder_takes_it_back(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, bob, created = await _two_player_table(client)
    mid = created["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    refused = await client.put(f"/v1/matches/{mid}/seats/0/autopilot", headers=bob["headers"])
    assert refused.status_code == 403 and refused.json()["code"] == "not_host"
    # Issue 25: Bob's own request a moment ago is presence, so his seat is still his.
    early = await client.put(f"/v1/matches/{mid}/seats/1/autopilot", headers=ana["headers"])
    assert early.status_code == 409 and early.json()["code"] == "seat_in_use"
    assert "Bob" not in early.text
    clock.advance(30)  # the presence lease after his last request
    on = await client.put(f"/v1/matches/{mid}/seats/1/autopilot", headers=ana["headers"])
    assert on.status_code == 200 and on.json()["seats"][1]["autopilot"] is True
    # The computer plays seat 1 at once whenever it has the turn.
    assert on.json()["turn"] is None or on.json()["turn"]["seat"] == 0
    off = await client.delete(f"/v1/matches/{mid}/seats/1/autopilot", headers=bob["headers"])
    assert off.status_code == 200 and off.json()["seats"][1]["autopilot"] is False


async def test_hot_seat_one_player_holds_two_seats(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "human", "holder": "host"}]
    created = await create_match(client, ana, "draw-50", seats)
    mid = created["id"]
    assert created["you"]["seats"] == [0, 1]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    final = await play_to_end(client, mid, {0: ana, 1: ana})
    assert final["status"] == "finished"


async def test_rulesets_catalog(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    body = (await client.get("/v1/rulesets", headers=ana["headers"])).json()
    names = {r["name"] for r in body["rulesets"]}
    assert names == {
        "all-fives",
        "house-nines",
        "draw-50",
        "draw",
        "block",
        "classic",
        "fives-and-threes",
        "mexican-train",
        "partners-block",
        "partners-nines",
        "partners-all-fives",
    }
    fives = next(r for r in body["rulesets"] if r["name"] == "all-fives")
    assert fives["overrides"]["hand_size"] == [7, 9]


async def test_verify_deal_matches_published_vector(client: httpx.AsyncClient) -> None:
    from domino_api.documents import deal_vectors

    vector = msgspec.json.decode(deal_vectors.PATH.read_bytes())["vectors"][0]
    ana = await new_player(client, "Ana")
    body = {
        k: vector[k]
        for k in (
            "secret",
            "commitment",
            "cut",
            "hand_number",
            "attempt",
            "max_pip",
            "players",
            "hand_size",
        )
    }
    r = await client.post("/v1/deals/verify", json=body, headers=ana["headers"])
    assert r.status_code == 200 and r.json()["commitment_ok"] is True
    assert r.json()["hands"] == vector["hands"] and r.json()["stock"] == vector["stock"]
    wrong = await client.post(
        "/v1/deals/verify", json={**body, "commitment": "0" * 64}, headers=ana["headers"]
    )
    assert wrong.json()["commitment_ok"] is False
    too_many = await client.post(
        "/v1/deals/verify", json={**body, "hand_size": 13, "players": 4}, headers=ana["headers"]
    )
    assert too_many.status_code == 422


@pytest.mark.parametrize(
    "ruleset",
    ["all-fives", "house-nines", "draw-50", "draw", "block", "classic", "fives-and-threes"],
)
async def test_whole_match_per_preset_then_ledger_verifies(
    client: httpx.AsyncClient, ruleset: str
) -> None:
    from domino_api import engine

    # The preset's own target for the short games; a lower one keeps long ones within CI time.
    options = {"target": 60} if ruleset in ("draw", "block", "classic", "house-nines") else None
    ana, bob, created = await _two_player_table(client, ruleset, options)
    mid = created["id"]
    await client.post(f"/v1/matches/{mid}/start", json={"cut": "test"}, headers=ana["headers"])
    final = await play_to_end(client, mid, {0: ana, 1: bob})
    assert final["status"] == "finished" and final["result"]["winner"] in (0, 1)
    ledger = (await client.get(f"/v1/matches/{mid}/ledger", headers=bob["headers"])).json()
    assert engine.verify_ledger(ledger) == []
    assert ledger["deal"]["commitment"] == created["commitment"]


async def test_codes_are_unique_among_live_matches_and_free_again_when_over(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from domino_api.store import match_codes

    # One candidate per length, and one free candidate is room enough: the draws are chosen.
    draws = iter([["1234"], ["1234"], ["12345"], ["1234"]])
    monkeypatch.setattr(match_codes, "draw", lambda *_length: next(draws))
    monkeypatch.setattr(match_codes, "ROOMY", 1)
    ana = await new_player(client, "Ana")
    first = await create_match(client, ana, "draw-50", HUMANS)
    second = await create_match(client, ana, "draw-50", HUMANS)
    # 1234 is live: the second table's 4-digit candidate was taken, so it got 5 digits.
    assert (first["code"], second["code"]) == ("1234", "12345")
    joined = await client.post("/v1/matches/join", json={"code": "1234"}, headers=ana["headers"])
    assert joined.json()["id"] == first["id"]
    bob = await new_player(client, "Bob")
    by_five = await client.post("/v1/matches/join", json={"code": "12345"}, headers=bob["headers"])
    assert by_five.status_code == 200 and by_five.json()["id"] == second["id"]
    await client.post("/v1/matches/join", json={"code": "1234"}, headers=bob["headers"])
    await client.post(f"/v1/matches/{first['id']}/start", json={}, headers=ana["headers"])
    await client.post(f"/v1/matches/{first['id']}/resign", json={}, headers=bob["headers"])
    third = await create_match(client, ana, "draw-50", HUMANS)
    assert third["code"] == "1234"  # the first match is over: its number is free again
    assert next(draws, None) is None


def test_a_length_is_used_while_half_its_sample_is_free() -> None:
    from domino_api.store.match_codes import ROOMY, SAMPLE, pick

    roomy = [f"{n:04d}" for n in range(ROOMY)]
    crowded = roomy[: ROOMY - 1]
    assert pick([roomy]) in roomy
    assert pick([crowded, ["54321"] * ROOMY]) == "54321"  # 4 digits crowded: 5 digits
    assert pick([crowded, crowded, ["654321"]]) == "654321"  # all crowded: any free 6-digit
    assert pick([crowded, crowded, []]) is None  # nothing free at all: match_full
    assert SAMPLE >= 2 * ROOMY - 1


@pytest.mark.parametrize("code", ["123", "1234567", "0123a", "12 34", "١٢٣٤"])
async def test_a_number_of_another_shape_is_refused(client: httpx.AsyncClient, code: str) -> None:
    ana = await new_player(client, "Ana")
    refused = await client.post("/v1/matches/join", json={"code": code}, headers=ana["headers"])
    assert refused.status_code == 422 and refused.json()["code"] == "validation_error"


async def test_rematch_needs_every_human_seat(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _two_player_table(client)
    mid = created["id"]
    early = await client.post(f"/v1/matches/{mid}/rematch", json={}, headers=ana["headers"])
    assert early.status_code == 409 and early.json()["code"] == "match_in_progress"
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    await client.post(f"/v1/matches/{mid}/resign", json={}, headers=bob["headers"])
    one = await client.post(f"/v1/matches/{mid}/rematch", json={}, headers=ana["headers"])
    assert one.status_code == 200 and one.json()["rematch_match_id"] is None
    both = await client.post(f"/v1/matches/{mid}/rematch", json={}, headers=bob["headers"])
    new_id = both.json()["rematch_match_id"]
    assert new_id and new_id != mid
    events = (await client.get(f"/v1/matches/{mid}/events", headers=ana["headers"])).json()[
        "events"
    ]
    assert [e["data"] for e in events if e["type"] == "rematch_created"] == [{"match_id": new_id}]
    rematch = await view(client, bob, new_id)
    assert rematch["status"] == "waiting" and rematch["you"]["seat"] == 1
    assert rematch["commitment"] != created["commitment"]  # a fresh sealed deal
    assert [s["name"] for s in rematch["seats"]] == ["Ana", "Bob"]
