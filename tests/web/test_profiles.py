"""Profiles in the browser (docs/PLAY.md, "Profiles"): a name on the leaderboard by rating
opens the player's profile, with the rating, its chart and the same points as a table, the
recent match and the records; a seat's name at the table opens its holder's. Screenshot:
test-output/web/profile.png."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player
from tests.web.helpers import sign_in, start_solo
from tests.web.test_ratings import _rated_match


def test_a_name_on_the_leaderboard_opens_the_players_profile(
    players: Callable[..., Player], play_server: ServerProcess
) -> None:
    tag = secrets.token_hex(3)
    names = (f"Ivo {tag}", f"Jun {tag}")
    with ThreadPoolExecutor(1) as pool:  # off the thread Playwright's loop lives on
        winner, loser = pool.submit(
            asyncio.run, _rated_match(play_server.base_url, play_server.database_url, names)
        ).result()

    kim = players()
    page = kim.open("records")
    sign_in(page, "Kim")
    page.goto(page.url.split("#")[0] + "#/records")
    page.select_option("#rating-game", "draw-50")
    board = page.get_by_test_id("ratings-board")
    board.get_by_role("link", name=winner).click()

    expect(page).to_have_url(re.compile(r"#/player/[0-9a-f-]{36}$"))
    expect(page.get_by_role("heading", level=2)).to_have_text(winner)
    rating = page.get_by_test_id("profile-rating-draw-50")
    expect(rating).to_contain_text("11 rated matches")  # 10 established, then this one
    found = re.search(r"(\d+) ±", rating.inner_text())
    assert found, rating.inner_text()
    shown = int(found.group(1))
    assert shown > 1500, rating.inner_text()
    chart = page.get_by_test_id("chart-draw-50")
    expect(chart.locator("circle")).to_have_count(1)
    expect(chart.locator("title")).to_contain_text(f"to {shown}")
    rating.get_by_text("Rating history as a table").click()
    expect(rating.locator("tbody tr td").nth(1)).to_have_text(str(shown))

    (match,) = page.get_by_test_id("profile-match").all()
    expect(match).to_have_attribute("data-outcome", "won")
    expect(match).to_contain_text("Won Draw to 50 (rated)")
    expect(match).to_contain_text(loser)
    records = page.get_by_test_id("profile-records")
    expect(records.locator("tbody tr")).to_have_count(1)
    expect(records.locator("tbody tr td").nth(2)).to_have_text("1")  # wins
    kim.shot("profile")

    page.goto(page.url.split("#")[0] + "#/solo")
    start_solo(page, "all-fives", "planner")
    page.locator("ul.seats").get_by_role("link", name="Kim").click()
    expect(page.get_by_role("heading", level=2)).to_have_text("Kim")
    expect(page.locator("#app")).to_contain_text("No rated matches yet.")
