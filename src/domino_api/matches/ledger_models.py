"""The deal check of `POST /v1/deals/verify` (docs/RULES.md section 11); the ledger itself is
the engine's `LedgerOut` (engine/shapes.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from domino_api.web.struct_bodies import Body

_Hex64 = Annotated[str, Meta(pattern=r"^[0-9a-fA-F]{64}$")]
# A dealt tile: two pips of a set of at most double-nine (`max_pip` 6 or 9).
_Pip = Annotated[int, Meta(ge=0, le=9)]
DealtTile = tuple[_Pip, _Pip]


class VerifyBody(Body):
    """A deal to check. The hands dealt must fit in the set: `players` x `hand_size` tiles at
    most, of 28 (`max_pip` 6) or 55 (`max_pip` 9); more is `422 validation_error`."""

    secret: _Hex64
    commitment: _Hex64
    cut: Annotated[str, Meta(max_length=64)]
    hand_number: Annotated[int, Meta(ge=1, le=10_000)]
    attempt: Annotated[int, Meta(ge=0, le=10_000)]
    max_pip: Literal[6, 9]
    players: Annotated[int, Meta(ge=2, le=4)]
    hand_size: Annotated[int, Meta(ge=1, le=13)]

    def check(self) -> None:
        size = (self.max_pip + 1) * (self.max_pip + 2) // 2
        if self.players * self.hand_size > size:
            raise ValueError(f"{self.players} x {self.hand_size} tiles exceed the {size}-tile set")


class VerifyOut(Struct, frozen=True, kw_only=True):
    """The deal recomputed from its secret and cut; whether the secret fits the commitment."""

    commitment_ok: bool
    hands: list[list[DealtTile]]
    stock: list[DealtTile]
