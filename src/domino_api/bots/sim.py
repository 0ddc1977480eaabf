"""A lean hand simulator for the planner's playouts: one imagined deal played to the hand's end.

It follows RULES sections 4-8 like the engine (and reuses the engine's board and scoring code),
but keeps no events, ledger or legal lists, so a playout costs a few microseconds per move.
Every seat plays the `rollout policy`, a simplified Plain: the highest fives score, else the
heaviest tile, a double only when it can be covered, on the end that keeps the seat's suits.
tests/bots/test_sim.py checks it against the engine move for move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from domino_api.engine import Board, Ruleset, Tile
from domino_api.engine.layout import fives_points, place
from domino_api.engine.scoring import blocked_outcome, domino_points

# What a playout starts with: the current seat may be forced to play a given tile first.
Forced = tuple[Tile, str | None] | None

DRAW_NONE, DRAW_UNTIL, DRAW_ONE = 0, 1, 2


@dataclass(frozen=True, slots=True)
class SimRules:
    ruleset: Ruleset
    players: int
    layout: str
    fives: bool
    cover: bool
    draw: int
    end_mid_hand: bool
    target: int
    fast_line: bool  # a line without fives or covering: two pips are the whole board


@cache
def sim_rules(ruleset: Ruleset) -> SimRules:
    draw = {"none": DRAW_NONE, "until_playable": DRAW_UNTIL, "one": DRAW_ONE}[ruleset.draw]
    fives = ruleset.play_scoring == "fives"
    return SimRules(
        ruleset=ruleset,
        players=ruleset.players,
        layout=ruleset.layout,
        fives=fives,
        cover=ruleset.cover_doubles,
        draw=draw,
        end_mid_hand=ruleset.end_mid_hand and ruleset.best_of is None,
        target=ruleset.target,
        fast_line=ruleset.layout == "line" and not fives and not ruleset.cover_doubles,
    )


@dataclass(slots=True)
class Position:
    """A whole imagined hand: every seat's tiles and the stock (drawn from its end)."""

    board: Board
    hands: list[list[Tile]]
    stock: list[Tile]
    turn: int
    cover_ends: tuple[str, ...] | None  # the ends of a double that must be covered now
    passes: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    gains: list[int]  # points each seat gained in the rest of the hand
    winner: int | None  # the hand's winner (None: a tied block)
    moves: int  # simulated actions (and fives boards weighed): the planner's unit of work


def play_out(rules: SimRules, pos: Position, forced: Forced = None) -> Outcome:
    """Play the hand to its end; `pos` is consumed (its lists change)."""
    if rules.fast_line and not pos.board.tiles and forced is not None:
        # Open the line here, then go on with two pips (a hand never opens with its last tile).
        pos.board = place(pos.board, forced[0], None, rules.layout)
        pos.hands[pos.turn].remove(forced[0])
        pos.turn = (pos.turn + 1) % rules.players
        forced = None
    if rules.fast_line and pos.board.tiles:
        return _play_out_line(rules, pos, forced)
    return _play_out_board(rules, pos, forced)


def _weight(tile: Tile) -> int:
    # Doubles are the hardest tiles to place: shed them a little earlier than their pips say.
    a, b = tile
    return 2 * (a + b) + (1 if a == b else 0)


def _keep_suits_end(held: list[Tile], tile: Tile, left: int, right: int) -> bool:
    """For a tile that fits both ends of a line: whether to play it on the left."""
    a, b = tile
    out_left = b if a == left else a
    out_right = b if a == right else a
    if out_left == out_right:
        return True
    mine_left = sum(1 for t in held if out_left in t)
    mine_right = sum(1 for t in held if out_right in t)
    return mine_left >= mine_right


def _play_out_line(rules: SimRules, pos: Position, forced: Forced) -> Outcome:
    hands = pos.hands
    stock = pos.stock
    players = rules.players
    may_draw = rules.draw != DRAW_NONE
    draw_one = rules.draw == DRAW_ONE
    ends = pos.board.ends
    left = ends[0][1]
    right = ends[1][1]
    turn = pos.turn
    passes = pos.passes
    moves = 0
    while True:
        moves += 1
        held = hands[turn]
        if forced is not None:
            best: Tile | None = forced[0]
            on_left = forced[1] == "left"
            forced = None
        else:
            best = None
            best_weight = -1
            for tile in held:
                a, b = tile
                if a in (left, right) or b in (left, right):
                    weight = 2 * (a + b) + (1 if a == b else 0)
                    if weight > best_weight:
                        best = tile
                        best_weight = weight
            if best is not None:
                a, b = best
                fits_left = a == left or b == left
                fits_right = a == right or b == right
                on_left = fits_left and (not fits_right or _keep_suits_end(held, best, left, right))
        if best is not None:
            held.remove(best)
            a, b = best
            if on_left:
                left = b if a == left else a
            else:
                right = b if a == right else a
            if not held:
                return _domino(rules, hands, turn, moves, [0] * players)
            passes = 0
        elif may_draw and stock:
            drawn = stock.pop()
            held.append(drawn)
            passes = 0
            a, b = drawn
            if not draw_one or a in (left, right) or b in (left, right):
                continue
        else:
            passes += 1
            if passes >= players:
                return _blocked(rules, hands, moves, [0] * players)
        turn = turn + 1 if turn + 1 < players else 0


