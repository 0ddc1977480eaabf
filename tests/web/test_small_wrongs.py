"""Small wrongs of /play (issue 43): the host's own waiting screen, and the boneyard's label."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import sign_in, start_solo


def test_the_hosts_waiting_screen_and_the_boneyard_label(players: Callable[..., Player]) -> None:
    lee = players()
    host = lee.open("new")
    sign_in(host, "Lee")
    host.select_option("#preset", "draw-50")
    host.select_option("#seat-1", "remote")
    host.click("button:text('Create the table')")
    expect(host.get_by_test_id("code")).to_have_text(re.compile(r"^\d{4}$"))
    status = host.locator("#status")
    expect(status).to_have_text(
        "Waiting for players to join: start the game when everyone is here."
    )
    lee.shot("host-waiting")

    host.goto(host.url.split("#")[0] + "#/solo")
    start_solo(host, "draw-50", "plain")
    expect(host.locator(".boneyard")).to_have_text("Boneyard 14")
    lee.shot("boneyard-labelled")
