"""The board: where tiles lie, which ends are open, and the fives count of RULES sections 4 and 7.

An open end is a plain tuple `(name, exposed pip, count)`: `count` is what the end adds to
`ends_total`, so a double lying across counts both halves, and ends the spinner itself exposes
count once in total (2 x its pip while a main side is empty) and 0 on its arms.
"""

from __future__ import annotations

from typing import NamedTuple

from domino_api.engine.tiles import Tile

OpenEnd = tuple[str, int, int]
# (tile, end it joined or None for the first tile, pip left exposed or None, is the spinner)
Placement = tuple[Tile, str | None, int | None, bool]

_ARMS = ("up", "down")
_new = tuple.__new__


class Board(NamedTuple):
    """The board of a hand (a NamedTuple: it is rebuilt on every play, and a tuple builds ~3x
    faster than a frozen dataclass while being just as immutable)."""

    tiles: tuple[Placement, ...]
    ends: tuple[OpenEnd, ...]  # open ends only, always in the order left, right, up, down
    total: int  # ends_total
    spinner: int | None  # the spinner's pip once a spinner is on the board
    spinner_mains: tuple[str, ...]  # main sides the spinner itself still exposes

    def pips(self) -> dict[str, int]:
        return {name: pip for name, pip, _ in self.ends}


EMPTY_BOARD = Board(tiles=(), ends=(), total=0, spinner=None, spinner_mains=())


def fives_points(total: int) -> int:
    """What a play scores under `fives`: the ends total when it is a positive multiple of 5."""
    return total if total > 0 and total % 5 == 0 else 0


def _count_mains(ends: list[OpenEnd], spinner: int, mains: tuple[str, ...]) -> None:
    # The spinner counts both halves once while a main side is empty, so only the first
    # empty main side carries that count.
    for index, (name, pip, _) in enumerate(ends):
        if name in mains:
            ends[index] = (name, pip, 2 * spinner if name == mains[0] else 0)


def open_board(tile: Tile, layout: str) -> Board:
    """The board after the first tile of a hand: `tile[0]` at left, `tile[1]` at right."""
    a, b = tile
    if a == b and layout != "line":
        four = layout == "spinner_opening_double"
        names = ("left", "right", "up", "down") if four else ("left", "right")
        ends = [(name, a, 0) for name in names]
        _count_mains(ends, a, ("left", "right"))
        return Board(((tile, None, None, True),), tuple(ends), a + b, a, ("left", "right"))
    weight = 2 if a == b else 1
    ends_ = (("left", a, weight * a), ("right", b, weight * b))
    return Board(((tile, None, None, False),), ends_, a + b, None, ())


def place(board: Board, tile: Tile, end: str | None, layout: str) -> Board:
    """The board after `tile` joins `end`; the caller has checked that it fits."""
    if end is None:
        return open_board(tile, layout)
    a, b = tile
    if board.spinner is None and (a != b or layout != "spinner_first_double"):
        # A plain line (every hand of a line layout): exactly two ends, left and right; one
        # of them moves on, nothing else changes.
        left, right = board.ends
        if left[0] == end:
            outer = b if a == left[1] else a
            left = (end, outer, 2 * outer if a == b else outer)
        else:
            outer = b if a == right[1] else a
            right = (end, outer, 2 * outer if a == b else outer)
        placement = (tile, end, outer, False)
        ends = (left, right)
        return _new(Board, ((*board.tiles, placement), ends, left[2] + right[2], None, ()))
    pip = 0
    for name, exposed, _ in board.ends:
        if name == end:
            pip = exposed
            break
    outer = b if a == pip else a
    becomes_spinner = a == b and board.spinner is None and layout == "spinner_first_double"
    return _place_with_spinner(board, (tile, end, outer, becomes_spinner), layout)


def _place_with_spinner(board: Board, placement: Placement, layout: str) -> Board:
    tile, end, outer, becomes_spinner = placement
    assert end is not None and outer is not None
    a, b = tile
    spinner = board.spinner
    mains = board.spinner_mains
    ends = [(end, outer, 2 * outer if a == b else outer) if e[0] == end else e for e in board.ends]
    if becomes_spinner:
        # Its inner main side is filled by the tile it joined; the outer side keeps the end's name.
        spinner, mains = a, (end,)
    elif end in mains:
        mains = tuple(m for m in mains if m != end)
        if not mains and layout == "spinner_first_double":
            ends.extend((arm, board.spinner or 0, 0) for arm in _ARMS)
    if spinner is not None:
        _count_mains(ends, spinner, mains)
    return Board((*board.tiles, placement), tuple(ends), sum(e[2] for e in ends), spinner, mains)


def fitting_ends(board: Board, tile: Tile) -> tuple[str, ...]:
    a, b = tile
    return tuple(name for name, pip, _ in board.ends if a == pip or b == pip)
