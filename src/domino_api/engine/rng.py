"""The seeded 64-bit stream, randbelow and Fisher-Yates shuffle of the sealed deal (RULES 11).

Tournaments reuse steps 2-3 with their own 32-byte seed, so this module knows nothing of tiles.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

_TWO_64 = 1 << 64


def stream(seed: bytes) -> Iterator[int]:
    """Yield unsigned 64-bit numbers: block k is SHA-256(seed || k as 8 bytes big-endian)."""
    block = 0
    while True:
        digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(digest[offset : offset + 8], "big")
        block += 1


def randbelow(numbers: Iterator[int], n: int) -> int:
    """Uniform integer in [0, n) by rejection, so no residue is favoured."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _TWO_64 - (_TWO_64 % n)
    while True:
        x = next(numbers)
        if x < limit:
            return x % n


def shuffle(seed: bytes, items: Sequence[T]) -> list[T]:
    """Fisher-Yates from the last index down to 1, drawing from the seeded stream."""
    result = list(items)
    numbers = stream(seed)
    for i in range(len(result) - 1, 0, -1):
        j = randbelow(numbers, i + 1)
        result[i], result[j] = result[j], result[i]
    return result
