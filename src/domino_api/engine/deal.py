"""The sealed deal `sha256-fy-v1` (RULES section 11): commitment, per-hand seed and the deal."""

from __future__ import annotations

import hashlib
import hmac
from functools import cache

from msgspec import Struct

from domino_api.engine.errors import BadCut
from domino_api.engine.rng import shuffle
from domino_api.engine.tiles import Tile, full_set

ALGORITHM = "sha256-fy-v1"
MAX_CUT_LENGTH = 64


class Deal(Struct, frozen=True, kw_only=True, gc=False):
    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]


def commitment(secret: bytes) -> str:
    return hashlib.sha256(secret).hexdigest()


def check_cut(cut: object) -> str:
    if not isinstance(cut, str):
        raise BadCut(f"the cut must be a string of at most {MAX_CUT_LENGTH} characters")
    if len(cut) > MAX_CUT_LENGTH:
        raise BadCut(f"the cut is {len(cut)} characters long; at most {MAX_CUT_LENGTH} are allowed")
    return cut


def deal_seed(secret: bytes, cut: str, hand_number: int, attempt: int) -> bytes:
    message = f"{cut}|{hand_number}|{attempt}".encode()
    return hmac.digest(secret, message, "sha256")


def deal(
    secret: bytes,
    cut: str,
    hand_number: int,
    attempt: int,
    max_pip: int,
    players: int,
    hand_size: int,
) -> Deal:
    """Shuffle the canonical set and hand out `hand_size` tiles per seat; the rest is the stock."""
    check_cut(cut)
    tiles = full_set(max_pip)
    if players * hand_size > len(tiles):
        raise ValueError(f"{players} x {hand_size} tiles do not fit in a set of {len(tiles)}")
    order = tuple(shuffle(deal_seed(secret, cut, hand_number, attempt), tiles))
    seats = seat_slices(players, hand_size)
    return Deal(hands=tuple(map(order.__getitem__, seats)), stock=order[players * hand_size :])


@cache
def seat_slices(players: int, hand_size: int) -> tuple[slice, ...]:
    """Where each seat's tiles lie in the shuffled set: hand_size tiles each, seat 0 first."""
    return tuple(slice(s * hand_size, (s + 1) * hand_size) for s in range(players))
