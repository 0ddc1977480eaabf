"""A whole solo match with the keyboard alone (issue 51), on a phone's screen: the name, the
form, every play (Tab to the hand, arrows to a playable tile, Enter, Enter on its glowing end),
every draw, pass and next hand, and the ledger at the end; no click anywhere. The hand's tiles
and the ends are named for screen readers ("six-three, playable on the left end"), the others'
moves are said in the polite live region, and after each move the focus is on the table."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import OVER_LINK, READY_TILE, next_step

WORD = r"(blank|one|two|three|four|five|six|seven|eight|nine)"
TILE_NAME = re.compile(
    rf"^(double-{WORD}|{WORD}-{WORD}), playable "
    r"(on the (left|right|up|down) end|to open the hand)(; or on the (left|right|up|down) end)*$"
)
END_NAME = re.compile(rf"^Play (double-{WORD}|{WORD}-{WORD}) (on the (left|right|up|down) end)?")
# The focused element, if it is an enabled button whose text begins with one of the words.
FOCUS_ON_BUTTON = """(words) => {
  const node = document.activeElement;
  return node instanceof HTMLButtonElement && !node.disabled &&
    words.some((w) => node.textContent.startsWith(w));
}"""


def press_text(page: Page, text: str) -> None:
    for key in text:
        page.keyboard.press(key)


def tab_until(page: Page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focus is on `selector`."""
    for _ in range(limit):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def tab_to_button(page: Page, *words: str, limit: int = 80) -> None:
    for _ in range(limit):
        if page.evaluate(FOCUS_ON_BUTTON, list(words)):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached a button {words}")


def start_by_keyboard(page: Page) -> None:
    """Name, Block to 20 against Planner, a cut: typed, and dealt with Enter."""
    tab_until(page, "#first-name")
    press_text(page, "Kit")
    page.keyboard.press("Enter")
    tab_until(page, "#preset")
    page.keyboard.press("B")  # a closed select takes the first letter of its option
    expect(page.locator("#preset")).to_have_value("block")
    tab_until(page, "#opt-target")
    page.keyboard.press("Control+A")
    press_text(page, "20")
    tab_until(page, "#cut")
    press_text(page, "keys")
    page.keyboard.press("Enter")
    expect(page.locator(".hand .tile").first).to_be_visible()


def play_by_keyboard(page: Page) -> None:
    """Tab to the hand, arrows to its first playable tile, Enter; Enter on the focused end."""
    tab_until(page, ".hand .tile")
    for _ in range(30):
        if page.evaluate("() => document.activeElement.matches('.tile.playable')"):
            break
        page.keyboard.press("ArrowRight")
    tile = page.locator(".hand .tile:focus")
    expect(tile).to_have_accessible_name(TILE_NAME)
    page.keyboard.press("Enter")
    end = page.locator(".end-target.glow:focus")
    expect(end).to_have_count(1)
    expect(end).to_have_accessible_name(END_NAME)
    page.keyboard.press("Enter")


def test_a_whole_solo_match_with_the_keyboard_alone(players: Callable[..., Player]) -> None:
    kit = players(width=390, height=844)
    page = kit.open("solo")
    start_by_keyboard(page)
    done: list[str] = []
    for _ in range(300):
        next_step(page)
        if page.locator(OVER_LINK).count():
            break
        if page.locator(READY_TILE).count():
            play_by_keyboard(page)
            done.append("play")
        else:
            tab_to_button(page, "Draw", "Pass", "Next hand")
            done.append(page.evaluate("() => document.activeElement.textContent.split(' ')[0]"))
            page.keyboard.press("Enter")
        # Planner answers at once; its move is said, and the focus stays on the table.
        expect(page.locator(".table-page[aria-busy=true]")).to_have_count(0)
        focused = page.evaluate("() => document.activeElement.closest('.table-main') !== null")
        assert focused, f"the focus left the table after {done[-1]}"
        if done == ["play"]:
            expect(page.locator("#live")).to_have_text(re.compile(r"^Planner (played|drew|passed)"))
    else:
        raise AssertionError(f"the match did not end: {done[-10:]}")
    assert done.count("play") >= 3, done
    kit.shot("keyboard-match-over")
    tab_until(page, ".controls-box a[href^='#/ledger/']")  # "Open the deal ledger"
    page.keyboard.press("Enter")
    expect(page.locator("#page-verdict")).to_contain_text("Verified")
