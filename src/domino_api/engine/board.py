"""A board's parts: its open ends, its placements and the board itself (engine/layout.py lays
tiles on it; engine/trains/layout.py lays them on trains). Their own module, so both layouts
build on them without importing each other."""

from __future__ import annotations

from msgspec import Struct

from domino_api.engine.kinds import EndName
from domino_api.engine.tiles import Tile


class OpenEnd(Struct, frozen=True, kw_only=True, gc=False):
    name: EndName
    pip: int  # the exposed pip a tile must match
    value: int  # what this end adds to ends_total


class Placement(Struct, frozen=True, kw_only=True, gc=False):
    tile: Tile
    end: EndName | None  # the end it joined; None for the hand's first tile
    outer: int | None  # the pip it left exposed; None for the first tile
    spinner: bool  # it became the hand's spinner


class Board(Struct, frozen=True, kw_only=True, gc=False):
    """A hand's board. Immutable: `place` returns a new one."""

    tiles: tuple[Placement, ...]
    ends: tuple[OpenEnd, ...]  # open ends only, always in the order left, right, up, down
    total: int  # ends_total
    spinner: int | None  # the spinner's pip once a spinner is on the board
    spinner_mains: tuple[EndName, ...]  # main sides the spinner itself still exposes
    # Mexican Train: the seats whose trains carry a marker, a bit set (engine/trains/layout.py)
    markers: int = 0

    def pips(self) -> dict[str, int]:
        return {end.name: end.pip for end in self.ends}
