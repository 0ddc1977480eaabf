"""/play's "Play now" (docs/API.md, "The lobby"): two people press "Play anyone now", with the
clock and the rated choice they made, and land at the same table, already dealt; a host lists
a new table in the lobby and a guest, watching the open tables, sees it appear live, go when
the host takes it out of the lobby and come back, and joins it from the list. Screenshots:
test-output/web/lobby-*.png."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import sign_in


def first_page(player: Player, name: str, preset: str) -> Page:
    page = player.open("solo")
    sign_in(page, name)
    page.goto(f"{player.base_url}/play/#/")
    page.select_option("#lobby-preset", preset)
    expect(page.locator(".open-tables")).to_be_visible()
    return page


def match_of(page: Page) -> str:
    page.wait_for_url("**/play/#/match/*")
    return page.url.split("#/match/")[1]


def test_two_people_press_play_anyone_now_and_meet_at_one_table(
    players: Callable[..., Player],
) -> None:
    ana, bob = players(), players()
    ana_page = first_page(ana, "Ana", "classic")
    bob_page = first_page(bob, "Bob", "classic")
    for page in (ana_page, bob_page):  # the seeker's choices go with the seek (issue 50)
        page.select_option("#seek-clock", "fast")
        expect(page.locator("#seek-rated")).to_be_checked()

    ana_page.click("button:text('Play anyone now')")
    expect(ana_page.locator(".seek-status")).to_contain_text("Looking for someone")
    expect(ana_page.locator(".play-anyone")).to_have_text("Stop looking")
    ana.shot("lobby-seeking")

    bob_page.click("button:text('Play anyone now')")
    met = match_of(bob_page)
    assert match_of(ana_page) == met
    for page, name in ((ana_page, "Ana"), (bob_page, "Bob")):
        expect(page.locator("body")).to_contain_text(name)
        expect(page.locator("body")).to_contain_text("Ana" if name == "Bob" else "Bob")
        # Dealt by itself: each lands at a table in play, its own hand shown (issue 50).
        expect(page.locator(".hand .tile").first).to_be_visible()
    view = ana_page.evaluate(
        """async (id) => {
            const token = JSON.parse(localStorage.getItem("domino.identity")).token;
            const headers = { Authorization: `Bearer ${token}` };
            const view = await (await fetch(`/v1/matches/${id}`, { headers })).json();
            const rated = await (await fetch(`/v1/matches/${id}/ratings`, { headers })).json();
            return { status: view.status, clock: view.ruleset.turn_clock, rated: rated.rated };
        }""",
        met,
    )
    assert view == {"status": "playing", "clock": {"allowance_s": 30, "grace_s": 15}, "rated": True}
    ana.shot("lobby-paired")


def test_a_public_table_is_joined_from_the_list(players: Callable[..., Player]) -> None:
    host, guest = players(), players()
    guest_page = first_page(guest, "Gus", "draw")
    expect(guest_page.locator(".open-tables")).to_contain_text("No open table")

    page = host.open("new")
    sign_in(page, "Hana")
    page.select_option("#preset", "draw")
    if page.locator("#seat-count").count():
        page.select_option("#seat-count", "2")
    page.check("#public-table")
    page.click("button:text('Create the table')")
    table = match_of(page)

    # Told by the lobby socket: the guest's page was not reloaded.
    row = guest_page.locator(".open-table")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Hana's table")
    expect(row).to_contain_text("1 seat free")
    expect(row.get_by_role("img", name="host here")).to_have_class("dot on")  # issue 50
    guest.shot("lobby-open-tables")
    assert table not in guest_page.content()  # the list names no match id, nor a game number

    # The host takes the waiting table out of the lobby and lists it again, from the table.
    switch = page.locator(".lobby-switch")
    expect(switch).to_have_text("Take it out of the lobby")
    switch.click()
    expect(switch).to_have_text("List it in the lobby")
    expect(row).to_have_count(0)
    expect(guest_page.locator(".open-tables")).to_contain_text("No open table")
    host.shot("lobby-host-switch")
    switch.click()
    expect(switch).to_have_text("Take it out of the lobby")
    expect(row).to_have_count(1)

    row.locator("button:text('Join')").click()
    assert match_of(guest_page) == table
    expect(page.locator("body")).to_contain_text("Gus")
    # The host sees the joiner's rating as the seat is taken, without a reload (issue 50).
    expect(page.get_by_test_id("rating-1")).to_have_text("1500 ± 500")
    host.shot("lobby-joined-from-list")
