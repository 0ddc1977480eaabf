"""A hand's moves: one `Move` (a play, a draw or a pass), and the record of them as cells, so that
a move adds one cell instead of copying the record. Both live here, below `HandState`, which
holds the record: the record's module names the moves it holds without reaching back up.

Each cell is (the record before, the last move, the count so far); `()` before the first move.
A tuple of the moves took a reference to every move before it at each move (an 8-seat Mexican
Train round runs to about 88 moves). `HandState.log` holds the chain; `moves_of` reads it out.
"""

from __future__ import annotations

from typing import TypeAlias

from msgspec import UNSET, Struct, UnsetType

from domino_api.engine.kinds import ActionName, EndName
from domino_api.engine.tiles import Tile


# One type from the hand's record to the published ledger (`LedgerOut`'s moves, read back by
# the verify route): what a move lacks is UNSET and left out of its JSON, not null, since a
# play's `end` is null for a hand's first tile. A snapshot's MoveRow writes UNSET as null.
# `seq` is the seq of the event the move produced.
class Move(Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """A play has `tile`, `end` (null for a hand's first tile) and `points`; a draw names the
    `tile` drawn; a pass has neither. A computer seat's moves carry the `reason` it chose them for.
    """

    seq: int
    seat: int
    action: ActionName
    tile: Tile | UnsetType = UNSET
    end: EndName | UnsetType | None = UNSET
    points: int | UnsetType = UNSET
    reason: str | UnsetType = UNSET


MoveChain: TypeAlias = "tuple[MoveChain, Move, int] | tuple[()]"


def chained(moves: tuple[Move, ...]) -> MoveChain:
    """The record of `moves`, oldest first."""
    log: MoveChain = ()
    for count, move in enumerate(moves, start=1):
        log = (log, move, count)
    return log


def moves_of(log: MoveChain) -> tuple[Move, ...]:
    """The moves of a record, oldest first."""
    found = []
    while log:
        log, move, _ = log
        found.append(move)
    found.reverse()
    return tuple(found)
