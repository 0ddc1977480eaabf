"""The legal list against an oracle written from docs/RULES.md alone.

The oracle rebuilds each hand from its deal and its moves, with none of the engine's code: what
each seat holds, the open ends (RULES 4: the line, the spinner and when its arms open), the ends
total and what it scores (RULES 7: fives, fives and threes), the double that must be covered
(RULES 6), who is to act (RULES 5) and the opening tile (RULES 9). Its legal list is a brute
force over every held tile and every open end; with nothing to play, a draw while the stock
lasts (`until_playable`, `one`), else a pass. Over random reachable states of every preset,
player count and override, the engine's legal list must be exactly the oracle's, in the seat's
tile order and end order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from domino_api.engine import (
    LegalAction,
    MatchState,
    NextHand,
    Start,
    apply,
    make_ruleset,
    new_match,
)
from tests.engine.compat import VARIANTS

SIDES = ("left", "right", "up", "down")
MATCHES_PER_VARIANT = 12
checked = {"states": 0}


@dataclass
class Oracle:
    """One hand as docs/RULES.md describes it, rebuilt move by move."""

    layout: str
    tiles_on_board: int = 0
    first: tuple[int, int] | None = None
    # side name -> None (empty: shows the spinner's pip) or (exposed pip, a double lies there)
    sides: dict[str, tuple[int, bool] | None] = field(default_factory=dict)
    spinner: int | None = None
    cover: tuple[str, ...] | None = None

    def open_ends(self) -> list[tuple[str, int]]:
        ends = []
        for name in SIDES:
            if name not in self.sides:
                continue
            arm = name in ("up", "down") and self.layout == "spinner_first_double"
            if arm and (self.sides.get("left", 0) is None or self.sides.get("right", 0) is None):
                continue  # arms open once both main sides hold a tile
            side = self.sides[name]
            ends.append((name, self.spinner if side is None else side[0]))
        return [(n, p) for n, p in ends if p is not None]

    def total(self) -> int:
        if self.tiles_on_board == 1:
            assert self.first is not None
            return self.first[0] + self.first[1]  # the first tile alone counts both halves
        total = 0
        for name, _ in self.open_ends():
            side = self.sides[name]
            if side is not None:
                total += 2 * side[0] if side[1] else side[0]
        mains_empty = any(self.sides.get(m, 0) is None for m in ("left", "right"))
        if self.spinner is not None and mains_empty:
            total += 2 * self.spinner
        return total

    def play(self, tile: tuple[int, int], end: str | None, cover_doubles: bool) -> None:
        a, b = tile
        double = a == b
        self.tiles_on_board += 1
        if end is None:
            self.first = tile
            if double and self.layout != "line":
                self.spinner = a  # every side of the spinner starts empty
                self.sides = {name: None for name in SIDES}
            else:
                self.sides = {"left": (a, double), "right": (b, double)}
        else:
            pip = dict(self.open_ends())[end]
            outer = b if a == pip else a
            if double and self.spinner is None and self.layout == "spinner_first_double":
                self.spinner = a  # a later spinner: its outer main side keeps the end's name
                self.sides[end] = None
                self.sides.setdefault("up", None)
                self.sides.setdefault("down", None)
            else:
                self.sides[end] = (outer, double)
        self.cover = None
        if cover_doubles and double:
            self.cover = tuple(n for n, _ in self.open_ends()) if end is None else (end,)


def opening_tile(state: MatchState) -> tuple[int, int] | None:
    """RULES 9: the tile a hand must open with, or None for any tile."""
    hand, rules = state.hand, state.ruleset
    assert hand is not None
    rule = rules.first_opener if hand.number == 1 else rules.next_opener
    if rule == "winner_any_lock_reshuffle":
        last = state.history[-1].result
        assert last is not None
        domino = last.reason == "domino" and last.winner is not None
        rule = "any" if domino else "highest_double_else_reshuffle"
    if rule not in ("highest_double_else_reshuffle", "highest_double_else_heaviest"):
        return None
    dealt = [t for tiles in hand.dealt for t in tiles]
    doubles = [t for t in dealt if t[0] == t[1]]
    if doubles:
        return max(doubles)
    return max(dealt, key=lambda t: (t[0] + t[1], t[1]))


def oracle_turn_and_legal(state: MatchState) -> tuple[int, list[LegalAction]]:
    hand, rules = state.hand, state.ruleset
    assert hand is not None
    board = Oracle(rules.layout)
    held = [list(tiles) for tiles in hand.dealt]
    stock = list(hand.stock)
    turn = hand.opener
    passes = 0
    for move in hand.moves:
        assert move.seat == turn
        if move.action == "play":
            assert move.tile is not None
            held[turn].remove(move.tile)
            board.play(move.tile, move.end, rules.cover_doubles)
            turn = turn if board.cover else (turn + 1) % rules.players
        elif move.action == "draw":
            drawn = stock.pop(0)
            held[turn].append(drawn)
            fits = any(
                p in drawn for n, p in board.open_ends() if not board.cover or n in board.cover
            )
            if rules.draw == "one" and not fits:
                turn = (turn + 1) % rules.players
        else:
            turn = (turn + 1) % rules.players
        passes = passes + 1 if move.action == "pass" else 0
    assert passes < rules.players
    options: list[LegalAction] = []
    if board.tiles_on_board == 0:
        required = opening_tile(state)
        for tile in held[turn]:
            if required is None or tile == required:
                points = _play_points(rules.play_scoring, tile[0] + tile[1])
                options.append(LegalAction(action="play", tile=tile, end=None, points=points))
        return turn, options
    ends = [(n, p) for n, p in board.open_ends() if board.cover is None or n in board.cover]
    for tile in held[turn]:
        for name, pip in ends:
            if pip in tile:
                after = Oracle(
                    board.layout,
                    board.tiles_on_board,
                    board.first,
                    dict(board.sides),
                    board.spinner,
                )
                after.play(tile, name, False)
                options.append(
                    LegalAction(
                        action="play",
                        tile=tile,
                        end=name,
                        points=_play_points(rules.play_scoring, after.total()),
                    )
                )
    if options:
        return turn, options
    if rules.draw != "none" and stock:
        return turn, [LegalAction(action="draw", tile=None, end=None, points=None)]
    return turn, [LegalAction(action="pass", tile=None, end=None, points=None)]


def _play_points(scoring: str, total: int) -> int:
    """RULES 7: fives scores a total that is a multiple of 5; fives and threes one point for
    every 5 and every 3 in a total that is a multiple of either (15 scores 3 + 5)."""
    if total <= 0:
        return 0
    if scoring == "fives":
        return total if total % 5 == 0 else 0
    if scoring == "fives_and_threes":
        return sum(total // n for n in (5, 3) if total % n == 0)
    return 0


@pytest.mark.parametrize(("stem", "preset", "options"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_legal_list_equals_the_oracle(stem: str, preset: str, options: dict[str, object]) -> None:
    rules = make_ruleset(preset, options)
    states = 0
    for index in range(MATCHES_PER_VARIANT):
        rng = random.Random(f"oracle:{stem}:{index}")
        state = apply(new_match(rules, rng.randbytes(32)), None, Start(str(index))).state
        while state.status in ("playing", "hand_over"):
            if state.status == "hand_over":
                state = apply(state, None, NextHand()).state
                continue
            turn, expected = oracle_turn_and_legal(state)
            assert state.turn == turn
            assert list(state.hand.legal if state.hand else ()) == expected, (stem, state.seq)
            states += 1
            state = apply(state, turn, rng.choice(expected)).state
    checked["states"] += states
    assert states > 100
