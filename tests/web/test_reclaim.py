"""A seat taken back on a new device (issue 40's steps): 4-seat house double-nines; the guest
closes the tab; the host lets the computer play for the guest once the guest has been away the
presence lease; the guest joins with the same number and name in a new browser, takes the seat
over and takes it back from the computer. The new page then plays its turns: each time it says
"Your turn", a playable tile or Draw / Pass is there (the issue saw neither, until a reload).
The page keeps its view by applying its socket's events (play/reducer.js), so a stale view
would show here as a missing action."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, Request, WebSocket, expect

from tests.web.conftest import Player
from tests.web.helpers import OVER_LINK, READY_BUTTON, READY_TILE, sign_in, take_turn

ACTIONS = f"{READY_TILE}, {READY_BUTTON}:text-matches('^(Draw|Pass|Next hand)'), {OVER_LINK}"


def _table_with_a_guest(ana: Player, ben: Player) -> tuple[Page, Page, str]:
    host = ana.open("new")
    sign_in(host, "Ana")
    host.select_option("#preset", "house-nines")
    host.select_option("#seat-count", "4")
    host.select_option("#seat-1", "remote")
    host.select_option("#seat-2", "planner")
    host.select_option("#seat-3", "plain")
    host.click("button:text('Create the table')")
    code = host.get_by_test_id("code")
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    number = code.inner_text()
    guest = ben.open("join")
    guest.fill("#join-code", number)
    guest.fill("#your-name", "Ben")
    guest.click("button:text('Join the game')")
    expect(host.get_by_test_id("dot-1")).to_have_class("dot on")
    host.click("button:text('Start the game')")
    expect(guest.locator(".hand .tile").first).to_be_visible()
    return host, guest, number


def _act(page: Page) -> None:
    """One action, and its answer back (until then the page's view is the one before it)."""
    take_turn(page)
    expect(page.locator(".table-page")).to_have_attribute("aria-busy", "false")


class Traffic:
    """What a page reads over REST (its GETs of the match's view) and how many presence events
    its socket brings (after each, the page reads the seats' away deadlines again)."""

    VIEW = re.compile(r"/v1/matches/[0-9a-f-]+(\?seat=\d)?$")

    def __init__(self, page: Page) -> None:
        self.view_reads = 0
        self.presence = 0
        page.on("request", self._request)
        page.on("websocket", self._socket)

    def _request(self, request: Request) -> None:
        if request.method == "GET" and self.VIEW.search(request.url):
            self.view_reads += 1

    def _socket(self, socket: WebSocket) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode()
        if '"type":"seat_connected"' in text or '"type":"seat_disconnected"' in text:
            self.presence += 1


def _turns_of(page: Page, other: Page, seat: int, turns: int) -> None:
    """Play on both pages until `page`'s seat has acted `turns` times; each time the page says
    it is its turn, a tile or Draw / Pass is there to take (the frozen page had neither). The
    test reads the view with the page's token, not through the page."""
    token = page.evaluate("JSON.parse(localStorage.getItem('domino.identity')).token")
    match_id = page.url.split("#/match/")[1]
    base = page.url.split("/play/")[0]
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, headers=headers, timeout=30) as http:
        _play_on(page, other, seat, turns, lambda: http.get(f"/v1/matches/{match_id}").json())


def _play_on(page: Page, other: Page, seat: int, turns: int, read: Callable[[], Any]) -> None:
    taken = 0
    for _ in range(200):
        view = read()
        if taken >= turns or view["status"] not in ("playing", "hand_over"):
            return
        if view["status"] == "hand_over":
            _act(page)
            continue
        if view["turn"]["seat"] == seat:
            expect(page.locator("#status")).to_have_text(re.compile("^Your turn"))
            expect(page.locator(ACTIONS).first).to_be_visible()
            _act(page)
            taken += 1
        elif view["turn"]["seat"] == 0:
            _act(other)
        else:
            page.wait_for_timeout(100)  # a computer is to play
    raise AssertionError(f"{turns} turns not reached")


def test_a_seat_taken_back_on_a_new_device_plays_on(players: Callable[..., Player]) -> None:
    ana, ben = players(), players()
    host, guest, number = _table_with_a_guest(ana, ben)
    guest.close()  # Ben leaves; the host lets the computer play for him once he is away
    hand_over = host.locator("button:text('Let the computer play for Ben')")
    expect(hand_over).to_be_visible()
    hand_over.click()
    expect(host.locator(".seat[data-seat='1'] .tag:text('autopilot')")).to_be_visible()

    again = players().open("join")  # Ben, in a new browser: same number, same name
    traffic = Traffic(again)
    again.fill("#join-code", number)
    again.fill("#your-name", "Ben")
    again.click("button:text('Join the game')")
    expect(again.locator(".hand .tile").first).to_be_visible()
    back = again.locator("button:text('Take my seat back')")
    expect(back).to_be_visible()
    back.click()
    expect(again.locator(".seat[data-seat='1'] .tag:text('autopilot')")).to_have_count(0)

    reads, presence = traffic.view_reads, traffic.presence
    _turns_of(again, host, seat=1, turns=4)
    # The page follows its socket's events: its moves and everyone else's bring no read of the
    # view, only a presence event does (for the away deadlines no event carries).
    assert traffic.view_reads - reads <= traffic.presence - presence
    shots = Path(tempfile.gettempdir()) / "domino-web-shots"
    shots.mkdir(exist_ok=True)
    again.screenshot(path=str(shots / "reclaimed-seat.png"))
