"""The deal ledger checked in the page (WebCrypto sha256-fy-v1, itself checked against the
published vectors) and by the server's verify route; a tampered ledger is refused by both."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import sign_in, start_solo, take_turn

FETCH_LEDGER = """async (id) => {
  const { token } = JSON.parse(localStorage.getItem("domino.identity"));
  const headers = { authorization: `Bearer ${token}` };
  const r = await fetch(`/v1/matches/${id}/ledger`, { headers });
  return r.json();
}"""


# The deal of `hand` at `attempt`, from the server's verify route (what a forger would use).
DEAL_AT = """async ([ledger, hand, attempt]) => {
  const { token } = JSON.parse(localStorage.getItem("domino.identity"));
  const body = { secret: ledger.deal.secret, commitment: ledger.deal.commitment,
    cut: ledger.deal.cut, hand_number: hand.number, attempt, max_pip: ledger.ruleset.max_pip,
    players: hand.dealt.length, hand_size: ledger.ruleset.hand_size };
  const r = await fetch("/v1/deals/verify", { method: "POST", body: JSON.stringify(body),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } });
  return r.json();
}"""


def finish_by_resigning(page: Page) -> str:
    for _ in range(3):
        take_turn(page)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:text('Resign')")
    expect(page.locator("#status")).to_contain_text("wins the match (forfeit)")
    return page.url.rsplit("/", 1)[1]


def paste_and_verify(page: Page, ledger: dict[str, Any]) -> None:
    page.goto(page.url.split("#")[0] + "#/verify")
    page.fill("#ledger-json", json.dumps(ledger))
    page.click("button:text('Verify')")


def test_a_ledger_verified_in_the_page_and_by_the_server(players: Callable[..., Player]) -> None:
    eva = players()
    page = eva.open("solo")
    sign_in(page, "Eva")
    start_solo(page, "all-fives", "plain", cut="my own cut")
    match_id = finish_by_resigning(page)

    page.click("a:text('Open the deal ledger')")
    expect(page.locator("#vectors-verdict")).to_have_text(
        "✓ This page reproduces all 17 published deal vectors."
    )
    expect(page.locator("#page-verdict")).to_have_text("✓ Verified in this page.")
    expect(page.locator("#server-verdict")).to_have_text("✓ Verified by the server's verify route.")
    expect(page.locator(".ledger")).to_contain_text("Cut “my own cut”")
    eva.shot("ledger-verified")

    ledger = page.evaluate(FETCH_LEDGER, match_id)
    paste_and_verify(page, ledger)
    expect(page.locator("#page-verdict")).to_have_text("✓ Verified in this page.")

    hand = ledger["hands"][0]
    hand["dealt"][0][0], hand["stock"][0] = hand["stock"][0], hand["dealt"][0][0]
    paste_and_verify(page, ledger)
    expect(page.locator("#page-verdict")).to_contain_text("✗ Refused by this page")
    expect(page.locator(".checks li", has_text="Hand 1: the deal does NOT match")).to_be_visible()
    expect(page.locator("#server-verdict")).to_contain_text("✗ The server's verify route does not")
    eva.shot("ledger-tampered")

    # A forged reshuffle: hand 1 replaced by the next shuffle, which the rules allow only when
    # the one before dealt no double. The server's route recomputes deals, so it agrees; the
    # page also checks the shuffle it skipped, and refuses.
    forged = page.evaluate(FETCH_LEDGER, match_id)
    hand = forged["hands"][0]
    skipped = hand.get("attempt", 0)
    dealt = page.evaluate(DEAL_AT, [forged, hand, skipped + 1])
    hand.update(attempt=skipped + 1, dealt=dealt["hands"], stock=dealt["stock"], moves=[])
    paste_and_verify(page, forged)
    expect(page.locator("#page-verdict")).to_contain_text("✗ Refused by this page")
    held = f"shuffle {skipped + 1} held a double, yet it was dealt again"
    expect(page.locator(".checks li", has_text=held)).to_be_visible()
    expect(page.locator("#server-verdict")).to_have_text("✓ Verified by the server's verify route.")
