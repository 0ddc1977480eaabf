"""Why a move was refused: the message of each IllegalMove a seat can cause."""

from __future__ import annotations

from domino_api.engine.errors import IllegalMove
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import END_NAMES, HandState
from domino_api.engine.tiles import tile_problem


def refused_play(
    ruleset: Ruleset, hand: HandState, seat: int, tile: object, end: object
) -> IllegalMove:
    problem = tile_problem(tile, ruleset.max_pip)
    if problem is not None:
        return IllegalMove(problem)
    assert isinstance(tile, tuple | list)
    tile = (tile[0], tile[1])
    if end is not None and end not in END_NAMES:
        return IllegalMove(f"end must be one of {', '.join(END_NAMES)} or null, got {end!r}")
    if tile not in hand.hands[seat]:
        return IllegalMove(f"seat {seat} does not hold {list(tile)}")
    board = hand.board
    if not board.tiles:
        if end is not None:
            return IllegalMove("the first tile of a hand is played with end null")
        return IllegalMove(f"this hand must open with {list(hand.opening_tile or tile)}")
    if end is None:
        return IllegalMove("the board is not empty: name the end to play on")
    open_pips = board.pips()
    if end not in open_pips:
        return IllegalMove(f"end {end!r} is not open; open ends: {', '.join(open_pips)}")
    if hand.must_cover is not None and end not in hand.must_cover.ends:
        double, ends = list(hand.must_cover.tile), ", ".join(hand.must_cover.ends)
        return IllegalMove(f"the double {double} must be covered first: play onto {ends}")
    assert isinstance(end, str)
    if open_pips[end] not in tile:
        return IllegalMove(f"{list(tile)} does not fit {end} (exposed pip {open_pips[end]})")
    return IllegalMove(f"{list(tile)} on {end} is not a legal play now")


def refused_draw_or_pass(ruleset: Ruleset, hand: HandState, wanted: str) -> IllegalMove:
    first = hand.legal[0]
    if first.action == "play":
        assert first.tile is not None
        where = "to open" if first.end is None else f"on {first.end}"
        return IllegalMove(
            f"you may not {wanted}: you hold a playable tile ({list(first.tile)} {where})"
        )
    if wanted == "pass":
        return IllegalMove(f"you may not pass: draw from the stock ({hand.stock_left} left)")
    if ruleset.draw == "none":
        return IllegalMove("this ruleset has no drawing: pass when you cannot play")
    return IllegalMove("the stock is empty: pass")