def _options(
    board: Board, held: list[Tile], cover_ends: tuple[str, ...] | None
) -> list[tuple[Tile, str | None]]:
    if not board.tiles:
        return [(tile, None) for tile in held]
    ends = board.ends
    options: list[tuple[Tile, str | None]] = []
    for tile in held:
        a, b = tile
        for name, pip, _ in ends:
            if (a == pip or b == pip) and (cover_ends is None or name in cover_ends):
                options.append((tile, name))
    return options


def _choose(
    rules: SimRules,
    board: Board,
    held: list[Tile],
    options: list[tuple[Tile, str | None]],
    work: list[int],
) -> tuple[Tile, str | None, Board, int]:
    """The rollout policy: (tile, end, board after it, fives points); counts boards it builds."""
    best: tuple[Tile, str | None] | None = None
    best_key = (-1, -1, -1)
    for tile, end in options:
        a, b = tile
        coverable = 1
        if rules.cover and a == b and len(held) > 1:
            coverable = 1 if any(a in t for t in held if t != tile) else 0
        points = _fives_after(rules, board, tile, end, work) if rules.fives else 0
        key = (points, coverable, 2 * (a + b) + (1 if a == b else 0))
        if key > best_key:
            best_key = key
            best = (tile, end)
    assert best is not None
    tile, end = best
    return tile, end, place(board, tile, end, rules.layout), best_key[0]


def _fives_after(
    rules: SimRules, board: Board, tile: Tile, end: str | None, work: list[int]
) -> int:
    """What playing `tile` on `end` scores. A tile that only replaces one end's count changes
    the total by the difference; anything touching the spinner builds the board to be sure."""
    a, b = tile
    if (
        end is not None
        and end not in board.spinner_mains
        and not (a == b and board.spinner is None and rules.layout == "spinner_first_double")
    ):
        for name, pip, count in board.ends:
            if name == end:
                outer = b if a == pip else a
                total = board.total - count + (2 * outer if a == b else outer)
                return total if total > 0 and total % 5 == 0 else 0
    work[0] += 1
    return fives_points(place(board, tile, end, rules.layout).total)


def _play_out_board(rules: SimRules, pos: Position, forced: Forced) -> Outcome:
    hands = pos.hands
    stock = pos.stock
    board = pos.board
    players = rules.players
    may_draw = rules.draw != DRAW_NONE
    draw_one = rules.draw == DRAW_ONE
    cover_ends = pos.cover_ends
    turn = pos.turn
    passes = pos.passes
    gains = [0] * players
    work = [0]  # boards built to weigh fives options: they cost about what a move does
    moves = 0
    while True:
        moves += 1
        held = hands[turn]
        if forced is not None:
            tile, end = forced
            forced = None
            after = place(board, tile, end, rules.layout)
            points = fives_points(after.total) if rules.fives else 0
            play: tuple[Tile, str | None, Board, int] | None = (tile, end, after, points)
        else:
            options = _options(board, held, cover_ends)
            play = _choose(rules, board, held, options, work) if options else None
        if play is not None:
            tile, end, board, points = play
            held.remove(tile)
            if points:
                gains[turn] += points
                if rules.end_mid_hand and pos.scores[turn] + gains[turn] >= rules.target:
                    return Outcome(gains, turn, moves + work[0])
            if not held:
                return _domino(rules, hands, turn, moves + work[0], gains)
            passes = 0
            if rules.cover and tile[0] == tile[1]:
                cover_ends = tuple(e[0] for e in board.ends) if end is None else (end,)
                continue
            cover_ends = None
        elif may_draw and stock:
            drawn = stock.pop()
            held.append(drawn)
            passes = 0
            if not draw_one or _options(board, [drawn], cover_ends):
                continue
        else:
            passes += 1
            if passes >= players:
                return _blocked(rules, hands, moves + work[0], gains)
        turn = turn + 1 if turn + 1 < players else 0


def _pips(hands: list[list[Tile]]) -> list[int]:
    return [sum(a + b for a, b in held) for held in hands]


def _domino(
    rules: SimRules, hands: list[list[Tile]], seat: int, moves: int, gains: list[int]
) -> Outcome:
    gains[seat] += domino_points(rules.ruleset, seat, _pips(hands))
    return Outcome(gains, seat, moves)


def _blocked(rules: SimRules, hands: list[list[Tile]], moves: int, gains: list[int]) -> Outcome:
    winner, points = blocked_outcome(rules.ruleset, _pips(hands))
    if winner is not None:
        gains[winner] += points
    return Outcome(gains, winner, moves)
