"""The tile-back catalog (seed 000): the moon house mark and five space scenes.

Every image is an SVG this project draws (data/tile-backs/), served by this server at
`/static/tile-backs/<id>.svg` (app/routes.py mounts the folder), so a table renders offline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

DEFAULT_TILE_BACK = "moon"

CATALOG: tuple[dict[str, Any], ...] = (
    {
        "id": "moon",
        "name": "House mark",
        "rarity": "common",
        "image": "/static/tile-backs/moon.svg",
        "credit": "domino-api house mark",
    },
    {
        "id": "apollo-8",
        "name": "Earthrise",
        "rarity": "epic",
        "image": "/static/tile-backs/apollo-8.svg",
        "credit": "domino-api drawing after NASA's Apollo 8 photograph (William Anders)",
    },
    {
        "id": "apollo-11",
        "name": "Tranquility Base",
        "rarity": "epic",
        "image": "/static/tile-backs/apollo-11.svg",
        "credit": "domino-api drawing after NASA's Apollo 11 photographs",
    },
    {
        "id": "apollo-17",
        "name": "The Blue Marble",
        "rarity": "epic",
        "image": "/static/tile-backs/apollo-17.svg",
        "credit": "domino-api drawing after NASA's Apollo 17 photograph",
    },
    {
        "id": "galileo-io",
        "name": "Io",
        "rarity": "legendary",
        "image": "/static/tile-backs/galileo-io.svg",
        "credit": "domino-api drawing after NASA/JPL's Galileo images",
    },
    {
        "id": "galileo-europa",
        "name": "Europa",
        "rarity": "legendary",
        "image": "/static/tile-backs/galileo-europa.svg",
        "credit": "domino-api drawing after NASA/JPL/DLR's Galileo images",
    },
)

IDS = frozenset(entry["id"] for entry in CATALOG)
IMAGES = Path(__file__).resolve().parents[1] / "data" / "tile-backs"
URL_PREFIX = "/static/tile-backs"


def catalog() -> list[dict[str, Any]]:
    # Nothing is locked yet (seed 000), but clients get the field so they can show locks later.
    return [{**entry, "locked": False} for entry in CATALOG]
