"""The tile-back catalog (seed 000): the moon house mark, four drawn space scenes (rare), and
NASA's photographs as the Epic and Legendary backs.

Every image is in data/tile-backs/ (an SVG this project draws, or a photograph cropped to a
tile once by tools/crop_backs.py, credited in data/tile-backs/PROVENANCE.md), served by this
server at `/static/tile-backs/<file>` (app/routes.py mounts the folder), so a table renders
offline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from msgspec import Struct

DEFAULT_TILE_BACK = "moon"


class TileBack(Struct, frozen=True, kw_only=True):
    """A tile back of the catalogue, and where its image is served."""

    id: str
    name: str
    rarity: Literal["common", "rare", "epic", "legendary"]
    image: str
    credit: str
    # Nothing is locked yet (seed 000), but clients get the field so they can show locks later.
    locked: bool


CATALOG: tuple[TileBack, ...] = (
    TileBack(
        id="moon",
        name="House mark",
        rarity="common",
        image="/static/tile-backs/moon.svg",
        credit="domino-api house mark",
        locked=False,
    ),
    # The drawings of seed 000's first round, kept for the players who chose them.
    TileBack(
        id="apollo-8",
        name="Earthrise",
        rarity="rare",
        image="/static/tile-backs/apollo-8.svg",
        credit="domino-api drawing after NASA's Apollo 8 photograph (William Anders)",
        locked=False,
    ),
    TileBack(
        id="apollo-11",
        name="Tranquility Base",
        rarity="rare",
        image="/static/tile-backs/apollo-11.svg",
        credit="domino-api drawing after NASA's Apollo 11 photographs",
        locked=False,
    ),
    TileBack(
        id="apollo-17",
        name="The Blue Marble",
        rarity="rare",
        image="/static/tile-backs/apollo-17.svg",
        credit="domino-api drawing after NASA's Apollo 17 photograph",
        locked=False,
    ),
    TileBack(
        id="galileo-io",
        name="Io",
        rarity="rare",
        image="/static/tile-backs/galileo-io.svg",
        credit="domino-api drawing after NASA/JPL's Galileo images",
        locked=False,
    ),
    # Seed 000's photographs (data/tile-backs/PROVENANCE.md; tools/crop_backs.py cut them).
    TileBack(
        id="apollo-15-earth",
        name="Earth from Apollo 15",
        rarity="epic",
        image="/static/tile-backs/apollo-15-earth.jpg",
        credit="Photograph: NASA (Apollo 15 crew, 26 July 1971, AS15-91-12343)",
        locked=False,
    ),
    TileBack(
        id="galileo-callisto",
        name="Callisto",
        rarity="legendary",
        image="/static/tile-backs/galileo-callisto.jpg",
        credit="Photograph: NASA/JPL (the Galileo spacecraft)",
        locked=False,
    ),
    TileBack(
        id="galileo-europa",
        name="Europa",
        rarity="legendary",
        image="/static/tile-backs/galileo-europa.jpg",
        credit="Photograph: NASA/JPL-Caltech/SETI Institute (Galileo images, late 1990s)",
        locked=False,
    ),
)

IDS = frozenset(entry.id for entry in CATALOG)
IMAGES = Path(__file__).resolve().parents[1] / "data" / "tile-backs"
URL_PREFIX = "/static/tile-backs"
