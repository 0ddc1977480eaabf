"""Mexican Train at /play (docs/RULES.md section 13): a whole one-round match solo against
Plain, played by clicking on a 360 x 740 phone, the hub and trains in rows, the scoreboard's
winner the lowest total, and no sideways page overflow; screenshots at phone and desktop;
the match's replay draws the same trains. A whole one-round match of eight seats (one person,
seven computers) on a phone, its scoreboard audited by axe. Then a few moves each of two people
passing one device (hot-seat), and of two people paired by "Play anyone now" from the first
page (a whole round of two people is the solo match's). A round's pips are charged against a
seat: the scoreboard's round column says "+N against", as the seat's flash and the log do.
At eight seats on the phone, after every action while the round is played (and the hand holds
at most 14 tiles, two rows of them), all nine trains lie inside the window and the board's box,
the board not scrolling."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player
from tests.web.helpers import (
    eight_seat_trains_table,
    match_view,
    next_step,
    sign_in,
    take_turn,
)
from tests.web.test_audit import AXE, RUN_AXE, WIDTHS
from tests.web.test_lobby import first_page, match_of
from tests.web.test_phone_sizes import TRAINS_IN_VIEW

WIDE = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"


def deal_one_round(page: Page) -> None:
    page.select_option("#preset", "mexican-train")
    page.select_option("#opt-rounds", "1")
    page.select_option("#opponent", "plain")
    page.fill("#cut", "engine")
    page.click("button:text('Deal')")
    expect(page.locator(".hand .tile").first).to_be_visible()


def final_scoreboard(page: Page) -> dict[str, Any]:
    """The finished match's scoreboard: each seat's total, the round's pips charged against
    it ("+N against"), the lowest total the winner at its head. Returns the match's view."""
    view = match_view(page)
    assert view["status"] == "finished" and view["result"]["reason"] == "rounds"
    scores = view["result"]["scores"]
    board = page.get_by_test_id("scoreboard")
    expect(board).to_contain_text("Final totals after 1 of 1 rounds")
    expect(board).to_contain_text("lowest wins")
    for seat, score in enumerate(scores):
        expect(board.get_by_test_id(f"total-{seat}")).to_have_text(str(score))
        pips = view["last_hand"]["pips"][seat]
        # One round: its pips are the whole total, and they count against the seat.
        assert pips == score, (seat, pips, score)
        round_pips = board.get_by_test_id(f"round-{seat}")
        expect(round_pips).to_have_text(f"+{pips} against" if pips else "0")
    if scores.count(min(scores)) > 1:  # a shared lowest total: nobody wins
        assert view["result"]["winner"] is None
        expect(board.locator("tr.winner")).to_have_count(0)
    else:
        low = scores.index(min(scores))
        assert view["result"]["winner"] == low
        expect(board.locator("tr.winner")).to_have_attribute("data-seat", str(low))
        # Lowest first: the winner heads the table.
        expect(board.locator("tr[data-seat]").first).to_have_attribute("data-seat", str(low))
    # Nowhere is a charge shown as a bare gain: the log says "+N against" too.
    charged = page.locator(".log li", has_text="+").all_inner_texts()
    assert len(charged) == sum(1 for pips in view["last_hand"]["pips"] if pips), charged
    for line in charged:
        assert "against" in line, line
    return view


def nine_trains_in_view(page: Page) -> bool:
    """At the person's turn in the round (the page still: nobody else moves), the hand two rows
    of tiles at most (a third takes the board's room): every train is inside the window and
    the board's box. Returns whether it measured."""
    if page.get_by_test_id("scoreboard").count() or page.locator(".hand .tile").count() > 14:
        return False  # between rounds, at the end, or a long hand
    found = page.evaluate(TRAINS_IN_VIEW)
    assert found["rows"] == 9 and found["compact"], found
    assert found["out"] == [] and not found["scrolls"], found
    return True


def play_to_the_end_on_a_phone(
    player: Player, name: str, each: Callable[[Page], bool] | None = None
) -> list[str]:
    """Take turns (by clicking) until the match is over, the page never wider than the phone
    (where it is, the parts that stick out are named and a screenshot kept); `each` checks the
    page before every action, when it is ready for one."""
    page = player.page
    actions: list[str] = []
    overflowed: list[tuple[int, str, list[str]]] = []
    measured: list[int] = []
    while not actions or actions[-1] != "over":
        assert len(actions) < 400, f"still playing: {actions[-10:]}"
        if each is not None:
            next_step(page)
            if each(page):
                measured.append(len(actions))
        actions.append(take_turn(page))
        if page.evaluate(WIDE):
            if not overflowed:
                player.shot(f"{name}-overflow")
            overflowed.append((len(actions), actions[-1], page.evaluate(WIDTHS)["out"]))
    assert overflowed == [], f"the page scrolled sideways: {overflowed[:3]}"
    assert each is None or len(measured) >= 5, measured  # the round's play, not only its end
    return actions


