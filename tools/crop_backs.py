"""Crop seed 000's NASA photographs to tile backs (run once; the small JPEGs are committed).

    .venv/bin/python tools/crop_backs.py SOURCE_DIR

A tile back is a domino on its end: twice as tall as wide. Each photograph is cut to that
shape around its subject (centre, or the `focus` below) and scaled to 200x400 px, twice the
largest size /play shows, as a JPEG small enough to load with a table (under 60 KB each).
The credits are in src/domino_api/data/tile-backs/PROVENANCE.md. Pillow is a dev dependency.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

OUT = Path(__file__).resolve().parents[1] / "src" / "domino_api" / "data" / "tile-backs"
SIZE = (200, 400)
# target id -> (source file, horizontal focus 0..1, share of the source's height kept)
BACKS = {
    "galileo-callisto": ("galileo-callisto.jpg", 0.5, 1.0),
    "galileo-europa": ("galileo-europa.jpg", 0.5, 1.0),
}
# The whole Earth is wider than half the photograph's height: it is cut square around the
# globe (centre and side as shares of the photograph) and set on black, the space around it.
EARTH = ("apollo-15-earth", "apollo15-earth-as15-91-12343.jpg", (0.47, 0.45), 0.58)


def crop(source: Path, focus: float, share: float) -> Image.Image:
    image = Image.open(source).convert("RGB")
    width, height = image.size
    tall = int(height * share)
    wide = tall // 2
    left = min(max(int(width * focus - wide / 2), 0), width - wide)
    top = (height - tall) // 2
    return image.crop((left, top, left + wide, top + tall)).resize(SIZE, Image.Resampling.LANCZOS)


def on_black(source: Path, centre: tuple[float, float], side: float) -> Image.Image:
    image = Image.open(source).convert("RGB")
    width, height = image.size
    half = int(width * side / 2)
    x, y = int(width * centre[0]), int(height * centre[1])
    globe = image.crop((x - half, y - half, x + half, y + half)).resize(
        (SIZE[0], SIZE[0]), Image.Resampling.LANCZOS
    )
    canvas = Image.new("RGB", SIZE, "black")
    canvas.paste(globe, (0, (SIZE[1] - SIZE[0]) // 2))
    return canvas


def main(source_dir: str) -> None:
    back, name, centre, side = EARTH
    _save(on_black(Path(source_dir) / name, centre, side), back)
    for back, (name, focus, share) in BACKS.items():
        _save(crop(Path(source_dir) / name, focus, share), back)


def _save(image: Image.Image, back: str) -> None:
    target = OUT / f"{back}.jpg"
    image.save(target, "JPEG", quality=82, optimize=True, progressive=True)
    print(f"{target.name}: {target.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1])
