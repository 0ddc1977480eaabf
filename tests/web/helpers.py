"""Steps a person takes on /play, written once for the browser tests."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player

# What a seat can do when the page is ready for it (a request in flight disables them all).
READY_TILE = ".hand .tile.playable:not([disabled])"
READY_BUTTON = ".controls-box button:not([disabled])"
OVER_LINK = ".controls-box a:text('Open the deal ledger')"


def sign_in(page: Page, name: str) -> None:
    """The name form pages show to a browser that has no player yet."""
    page.fill("#first-name", name)
    page.click("button:text('Continue')")


def start_solo(page: Page, preset: str, opponent: str = "planner", cut: str = "moon") -> None:
    page.select_option("#preset", preset)
    page.select_option("#opponent", opponent)
    page.fill("#cut", cut)
    page.click("button:text('Deal')")
    expect(page.locator(".hand .tile").first).to_be_visible()


def next_step(page: Page) -> Locator:
    """Wait (auto-waiting, no sleeps) until one of: a playable tile, an enabled Draw / Pass /
    Next hand button, the hot-seat reveal, or the end of the match."""
    choices = page.locator(
        f"{READY_TILE}, {READY_BUTTON}:text-matches('^(Draw|Pass|Next hand|Next round)'),"
        f" .reveal button, {OVER_LINK}"
    )
    expect(choices.first).to_be_visible()
    return choices


def take_turn(page: Page, next_hand: bool = True) -> str:
    """One action by clicking: a playable tile then its first glowing end, else draw, pass or
    (with `next_hand`) the next hand. Returns what was done, or 'over' / 'hand_over'."""
    next_step(page)
    if page.locator(OVER_LINK).count():
        return "over"
    if page.locator(".reveal button").count():
        page.locator(".reveal button").click()
        expect(page.locator(".reveal")).to_have_count(0)
        return "reveal"
    tiles = page.locator(READY_TILE)
    if tiles.count():
        tiles.first.click()
        end = page.locator(".end-target.glow").first
        expect(end).to_be_visible()
        end.click()
        return "play"
    button = page.locator(f"{READY_BUTTON}:text-matches('^(Draw|Pass|Next hand|Next round)')").first
    label = button.inner_text().split()[0].lower()
    if label == "next" and not next_hand:
        return "hand_over"
    button.click()
    return label


def play_until_over(page: Page, next_hand: bool = True, limit: int = 600) -> list[str]:
    """Take turns until the match is over (or, without `next_hand`, the hand); returns the
    actions taken, the last being 'over' or 'hand_over'."""
    actions: list[str] = []
    while not actions or actions[-1] not in ("over", "hand_over"):
        assert len(actions) < limit, f"still playing after {limit} actions: {actions[-10:]}"
        actions.append(take_turn(page, next_hand))
    return actions


def match_view(page: Page) -> dict[str, Any]:
    """The view of the match `page` shows, as its player reads it over REST (through the page's
    own api.js, so with its token)."""
    match_id = page.url.split("#/match/")[1]
    view: dict[str, Any] = page.evaluate(
        """async (id) => (await import("./api.js")).call("GET", `/v1/matches/${id}`)""", match_id
    )
    return view


def setting(page: Page, switch: str) -> Locator:
    """One of the bar's switches (`hints`, `sound`, `music`), its Settings menu opened."""
    menu = page.locator("details.settings")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()
    return page.locator(f"#{switch}")


def eight_seat_trains_table(
    browser: Browser,
    server: ServerProcess,
    name: str,
    rounds: str | None = None,
    touch: bool = False,
) -> Player:
    """A Mexican Train table of eight seats on a 360 x 740 phone (with `touch`, a touch screen:
    Playwright's `tap` works there): `name` and seven Plain computers, dealt at once (no one to
    wait for). Its context bypasses the page's Content-Security-Policy, so that axe's script
    can go into the page."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, bypass_csp=True, has_touch=touch
    )
    person = Player(context, server.base_url)
    page = person.open("new")
    sign_in(page, name)
    page.select_option("#preset", "mexican-train")
    page.select_option("#seat-count", "8")
    for select in page.locator("select[id^='seat-']:not(#seat-count)").all():
        select.select_option("plain")
    if rounds is not None:
        page.select_option("#opt-rounds", rounds)
    page.click("button:text('Create the table')")
    # Eight players' trains and the Mexican train, each row its owner's.
    expect(page.locator(".trains-list .train")).to_have_count(9)
    return person
