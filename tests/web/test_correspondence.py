"""A correspondence table at /play (issue 50): made with "Time per move", its turn listed under
"Your turn" on the first page, and the other player's list updated live by the lobby socket's
`your_turn` once the turn passes. (Web Push from the browser is not driven here: headless
Chromium reaches no push service, so `PushManager.subscribe` cannot succeed; the server's
side of push is tests/jobs/test_correspondence.py and
tests/faults/test_correspondence_restart.py.)"""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import match_view, sign_in, take_turn


def test_a_correspondence_table_lists_your_turn(players: Callable[..., Player]) -> None:
    ana, ben = players(), players()
    host = ana.open("new")
    sign_in(host, "Ana")
    host.select_option("#preset", "block")
    host.select_option("#opt-per-move", "86400")
    host.click("button:text('Create the table')")
    guest = ben.open("join")
    guest.fill("#join-code", host.get_by_test_id("code").inner_text())
    guest.fill("#your-name", "Ben")
    guest.click("button:text('Join the game')")
    expect(host.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Ben")
    host.click("button:text('Start the game')")
    expect(guest.locator(".hand .tile")).to_have_count(7)
    view = match_view(host)
    assert view["per_move_s"] == 86_400 and view["ruleset"]["away_forfeit_s"] is None
    match_id = view["id"]
    on_turn, waiting = (host, guest) if view["turn"]["seat"] == 0 else (guest, host)

    table_url = on_turn.url
    on_turn.goto(table_url.split("#")[0] + "#/")
    mine = on_turn.locator(f".your-turn[data-match='{match_id}']")
    expect(mine).to_contain_text(re.compile(r"Block · correspondence · (23|24) h left"))
    waiting.goto(waiting.url.split("#")[0] + "#/")
    expect(waiting.locator(".your-turns")).to_contain_text("Nobody is waiting for you.")
    expect(waiting.locator("button.notify")).to_be_visible()

    mine.locator("a:text('Play')").click()
    expect(on_turn).to_have_url(table_url)
    expect(on_turn.locator("#status")).to_contain_text(re.compile(r"Turn clock: 2[34] h \d+ min"))
    take_turn(on_turn)
    # The other player's first page, left open, is told by its lobby socket.
    theirs = waiting.locator(f".your-turn[data-match='{match_id}']")
    expect(theirs).to_contain_text("Block · correspondence")
    (ana if waiting is host else ben).shot("your-turn")
