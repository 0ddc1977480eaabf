"""An accessibility audit of every /play page (issue 51): axe-core (the npm package, injected into
the page) finds no serious or critical violation of WCAG 2.2 A/AA on the first page, the new-table
and join forms, the lobby, the account panel, a table waiting for players, a table in play (on
one's turn with a tile picked, and waiting for the other player), a hand's end, the ledger,
records and ratings, tournaments and a bracket; and no page scrolls sideways at 320 px.

Each page's violations are written to axe.json in test-output/web/ and recorded as test properties,
so a run shows the figures whether or not it passes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.servers import ROOT, ServerProcess
from tests.web.conftest import SHOTS, Player
from tests.web.helpers import match_view, play_until_over, sign_in
from tests.web.test_bracket import headers, rest_player
from tests.web.test_ledger import finish_by_resigning

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
NARROWEST = {"width": 320, "height": 640}
# WCAG 2.0-2.2 A and AA: the rules that bear on conformance (not axe's best practices).
RUN_AXE = """async () => {
  const result = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, nodes: v.nodes.length,
    where: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
  }));
}"""
# The page's width, and the innermost elements that stick out past the window's right edge.
WIDTHS = """() => {
  const client = document.documentElement.clientWidth;
  const clipped = (n) => {
    for (let up = n.parentElement; up && up !== document.body; up = up.parentElement)
      if (getComputedStyle(up).overflowX !== "visible") return true;
    return false;
  };
  const out = [...document.querySelectorAll("body *")].filter(
    (n) => n.getBoundingClientRect().right > client + 0.5 && !clipped(n));
  const innermost = out.filter((n) => !out.some((m) => m !== n && n.contains(m)));
  const name = (n) => `${n.tagName.toLowerCase()}.${n.className}`;
  const right = (n) => Math.round(n.getBoundingClientRect().right);
  return { scroll: document.documentElement.scrollWidth, client,
           out: innermost.slice(0, 4).map((n) => `${name(n)} ${right(n)}`) };
}"""


@pytest.fixture
def audited(browser: Browser, play_server: ServerProcess) -> Iterator[Callable[[], Player]]:
    """People whose pages take axe's script: the page's Content-Security-Policy allows only the
    service's own scripts, so these contexts bypass it (nothing else about the page changes)."""
    assert AXE.exists(), "axe-core is missing: run `make js-install`"
    made: list[Player] = []

    def new() -> Player:
        context = browser.new_context(viewport=PHONE, bypass_csp=True)
        made.append(Player(context, play_server.base_url))
        return made[-1]

    yield new
    errors = [error for person in made for error in person.errors]
    for person in made:
        person.context.close()
    assert errors == [], f"console errors: {errors}"


class Audit:
    """Each page's serious and critical violations, and its width at 320 px."""

    def __init__(self) -> None:
        self.found: dict[str, list[dict[str, Any]]] = {}
        self.wide: dict[str, str] = {}

    def check(self, name: str, page: Page) -> None:
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(RUN_AXE)
        self.found[name] = [v for v in violations if v["impact"] in ("serious", "critical")]
        page.set_viewport_size(NARROWEST)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
        widths = page.evaluate(WIDTHS)
        if widths["scroll"] > widths["client"]:
            self.wide[name] = f"{widths['scroll']} px: {widths['out']}"
        page.set_viewport_size(PHONE)

    def report(self, record: Callable[[str, object], None]) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        figures = {"violations": self.found, "wider_than_320": self.wide}
        (SHOTS / "axe.json").write_text(json.dumps(figures, indent=1))
        for name, violations in self.found.items():
            record(f"axe {name}", sum(v["nodes"] for v in violations))


def start_tournament(page: Page, server: ServerProcess) -> None:
    """A four-entrant bracket, started: the page's player and three over REST."""
    page.fill("#t-name", "Audit cup")
    page.fill("#t-size", "4")
    page.select_option("#t-goal", "target")
    page.click("button:text('Create the tournament')")
    page.click("button:text('Enter')")
    tid = page.url.split("#/tournament/")[1]
    with httpx.Client(base_url=server.base_url) as client:
        for name in ("Bo", "Cy", "Di"):
            joined = client.post(
                f"/v1/tournaments/{tid}/entrants", headers=headers(rest_player(client, name))
            )
            assert joined.status_code == 200, joined.text
    expect(page.locator("h3", has_text="Entrants")).to_have_text("Entrants (4/4)")
    page.click("button:text('Start the tournament')")
    expect(page.locator(".bracket .column h3")).to_have_text(["Round 1", "Final"])


