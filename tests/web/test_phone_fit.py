"""A table made for the phone (issue 51): at 360 x 640, 390 x 844 and 844 x 390, on the player's
turn with a tile picked, the hand, every glowing end and every seat's score lie inside the
window without scrolling (and no tile of the hand lies over the buttons or the board), for a
table of each preset at its most seats, measured at each of the player's plays until the hand
ends (so at its longest layout); Mexican Train at the form's two seats, where each hand holds
fifteen tiles. At eight seats (the last test) the nine trains are a compact grid at 360 x 640:
while the hand holds two rows of tiles every glowing end is in the board's view at once; with
more the board scrolls within itself, picking a tile brings a glowing end into its view, and
every glowing end is reachable by scrolling the board alone, clear of the hand.
Sizes are CSS pixels read off the rendered page (getBoundingClientRect); a screenshot of each
preset's longest board at 390 x 844 is kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from domino_api.engine.partner_presets import PARTNER_PRESETS
from domino_api.engine.rulesets import PRESET_NAMES
from tests.web.conftest import Player
from tests.web.helpers import READY_BUTTON, READY_TILE, next_step, sign_in

SIZES = [(360, 640), (844, 390), (390, 844)]  # the last one stays for the play and the shot
# Every table that seats one player a page (a partnership is four browsers: test_partners.py).
PRESETS = [name for name in PRESET_NAMES if name not in PARTNER_PRESETS]
# Everything that must be on screen, after the page is back at its top.
OUTSIDE = """() => {
  window.scrollTo(0, 0);
  const [w, h] = [window.innerWidth, window.innerHeight];
  const parts = [
    ...[...document.querySelectorAll(".hand .tile")].map((n) => ["tile " + n.dataset.tile, n]),
    ...[...document.querySelectorAll(".end-target.glow")].map((n) => ["end " + n.dataset.end, n]),
    ...[...document.querySelectorAll(".seat-score .score")].map((n) => ["score", n]),
  ];
  const at = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round);
  const out = parts
    .map(([name, node]) => [name, node.getBoundingClientRect()])
    .filter(([, r]) => r.left < 0 || r.top < 0 || r.right > w + 0.5 || r.bottom > h + 0.5)
    .map(([name, r]) => `${name} at ${at(r)}`);
  // Nor may a tile of the hand lie over a button below it, or over the board.
  const meets = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const others = [...document.querySelectorAll(".controls-box button, .controls-box a, .board")];
  for (const tile of document.querySelectorAll(".hand .tile")) {
    const hit = others.find((n) => meets(tile.getBoundingClientRect(), n.getBoundingClientRect()));
    if (hit) out.push(`tile ${tile.dataset.tile} over ${hit.className || hit.textContent}`);
  }
  return { out, ends: document.querySelectorAll(".end-target.glow").length,
           tiles: document.querySelectorAll(".board .placed, .board .train .train-tile").length,
           wide: document.documentElement.scrollWidth > document.documentElement.clientWidth };
}"""
FRAME = "() => new Promise((done) => requestAnimationFrame(() => done(null)))"


def computer_table(page: Page, preset: str) -> None:
    """The new-table form at the preset's most seats, every other seat a computer, dealt."""
    page.goto(page.url.split("#")[0] + "#/new")
    page.select_option("#preset", preset)
    for select in page.locator("select[id^='seat-']:not(#seat-count)").all():
        select.select_option("plain")
    page.click("button:text('Create the table')")  # no one to wait for: dealt at once
    expect(page.locator(".hand .tile").first).to_be_visible()


def measure(player: Player, name: str, longest: int) -> dict[str, Any]:
    """Every size's misplaced parts, the tile picked and its ends glowing (a size with any
    keeps a screenshot of it, as does 390 x 844 of the longest board so far)."""
    page = player.page
    found: dict[str, Any] = {}
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(FRAME)
        page.evaluate(FRAME)
        size = f"{width}x{height}"
        found[size] = page.evaluate(OUTSIDE)
        if found[size]["out"]:
            player.shot(f"phone-{name}-{size}-misfit")
        elif width == 390 and found[size]["tiles"] >= longest:
            player.shot(f"phone-{name}")  # at last: the longest board the player saw
    return found


