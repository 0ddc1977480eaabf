"""The deal check of `POST /v1/deals/verify` (docs/RULES.md section 11); the ledger itself is
the engine's `LedgerOut` (engine/shapes.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from domino_api.matches.schemas import TileIn
from domino_api.web.inputs import Strict


def _deals_that_fit() -> list[JsonValue]:
    """verify_deal's check in the schema: the hands dealt fit in the set (one branch per set and
    number of players, with the largest hand that fits)."""
    return [
        {
            "properties": {
                "max_pip": {"const": pip},
                "players": {"const": players},
                "hand_size": {"maximum": (pip + 1) * (pip + 2) // 2 // players},
            }
        }
        for pip in (6, 9)
        for players in (2, 3, 4)
    ]


class VerifyBody(Strict):
    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra={"oneOf": _deals_that_fit()}
    )

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
