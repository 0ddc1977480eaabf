"""A civil table in two browsers: Ben mutes Ana's seat (her talk folds away, and stays folded
when she speaks again), reports a message; Ana, the host, turns talk off and blocks Ben."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import sign_in


def test_mute_report_talk_off_and_block(players: Callable[..., Player]) -> None:
    ana, ben = players(), players()
    host = ana.open("new")
    sign_in(host, "Ana")
    host.select_option("#preset", "draw-50")
    host.select_option("#seat-1", "remote")
    host.click("button:text('Create the table')")
    code = host.get_by_test_id("code")
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    guest = ben.open("join")
    guest.fill("#join-code", code.inner_text())
    guest.fill("#your-name", "Ben")
    guest.click("button:text('Join the game')")
    expect(host.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Ben")

    host.fill("#talk-input", "hurry up")
    host.press("#talk-input", "Enter")
    said = guest.locator(".messages li").first
    expect(said).to_have_text("Ana: hurry up")
    guest.locator("summary:text('Table manners')").click()
    guest.click(".manner-seat button:text('Mute')")
    expect(said).to_have_class(re.compile(r"\bmuted\b"))
    expect(said.locator(".said")).to_be_hidden()
    expect(guest.locator(".manner-seat button:text('Unmute')")).to_be_visible()
    # Said after the mute: the server marks it, and Ben's page folds it at once.
    host.fill("#talk-input", "are you there")
    host.press("#talk-input", "Enter")
    later = guest.locator(".messages li").nth(1)
    expect(later).to_have_class(re.compile(r"\bmuted\b"))
    expect(host.locator(".messages li").last).to_have_text("Ana: are you there")
    # Ben unfolds the first and reports it.
    said.locator("button.unfold").click()
    expect(said.locator(".said")).to_be_visible()
    said.locator("button.report").click()
    expect(said).to_have_class(re.compile(r"\breported\b"))
    ben.shot("civil-muted-and-reported")

    host.locator("summary:text('Table manners')").click()
    host.click("button:text('Turn talk off')")
    expect(host.locator("button:text('Turn talk on')")).to_be_visible()
    expect(guest.locator(".log li").first).to_have_text("The host turned table talk off")
    # Nothing can be said meanwhile: the talk box says so instead of taking a refused message.
    said = guest.locator("#talk-input")
    expect(said).to_be_disabled()
    expect(said).to_have_attribute("placeholder", "The host turned table talk off")
    expect(guest.locator(".talk-form button")).to_be_disabled()
    host.click(".manner-seat button:text('Block from my tables')")
    expect(host.locator(".manner-seat")).to_contain_text("blocked from your tables")
    ana.shot("civil-host-talk-off-and-block")
