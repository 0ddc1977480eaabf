"""A game's name as a notice shows it (the names /play's menus give the presets)."""

from __future__ import annotations

TITLES = {
    "all-fives": "All Fives",
    "house-nines": "House double-nines",
    "draw-50": "Draw to 50",
    "draw": "Draw",
    "block": "Block",
    "classic": "Classic",
    "fives-and-threes": "Fives and Threes",
}


def title_of(ruleset: str) -> str:
    return TITLES.get(ruleset, ruleset)