def test_a_mexican_train_match_solo_against_plain_to_its_end(
    players: Callable[..., Player],
) -> None:
    kit = players(width=360, height=740)
    page = kit.open("solo")
    sign_in(page, "Kit")
    deal_one_round(page)
    # The engine double is the hub; a row per train, owners named, the Mexican train last.
    expect(page.locator(".board .hub")).to_have_count(1)
    trains = page.locator(".trains-list .train")
    expect(trains).to_have_count(3)
    expect(trains.nth(0).locator(".train-owner")).to_contain_text("Kit's train")
    expect(trains.nth(2)).to_have_attribute("data-train", "mexican")
    assert "play" in play_to_the_end_on_a_phone(kit, "trains-solo")
    view = final_scoreboard(page)
    assert not page.evaluate(WIDE)
    kit.shot("trains-phone-360x740")
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(page.locator(".trains-list .train")).to_have_count(3)
    kit.shot("trains-desktop")
    # The replay draws the same hub and trains: its last move shows every tile played.
    page.click(".controls-box a:text('Replay')")
    page.click("button:text('Last')")
    placed = len(view["board"]["tiles"]) - 1  # less the engine
    expect(page.locator(".replay-board .trains-list .train-tile")).to_have_count(placed)


def test_eight_seats_on_a_phone_one_person_and_seven_computers(
    browser: Browser, play_server: ServerProcess
) -> None:
    lia = eight_seat_trains_table(browser, play_server, "Lia", rounds="1")
    page = lia.page
    expect(page.locator(".hand .tile")).to_have_count(10)  # eight seats: ten tiles each
    expect(page.locator(".seats .seat")).to_have_count(8)
    lia.shot("trains-8-seats-phone-360x740-dealt")
    assert "play" in play_to_the_end_on_a_phone(lia, "trains-8-seats", nine_trains_in_view)
    view = final_scoreboard(page)
    assert len(view["seats"]) == 8
    lia.shot("trains-8-seats-phone-360x740")
    # The eight seats' scoreboard scrolls within the status box: still no serious violation.
    page.add_script_tag(path=str(AXE))
    serious = [v for v in page.evaluate(RUN_AXE) if v["impact"] in ("serious", "critical")]
    lia.context.close()
    assert serious == [], serious
    assert lia.errors == [], lia.errors


def test_two_people_pass_one_device_between_their_moves(players: Callable[..., Player]) -> None:
    cleo = players(width=412, height=915)
    page = cleo.open("hotseat")
    sign_in(page, "Cleo")
    page.select_option("#preset", "mexican-train")
    page.select_option("#hot-count", "2")
    page.select_option("#opt-rounds", "1")
    page.click("button:text('Deal')")
    expect(page.locator(".hand .tile, .reveal")).not_to_have_count(0)
    expect(page.locator(".trains-list .train")).to_have_count(3)
    # The device handed over four times: each person has taken it twice and moved each time.
    actions: list[str] = []
    while actions.count("reveal") < 4:
        assert len(actions) < 80 and "over" not in actions, actions
        actions.append(take_turn(page))
    assert "reveal,reveal" not in ",".join(actions), actions  # nobody's turn went by unplayed
    view = match_view(page)
    assert view["status"] == "playing"
    assert view["you"]["seats"] == [0, 1]  # one person holds both seats
    cleo.shot("trains-hot-seat")


def test_two_people_paired_from_the_first_page_take_turns(
    players: Callable[..., Player],
) -> None:
    ana, bob = players(width=360, height=740), players()
    pages = [first_page(ana, "Ana", "mexican-train"), first_page(bob, "Bob", "mexican-train")]
    for page in pages:  # a short match: only seekers of as many rounds are paired
        page.select_option("#seek-rounds", "1")
    pages[0].click("button:text('Play anyone now')")
    expect(pages[0].locator(".seek-status")).to_contain_text("Mexican Train")
    pages[1].click("button:text('Play anyone now')")
    assert match_of(pages[0]) == match_of(pages[1])
    by_seat = {}
    for page in pages:
        expect(page.locator(".trains-list .train")).to_have_count(3)
        by_seat[match_view(page)["you"]["seat"]] = page
    assert match_view(pages[0])["ruleset"]["rounds"] == 1
    # Turns taken in turn on each person's page, a few each (the whole round is the solo test's).
    moved = {0: 0, 1: 0}
    while min(moved.values()) < 4:
        view = match_view(pages[0])
        assert view["status"] == "playing", view["status"]
        seat = view["turn"]["seat"]
        assert take_turn(by_seat[seat]) in ("play", "draw", "pass")
        moved[seat] += 1
        # Its move answered, the server's view has it: the next turn is read from there.
        expect(by_seat[seat].locator(".table-page[aria-busy='false']")).to_have_count(1)
    seq = match_view(pages[0])["seq"]
    for page in pages:  # each page's view has every move, and still fits its window
        expect(page.locator(".trains-list .train")).to_have_count(3)
        assert match_view(page)["seq"] == seq
        assert not page.evaluate(WIDE)
    ana.shot("trains-paired-phone")
