"""A hand's move record as cells, so that a move adds one cell instead of copying the record.

Each cell is (the record before, the last move, the count so far); `()` before the first move.
A tuple of the moves took a reference to every move before it at each move (an 8-seat Mexican
Train round runs to about 88 moves). `HandState.log` holds the chain; `moves_of` reads it out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # the cells hold the hand's own `Move`, defined beside `HandState`
    from domino_api.engine.state import Move

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
