"""What a seat may infer from the other seats' plays, beside the voids their passes and draws
show (knowledge.py): a soft reading of public moves, never a look at a hidden tile.

A reasonable player sheds its heavy tiles first (every pip still held counts against its team
when a hand blocks). So a seat that played a tile while a heavier unseen tile would have fitted
the same ends probably did not hold that tile: each such pass-over multiplies the chance that
the seat holds it by `PASSED_OVER`. The reading is soft because a player may keep a heavy tile
for a reason (to block, to score, to cover a double). Only games without play scoring read
plays this way: where a play can score, the points, not the weight, lead the choice.

One rule is hard: when the hand's opening tile is the highest double dealt (the opening rule
says so), no hand was dealt a higher double, so a seat that has not drawn holds none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domino_api.engine import SeatView, Tile

# The factor on the chance that a seat holds a tile, for each time it played a lighter one
# while that tile would have fitted: measured at partners-nines (docs/PARTNERSHIP.md).
PASSED_OVER = 0.05

_HIGHEST_DOUBLE = ("highest_double_else_heaviest", "highest_double_else_reshuffle")


@dataclass(frozen=True, slots=True)
class Beliefs:
    """Per other seat: the unseen tiles it cannot hold (beyond its voids) and, for the tiles it
    probably does not hold, how many times less likely it holds them (absent: no evidence)."""

    barred: tuple[frozenset[Tile], ...]
    rarity: tuple[dict[Tile, float], ...]


def read_plays(view: SeatView, passed_over: float = PASSED_OVER) -> Beliefs:
    players = view.ruleset.players
    unseen = view.unseen
    drew = [False] * players
    for entry in view.history:
        if entry.kind == "draw":
            drew[entry.seat] = True
    above = _above_opening_double(view)
    barred = tuple(frozenset() if drew[s] or s == view.seat else above for s in range(players))
    rarity: list[dict[Tile, float]] = [{} for _ in range(players)]
    if passed_over < 1.0 and view.ruleset.play_scoring == "none":
        for seat, tile in _passed_over(view, unseen):
            rarity[seat][tile] = rarity[seat].get(tile, 1.0) / passed_over
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
