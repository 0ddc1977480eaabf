"""Seed 002's Draw to 50 as its players meet it: a chain that scrolls sideways with both open
ends' values always in view (seed 001's tables bend instead), the six-step tutorial, and Enter
or Space on whatever control has the focus."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import READY_TILE, match_view, next_step, sign_in, start_solo, take_turn

# A straight run of `count` tiles drawn by board.js into a 400-px box, scrolling or bending.
DRAW = """async ([count, scroll]) => {
  const { renderBoard } = await import("./board.js");
  const tiles = [{ tile: [0, 1], end: null, outer: null, spinner: false }];
  let pip = 1;
  for (let i = 1; i < count; i++) {
    const next = (pip + 1) % 7;
    tiles.push({ tile: [pip, next], end: "right", outer: next, spinner: false });
    pip = next;
  }
  const box = document.createElement("div");
  box.className = "board";
  box.style.width = "400px";
  document.getElementById("app").replaceChildren(box);
  const ends = [{ end: "left", pips: 0 }, { end: "right", pips: pip }];
  renderBoard(box, { tiles, ends, ends_total: 0 }, () => null, scroll);
  const scroller = box.querySelector(".chain-scroll");
  const rows = new Set([...box.querySelectorAll(".placed")].map((t) => t.offsetTop));
  return {
    rows: rows.size,
    scrolls: scroller ? scroller.scrollWidth > scroller.clientWidth : false,
    wider: box.scrollWidth > box.clientWidth,
    labels: [...box.querySelectorAll(".end-label")].map((l) => l.textContent),
    right: pip,
  };
}"""


def test_each_preset_gets_the_board_its_seed_describes(players: Callable[..., Player]) -> None:
    page = players().open("")
    chain: dict[str, Any] = page.evaluate(DRAW, [14, True])  # seed 002: Draw to 50
    labels = ["◀ 0", f"{chain['right']} ▶"]
    shape = (chain["rows"], chain["scrolls"], chain["wider"], chain["labels"])
    assert shape == (1, True, False, labels), chain
    bent: dict[str, Any] = page.evaluate(DRAW, [14, False])  # seed 001: house rules
    assert bent["rows"] > 1 and not bent["scrolls"] and not bent["wider"], bent
    assert bent["labels"] == []


OUTGROWN = """() => {
  const chain = document.querySelector(".board .chain-scroll");
  const status = document.getElementById("status")?.textContent || "";
  const busy = document.querySelector(".table-page[aria-busy=true]");
  return Boolean(chain && chain.scrollWidth > chain.clientWidth && !busy)
    && /^Your turn/.test(status) && document.querySelector(".hand .tile") !== null;
}"""


def settled_and(page: Page, condition: str) -> bool:
    """`condition`, asked once the table can be acted on and is not redrawing: asked mid-redraw
    on a loaded machine, it missed the one turn the chain was long enough (a CI run)."""
    next_step(page)
    page.wait_for_function("() => !document.querySelector('.table-page[aria-busy=true]')")
    return bool(page.evaluate(condition))


def end_labels_in_view(page: Page) -> None:
    box = page.locator(".board").bounding_box()
    assert box is not None
    for end in ("left", "right"):
        label = page.locator(f".board .end-label[data-end={end}]")
        expect(label).to_be_visible()
        at = label.bounding_box()
        assert at is not None
        assert box["x"] <= at["x"] and at["x"] + at["width"] <= box["x"] + box["width"]


def test_the_draw_to_50_chain_scrolls_sideways_with_both_end_labels(
    players: Callable[..., Player],
) -> None:
    dee = players(width=480, height=900)
    page = dee.open("solo")
    sign_in(page, "Dee")
    start_solo(page, "draw-50", "plain", cut="long chain")
    scroller = page.locator(".board .chain-scroll")
    # Play on (through the next hands if need be) until the chain is wider than the table and
    # the turn is Dee's again, so nothing redraws the table while it is looked at.
    while not settled_and(page, OUTGROWN):
        assert take_turn(page) != "over", "the match ended before the chain outgrew the table"
    expect(page.locator(".board .placed")).not_to_have_count(0)
    tops = page.locator(".board .placed").evaluate_all(
        "(tiles) => tiles.map((t) => t.offsetTop + t.offsetHeight / 2)"
    )
    assert max(tops) - min(tops) < 1, f"the chain bent: {tops}"  # one straight line
    ends = {e["end"]: e["pips"] for e in match_view(page)["board"]["ends"]}
    expect(page.locator(".end-label[data-end=left]")).to_have_text(f"◀ {ends['left']}")
    expect(page.locator(".end-label[data-end=right]")).to_have_text(f"{ends['right']} ▶")
    for side in ("0", "s.scrollWidth"):  # scrolled to either end, both labels stay in view
        scroller.evaluate(f"(s) => (s.scrollLeft = {side})")
        end_labels_in_view(page)
    dee.shot("draw-50-scrolling-chain")


def tab_to(page: Page, selector: str, limit: int = 60) -> None:
    """Press Tab until the focus is on `selector` (the keyboard's only way around)."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_the_six_step_tutorial_and_space_on_every_control(players: Callable[..., Player]) -> None:
    eli = players()
    page = eli.open("")
    page.locator("body").focus()
    tab_to(page, "a[href='#/tutorial']")
    page.keyboard.press(" ")  # Space follows a link as Enter does
    expect(page).to_have_url(re.compile(r"#/tutorial$"))
    titles = []
    for step in range(1, 7):
        expect(page.locator(".tutorial .step-count")).to_have_text(f"Step {step} of 6")
        titles.append(page.locator(".tutorial h3").inner_text())
        if step == 3:
            eli.shot("draw-50-tutorial")
        tab_to(page, ".tutorial button.primary")
        page.keyboard.press(" " if step % 2 else "Enter")
    assert titles[0] == "The tiles and the deal" and titles[-1] == "Winning the match", titles
    expect(page).to_have_url(re.compile(r"#/solo$"))

    sign_in(page, "Eli")
    start_solo(page, "draw-50", "plain", cut="space bar")
    # Once the socket's snapshot is in and the turn is Eli's, nothing redraws the table.
    expect(page.locator(".link-state")).to_have_text("")
    expect(page.locator("#status")).to_have_text(re.compile("^Your turn"))
    how = page.locator(".table-top button:text('How to play')")
    how.focus()
    page.evaluate("window.dispatchEvent(new Event('hints'))")  # the table redraws ...
    expect(how).to_be_focused()  # ... and the focused control above it stays as it was
    page.keyboard.press(" ")
    dialog = page.locator("dialog.tutorial-dialog")
    expect(dialog.locator(".step-count")).to_have_text("Step 1 of 6")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)

    # Moves with Space alone: a tile, then its end; Draw when nothing fits.
    played = 0
    while played < 2:
        expect(page.locator(".table-page[aria-busy=true]")).to_have_count(0)
        if page.locator(READY_TILE).count() == 0:
            take_turn(page)  # the computer's turn, a draw or the next hand, by clicking
            continue
        page.locator(READY_TILE).first.focus()
        page.keyboard.press(" ")
        expect(page.locator(".end-target.glow:focus")).to_have_count(1)
        before = page.locator(".board .placed").count()
        page.keyboard.press(" ")
        expect(page.locator(".board .placed")).not_to_have_count(before)
        played += 1
