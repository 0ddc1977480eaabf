"""Tiles and sets: the canonical form [a, b] with a <= b and the canonical order (RULES 1)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

Tile = tuple[int, int]


@cache
def full_set(max_pip: int) -> tuple[Tile, ...]:
    """Every tile of the set in canonical (lexicographic) order."""
    return tuple((a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1))


def canonical(tile: Sequence[int]) -> Tile:
    """The canonical form of a two-pip tile, e.g. [5, 3] -> (3, 5); the service accepts both."""
    a, b = tile
    return (a, b) if a <= b else (b, a)


def tile_problem(tile: object, max_pip: int) -> str | None:
    """Why `tile` is not a tile of the set, or None when it is one (strict: canonical tuples)."""
    if not isinstance(tile, tuple | list) or len(tile) != 2:
        return f"a tile is a pair [a, b], got {tile!r}"
    a, b = tile
    if type(a) is not int or type(b) is not int:
        return f"tile pips must be whole numbers, got {list(tile)!r}"
    if not (0 <= a <= max_pip and 0 <= b <= max_pip):
        return f"tile {list(tile)} is not in a double-{_SET_NAMES.get(max_pip, max_pip)} set"
    if a > b:
        return f"tile {list(tile)} is not canonical: write it as {[b, a]}"
    return None


_SET_NAMES = {6: "six", 9: "nine"}
