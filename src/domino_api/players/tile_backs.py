"""The tile-back catalog (seed 000): the moon house mark plus public-domain space photographs."""

from __future__ import annotations

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
        "image": "https://upload.wikimedia.org/wikipedia/commons/a/a8/NASA-Apollo8-Dec24-Earthrise.jpg",
        "credit": "NASA, Apollo 8 (William Anders), public domain",
    },
    {
        "id": "apollo-11",
        "name": "Tranquility Base",
        "rarity": "epic",
        "image": "https://upload.wikimedia.org/wikipedia/commons/9/98/Aldrin_Apollo_11_original.jpg",
        "credit": "NASA, Apollo 11 (Neil Armstrong), public domain",
    },
    {
        "id": "apollo-17",
        "name": "The Blue Marble",
        "rarity": "epic",
        "image": "https://upload.wikimedia.org/wikipedia/commons/9/97/The_Earth_seen_from_Apollo_17.jpg",
        "credit": "NASA, Apollo 17 crew, public domain",
    },
    {
        "id": "galileo-io",
        "name": "Io",
        "rarity": "legendary",
        "image": "https://upload.wikimedia.org/wikipedia/commons/7/7b/Io_highest_resolution_true_color.jpg",
        "credit": "NASA/JPL, Galileo spacecraft, public domain",
    },
    {
        "id": "galileo-europa",
        "name": "Europa",
        "rarity": "legendary",
        "image": "https://upload.wikimedia.org/wikipedia/commons/5/54/Europa-moon.jpg",
        "credit": "NASA/JPL/DLR, Galileo spacecraft, public domain",
    },
)

IDS = frozenset(entry["id"] for entry in CATALOG)


def catalog() -> list[dict[str, Any]]:
    # Nothing is locked yet (seed 000), but clients get the field so they can show locks later.
    return [{**entry, "locked": False} for entry in CATALOG]
