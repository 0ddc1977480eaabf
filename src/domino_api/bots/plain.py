"""Plain: a fast, sensible computer player that looks one move ahead and no further.

Its preferences, in order: the highest immediate fives score; never a double it cannot cover
(house nines); ends that leave the next seat short of a pip it showed it lacks (by drawing or
passing); the heaviest tile, doubles first among equals.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from domino_api.bots.knowledge import known_voids, pips_text, tile_text
from domino_api.engine import Action, Draw, LegalAction, Pass, Play, SeatView, Tile
from domino_api.engine.layout import place


class Candidate(NamedTuple):
    key: tuple[int, int, int, int, int]
    option: LegalAction
    blocked: tuple[int, ...]  # pips now open that the next seat is known to lack


class PlainStrategy:
    name = "plain"

    def choose(self, view: SeatView, rng: random.Random) -> tuple[Action, str]:
        plays = [o for o in view.legal if o.action == "play"]
        if not plays:
            return forced_action(view)
        best = max(candidates(view, plays), key=lambda c: c.key)
        return play_of(best.option), explain(view, best)


def forced_action(view: SeatView) -> tuple[Action, str]:
    """Draw or pass, the only legal actions when no tile fits."""
    option = view.legal[0]
    open_pips = pips_text(end.pip for end in view.board.ends)
    if option.action == "draw":
        return Draw(), f"draws: nothing fits {open_pips}"
    if view.ruleset.draw == "none":
        return Pass(), f"passes: nothing fits {open_pips}"
    return Pass(), f"passes: nothing fits {open_pips} and the stock is empty"


def play_of(option: LegalAction) -> Play:
    assert option.tile is not None
    return Play(option.tile, option.end)


def next_seat(view: SeatView) -> int:
    return (view.seat + 1) % view.ruleset.players


def can_cover(hand: tuple[Tile, ...], double: Tile) -> bool:
    """Whether another held tile carries the double's pip (so the seat can cover it itself)."""
    pip = double[0]
    return any(pip in tile for tile in hand if tile != double)


def candidates(view: SeatView, plays: list[LegalAction]) -> list[Candidate]:
    void = known_voids(view)[next_seat(view)]
    result = []
    for option in plays:
        tile = option.tile
        assert tile is not None
        a, b = tile
        double = a == b
        coverable = 1
        if view.ruleset.cover_doubles and double and len(view.hand) > 1:
            coverable = 1 if can_cover(view.hand, tile) else 0
        blocked: tuple[int, ...] = ()
        if void and option.end is not None:
            after = place(view.board, tile, option.end, view.ruleset.layout)
            blocked = tuple(end.pip for end in after.ends if end.pip in void)
            shut_out = all(end.pip in void for end in after.ends)
        else:
            shut_out = False
        weight = 2 * (a + b) + (1 if double else 0)
        key = (option.points or 0, coverable, int(shut_out), len(blocked), weight)
        result.append(Candidate(key, option, blocked))
    return result


def explain(view: SeatView, best: Candidate) -> str:
    option = best.option
    tile = option.tile
    assert tile is not None
    if option.points:
        return f"scores {option.points}"
    if len(view.hand) == 1:
        return f"dominoes with {tile_text(tile)}"
    if option.end is None:
        return f"opens with {tile_text(tile)}"
    if best.blocked:
        pip = best.blocked[0]
        seat = next_seat(view)
        who = "opponent" if view.ruleset.players == 2 else f"seat {seat}"
        return f"blocks {pip}s: {who} {how_learned(view, seat, pip)} on {pip}"
    if view.ruleset.cover_doubles and tile[0] == tile[1]:
        return f"plays {tile_text(tile)} and can cover it"
    return f"sheds {tile_text(tile)}, its heaviest playable tile"


def how_learned(view: SeatView, seat: int, pip: int) -> str:
    for entry in reversed(view.history):
        if entry.seat == seat and entry.kind != "play" and pip in entry.pips:
            return "passed" if entry.kind == "pass" else "drew"
    return "lacked"
