"""Published test vectors for the sealed deal, made by this engine (play/deal-vectors.json).

They extend the reference vectors with the corners an implementation gets wrong: both sets,
2 to 4 seats, nine-tile hands, reshuffle attempts, large hand numbers, and cuts that are empty,
64 characters long, non-ASCII or contain the `|` separator.
"""

from __future__ import annotations

import hashlib

from msgspec import Struct

from domino_api.engine.deal import ALGORITHM, commitment, deal
from domino_api.engine.tiles import Tile


class DealVector(Struct, frozen=True, kw_only=True):
    """One deal and what it deals (docs/RULES.md section 11)."""

    secret: str
    commitment: str
    cut: str
    hand_number: int
    attempt: int
    max_pip: int
    players: int
    hand_size: int
    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]


class DealVectors(Struct, frozen=True, kw_only=True):
    algorithm: str
    vectors: tuple[DealVector, ...]


# (cut, hand number, attempt, max pip, players, hand size)
CASES: tuple[tuple[str, int, int, int, int, int], ...] = (
    ("", 1, 0, 6, 2, 7),
    ("moon", 1, 0, 6, 2, 9),
    ("moon", 1, 1, 6, 2, 7),
    ("moon", 1, 5, 6, 2, 7),
    ("a|b", 2, 0, 6, 2, 7),
    ("x" * 64, 3, 0, 6, 2, 7),
    ("Ünïcødé ♠ 🂡", 7, 0, 6, 4, 7),
    ("4821", 1, 0, 9, 2, 7),
    ("4821", 12, 2, 9, 3, 7),
    ("house", 250, 0, 9, 4, 7),
    ("tournament", 1000, 0, 6, 2, 7),
    ("0", 1, 0, 6, 3, 7),
)


def vector(index: int, case: tuple[str, int, int, int, int, int]) -> DealVector:
    cut, hand_number, attempt, max_pip, players, hand_size = case
    secret = hashlib.sha256(f"domino-api deal vector {index}".encode()).digest()
    dealt = deal(secret, cut, hand_number, attempt, max_pip, players, hand_size)
    return DealVector(
        secret=secret.hex(),
        commitment=commitment(secret),
        cut=cut,
        hand_number=hand_number,
        attempt=attempt,
        max_pip=max_pip,
        players=players,
        hand_size=hand_size,
        hands=dealt.hands,
        stock=dealt.stock,
    )


def published_vectors(reference: tuple[DealVector, ...]) -> DealVectors:
    """The reference vectors first (unchanged), then this project's own."""
    own = tuple(vector(i, case) for i, case in enumerate(CASES))
    return DealVectors(algorithm=ALGORITHM, vectors=(*reference, *own))
