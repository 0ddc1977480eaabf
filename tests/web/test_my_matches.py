"""/play's first page lists the player's matches: "Continue" on each live one takes the player
back to its table without its URL; a finished one opens its ledger; "More" pages back."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import sign_in, start_solo

CALL = """async ([method, path, body]) => (await import("./api.js")).call(method, path, body)"""
SOLO = {"ruleset": "draw-50", "seats": [{"type": "human"}, {"type": "bot", "strategy": "plain"}]}


def test_first_page_lists_matches_with_continue(players: Callable[..., Player]) -> None:
    ida = players()
    page = ida.open("solo")
    sign_in(page, "Ida")
    start_solo(page, "draw-50", "plain")
    live_id = page.url.split("#/match/")[1]
    # Eight newer tables, one of them finished by resigning, so two pages.
    newer = [page.evaluate(CALL, ["POST", "/v1/matches", SOLO])["id"] for _ in range(8)]
    page.evaluate(CALL, ["POST", f"/v1/matches/{newer[0]}/start", {}])
    page.evaluate(CALL, ["POST", f"/v1/matches/{newer[0]}/resign", {}])

    page.goto(page.url.split("#")[0] + "#/")
    rows = page.locator(".my-match")
    expect(rows).to_have_count(8)
    more = page.locator("section button:text('More')")
    expect(more).to_be_visible()
    more.click()
    expect(rows).to_have_count(9)
    expect(more).to_be_hidden()
    finished = page.locator(f".my-match[data-match='{newer[0]}']")
    expect(finished).to_contain_text("Finished")
    # Ida resigned before a tile was played: the computer won by forfeit, nought to nought.
    expect(finished.locator(".outcome")).to_have_text(" · Lost 0-0")
    expect(finished.locator("a:text('Replay')")).to_have_attribute("href", f"#/replay/{newer[0]}")
    expect(finished.locator("a:text('Ledger')")).to_be_visible()
    expect(finished.locator("a:text('Continue')")).to_have_count(0)
    expect(page.locator(".my-match[data-live='true'] a:text('Continue')")).to_have_count(8)
    page.locator(".my-match").first.scroll_into_view_if_needed()
    ida.shot("my-matches")

    # The solo table being played is the oldest, last in the list: its Continue takes Ida back.
    oldest = rows.last
    expect(oldest).to_have_attribute("data-match", live_id)
    expect(oldest).to_contain_text("with Plain · Playing")
    oldest.locator("a:text('Continue')").click()
    expect(page).to_have_url(f"{ida.base_url}/play/#/match/{live_id}")
    expect(page.locator(".hand .tile").first).to_be_visible()


def test_a_new_player_sees_no_matches_yet(players: Callable[..., Player]) -> None:
    jo = players()
    page = jo.open("solo")
    sign_in(page, "Jo")
    page.goto(page.url.split("#")[0] + "#/")
    expect(page.locator(".my-matches")).to_contain_text("No matches yet")
