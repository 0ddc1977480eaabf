"""RULES section 11: the sealed deal reproduces every published vector."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domino_api.engine import BadCut, commitment, deal, full_set

VECTORS: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "deal-vectors.json").read_text()
)["vectors"]


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"{v['cut']}-{v['hand_number']}")
def test_deal_vector(vector: dict[str, Any]) -> None:
    secret = bytes.fromhex(vector["secret"])
    assert commitment(secret) == vector["commitment"]
    dealt = deal(
        secret,
        vector["cut"],
        vector["hand_number"],
        vector["attempt"],
        vector["max_pip"],
        vector["players"],
        vector["hand_size"],
    )
    assert [[list(t) for t in hand] for hand in dealt.hands] == vector["hands"]
    assert [list(t) for t in dealt.stock] == vector["stock"]


def test_there_are_vectors_for_both_sets() -> None:
    assert {v["max_pip"] for v in VECTORS} == {6, 9}


def test_full_sets_in_canonical_order() -> None:
    six = full_set(6)
    assert len(six) == 28 and len(full_set(9)) == 55
    assert six[:3] == ((0, 0), (0, 1), (0, 2)) and six[-1] == (6, 6)
    assert list(six) == sorted(six)


@pytest.mark.parametrize("cut", ["x" * 65, 7, None])
def test_bad_cut(cut: object) -> None:
    with pytest.raises(BadCut) as info:
        deal(b"s" * 32, cut, 1, 0, 6, 2, 7)  # type: ignore[arg-type]
    assert info.value.code == "bad_cut" and not hasattr(info.value, "status")


def test_a_64_character_cut_is_fine() -> None:
    assert len(deal(b"s" * 32, "é" * 64, 1, 0, 6, 2, 7).stock) == 14


PUBLISHED = json.loads(
    (Path(__file__).parents[2] / "docs" / "deal-vectors.json").read_text(encoding="utf-8")
)


def test_published_vectors_start_with_the_reference_ones() -> None:
    assert PUBLISHED["algorithm"] == "sha256-fy-v1"
    assert PUBLISHED["vectors"][: len(VECTORS)] == VECTORS
    assert len(PUBLISHED["vectors"]) > len(VECTORS)


@pytest.mark.parametrize("vector", PUBLISHED["vectors"], ids=lambda v: f"{v['secret'][:8]}")
def test_published_vector_is_reproduced(vector: dict[str, Any]) -> None:
    # A change to the deal that moved any published vector would break every verifier out there.
    test_deal_vector(vector)
    hands = [tuple(t) for hand in vector["hands"] for t in hand]
    stock = [tuple(t) for t in vector["stock"]]
    assert sorted(hands + stock) == list(full_set(vector["max_pip"]))  # a whole set, no repeats
