"""What a seat may infer from the other seats' plays, beside the voids their passes and draws
show (knowledge.py): a soft reading of public moves, never a look at a hidden tile.

A reasonable player, among the tiles that fit, shuts the next seat out if it can, else leaves
it short of the most pips it showed it lacks, else sheds its heaviest tile (every pip still
held counts against its team when a hand blocks). So a seat that played a tile while an unseen
tile would have been the better such choice probably did not hold it: each such pass-over
multiplies the chance that the seat holds it by `PASSED_OVER`. The reading is soft because a
player may keep a tile for a reason of its own (to score, to cover a double). A partner's plays
are not read (`PARTNER_PASSED_OVER`): it plays for the team. Only games without play scoring
read plays: where a play can score, the points lead the choice.

One rule is hard: when the hand's opening tile is the highest double dealt (the opening rule
says so), no hand was dealt a higher double, so a seat that has not drawn holds none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from domino_api.bots.knowledge import learn_void
from domino_api.engine import Board, SeatView, Tile
from domino_api.engine.kinds import EndName
from domino_api.engine.layout import EMPTY_BOARD, place

# The factor on the chance that a seat holds a tile, for each time it played another while that
# tile would have been a reasonable player's choice: measured at partners-nines
# (docs/PARTNERSHIP.md).
PASSED_OVER = 0.05
# The same for the partner's plays: 1.0, not read, for a partner plays for the team (to block
# the next opponent or keep a suit for its partner) more than to shed weight; measured at
# partners-nines (docs/PARTNERSHIP.md).
PARTNER_PASSED_OVER = 1.0

_HIGHEST_DOUBLE = ("highest_double_else_heaviest", "highest_double_else_reshuffle")


@dataclass(frozen=True, slots=True)
class Beliefs:
    """Per other seat: the unseen tiles it cannot hold (beyond its voids) and, for the tiles it
    probably does not hold, how many times less likely it holds them (absent: no evidence)."""

    barred: tuple[frozenset[Tile], ...]
    rarity: tuple[dict[Tile, float], ...]


def read_plays(
    view: SeatView,
    passed_over: float = PASSED_OVER,
    partner_over: float = PARTNER_PASSED_OVER,
    reasonable: bool = True,
) -> Beliefs:
    """What `view`'s seat reads from the hand's public moves; `reasonable` False: plays read by
    weight alone (as on a train's board, always)."""
    players = view.ruleset.players
    unseen = view.unseen
    drew = [False] * players
    for entry in view.history:
        if entry.kind == "draw":
            drew[entry.seat] = True
    above = _above_opening_double(view)
    barred = tuple(frozenset() if drew[s] or s == view.seat else above for s in range(players))
    rarity: list[dict[Tile, float]] = [{} for _ in range(players)]
    partner = (view.seat + 2) % players if view.ruleset.partnership else -1
    if view.ruleset.play_scoring == "none":
        # A train's board is not replayed from its moves (its engine double is laid by the
        # deal): there a play is read by weight alone.
        reasonable = reasonable and view.ruleset.layout != "trains"
        found = _passed_over_reasonably(view, unseen) if reasonable else _passed_over(view, unseen)
        for seat, tile in found:
            factor = partner_over if seat == partner else passed_over
            if factor < 1.0:
                rarity[seat][tile] = rarity[seat].get(tile, 1.0) / factor
    return Beliefs(barred, tuple(rarity))


def weight(tile: Tile) -> int:
    """A tile's weight as a heavy-first player ranks it: its pips, a double first among equals."""
    return 2 * (tile[0] + tile[1]) + (tile[0] == tile[1])


def _passed_over(view: SeatView, unseen: Sequence[Tile]) -> list[tuple[int, Tile]]:
    """(seat, unseen tile) for each play by another seat made while that heavier tile fitted.
    A play the opening rule forced, or one before the seat drew (its hand then lacked the
    tiles it drew later, which may be among these), is not read."""
    history = view.history
    found = []
    drew_later: set[int] = set()
    for index in range(len(history) - 1, -1, -1):
        entry = history[index]
        if entry.kind == "draw":
            drew_later.add(entry.seat)
            continue
        if entry.kind != "play" or entry.seat == view.seat or entry.seat in drew_later:
            continue
        if index == 0 and _opening_forced(view):
            continue
        assert entry.tile is not None
        played = weight(entry.tile)
        pips = entry.pips
        for tile in unseen:
            if weight(tile) > played and (not pips or tile[0] in pips or tile[1] in pips):
                found.append((entry.seat, tile))
    return found


def _passed_over_reasonably(view: SeatView, unseen: Sequence[Tile]) -> list[tuple[int, Tile]]:
    """(seat, unseen tile) for each play by another seat made while that tile would have been a
    reasonable player's better choice (`_choice_key`): it left the next seat shut out or short
    of more pips it showed it lacks, or as many and was heavier. Not read: as `_passed_over`."""
    history = view.history
    players = view.ruleset.players
    layout = view.ruleset.layout
    last_draw = {entry.seat: index for index, entry in enumerate(history) if entry.kind == "draw"}
    voids: list[set[int]] = [set() for _ in range(players)]
    board = EMPTY_BOARD
    found = []
    for index, entry in enumerate(history):
        if entry.kind != "play":
            learn_void(voids, history, index)
            continue
        seat = entry.seat
        assert entry.tile is not None
        end = cast(EndName | None, entry.end)  # the history names the engine's own ends
        readable = seat != view.seat and index > last_draw.get(seat, -1)
        if readable and not (index == 0 and _opening_forced(view)):
            void = frozenset(voids[(seat + 1) % players])
            played = _choice_key(board, entry.tile, end, void, layout)
            for tile in unseen:
                ends = _open_ends(board, tile, entry.pips)
                if any(_choice_key(board, tile, e, void, layout) > played for e in ends):
                    found.append((seat, tile))
        board = place(board, entry.tile, end, layout)
    return found


def _open_ends(board: Board, tile: Tile, pips: tuple[int, ...]) -> tuple[EndName | None, ...]:
    """The ends `tile` could have joined (None: it could have opened the hand)."""
    if not board.tiles:
        return (None,)
    return tuple(end.name for end in board.ends if end.pip in tile and end.pip in pips)


def _choice_key(
    board: Board, tile: Tile, end: EndName | None, void: frozenset[int], layout: str
) -> tuple[int, int, int]:
    """How a reasonable player ranks a play: shutting the next seat out, then the ends it leaves
    that seat short of, then the tile's weight (a house rule's double cover aside)."""
    if not void or end is None:
        return (0, 0, weight(tile))
    ends = place(board, tile, end, layout).ends
    short = sum(1 for e in ends if e.pip in void)
    return (int(short == len(ends)), short, weight(tile))


def _opening_forced(view: SeatView) -> bool:
    rules = view.ruleset
    rule = rules.first_opener if view.hand_number == 1 else rules.next_opener
    return rule in _HIGHEST_DOUBLE


def _above_opening_double(view: SeatView) -> frozenset[Tile]:
    """The doubles above the hand's opening one when the rule made it the highest dealt."""
    history = view.history
    if not history or history[0].kind != "play" or not _opening_forced(view):
        return frozenset()
    tile = history[0].tile
    assert tile is not None
    # Not a double: none was dealt, and the heaviest tile opened.
    floor = tile[0] if tile[0] == tile[1] else -1
    return frozenset(t for t in view.unseen if t[0] == t[1] and t[0] > floor)
