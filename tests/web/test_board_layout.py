"""The board's geometry (board.js) run in the browser on long synthetic lines: lines bend back
at the edge, so every tile stays inside the width, and no two tiles or open ends overlap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import Player

# Builds a board: `arms` maps an end to its tiles' pips; doubles are sprinkled along each line.
LAYOUT = """async ([spinner, arms, halfWidth]) => {
  const { layout } = await import("./board.js");
  const first = spinner ? [5, 5] : [5, 6];
  const tiles = [{ tile: first, end: null, outer: null, spinner }];
  const ends = [];
  for (const [end, count] of Object.entries(arms)) {
    let pip = end === "left" ? first[0] : end === "right" ? first[1] : 5;
    for (let i = 0; i < count; i++) {
      const next = i % 4 === 3 ? pip : (pip + 1) % 10;
      const tile = [Math.min(pip, next), Math.max(pip, next)];
      tiles.push({ tile, end, outer: next, spinner: false });
      pip = next;
    }
    ends.push({ end, pips: pip });
  }
  return layout({ tiles, ends, ends_total: 0 }, halfWidth);
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    eps = 1e-9
    return (
        a["x"] + eps < b["x"] + b["w"]
        and b["x"] + eps < a["x"] + a["w"]
        and a["y"] + eps < b["y"] + b["h"]
        and b["y"] + eps < a["y"] + a["h"]
    )


@pytest.mark.parametrize(
    ("spinner", "arms", "half_width"),
    [
        (False, {"left": 14, "right": 18}, 7),
        (True, {"left": 12, "right": 12, "up": 6, "down": 5}, 8),
        (True, {"left": 20, "right": 3, "up": 2, "down": 9}, 10),
        (True, {"left": 26, "right": 26, "up": 10, "down": 10}, 6),
        (False, {"left": 30, "right": 1}, 5),
    ],
)
def test_long_lines_bend_inside_the_width_without_overlapping(
    players: Callable[..., Player], spinner: bool, arms: dict[str, int], half_width: int
) -> None:
    page = players().open("")
    shape: dict[str, Any] = page.evaluate(LAYOUT, [spinner, arms, half_width])
    tiles = shape["tiles"]
    targets = list(shape["targets"].values())
    assert len(tiles) == 1 + sum(arms.values())
    assert len(targets) == len(arms)
    rects = tiles + targets
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            assert not overlap(a, b), (sorted(a.items()), sorted(b.items()))
    # Bending keeps every tile within the half width (never under 6.5, so each leg holds two
    # tiles), give or take the unit a double or a corner may stick out.
    edge = max(half_width, 6.5) + 1
    assert all(-edge <= r["x"] and r["x"] + r["w"] <= edge for r in rects)
    horizontal_rows = {round(r["y"] * 2) for r in tiles if r["w"] > r["h"] and abs(r["x"]) > 2}
    assert len(horizontal_rows) > 2, "a line this long must have bent"
