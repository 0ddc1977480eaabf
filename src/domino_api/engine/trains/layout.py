"""The trains: a hub holding the round's engine double, one train per seat and the Mexican
train, and the markers that open a seat's train to everyone (RULES, "Mexican Train").

The board is the engine's `Board`: the engine double is its first placement (no end) and its
`spinner` pip, each train is an open end named `train<seat>` or `mexican` whose pip is the one
a tile must match, and `markers` is the bit set of seats whose train carries a marker. Like the
line and the spinner, it changes only through functions that return a new board.

>>> board = hub(12, 3)
>>> [(end.name, end.pip) for end in board.ends]
[('train0', 12), ('train1', 12), ('train2', 12), ('mexican', 12)]
>>> board = place_on_train(board, (5, 12), "mexican")
>>> [end.name for end in open_ends(marked(board, 1), 0)]
['train0', 'train1', 'mexican']
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import itemgetter
from typing import get_args

from msgspec.structs import replace

from domino_api.engine.board import Board, OpenEnd, Placement
from domino_api.engine.kinds import EndName
from domino_api.engine.tiles import Tile

TRAINS = "trains"
MEXICAN: EndName = "mexican"
# Every seat's train by seat number (train0 ... train7): EndName lists them after the spinner's.
SEAT_TRAINS: tuple[EndName, ...] = tuple(e for e in get_args(EndName) if e.startswith("train"))
TRAIN_ENDS: tuple[EndName, ...] = (*SEAT_TRAINS, MEXICAN)
_PLACE_OF = {name: seat for seat, name in enumerate(SEAT_TRAINS)}  # a seat's train's place


# Where each train lies in a trains board's ends: a seat's at its seat number, the Mexican
# train last (-1), whatever the count.
TRAIN_INDEX: dict[EndName, int] = {**_PLACE_OF, MEXICAN: -1}


def engine_pip(max_pip: int, number: int) -> int:
    """Round `number`'s engine double: 12-12 for round 1, down to 0-0 for round 13."""
    return max_pip - (number - 1) % (max_pip + 1)


@cache
def hub(engine: int, players: int) -> Board:
    """A round's board before its first play: the engine double and every train at its pip.
    Immutable, so one board serves every round of that engine and count of seats."""
    ends = tuple(OpenEnd(name=name, pip=engine, value=0) for name in _names(players))
    first = Placement(tile=(engine, engine), end=None, outer=None, spinner=True)
    return Board(tiles=(first,), ends=ends, total=0, spinner=engine, spinner_mains=())


def _names(players: int) -> tuple[EndName, ...]:
    return (*SEAT_TRAINS[:players], MEXICAN)


def owner(end: EndName | None) -> int | None:
    """The seat a train belongs to; None for the Mexican train (and any other end)."""
    return None if end is None else _PLACE_OF.get(end)


# Every train's open end by train and pip, and every step of a train, by train and tile: the
# placement and the end a tile leaves, each way round. Shared immutable objects (Mexican Train
# plays double-twelve alone), so a move builds no new end and no new placement.
_PIPS = range(13)
_TRAIN_END = {
    name: tuple(OpenEnd(name=name, pip=pip, value=0) for pip in _PIPS) for name in TRAIN_ENDS
}
Step = tuple[Placement, OpenEnd]
_STEPS: dict[EndName, dict[Tile, tuple[Step, Step]]] = {name: {} for name in TRAIN_ENDS}


def _steps(end: EndName, tile: Tile) -> tuple[Step, Step]:
    """`tile` on train `end`: (joined by its high half, leaving `low` exposed; joined by its
    low half, leaving `high`), made the first time the tile joins that train."""
    low, high = tile
    steps = _STEPS[end][tile] = (_step(tile, end, low), _step(tile, end, high))
    return steps


def _step(tile: Tile, end: EndName, outer: int) -> Step:
    return Placement(tile=tile, end=end, outer=outer, spinner=False), _TRAIN_END[end][outer]


def place_on_train(board: Board, tile: Tile, end: EndName) -> Board:
    """`board` with `tile` at the end of train `end` (the caller checked it fits)."""
    ends = [*board.ends]  # one copy, one end replaced: cheaper than slicing around it
    at = TRAIN_INDEX[end]
    steps = _STEPS[end].get(tile) or _steps(end, tile)
    placement, ends[at] = steps[tile[0] == ends[at].pip]
    # A trains board's total and spinner sides stay 0 and (): only two fields change.
    return replace(board, tiles=board.tiles + (placement,), ends=tuple(ends))


def play_on_train(board: Board, tile: Tile, end: EndName, seat: int) -> Board:
    """`played(place_on_train(board, tile, end), seat, end)` in one step and one board:
    `seat`'s play of `tile` on train `end`, which takes the marker off its own train.
    `place_on_train`'s body written out, as every play of a round runs it."""
    markers = board.markers
    at = TRAIN_INDEX[end]
    if markers and at == seat:
        markers &= ~(1 << seat)
    ends = [*board.ends]
    steps = _STEPS[end].get(tile) or _steps(end, tile)
    placement, ends[at] = steps[tile[0] == ends[at].pip]
    return replace(board, tiles=board.tiles + (placement,), ends=tuple(ends), markers=markers)


def marked(board: Board, seat: int) -> Board:
    """A marker on `seat`'s train: it could not play (RULES, "Mexican Train")."""
    return _with_markers(board, board.markers | 1 << seat)


def played(board: Board, seat: int, end: EndName | None) -> Board:
    """After `seat` played on `end`: playing on its own train takes its marker off."""
    if owner(end) != seat or not board.markers >> seat & 1:
        return board
    return _with_markers(board, board.markers & ~(1 << seat))


def _with_markers(board: Board, markers: int) -> Board:
    if markers == board.markers:
        return board
    return Board(
        tiles=board.tiles,
        ends=board.ends,
        total=0,
        spinner=board.spinner,
        spinner_mains=(),
        markers=markers,
    )


def open_ends(board: Board, seat: int) -> tuple[OpenEnd, ...]:
    """The trains `seat` may play on (no double waiting): its own, the Mexican train, and every
    train that carries a marker."""
    ends = board.ends
    return picker(len(ends), board.markers | 1 << seat)(ends)


@cache
def picker(count: int, mask: int) -> Callable[[tuple[OpenEnd, ...]], tuple[OpenEnd, ...]]:
    """Picks the trains of the seats in `mask`, then the Mexican train (the last end): the
    trains keep their places in `Board.ends`, so one getter serves every board alike."""
    indexes = [i for i in range(count - 1) if mask >> i & 1]
    return itemgetter(*indexes, count - 1)  # two indexes at least: a tuple every time


def marker_seats(board: Board) -> tuple[int, ...]:
    """The seats whose trains carry a marker, lowest first."""
    return tuple(seat for seat in range(len(SEAT_TRAINS)) if board.markers >> seat & 1)