def table_for_two(host: Page, guest: Player) -> tuple[Page, Page]:
    """A house double-nines table of two people; returns (the seat on turn, the other)."""
    host.goto(host.url.split("#")[0] + "#/new")
    host.select_option("#preset", "house-nines")
    host.select_option("#seat-count", "2")
    host.click("button:text('Create the table')")
    code = host.get_by_test_id("code")
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    page = guest.open("join")
    page.fill("#join-code", code.inner_text())
    page.fill("#your-name", "Ben")
    page.click("button:text('Join the game')")
    expect(page.locator(".seats")).to_be_visible()
    host.click("button:text('Start the game')")
    for seat in (host, page):
        expect(seat.locator(".hand .tile").first).to_be_visible()
    expect(host.locator("#status")).to_contain_text(re.compile("Your turn|to play"))
    on_turn = host if "Your turn" in host.locator("#status").inner_text() else page
    return on_turn, page if on_turn is host else host


def test_every_page_passes_the_audit(
    audited: Callable[[], Player],
    play_server: ServerProcess,
    record_property: Callable[[str, object], None],
) -> None:
    audit = Audit()
    ana, ben = audited(), audited()
    page = ana.open("")
    expect(page.locator("h2").first).to_be_visible()
    audit.check("home", page)
    page = ana.open("new")
    sign_in(page, "Ana")
    expect(page.locator("#preset")).to_be_visible()
    audit.check("new table", page)
    page = ana.open("join")
    expect(page.locator("#join-code")).to_be_visible()
    audit.check("join", page)
    page = ana.open("")
    expect(page.locator("h2", has_text="Welcome back")).to_be_visible()
    audit.check("lobby", page)
    page.locator("details.account summary").click()
    expect(page.locator("details.account ul.devices li").first).to_be_visible()
    audit.check("account panel", page)

    page = ana.open("new")
    page.select_option("#preset", "draw-50")
    page.select_option("#seat-1", "remote")
    page.click("button:text('Create the table')")
    expect(page.get_by_test_id("code")).to_have_text(re.compile(r"^\d{4}$"))
    audit.check("table waiting for players", page)
    on_turn, waiting = table_for_two(page, ben)
    on_turn.locator(".hand .tile.playable").first.click()
    expect(on_turn.locator(".end-target.glow").first).to_be_visible()
    audit.check("table in play, own turn", on_turn)
    audit.check("table in play, waiting", waiting)

    page = ana.open("solo")
    page.select_option("#preset", "all-fives")
    page.select_option("#opponent", "plain")
    # A target no first hand reaches, so the hand's end is a page of its own to audit.
    page.fill("#opt-target", "1000")
    page.fill("#cut", "audit")
    page.click("button:text('Deal')")
    expect(page.locator(".hand .tile").first).to_be_visible()
    assert match_view(page)["ruleset"]["target"] == 1000
    if play_until_over(page, next_hand=False)[-1] == "hand_over":
        audit.check("the hand's end", page)
        page.click("button:text('Next hand')")
        expect(page.locator("button:text('Resign')")).to_be_visible()
        finish_by_resigning(page)
    page.click("a:text('Open the deal ledger')")
    expect(page.locator("#page-verdict")).to_contain_text("Verified")
    audit.check("ledger", page)
    page = ana.open("records")
    expect(page.locator("h2").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    audit.check("records and ratings", page)
    page = ana.open("")  # Ben's name in Your matches opens his profile
    page.locator(".my-matches").get_by_role("link", name="Ben").first.click()
    expect(page.get_by_role("heading", level=2)).to_have_text("Ben")
    audit.check("a profile", page)
    page = ana.open("tournaments")
    expect(page.locator("#t-name")).to_be_visible()
    audit.check("tournaments", page)
    start_tournament(page, play_server)
    audit.check("a bracket", page)

    audit.report(record_property)
    assert "the hand's end" in audit.found, "the first hand ended the match: cut again"
    assert {name: v for name, v in audit.found.items() if v} == {}
    assert audit.wide == {}, f"pages wider than 320 px: {audit.wide}"
