"""A finished match replayed move by move at /play (#/replay/<id>): one browser plays a solo to
the end, another (a spectator the table allows) steps through it with the buttons and the arrow
keys; after the last move the scores shown are the match's final scores."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import match_view, play_until_over, sign_in

CALL = """async ([method, path, body]) => (await import("./api.js")).call(method, path, body)"""
SOLO = {
    "ruleset": "draw-50",
    "seats": [{"type": "human"}, {"type": "bot", "strategy": "plain"}],
    "options": {"spectators": True},
}


def test_a_finished_match_replays_hand_by_hand(players: Callable[..., Player]) -> None:
    pia, quinn = players(), players()
    page = pia.open("solo")
    sign_in(page, "Pia")
    expect(page.locator("#preset")).to_be_visible()  # a player now: the solo form shows
    match_id = page.evaluate(CALL, ["POST", "/v1/matches", SOLO])["id"]
    page.evaluate(CALL, ["POST", f"/v1/matches/{match_id}/start", {}])
    page.goto(f"{pia.base_url}/play/#/match/{match_id}")
    assert play_until_over(page)[-1] == "over"
    final = match_view(page)
    scores = [str(seat["score"]) for seat in final["seats"]]
    expect(page.locator(".controls-box a:text('Replay')")).to_have_attribute(
        "href", f"#/replay/{match_id}"
    )
    # Pia's list of matches says how it went, in her score first.
    mine, theirs = final["seats"][0]["score"], final["seats"][1]["score"]
    verdict = {0: "Won", 1: "Lost", None: "Tied"}[final["result"]["winner"]]
    page.goto(f"{pia.base_url}/play/#/")
    outcome = page.locator(f".my-match[data-match='{match_id}'] .outcome")
    expect(outcome).to_have_text(f" · {verdict} {mine}-{theirs}")

    watcher = quinn.open("solo")
    sign_in(watcher, "Quinn")
    expect(watcher.locator("#preset")).to_be_visible()
    watcher.goto(f"{quinn.base_url}/play/#/replay/{match_id}")
    where = watcher.locator(".replay-where")
    expect(where).to_contain_text("Before the first hand")
    shown = watcher.locator(".replay-score")
    expect(shown).to_have_text(["0", "0"])
    total = int(re.search(r"of (\d+)", where.inner_text()).group(1))  # type: ignore[union-attr]
    assert total > 3

    # Forward with the arrow key to the first hand's end: every seat's hand lies face up.
    watcher.keyboard.press("ArrowRight")
    expect(where).to_contain_text("Move 1 of")
    expect(where).to_contain_text("Hand 1 dealt")
    for _ in range(total):
        if "Hand 1 over" in where.inner_text():
            break
        watcher.keyboard.press("ArrowRight")
    expect(where).to_contain_text("Hand 1 over")
    expect(watcher.locator(".replay-hand").first).to_be_attached()
    quinn.shot("replay-hand-over")
    at = int(re.search(r"Move (\d+)", where.inner_text()).group(1))  # type: ignore[union-attr]
    watcher.keyboard.press("ArrowLeft")
    expect(where).to_contain_text(f"Move {at - 1} of")
    watcher.click("button:text('Forward')")
    expect(where).to_contain_text(f"Move {at} of")

    watcher.click("button:text('Last')")
    expect(where).to_contain_text(f"Move {total} of {total}: The match is over")
    expect(shown).to_have_text(scores)
    board = watcher.locator(".replay-board")
    expect(board).to_have_attribute(
        "aria-label", re.compile(f"^The board: {len(final['board']['tiles'])} tiles")
    )
    quinn.shot("replay-last-move")
    watcher.click("button:text('Back')")
    expect(where).to_contain_text(f"Move {total - 1} of {total}")
    watcher.click("button:text('First')")
    expect(shown).to_have_text(["0", "0"])
