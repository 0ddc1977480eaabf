"""The Watch page lists a table in play that welcomes spectators; its "Watch" opens the table
as a spectator, who sees the board move as the seated player plays, and no hand."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import sign_in, take_turn

CALL = """async ([method, path, body]) => (await import("./api.js")).call(method, path, body)"""
SOLO = {
    "ruleset": "draw-50",
    "seats": [{"type": "human"}, {"type": "bot", "strategy": "plain"}],
    "options": {"spectators": True},
}


def test_a_live_table_watched_from_the_watch_list(players: Callable[..., Player]) -> None:
    pia, quinn = players(), players()
    page = pia.open("solo")
    sign_in(page, "Pia")
    expect(page.locator("#preset")).to_be_visible()
    match_id = page.evaluate(CALL, ["POST", "/v1/matches", SOLO])["id"]
    page.evaluate(CALL, ["POST", f"/v1/matches/{match_id}/start", {}])
    page.goto(f"{pia.base_url}/play/#/match/{match_id}")
    expect(page.locator(".hand .tile").first).to_be_visible()

    watcher = quinn.open("solo")
    sign_in(watcher, "Quinn")
    expect(watcher.locator("#preset")).to_be_visible()
    watcher.goto(f"{quinn.base_url}/play/#/")
    watcher.click("a.choice:has-text('Watch')")
    row = watcher.locator(f".watch-table[data-match='{match_id}']")
    expect(row).to_contain_text("Pia vs Plain")
    quinn.shot("watch-list")
    row.locator("a:text('Watch')").click()
    expect(watcher).to_have_url(f"{quinn.base_url}/play/#/match/{match_id}")
    expect(watcher.locator(".seats-box")).to_contain_text("Pia")
    board = watcher.locator(".board")
    expect(board).to_be_visible()
    expect(watcher.locator(".hand .tile")).to_have_count(0)  # a spectator holds no hand
    expect(watcher.locator("#status")).to_contain_text("Pia to play.")
    # Nothing to press: a spectator cannot draw, pass or resign (the server says 403 anyway).
    expect(watcher.locator(".controls-box button, .controls-box a")).to_have_count(0)

    # Pia plays until a tile lies on the board; the spectator's board follows.
    while take_turn(page) not in ("play", "over", "hand_over"):
        pass
    expect(board).not_to_have_attribute("aria-label", "The board is empty")
    quinn.shot("watching")