def play_a_hand_measuring(player: Player, name: str) -> tuple[int, int]:
    """Play the hand to its end (the first glowing end each time), measuring at each play.
    Returns (plays measured, most tiles on the board at a measure)."""
    page = player.page
    plays = longest = 0
    for _ in range(200):
        next_step(page)
        tiles = page.locator(READY_TILE)
        if tiles.count():
            tiles.first.click()
            expect(page.locator(".end-target.glow").first).to_be_visible()
            found = measure(player, name, longest)
            for size, seen in found.items():
                assert seen["ends"] >= 1, (name, size, seen)
                assert seen["out"] == [] and not seen["wide"], (name, size, seen)
            longest = max(longest, found["390x844"]["tiles"])
            plays += 1
            page.locator(".end-target.glow").first.click()
            continue
        button = page.locator(f"{READY_BUTTON}:text-matches('^(Draw|Pass)')")
        if not button.count():
            return plays, longest  # the hand is over
        button.first.click()
    raise AssertionError(f"{name}: the hand did not end")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_hand_the_ends_and_the_scores_fit_a_phone(
    players: Callable[..., Player], preset: str, record_property: Callable[[str, object], None]
) -> None:
    player = players(width=390, height=844)
    page = player.open("new")
    sign_in(page, "Fay")
    computer_table(page, preset)
    plays, longest = play_a_hand_measuring(player, preset)
    record_property("plays measured", plays)
    record_property("most tiles on the board", longest)
    assert plays >= 2, f"{preset}: too few plays to measure"


# Where each glowing end is once scrolled to within the board (the board scrolls, the window
# does not), and whether it is then inside the window, inside the board's visible box, and
# clear of the hand.
REACHED = """() => {
  window.scrollTo(0, 0);
  const [w, h] = [window.innerWidth, window.innerHeight];
  const board = document.querySelector(".board");
  const hand = document.querySelector(".hand");
  const out = [];
  const shown = (r, b) => r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5;
  // Picking a tile brings a glowing end into the board's view: none needs looking for.
  const box = board.getBoundingClientRect();
  const seen = [...document.querySelectorAll(".end-target.glow")].filter((n) =>
    shown(n.getBoundingClientRect(), box)).length;
  for (const end of document.querySelectorAll(".end-target.glow")) {
    end.scrollIntoView({ block: "nearest", inline: "nearest" });
    window.scrollTo(0, 0);
    const r = end.getBoundingClientRect();
    const b = board.getBoundingClientRect();
    const k = hand.getBoundingClientRect();
    const inWindow = r.left >= 0 && r.top >= 0 && r.right <= w + 0.5 && r.bottom <= h + 0.5;
    const inBoard = shown(r, b);
    const clear = r.bottom <= k.top + 0.5 || r.top >= k.bottom - 0.5;
    if (!(inWindow && inBoard && clear))
      out.push(`end ${end.dataset.end} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}` +
        ` board ${[b.top, b.bottom].map(Math.round)} hand top ${Math.round(k.top)}`);
  }
  return { out, seen, ends: document.querySelectorAll(".end-target.glow").length,
           rows: document.querySelectorAll(".board .train").length,
           board: Math.round(box.height) };
}"""


def test_mexican_train_at_eight_seats_reaches_every_glowing_end_on_a_phone(
    players: Callable[..., Player], record_property: Callable[[str, object], None]
) -> None:
    player = players(width=360, height=640)
    page = player.open("new")
    sign_in(page, "Fay")
    page.goto(page.url.split("#")[0] + "#/new")
    page.select_option("#preset", "mexican-train")
    page.select_option("#seat-count", "8")
    for select in page.locator("select[id^='seat-']:not(#seat-count)").all():
        select.select_option("plain")
    page.click("button:text('Create the table')")
    expect(page.locator(".hand .tile").first).to_be_visible()
    plays = 0
    for _ in range(60):
        next_step(page)
        page.evaluate("document.querySelector('.board').scrollTop = 0")  # as a player leaves it
        tiles = page.locator(READY_TILE)
        if not tiles.count():
            button = page.locator(f"{READY_BUTTON}:text-matches('^(Draw|Pass)')")
            if not button.count():
                break
            button.first.click()
            continue
        for tile in tiles.all()[:3]:  # each of a few tiles: its ends
            tile.click()
            expect(page.locator(".end-target.glow").first).to_be_attached()
            page.evaluate(FRAME)
            found = page.evaluate(REACHED)
            assert found["rows"] == 9, found  # eight seats' trains and the Mexican train
            if found["out"] or not found["seen"]:
                player.shot("phone-mexican-train-8-misfit")
            assert found["ends"] >= 1 and found["out"] == [], found
            assert found["seen"] >= 1, found
            if page.locator(".hand .tile").count() <= 14:  # two rows: the board is not scrolled
                assert found["seen"] == found["ends"], found
            record_property("board height (px)", found["board"])
        plays += 1
        page.locator(".end-target.glow").first.click()
        if plays >= 4:
            break
    player.shot("phone-mexican-train-8")
    assert plays >= 2, "too few plays to measure"
