"""A tournament's page: the bracket drawn from the view's slots (rounds as columns, each slot at
its place, the final waiting for its winners) and match cards with live scores."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from playwright.sync_api import expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player

DASH = " \u2013 "  # between the two scores on a card


def rest_player(client: httpx.Client, name: str) -> dict[str, str]:
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.text
    return {"id": response.json()["id"], "Authorization": f"Bearer {response.json()['token']}"}


def headers(player: dict[str, str]) -> dict[str, str]:
    return {"Authorization": player["Authorization"]}


def test_the_bracket_is_drawn_from_its_slots_with_live_scores(
    players: Callable[..., Player], play_server: ServerProcess
) -> None:
    ana = players(width=1280, height=900)
    host = ana.open("tournaments")
    host.fill("#your-name", "Ana")
    host.fill("#t-name", "Live cup")
    host.fill("#t-size", "4")
    host.select_option("#t-goal", "target")
    host.click("button:text('Create the tournament')")
    host.click("button:text('Enter')")
    tid = host.url.split("#/tournament/")[1]

    with httpx.Client(base_url=play_server.base_url) as client:
        others = {name: rest_player(client, name) for name in ("Bo", "Cy", "Di")}
        for player in others.values():
            r = client.post(f"/v1/tournaments/{tid}/entrants", headers=headers(player))
            assert r.status_code == 200, r.text
        expect(host.locator("h3", has_text="Entrants")).to_have_text("Entrants (4/4)")
        host.click("button:text('Start the tournament')")
        # Two first-round slots and the final, waiting for both winners.
        expect(host.locator(".bracket .column h3")).to_have_text(["Round 1", "Final"])
        expect(host.locator(".bracket [data-slot^='1-']")).to_have_count(2)
        final = host.locator(".bracket [data-slot='2-0']")
        expect(final).to_have_text("to be decided vs to be decided")

        bo = headers(others["Bo"])
        view = client.get(f"/v1/tournaments/{tid}", headers=bo).json()
        match = next(
            m
            for m in view["rounds"][0]["matches"]
            if all(p in {o["id"] for o in others.values()} for p in m["players"])
        )
        by_id = {o["id"]: o for o in others.values()}
        slot = host.locator(f".bracket [data-slot='1-{match['index']}']")
        expect(slot).to_contain_text(" vs ".join(match["names"]))
        for pid in match["players"]:
            r = client.post(f"/v1/matches/{match['id']}/ready", headers=headers(by_id[pid]))
            assert r.status_code == 200, r.text
        expect(slot.locator(".score-line")).to_have_text(f"0{DASH}0 (live)")
        play_one_hand_by_rest(client, match["id"], [by_id[p] for p in match["players"]])
        live = next(
            m
            for m in client.get(f"/v1/tournaments/{tid}", headers=bo).json()["rounds"][0]["matches"]
            if m["id"] == match["id"]
        )["live"]
        assert live is not None and sum(live["points"]) > 0, live
        # The card follows the running match without a tournament event.
        expect(slot.locator(".score-line")).to_have_text(
            f"{live['points'][0]}{DASH}{live['points'][1]} (live)"
        )
        # ... and says who leads the pairing (a match to a target: by points).
        ahead = 0 if live["points"][0] > live["points"][1] else 1
        expect(slot.locator(".leads")).to_have_text(
            f"{match['names'][ahead]} leads {live['points'][ahead]}\u2013"
            f"{live['points'][1 - ahead]} in points"
        )
        expect(host.locator("#t-terms dd").first).to_have_text("First to 100 points")
    ana.shot("tournament-bracket-live")


def play_one_hand_by_rest(client: httpx.Client, match_id: str, pair: list[dict[str, str]]) -> None:
    """The two players make their first legal move, turn by turn, until a hand scores."""
    for _ in range(300):
        views = [client.get(f"/v1/matches/{match_id}", headers=headers(p)).json() for p in pair]
        if sum(s["score"] for s in views[0]["seats"]) > 0:
            return
        if views[0]["status"] != "playing":  # a tied hand: deal the next
            r = client.post(f"/v1/matches/{match_id}/hands", headers=headers(pair[0]), json={})
            assert r.status_code == 200, r.text
            continue
        turn = views[0]["turn"]["seat"]
        index = next(i for i, v in enumerate(views) if v["you"]["seat"] == turn)
        move = dict(views[index]["legal"][0])
        move.pop("points", None)
        if move["action"] != "play":
            move.pop("tile", None)
            move.pop("end", None)
        move["seq"] = views[index]["seq"]
        r = client.post(f"/v1/matches/{match_id}/moves", json=move, headers=headers(pair[index]))
        assert r.status_code == 200, r.text
    raise AssertionError("no hand scored")


# A best-of-2 round-robin round: one match played, one live and level, one live with a leader.
LEADS = """async () => {
  const { bracket } = await import("./bracket.js");
  const match = (index, extra) => ({
    id: `m${index}`, round: 1, index, players: ["a", "b"], names: ["Ann", "Bob"],
    status: "playing", winner: null, reason: null, points: [0, 0], hands_won: [0, 0],
    live: null, next: null, ...extra,
  });
  const matches = [
    match(0, { status: "finished", winner: "b", reason: "played", points: [40, 31],
               hands_won: [1, 1] }),
    match(1, { live: { points: [12, 30], hands_won: [1, 1] } }),
    match(2, { live: { points: [12, 30], hands_won: [1, 0] } }),
    match(3, { status: "check_in" }),
  ];
  const view = { format: "round_robin", match: { best_of: 2 }, entrants: [],
                 rounds: [{ number: 1, status: "open", matches, byes: [], rests: [] }] };
  return [...bracket(view, {}).querySelectorAll(".slot")].map(
    (slot) => slot.querySelector(".leads")?.textContent ?? null);
}"""


def test_each_card_says_who_leads_by_hands_won_in_a_best_of(
    players: Callable[..., Player],
) -> None:
    page = players().open("")
    assert page.evaluate(LEADS) == [
        "Bob won 1\u20131 in hands",  # level on hands, Bob won on points (docs/RULES.md)
        "Level at 1\u20131 in hands",
        "Ann leads 1\u20130 in hands",
        None,  # nothing played yet at check-in
    ]


# Three entrants: one first-round match, one bye, the final not open yet; then the bye's
# player is known from the final's slot.
THREE = """async (final) => {
  const { bracket } = await import("./bracket.js");
  const match = (round, index, players, names, extra = {}) => ({
    id: `m${round}${index}`, round, index, players, names, status: "check_in", winner: null,
    reason: null, points: [0, 0], hands_won: [0, 0], live: null, next: null, ...extra,
  });
  const first = match(1, 0, ["a", "b"], ["Ann", "Bob"], { status: "finished", winner: "b",
    reason: "played", points: [3, 50], hands_won: [0, 1] });
  const rounds = [{ number: 1, status: "complete", matches: [first], byes: ["c"], rests: [] }];
  if (final) rounds.push({ number: 2, status: "open", byes: [], rests: [],
    matches: [match(2, 0, ["b", "c"], ["Bob", "Cal"])] });
  const entrants = [["a", "Ann"], ["b", "Bob"], ["c", "Cal"]].map(
    ([player_id, name], order) => ({ player_id, name, order }));
  const view = { format: "single_elimination", match: { best_of: 1 }, entrants, rounds };
  const node = bracket(view, {});
  return Object.fromEntries([...node.querySelectorAll("[data-slot]")].map(
    (slot) => [slot.dataset.slot, slot.querySelector(".players").textContent]));
}"""


def test_byes_and_open_slots_are_drawn_from_the_slots(players: Callable[..., Player]) -> None:
    page = players().open("")
    # Every bye names its entrant, before the next round opens and after (issue 43).
    before = page.evaluate(THREE, False)
    assert before == {"1-0": "Ann vs Bob", "1-1": "Cal: bye", "2-0": "Bob vs Cal"}
    after = page.evaluate(THREE, True)
    assert after == {"1-0": "Ann vs Bob", "1-1": "Cal: bye", "2-0": "Bob vs Cal"}


# The three-entrant bracket drawn at the page's place, for Cal (in the final).
DRAWN_FOR_CAL = THREE.replace(
    "return Object.fromEntries(",
    "document.getElementById('app').replaceChildren(node); return null; (",
)
GO_BUTTON = """() => {
  const box = (n) => n.getBoundingClientRect();
  const go = box(document.querySelector(".bracket a.button"));
  const bracket = box(document.querySelector(".bracket"));
  return { inside: go.left >= bracket.left && go.right <= bracket.right &&
                   go.right <= document.documentElement.clientWidth,
           go: [go.left, go.right], bracket: [bracket.left, bracket.right] };
}"""


def test_on_a_phone_the_finals_button_is_inside_the_bracket(
    players: Callable[..., Player],
) -> None:
    cal = players(width=390, height=844)
    page = cal.open("")
    # Cal is the browser's player only while the bracket is drawn (his card gets the button).
    page.evaluate('localStorage.setItem(\'domino.identity\', \'{"id": "c", "name": "Cal"}\')')
    page.evaluate(DRAWN_FOR_CAL, True)
    page.evaluate("localStorage.removeItem('domino.identity')")
    expect(page.locator(".bracket a.button")).to_have_text("Go to my match: I'm ready")
    placed = page.evaluate(GO_BUTTON)
    assert placed["inside"], placed  # the rounds stack: no column hides past the edge
    cal.shot("phone-bracket")
