"""A phone's screen (issue 43): at 390 x 844 a ledger's tiles are large enough that a
double-nine's pips are dots one can see, and one's own tile back is a tile, not a 14 px icon.
A Mexican Train table of eight seats (issue 52) at 360 x 740 and 412 x 915, a tile picked: no
sideways page scroll, every touch target of play (the hand's tiles, the trains' glowing ends,
the buttons below) at least 44 x 44 px and inside the window, a glowing end inside the
board's own view (its rows scroll within it), and no serious or critical axe violation.
Sizes are CSS pixels read off the rendered page (getBoundingClientRect)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Browser, expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player
from tests.web.helpers import (
    READY_TILE,
    eight_seat_trains_table,
    sign_in,
    start_solo,
    take_turn,
)
from tests.web.test_audit import AXE, RUN_AXE
from tests.web.test_ledger import finish_by_resigning

PHONE = {"width": 390, "height": 844}
TRAINS_SIZES = [(360, 740), (412, 915)]
# The touch targets of play smaller than 44 x 44 px or outside the window (after the page is
# back at its top), and whether the page is wider than the window.
TARGETS = """() => {
  window.scrollTo(0, 0);
  const [w, h] = [window.innerWidth, window.innerHeight];
  const nodes = document.querySelectorAll(
    ".hand .tile, .end-target.glow, .controls-box button, .controls-box a");
  const bad = [];
  for (const n of nodes) {
    const r = n.getBoundingClientRect();
    const name = `${n.className || n.tagName} ${n.dataset.end || n.dataset.tile || n.textContent}`;
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (r.width < 43.5 || r.height < 43.5) bad.push(`${name} ${size}`);
    const out = r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5;
    if (out) bad.push(`${name} outside at ${[r.left, r.top].map(Math.round)}`);
  }
  // The trains' rows scroll within the board: a glowing end must be in the board's view too.
  const board = document.querySelector(".board").getBoundingClientRect();
  const seen = [...document.querySelectorAll(".end-target.glow")].filter((n) => {
    const r = n.getBoundingClientRect();
    return r.top >= board.top - 0.5 && r.bottom <= board.bottom + 0.5;
  });
  const root = document.documentElement;
  return { bad, targets: nodes.length, ends: seen.length,
           wide: root.scrollWidth > root.clientWidth };
}"""
# The smallest pip of the ledger's double-nine tiles, and the ledger tile it sits on.
SIZES = """() => {
  const tiles = [...document.querySelectorAll('.mini svg')];
  const pips = tiles.flatMap((svg) => [...svg.querySelectorAll('.pips circle')]);
  const box = (node) => node.getBoundingClientRect();
  return {
    tiles: tiles.length,
    tile: Math.min(...tiles.map((t) => box(t).width)),
    pip: Math.min(...pips.map((p) => box(p).width)),
  };
}"""


def test_a_double_nine_ledger_and_the_own_back_on_a_phone(players: Callable[..., Player]) -> None:
    ivy = players(**PHONE)
    page = ivy.open("solo")
    sign_in(page, "Ivy")
    start_solo(page, "house-nines", "plain")
    back = page.locator(".my-back img").bounding_box()
    assert back is not None and back["height"] >= 48 and back["width"] >= 24, back
    ivy.shot("phone-table")
    finish_by_resigning(page)
    page.click("a:text('Open the deal ledger')")
    expect(page.locator(".mini svg").first).to_be_visible()
    sizes = page.evaluate(SIZES)
    assert sizes["tiles"] > 0
    assert sizes["tile"] >= 64, sizes  # a ledger tile: at least 64 x 32
    assert sizes["pip"] >= 6, sizes  # a nine's pips: dots of 6 px and more
    ivy.shot("phone-ledger")


def test_a_trains_table_of_eight_on_phones(
    browser: Browser, play_server: ServerProcess, record_property: Callable[[str, object], None]
) -> None:
    ned = eight_seat_trains_table(browser, play_server, "Ned")
    page = ned.page
    measured = 0
    for _ in range(40):  # to the first play of the person's that has a playable tile
        take = page.locator(READY_TILE)
        if take.count() == 0:
            take_turn(page)
            continue
        take.first.click()
        expect(page.locator(".end-target.glow").first).to_be_visible()
        for width, height in TRAINS_SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
            found = page.evaluate(TARGETS)
            ned.shot(f"trains-8-seats-picked-{width}x{height}")
            assert found["ends"] >= 1 and found["targets"] > found["ends"], found
            assert found["bad"] == [] and not found["wide"], (width, height, found)
            page.add_script_tag(path=str(AXE))
            serious = [v for v in page.evaluate(RUN_AXE) if v["impact"] in ("serious", "critical")]
            record_property(f"axe {width}x{height}", len(serious))
            assert serious == [], (width, height, serious)
            measured += 1
        break
    ned.context.close()
    assert measured == len(TRAINS_SIZES)
    assert ned.errors == [], ned.errors
