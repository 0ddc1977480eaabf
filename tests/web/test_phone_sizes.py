"""A phone's screen (issue 43): at 390 x 844 a ledger's tiles are large enough that a
double-nine's pips are dots one can see, and one's own tile back is a tile, not a 14 px icon.
A Mexican Train table of eight seats (issue 52) on a touch screen at 360 x 640: moves played by
tapping, a tile that fits two trains played on the second one it glows on; at each pick all
nine trains (eight seats' and the Mexican train) inside the window and inside the board's box
with no scrolling of the board, each train's count of tiles and marker as the view has them,
every seat's and train owner's name showing at least three characters (the full name in the
owner's label and title). With a tile picked at 360 x 640, 390 x 844 and 412 x 915: no
sideways page scroll, every touch target of play (the hand's tiles, the trains' glowing ends
and owners, the buttons below) at least 44 x 44 px and inside the window, the nine trains in
view, and no serious or critical axe violation (also with a train opened whole). Sizes are
CSS pixels read off the rendered page (getBoundingClientRect)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player
from tests.web.helpers import (
    READY_BUTTON,
    READY_TILE,
    eight_seat_trains_table,
    match_view,
    next_step,
    sign_in,
    start_solo,
)
from tests.web.test_audit import AXE, RUN_AXE
from tests.web.test_ledger import finish_by_resigning

PHONE = {"width": 390, "height": 844}
TRAINS_SIZES = [(360, 640), (390, 844), (412, 915)]
LONG_NAME = "Nedwardine"  # longer than a phone's train cell shows: "Nedward…"
# The touch targets of play smaller than 44 x 44 px or outside the window (after the page is
# back at its top), and whether the page is wider than the window.
TARGETS = """() => {
  window.scrollTo(0, 0);
  const [w, h] = [window.innerWidth, window.innerHeight];
  const nodes = document.querySelectorAll(
    ".hand .tile, .end-target.glow, .trains-list .train-owner, .controls-box button," +
    " .controls-box a");
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
# The trains' rows outside the window or the board's own box (the board must not scroll), each
# train's count and marker as drawn, and the names (seats' and trains' owners) that do not show
# their first three characters with room for an ellipsis after them.
TRAINS_IN_VIEW = """() => {
  window.scrollTo(0, 0);
  const view = { left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight };
  const within = (r, o) => r.left >= o.left - 0.5 && r.top >= o.top - 0.5 &&
    r.right <= o.right + 0.5 && r.bottom <= o.bottom + 0.5;
  const board = document.querySelector(".board");
  const box = board.getBoundingClientRect();
  const rows = [...document.querySelectorAll(".trains-list .train")];
  const out = rows.filter((row) => {
    const r = row.getBoundingClientRect();
    return !(within(r, view) && within(r, box));
  }).map((row) => `${row.dataset.train} at ${Math.round(row.getBoundingClientRect().top)}`);
  const cut = [];
  for (const name of document.querySelectorAll(".seat-name, .trains-list .owner-name")) {
    const text = document.createTreeWalker(name, NodeFilter.SHOW_TEXT).nextNode();
    const right = name.getBoundingClientRect().right;
    let three = name.scrollWidth <= name.clientWidth;  // drawn whole
    if (!three && text && text.length >= 3) {
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, 3);
      three = range.getBoundingClientRect().right + 10 <= right + 0.5;
    }
    if (!three) cut.push(`${name.textContent} ${Math.round(name.clientWidth)} px`);
  }
  const trains = Object.fromEntries(rows.map((row) => [row.dataset.train, {
    count: row.querySelector(".train-count")?.textContent,
    marker: Boolean(row.querySelector(".marker")),
    label: row.querySelector(".train-owner .visually-hidden")?.textContent,
    title: row.querySelector(".train-owner")?.getAttribute("title"),
  }]));
  // Where each part of the table lies (top and height), to say what took the board's room.
  const at = (n) => [n.getBoundingClientRect().top, n.getBoundingClientRect().height];
  const parts = Object.fromEntries([...document.querySelectorAll(".table-main > *")].map((n) =>
    [n.className, at(n).map(Math.round)]));
  return { rows: rows.length, out, cut, trains, parts, compact: board.classList.contains("compact"),
           status: document.querySelector(".status")?.textContent,
           scrolls: board.scrollHeight > board.clientHeight + 1 };
}"""
FRAME = "() => new Promise((done) => requestAnimationFrame(() => done(null)))"
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


def check_trains(page: Page, where: str) -> None:
    """At the person's turn (the board still): every train as the view has it, and in view
    while the hand holds two rows of tiles at most (a third takes the board's room)."""
    found = page.evaluate(TRAINS_IN_VIEW)
    view = match_view(page)
    assert found["rows"] == 9 and found["compact"], (where, found)
    if len(view["you"]["hand"]) <= 14:
        assert found["out"] == [] and not found["scrolls"], (where, found)
    assert found["cut"] == [], (where, found["cut"])
    names = [seat["name"] for seat in view["seats"]]
    assert names[0] == LONG_NAME
    for end, train in found["trains"].items():
        tiles = [t for t in view["board"]["tiles"] if t["end"] == end]
        assert train["count"] == str(len(tiles)), (where, end, train, len(tiles))
        seat = None if end == "mexican" else int(end.removeprefix("train"))
        assert train["marker"] == (seat in view["board"]["markers"]), (where, end, train)
        owner = "Mexican train" if seat is None else f"{names[seat]}'s train"
        assert train["label"].startswith(owner) and train["title"].startswith(owner), train


def glowing(page: Page) -> list[str]:
    ends: list[str] = page.locator(".end-target.glow").evaluate_all(
        "(nodes) => nodes.map((n) => n.dataset.end)"
    )
    return ends


def tap_a_play(page: Page) -> tuple[str, str, int]:
    """Tap each playable tile in turn until one glows on more than one train (else the last),
    then tap the last train it glows on. Returns (tile, train, trains it glowed on)."""
    tiles = page.locator(READY_TILE)
    chosen, ends = "", []
    for n in range(tiles.count()):
        tile = tiles.nth(n)
        chosen = tile.get_attribute("data-tile") or ""
        tile.tap()
        expect(page.locator(".end-target.glow").first).to_be_visible()
        page.evaluate(FRAME)
        ends = glowing(page)
        if len(ends) > 1:
            break
    check_trains(page, f"{chosen} picked")
    page.locator(f".end-target.glow[data-end='{ends[-1]}']").tap()
    expect(page.locator(".table-page[aria-busy='false']")).to_have_count(1)
    return chosen, ends[-1], len(ends)


def tap_plays(page: Page, wanted: int) -> int:
    """Take the person's turns by tapping until `wanted` plays, one of them on the second of
    two trains a tile fits, are made; each play is found on its train in the view."""
    plays, choices = 0, 0
    for _ in range(150):
        if plays >= wanted and choices:
            return plays
        next_step(page)
        if page.locator(READY_TILE).count():
            tile, train, ends = tap_a_play(page)
            placed = [
                sorted(t["tile"]) for t in match_view(page)["board"]["tiles"] if t["end"] == train
            ]
            assert sorted(map(int, tile.split("-"))) in placed, (tile, train, placed)
            plays, choices = plays + 1, choices + (ends > 1)
            continue
        button = page.locator(f"{READY_BUTTON}:text-matches('^(Draw|Pass|Next round)')")
        assert button.count(), "the match is over"
        button.first.tap()
    raise AssertionError(f"{plays} plays, {choices} on a second train")


def audit_sizes(person: Player, record_property: Callable[[str, object], None]) -> None:
    """A tile picked: each size's touch targets, trains in view and axe."""
    page = person.page
    for width, height in TRAINS_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(FRAME)
        found = page.evaluate(TARGETS)
        person.shot(f"trains-8-seats-picked-{width}x{height}")
        assert found["ends"] >= 1 and found["targets"] > found["ends"], found
        assert found["bad"] == [] and not found["wide"], (width, height, found)
        check_trains(page, f"{width}x{height}")
        assert_axe(page, record_property, f"{width}x{height}")


def assert_axe(page: Page, record_property: Callable[[str, object], None], where: str) -> None:
    page.add_script_tag(path=str(AXE))
    serious = [v for v in page.evaluate(RUN_AXE) if v["impact"] in ("serious", "critical")]
    record_property(f"axe {where}", len(serious))
    assert serious == [], (where, serious)


def open_a_train_whole(person: Player, record_property: Callable[[str, object], None]) -> None:
    """Tap the owner of the longest train: all its tiles in a row of their own; tap again."""
    page = person.page
    view = match_view(page)
    counts: dict[str, Any] = {}
    for placed in view["board"]["tiles"][1:]:
        counts[placed["end"]] = counts.get(placed["end"], 0) + 1
    longest = max(counts, key=counts.__getitem__)
    owner = page.locator(f".train[data-train='{longest}'] .train-owner")
    owner.tap()
    row = page.locator(f".train.open[data-train='{longest}']")
    expect(row.locator(".train-strip .train-tile")).to_have_count(counts[longest])
    expect(row.locator(".train-owner")).to_have_attribute("aria-expanded", "true")
    expect(row.locator(".train-owner")).to_be_focused()
    person.shot("trains-8-seats-one-open-360x640")
    assert_axe(page, record_property, "a train open")
    row.locator(".train-owner").tap()
    expect(page.locator(".train.open")).to_have_count(0)
    check_trains(page, "closed again")


def test_a_trains_table_of_eight_on_phones(
    browser: Browser, play_server: ServerProcess, record_property: Callable[[str, object], None]
) -> None:
    ned = eight_seat_trains_table(browser, play_server, LONG_NAME, touch=True)
    page = ned.page
    page.set_viewport_size({"width": 360, "height": 640})
    record_property("plays by tapping", tap_plays(page, 3))
    next_step(page)
    while not page.locator(READY_TILE).count():  # to the person's next play
        page.locator(f"{READY_BUTTON}:text-matches('^(Draw|Pass|Next round)')").first.tap()
        next_step(page)
    page.locator(READY_TILE).first.tap()
    expect(page.locator(".end-target.glow").first).to_be_visible()
    audit_sizes(ned, record_property)
    page.set_viewport_size({"width": 360, "height": 640})
    open_a_train_whole(ned, record_property)
    ned.context.close()
    assert ned.errors == [], ned.errors
