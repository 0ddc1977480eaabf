"""A phone's screen (issue 43): at 390 x 844 a ledger's tiles are large enough that a
double-nine's pips are dots one can see, and one's own tile back is a tile, not a 14 px icon.
Sizes are CSS pixels read off the rendered page (getBoundingClientRect)."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import sign_in, start_solo
from tests.web.test_ledger import finish_by_resigning

PHONE = {"width": 390, "height": 844}
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
