"""Seed 000's photographed backs: the Epic and Legendary backs are NASA's photographs, cut to
a tile, served by this server (small JPEGs), each with its credit."""

from __future__ import annotations

import io
import struct
import tomllib
from pathlib import Path

import httpx

from tests.api.helpers import new_player

ROOT = Path(__file__).resolve().parents[2]
CREDITS = {
    "apollo-15-earth": "NASA",
    "galileo-callisto": "NASA/JPL",
    "galileo-europa": "NASA/JPL-Caltech/SETI Institute",
}


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """Width and height from a JPEG's start-of-frame marker (no image library at run time)."""
    stream = io.BytesIO(data)
    assert stream.read(2) == b"\xff\xd8"
    while True:
        marker, length = struct.unpack(">2sH", stream.read(4))
        if marker[1] in (0xC0, 0xC1, 0xC2):
            height, width = struct.unpack(">xHH", stream.read(5))
            return width, height
        stream.seek(length - 2, io.SEEK_CUR)


async def test_epic_and_legendary_backs_are_the_credited_photographs(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    catalog = (await client.get("/v1/tile-backs", headers=ana["headers"])).json()
    precious = {e["id"]: e for e in catalog if e["rarity"] in ("epic", "legendary")}
    assert set(precious) == set(CREDITS)
    assert precious["apollo-15-earth"]["rarity"] == "epic"
    provenance = (ROOT / "src/domino_api/data/tile-backs/PROVENANCE.md").read_text()
    for back, credit in CREDITS.items():
        entry = precious[back]
        assert entry["image"] == f"/static/tile-backs/{back}.jpg"
        assert f"Photograph: {credit} (" in entry["credit"]
        assert f"| {back}.jpg |" in provenance and f"| {credit} |" in provenance
        served = await client.get(entry["image"])
        assert served.status_code == 200 and served.headers["content-type"] == "image/jpeg"
        assert len(served.content) < 60_000
        assert _jpeg_size(served.content) == (200, 400)  # a tile: twice as tall as wide
    # The drawings stay for those who chose them, as rare backs; Europa's drawing is gone.
    rare = {e["id"] for e in catalog if e["rarity"] == "rare"}
    assert rare == {"apollo-8", "apollo-11", "apollo-17", "galileo-io"}
    good = await client.patch(
        "/v1/players/me", json={"tile_back": "galileo-callisto"}, headers=ana["headers"]
    )
    assert good.status_code == 200 and good.json()["tile_back"] == "galileo-callisto"


def test_the_package_ships_the_photographs_and_their_credits() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = pyproject["tool"]["setuptools"]["package-data"]["domino_api"]
    assert "data/tile-backs/*.jpg" in shipped and "data/tile-backs/PROVENANCE.md" in shipped
