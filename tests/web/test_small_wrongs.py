"""Small wrongs of /play (issue 43): the host's own waiting screen, and the boneyard's label."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import match_view, sign_in, start_solo


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


# The seats as /play draws them, with a "+10" pop on seat 0 held at its first frame.
POP_AND_BADGE = """async (view) => {
  const { renderSeats } = await import("./seats.js");
  const list = renderSeats(view, { flashes: new Map([[0, 10]]), viewSeat: 0, hidden: false });
  document.getElementById("app").prepend(list);
  const plus = list.querySelector("[data-testid='plus-0']");
  plus.style.animationPlayState = "paused";
  const a = plus.getBoundingClientRect();
  const b = list.querySelector(".seat[data-seat='0'] .turn-tag").getBoundingClientRect();
  return { apart: a.top >= b.bottom || a.bottom <= b.top || a.right <= b.left || a.left >= b.right,
           plus: [a.left, a.top, a.right, a.bottom], tag: [b.left, b.top, b.right, b.bottom] };
}"""
# A hand that ended as a play reached the target: it scored nothing more.
ON_TARGET = """async (view) => {
  const { statusLine } = await import("./controls.js");
  const last = { ...view.last_hand, number: 1, winner: 0, reason: "target", points: 0,
                 tied: false };
  const line = statusLine({ ...view, status: "hand_over", hand_number: 1, last_hand: last,
                            turn: null }, { offset: 0, hidden: false });
  return line.textContent;
}"""


def test_the_score_pop_clears_the_badge_and_no_plus_zero(players: Callable[..., Player]) -> None:
    mo = players()
    page = mo.open("solo")
    sign_in(page, "Mo")
    start_solo(page, "all-fives", "plain", cut="badge")
    view = match_view(page)
    view["turn"]["seat"] = 0  # seat 0 wears the badge
    placed = page.evaluate(POP_AND_BADGE, view)
    assert placed["apart"], placed
    view["last_hand"] = view["last_hand"] or {}
    assert page.evaluate(ON_TARGET, view) == "Hand 1: Mo wins (target)."
