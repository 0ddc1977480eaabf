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

import httpx
from playwright.sync_api import expect

from tests.api.helpers import new_player, play_to_end
from tests.api.test_ratings import establish
from tests.support.servers import ServerProcess
from tests.web.conftest import Player
from tests.web.helpers import next_step, sign_in, start_solo

Outcomes = list[str]


async def _two_rated_matches(base_url: str, database_url: str, names: tuple[str, str]) -> Outcomes:
    """Two established players finish two rated draw-50 matches over the API, as any client
    would: how each ended for the first, newest first."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        ivo, jun = [await new_player(client, name) for name in names]
        await establish(database_url, "draw-50", ivo, jun)
        outcomes = []
        for _ in range(2):
            body = {"ruleset": "draw-50", "seats": [{"type": "human"}] * 2}
            body["options"] = {"target": 10}
            created = (await client.post("/v1/matches", json=body, headers=ivo["headers"])).json()
            join = {"code": created["code"]}
            await client.post("/v1/matches/join", json=join, headers=jun["headers"])
            mid = created["id"]
            await client.post(f"/v1/matches/{mid}/start", json={}, headers=ivo["headers"])
            final = await play_to_end(client, mid, {0: ivo, 1: jun})
            outcomes.insert(0, "won" if final["result"]["winner"] == 0 else "lost")
        return outcomes


def test_a_name_on_the_leaderboard_opens_the_players_profile(
    players: Callable[..., Player], play_server: ServerProcess
) -> None:
    tag = secrets.token_hex(3)
    names = (f"Ivo {tag}", f"Jun {tag}")
    with ThreadPoolExecutor(1) as pool:  # off the thread Playwright's loop lives on
        outcomes = pool.submit(
            asyncio.run, _two_rated_matches(play_server.base_url, play_server.database_url, names)
        ).result()
    ivo, jun = names

    kim = players()
    page = kim.open("records")
    sign_in(page, "Kim")
    page.goto(page.url.split("#")[0] + "#/records")
    page.select_option("#rating-game", "draw-50")
    board = page.get_by_test_id("ratings-board")
    board.get_by_role("link", name=ivo).click()

    expect(page).to_have_url(re.compile(r"#/player/[0-9a-f-]{36}$"))
    expect(page.get_by_role("heading", level=2)).to_have_text(ivo)
    rating = page.get_by_test_id("profile-rating-draw-50")
    expect(rating).to_contain_text("12 rated matches")  # 10 established, then these two
    found = re.search(r"(\d+) ±", rating.inner_text())
    assert found, rating.inner_text()
    shown = int(found.group(1))
    chart = page.get_by_test_id("chart-draw-50")
    expect(chart.locator("circle")).to_have_count(2)
    expect(chart.locator("polyline")).to_have_count(1)
    expect(chart.locator("title")).to_contain_text(f"to {shown}")
    rating.get_by_text("Rating history as a table").click()
    expect(rating.locator("tbody tr")).to_have_count(2)
    expect(rating.locator("tbody tr").nth(1).locator("td").nth(1)).to_have_text(str(shown))
    # The history over time: the first and the last match's dates under the line (issue 50).
    days = [rating.locator("tbody tr").nth(i).locator("td").first.inner_text() for i in (0, 1)]
    expect(chart.locator("text.date")).to_have_text(days)

    matches = page.get_by_test_id("profile-match")
    expect(matches).to_have_count(2)
    for i, outcome in enumerate(outcomes):
        expect(matches.nth(i)).to_have_attribute("data-outcome", outcome)
        expect(matches.nth(i)).to_contain_text(f"{outcome.title()} Draw to 50 (rated)")
        expect(matches.nth(i)).to_contain_text(jun)
    records = page.get_by_test_id("profile-records")
    expect(records.locator("tbody tr")).to_have_count(1)
    wins = outcomes.count("won")
    expect(records.locator("tbody tr td").nth(2)).to_have_text(str(wins))
    expect(records.locator("tbody tr td").nth(3)).to_have_text(str(2 - wins))
    kim.shot("profile")

    page.goto(page.url.split("#")[0] + "#/solo")
    start_solo(page, "all-fives", "planner")
    # Once the table waits for Kim, no computer's move redraws the seats; a presence event may
    # still redraw them under a click, which is then lost: a player clicks again.
    next_step(page)
    seat_link = page.locator("ul.seats").get_by_role("link", name="Kim")
    expect(seat_link).to_have_attribute("href", re.compile(r"#/player/[0-9a-f-]{36}$"))
    for _ in range(10):
        if "#/player/" in page.url:
            break
        if seat_link.is_visible():
            seat_link.click(no_wait_after=True)
        page.wait_for_timeout(500)
    expect(page.get_by_role("heading", level=2)).to_have_text("Kim")
    expect(page.locator("#app")).to_contain_text("No rated matches yet.")
