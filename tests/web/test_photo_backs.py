"""The tile-back picker in a browser: NASA's photographs as the Epic and Legendary backs with
their credits, the back one has marked, and one's own back shown at a size one can see."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import sign_in, start_solo


def test_the_picker_shows_credited_photographs_and_marks_yours(
    players: Callable[..., Player],
) -> None:
    kim = players()
    page = kim.open("solo")
    sign_in(page, "Kim")
    start_solo(page, "draw-50", "plain")
    mine = page.locator(".my-back img")
    box = mine.bounding_box()
    assert box is not None and box["height"] >= 48 and box["width"] >= 24, box

    page.click(".my-back button:text('Change')")
    dialog = page.locator("dialog.backs")
    expect(dialog.locator("button.current")).to_have_attribute("data-back", "moon")
    callisto = dialog.locator("button[data-back='galileo-callisto']")
    expect(callisto).to_contain_text("Callisto (legendary)")
    expect(callisto.locator(".credit")).to_have_text(re.compile(r"^Photograph: NASA/JPL"))
    earth = dialog.locator("button[data-back='apollo-15-earth']")
    expect(earth).to_contain_text("(epic)")
    expect(earth.locator("img")).to_have_attribute("src", re.compile(r"apollo-15-earth\.jpg$"))
    # Every photograph has loaded (a broken image has no natural width).
    for back in ("apollo-15-earth", "galileo-callisto", "galileo-europa"):
        loaded = dialog.locator(f"button[data-back='{back}'] img")
        expect(loaded).to_have_js_property("complete", True)
        assert loaded.evaluate("img => img.naturalWidth") == 200
    callisto.click()
    expect(mine).to_have_attribute("src", re.compile(r"galileo-callisto\.jpg$"))

    page.click(".my-back button:text('Change')")
    current = dialog.locator("button.current")
    expect(current).to_have_attribute("data-back", "galileo-callisto")
    expect(current.locator(".yours")).to_have_text("Your back")
    expect(dialog.locator(".yours")).to_have_count(1)
    kim.shot("tile-back-picker-photographs")
    dialog.locator("button:text('Close')").last.click()
    kim.shot("own-back-callisto")
