"""The deal check of `POST /v1/deals/verify` (docs/RULES.md section 11); the ledger itself is
the engine's `LedgerOut` (engine/shapes.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from domino_api.matches.schemas import TileIn
from domino_api.web.inputs import Strict


class VerifyBody(Strict):
    """A deal to check. The hands dealt must fit in the set: `players` x `hand_size` tiles at
    most, of 28 (`max_pip` 6) or 55 (`max_pip` 9); more is `422 validation_error`."""

    secret: str = Field(pattern=r"^[0-9a-fA-F]{64}$")
    commitment: str = Field(pattern=r"^[0-9a-fA-F]{64}$")
    cut: str = Field(max_length=64)
    hand_number: int = Field(ge=1, le=10_000)
    attempt: int = Field(ge=0, le=10_000)
    max_pip: Literal[6, 9]
    players: int = Field(ge=2, le=4)
    hand_size: int = Field(ge=1, le=13)

    @model_validator(mode="after")
    def _fits_the_set(self) -> VerifyBody:
        size = (self.max_pip + 1) * (self.max_pip + 2) // 2
        if self.players * self.hand_size > size:
            raise ValueError(f"{self.players} x {self.hand_size} tiles exceed the {size}-tile set")
        return self


class VerifyOut(BaseModel):
    commitment_ok: bool
    hands: list[list[TileIn]]
    stock: list[TileIn]
