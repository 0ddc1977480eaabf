"""A household behind one router (issue 43): signed-in players at one address keep their own
budgets and share a household's worth of the address's, while one abusive player is refused
alone; an anonymous request (a new player) gets one player's worth of its address's
(web/ratelimit.py; docs/OPERATING.md, "Limits and proxies")."""

from __future__ import annotations

import pytest

from domino_api.config import Settings
from domino_api.errors import RateLimited
from domino_api.web.ratelimit import Limits

HOME = "198.51.100.7"  # one router's address


def limits(**settings: object) -> Limits:
    # A day's window: no test run crosses a window's edge.
    return Limits(Settings(rate_window_s=86_400, **settings))  # type: ignore[arg-type]


async def test_players_behind_one_address_do_not_spend_each_others_joins() -> None:
    budgets = limits(join_rate_limit=3, household_players=4)
    for player in ("ana", "bob", "cy", "di"):  # four players, three joins each: 12 from one address
        for _ in range(3):
            await budgets.hit_from("join", HOME, f"player:{player}")


async def test_one_abusive_player_is_refused_alone() -> None:
    budgets = limits(join_rate_limit=3, household_players=4)
    for _ in range(3):
        await budgets.hit_from("join", HOME, "player:eve")
    with pytest.raises(RateLimited):
        await budgets.hit_from("join", HOME, "player:eve")
    await budgets.hit_from("join", HOME, "player:ana")  # her sister at the same router


async def test_the_household_budget_caps_an_address_of_many_players() -> None:
    budgets = limits(create_match_rate_limit=2, household_players=3)
    for n in range(3):  # three players' worth: 6 matches
        for _ in range(2):
            await budgets.hit_from("create_match", HOME, f"player:p{n}")
    with pytest.raises(RateLimited, match="from one address"):
        await budgets.hit_from("create_match", HOME, "player:p9")  # a fourth player's first


async def test_anonymous_requests_get_one_players_worth_of_their_address() -> None:
    budgets = limits(create_player_rate_limit=2, household_players=6)
    for _ in range(2):
        await budgets.hit_from("create_player", HOME)
    with pytest.raises(RateLimited):
        await budgets.hit_from("create_player", HOME)
