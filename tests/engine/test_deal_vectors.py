"""RULES section 11: the sealed deal reproduces every published vector."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from domino_api.documents import deal_vectors
from domino_api.engine import BadCut, commitment, deal, full_set

# The one published copy (play/deal-vectors.json): the rule model's reference vectors, then ours.
# As the plain JSON values a client reads.
PUBLISHED: dict[str, Any] = msgspec.json.decode(deal_vectors.PATH.read_bytes())
VECTORS: list[dict[str, Any]] = PUBLISHED["vectors"][
    : len(deal_vectors.reference(deal_vectors.load()))
]


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


def test_published_vectors_start_with_the_reference_ones() -> None:
    assert PUBLISHED["algorithm"] == "sha256-fy-v1"
    assert len(VECTORS) == 5 and VECTORS[0]["secret"] == "00" * 32
    assert len(PUBLISHED["vectors"]) > len(VECTORS)


def test_the_file_is_what_domino_api_deal_vectors_writes() -> None:
    # The reference vectors kept, this engine's own made again: the same text, to the byte.
    assert deal_vectors.rewritten() == deal_vectors.PATH.read_text(encoding="utf-8")


@pytest.mark.parametrize("vector", PUBLISHED["vectors"], ids=lambda v: f"{v['secret'][:8]}")
def test_published_vector_is_reproduced(vector: dict[str, Any]) -> None:
    # A change to the deal that moved any published vector would break every verifier out there.
    test_deal_vector(vector)
    hands = [tuple(t) for hand in vector["hands"] for t in hand]
    stock = [tuple(t) for t in vector["stock"]]
    assert sorted(hands + stock) == list(full_set(vector["max_pip"]))  # a whole set, no repeats


def test_the_shuffles_fast_path_draws_what_the_stream_does() -> None:
    """The batched shuffle equals Fisher-Yates over `stream` and `randbelow` (RULES 11), for
    every size a set of up to double-nine can need and many seeds."""
    from domino_api.engine import rng

    for count in range(0, 56):
        for seed_number in range(20):
            seed = hashlib.sha256(f"{count}:{seed_number}".encode()).digest()
            items = list(range(count))
            assert rng.shuffle(seed, items) == _reference_shuffle(seed, items)


def test_a_number_a_draw_might_reject_takes_the_plain_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With every number counted as one a draw might reject, the shuffle is the plain path's."""
    from domino_api.engine import rng

    seed = hashlib.sha256(b"reject").digest()
    expected = rng.shuffle(seed, range(28))
    monkeypatch.setattr(rng, "_lowest_limit", lambda count: 0)
    plain_calls: list[bytes] = []
    real_plain = rng._plain_shuffle

    def counted_plain(seed: bytes, items: Sequence[int]) -> list[int]:
        plain_calls.append(seed)
        return real_plain(seed, items)

    monkeypatch.setattr(rng, "_plain_shuffle", counted_plain)
    assert rng.shuffle(seed, range(28)) == expected
    assert plain_calls == [seed]


def _reference_shuffle(seed: bytes, items: list[int]) -> list[int]:
    from domino_api.engine import rng

    result = list(items)
    numbers = rng.stream(seed)
    for i in range(len(result) - 1, 0, -1):
        j = rng.randbelow(numbers, i + 1)
        result[i], result[j] = result[j], result[i]
    return result
