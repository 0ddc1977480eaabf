"""The seeded 64-bit stream, randbelow and Fisher-Yates shuffle of the sealed deal (RULES 11).

Tournaments reuse steps 2-3 with their own 32-byte seed, so this module knows nothing of tiles.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Sequence
from functools import cache
from operator import mod as _mod
from typing import TypeVar

T = TypeVar("T")

_TWO_64 = 1 << 64
_unpack = struct.unpack


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
    count = len(result)
    if count < 2:
        return result
    # Fast path, same numbers as `stream` and `randbelow`: hash every block the shuffle needs
    # at once (each from a copy of the seed's hash state) and unpack them in one call. A number
    # that any draw might reject (odds about n**2 / 2**64 in all) sends the whole shuffle down
    # the plain path below, so the output never differs.
    blocks = (count + 2) // 4  # count - 1 draws, four per block
    suffixes = _SUFFIXES if blocks <= len(_SUFFIXES) else _suffixes(blocks)
    seeded = hashlib.sha256(seed)
    digests = []
    for suffix in suffixes[:blocks]:
        block = seeded.copy()
        block.update(suffix)
        digests.append(block.digest())
    numbers = _unpack(f">{4 * blocks}Q", b"".join(digests))
    if max(numbers) >= _lowest_limit(count):
        return _plain_shuffle(seed, items)
    i = count - 1
    for j in map(_mod, numbers, _bounds(count)):  # one j per draw: _bounds is the shorter
        result[i], result[j] = result[j], result[i]
        i -= 1
    return result


def _suffixes(blocks: int) -> list[bytes]:
    """Block numbers as `stream` appends them: 8 bytes, big-endian."""
    return [k.to_bytes(8, "big") for k in range(blocks)]


_SUFFIXES = _suffixes(32)


def _bounds(count: int) -> range:
    """The n of each draw of a shuffle of `count` items: count, count - 1, ..., 2."""
    return range(count, 1, -1)


@cache
def _lowest_limit(count: int) -> int:
    """The lowest of randbelow's rejection limits over the draws of a shuffle of `count` items:
    a number below it is accepted by every draw."""
    return min(_TWO_64 - (_TWO_64 % n) for n in _bounds(count))


def _plain_shuffle(seed: bytes, items: Sequence[T]) -> list[T]:
    result = list(items)
    numbers = stream(seed)
    for i in range(len(result) - 1, 0, -1):
        j = randbelow(numbers, i + 1)
        result[i], result[j] = result[j], result[i]
    return result
