"""Ratings in the browser (docs/API.md, "Ratings"): each seat's rating beside its name at the
table, and the leaderboard by rating on the records page. Screenshots: test-output/web/
ratings-seats.png and ratings-board.png."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from playwright.sync_api import expect

from domino_api.ratings.computers import COMPUTERS
from tests.api.helpers import new_player, play_to_end
from tests.api.test_ratings import establish
from tests.support.servers import ServerProcess
from tests.web.conftest import Player
from tests.web.helpers import sign_in, start_solo


async def _rated_match(base_url: str, database_url: str, names: tuple[str, str]) -> tuple[str, str]:
    """Two established players finish a rated draw-50 match over the API, as any client
    would: the winner's name and the loser's."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        ana, bob = [await new_player(client, name) for name in names]
        await establish(database_url, "draw-50", ana, bob)
        body: dict[str, Any] = {"ruleset": "draw-50", "seats": [{"type": "human"}] * 2}
        body["options"] = {"target": 10}
        created = (await client.post("/v1/matches", json=body, headers=ana["headers"])).json()
        join = {"code": created["code"]}
        await client.post("/v1/matches/join", json=join, headers=bob["headers"])
        mid = created["id"]
        await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
        final = await play_to_end(client, mid, {0: ana, 1: bob})
        winner = final["result"]["winner"]
        return names[winner], names[1 - winner]


def test_a_seats_rating_shows_beside_its_name_and_the_board_ranks_rated_players(
    players: Callable[..., Player], play_server: ServerProcess
) -> None:
    tag = secrets.token_hex(3)
    names = (f"Rae {tag}", f"Sol {tag}")
    with ThreadPoolExecutor(1) as pool:  # off the thread Playwright's loop lives on
        winner, loser = pool.submit(
            asyncio.run, _rated_match(play_server.base_url, play_server.database_url, names)
        ).result()

    gus = players()
    page = gus.open("solo")
    sign_in(page, "Gus")
    page.check("#rated")  # against the computer, rated only when asked
    start_solo(page, "all-fives", "planner")
    expect(page.locator("ul.seats")).to_have_attribute("aria-description", "a rated match")
    mu, sigma = COMPUTERS["all-fives"]["planner"]
    expect(page.get_by_test_id("rating-1")).to_have_text(f"{round(mu)} ± {round(sigma)}")
    expect(page.get_by_test_id("rating-0")).to_have_text("1500 ± 500")
    gus.shot("ratings-seats")

    page.goto(page.url.split("#")[0] + "#/records")
    expect(page.get_by_test_id("my-ratings")).to_contain_text("No rated matches yet.")
    page.select_option("#rating-game", "draw-50")
    rows = page.get_by_test_id("ratings-board").get_by_test_id("rating-row")
    expect(rows.filter(has_text=loser)).to_have_count(1)
    texts = rows.all_inner_texts()
    first = next(i for i, text in enumerate(texts) if winner in text)
    second = next(i for i, text in enumerate(texts) if loser in text)
    assert first < second, texts
    won, lost = (texts[first].split("\t"), texts[second].split("\t"))
    assert int(won[2]) > 1500 > int(lost[2]), (won, lost)
    expect(page.get_by_role("button", name="More")).to_be_hidden()  # one page holds them
    gus.shot("ratings-board")
