"""The board: where tiles lie, which ends are open, and the fives count (RULES sections 4 and 7).

`place` is the one function that lays a tile on a board; the engine, the views and the
computer players all call it. Every end carries `value`, what it adds to `ends_total`: a
double lying across counts both halves, and the spinner's own open main sides count its two
halves once in all (on the first of them) and nothing on its arms.

>>> board = place(EMPTY_BOARD, (2, 3), None, "line")
>>> [(end.name, end.pip) for end in board.ends], board.total
([('left', 2), ('right', 3)], 5)
>>> place(board, (3, 3), "right", "line").total
8
"""

from __future__ import annotations

from domino_api.engine.board import Board, OpenEnd, Placement
from domino_api.engine.kinds import EndName, PlayScoring
from domino_api.engine.tiles import Tile
from domino_api.engine.trains.layout import place_on_train

SPINNER_FIRST = "spinner_first_double"
SPINNER_OPENING = "spinner_opening_double"
MAINS: tuple[EndName, ...] = ("left", "right")
ARMS: tuple[EndName, ...] = ("up", "down")


EMPTY_BOARD = Board(tiles=(), ends=(), total=0, spinner=None, spinner_mains=())


def play_points(scoring: PlayScoring, total: int) -> int:
    """What a play scores (RULES section 7): under `fives` the ends total when it is a positive
    multiple of 5; under `fives_and_threes` one point per five and one per three it holds
    (15 = 3 fives + 5 threes = 8)."""
    if total <= 0 or scoring == "none":
        return 0
    if scoring == "fives":
        return total if total % 5 == 0 else 0
    return (total // 5 if total % 5 == 0 else 0) + (total // 3 if total % 3 == 0 else 0)


def place(board: Board, tile: Tile, end: EndName | None, layout: str) -> Board:
    """The board after `tile` joins `end` (None: it opens the hand); the caller checked it fits."""
    if layout == "trains":
        assert end is not None, "a round's engine double is laid by the deal, not played"
        return place_on_train(board, tile, end)
    if end is None:
        return _open(tile, layout)
    low, high = tile
    if board.spinner is not None or (low == high and layout == SPINNER_FIRST):
        return _place_by_spinner(board, tile, end, layout)
    # A plain line: one of its two ends (left, right) moves on, nothing else changes.
    left, right = board.ends
    if end == "left":
        outer = high if low == left.pip else low
        left = _END["left"][outer][low == high]
    else:
        outer = high if low == right.pip else low
        right = _END["right"][outer][low == high]
    return Board(
        tiles=board.tiles + (Placement(tile=tile, end=end, outer=outer, spinner=False),),
        ends=(left, right),
        total=left.value + right.value,
        spinner=None,
        spinner_mains=(),
    )


def _place_by_spinner(board: Board, tile: Tile, end: EndName, layout: str) -> Board:
    """`place` on a board that has a spinner, or with the tile that becomes it."""
    low, high = tile
    becomes_spinner = board.spinner is None
    open_ends = board.ends
    at = _PLACE_OF[end]
    joined = open_ends[at]
    outer = high if low == joined.pip else low
    placement = Placement(tile=tile, end=end, outer=outer, spinner=becomes_spinner)
    moved = _END[end][outer][low == high]
    if not becomes_spinner and end not in board.spinner_mains:
        # An arm, or a main side the spinner no longer exposes: only this end moves on.
        return Board(
            tiles=board.tiles + (placement,),
            ends=open_ends[:at] + (moved,) + open_ends[at + 1 :],
            total=board.total - joined.value + moved.value,
            spinner=board.spinner,
            spinner_mains=board.spinner_mains,
        )
    ends_list = list(open_ends)
    ends_list[at] = moved
    spinner, mains = board.spinner, board.spinner_mains
    if becomes_spinner:
        # A later spinner: the tile it joined fills its inner side; the outer keeps the name.
        spinner, mains = low, (end,)
    elif end in mains:
        mains = _uncovered(mains, end)
        if not mains and layout == SPINNER_FIRST:
            ends_list += [OpenEnd(name=arm, pip=spinner or 0, value=0) for arm in ARMS]
    assert spinner is not None
    return _with_spinner_counts(board.tiles + (placement,), ends_list, spinner, mains)


def total_after(board: Board, tile: Tile, joined: OpenEnd | None, layout: str) -> int:
    """`place(board, tile, joined.name, layout).total`, worked out without building the board
    (every candidate play is weighed this way under fives): the joined end takes its new value
    and, when it was a side the spinner exposed, the spinner's count is redone as `place` does."""
    low, high = tile
    if joined is None:
        return low + high
    if len(board.tiles) == 1 and board.spinner is None:
        return place(board, tile, joined.name, layout).total  # a double across: see `_open`
    end = joined.name
    outer = high if low == joined.pip else low
    moved = _END[end][outer][low == high].value
    if end not in board.spinner_mains:
        # Only the joined end changes (a new spinner, too: it counts as the double it is).
        return board.total - joined.value + moved
    spinner = board.spinner
    assert spinner is not None
    mains = _uncovered(board.spinner_mains, end)
    total = moved
    for other in board.ends:
        if other.name != end:
            total += _counted(other, spinner, mains).value
    return total


# Every end a tile can leave, by end name, exposed pip and whether the tile is a double (which
# counts both halves): a constant table, so moving an end builds nothing.
_END = {
    name: tuple(
        (OpenEnd(name=name, pip=pip, value=pip), OpenEnd(name=name, pip=pip, value=2 * pip))
        for pip in range(10)
    )
    for name in (*MAINS, *ARMS)
}


# A main side the spinner itself exposes, by name and spinner pip: counting nothing, or both of
# the spinner's halves.
_SPINNER_SIDE = {
    name: tuple(
        (OpenEnd(name=name, pip=pip, value=0), OpenEnd(name=name, pip=pip, value=2 * pip))
        for pip in range(10)
    )
    for name in MAINS
}


def _open(tile: Tile, layout: str) -> Board:
    """The hand's first tile: `tile[0]` exposed at left, `tile[1]` at right."""
    low, high = tile
    becomes_spinner = low == high and layout != "line"
    first = Placement(tile=tile, end=None, outer=None, spinner=becomes_spinner)
    if not becomes_spinner:
        weight = 2 if low == high else 1
        ends = (
            OpenEnd(name="left", pip=low, value=weight * low),
            OpenEnd(name="right", pip=high, value=weight * high),
        )
        return Board(tiles=(first,), ends=ends, total=low + high, spinner=None, spinner_mains=())
    names = (*MAINS, *ARMS) if layout == SPINNER_OPENING else MAINS
    ends_list = [OpenEnd(name=name, pip=low, value=0) for name in names]
    return _with_spinner_counts((first,), ends_list, low, MAINS)


def _with_spinner_counts(
    tiles: tuple[Placement, ...], ends: list[OpenEnd], spinner: int, mains: tuple[EndName, ...]
) -> Board:
    counted = [_counted(end, spinner, mains) for end in ends]
    return Board(
        tiles=tiles,
        ends=tuple(counted),
        total=sum([end.value for end in counted]),
        spinner=spinner,
        spinner_mains=mains,
    )


def _uncovered(mains: tuple[EndName, ...], end: EndName) -> tuple[EndName, ...]:
    """The main sides the spinner still exposes once a tile joins `end`."""
    return tuple([m for m in mains if m != end])


def _counted(end: OpenEnd, spinner: int, mains: tuple[EndName, ...]) -> OpenEnd:
    """`end` as it counts with the spinner exposing `mains`: the spinner counts both halves
    once while a main side is empty, only on the first of them, and nothing on the others.
    A side the spinner exposes shows the spinner's own pip, so the table has every such end."""
    if end.name not in mains:
        return end
    return _SPINNER_SIDE[end.name][spinner][end.name == mains[0]]


# Ends never close and a spinner's two arms open together, so each end keeps one place in
# `Board.ends` (left, right, up, down) from the moment it opens.
_PLACE_OF = {"left": 0, "right": 1, "up": 2, "down": 3}


def fitting_ends(board: Board, tile: Tile) -> tuple[EndName, ...]:
    return tuple(end.name for end in board.ends if end.pip in tile)
