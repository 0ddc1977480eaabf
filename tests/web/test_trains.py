"""Mexican Train at /play (docs/RULES.md section 13): a whole one-round match solo against
Plain, played by clicking on a 360 x 740 phone, the hub and trains in rows, the scoreboard's
winner the lowest total, and no sideways page overflow; screenshots at phone and desktop;
the match's replay draws the same trains."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import match_view, sign_in, take_turn

WIDE = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"


def deal_one_round(page: Page) -> None:
    page.select_option("#preset", "mexican-train")
    page.select_option("#opt-rounds", "1")
    page.select_option("#opponent", "plain")
    page.fill("#cut", "engine")
    page.click("button:text('Deal')")
    expect(page.locator(".hand .tile").first).to_be_visible()


def test_a_mexican_train_match_solo_against_plain_to_its_end(
    players: Callable[..., Player],
) -> None:
    kit = players(width=360, height=740)
    page = kit.open("solo")
    sign_in(page, "Kit")
    deal_one_round(page)
    # The engine double is the hub; a row per train, owners named, the Mexican train last.
    expect(page.locator(".board .hub")).to_have_count(1)
    trains = page.locator(".trains-list .train")
    expect(trains).to_have_count(3)
    expect(trains.nth(0).locator(".train-owner")).to_contain_text("Kit's train")
    expect(trains.nth(2)).to_have_attribute("data-train", "mexican")
    actions: list[str] = []
    overflowed: list[int] = []
    while not actions or actions[-1] != "over":
        assert len(actions) < 400, f"still playing: {actions[-10:]}"
        actions.append(take_turn(page))
        if page.evaluate(WIDE):
            overflowed.append(len(actions))
    assert "play" in actions
    assert overflowed == [], f"the page scrolled sideways after actions {overflowed[:5]}"
    view = match_view(page)
    assert view["status"] == "finished" and view["result"]["reason"] == "rounds"
    scores = view["result"]["scores"]
    board = page.get_by_test_id("scoreboard")
    expect(board).to_contain_text("Final totals after 1 of 1 rounds")
    for seat, score in enumerate(scores):
        expect(board.get_by_test_id(f"total-{seat}")).to_have_text(str(score))
    if scores[0] == scores[1]:  # a shared lowest total: nobody wins
        assert view["result"]["winner"] is None
        expect(board.locator("tr.winner")).to_have_count(0)
    else:
        low = scores.index(min(scores))
        assert view["result"]["winner"] == low
        expect(board.locator("tr.winner")).to_have_attribute("data-seat", str(low))
        # Lowest first: the winner heads the table.
        expect(board.locator("tr[data-seat]").first).to_have_attribute("data-seat", str(low))
    assert not page.evaluate(WIDE)
    kit.shot("trains-phone-360x740")
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(page.locator(".trains-list .train")).to_have_count(3)
    kit.shot("trains-desktop")
    # The replay draws the same hub and trains: its last move shows every tile played.
    page.click(".controls-box a:text('Replay')")
    page.click("button:text('Last')")
    placed = len(view["board"]["tiles"]) - 1  # less the engine
    expect(page.locator(".replay-board .trains-list .train-tile")).to_have_count(placed)
