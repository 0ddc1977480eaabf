"""The ledger of a match that is over (engine/ledger.py writes it) and the deal check of
`POST /v1/deals/verify` (docs/RULES.md section 11)."""

from __future__ import annotations

from typing import Literal, NotRequired

from pydantic import BaseModel, ConfigDict, Field, model_validator
from typing_extensions import TypedDict

from domino_api.engine.kinds import ActionName, HandReason, MatchReason, SeatKind, Strategy
from domino_api.matches.ruleset_models import RulesetParams
from domino_api.matches.schemas import EndName, TileIn
from domino_api.web.inputs import Strict


class ResultOut(BaseModel):
    winner: int | None
    reason: MatchReason
    scores: list[int]
    hands_won: list[int]
    forfeited_by: int | None


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


class LedgerDeal(BaseModel):
    algorithm: Literal["sha256-fy-v1"]
    commitment: str
    secret: str
    cut: str | None


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LedgerSeat(_Record):
    seat: int
    name: str | None
    type: SeatKind
    strategy: Strategy | None
    forfeited: bool


class LedgerMove(TypedDict):
    """A play has `tile`, `end` (null for a hand's first tile) and `points`; a draw names the
    `tile` drawn; a pass has neither. A computer seat's moves carry the `reason` it chose them for.
    """

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    seq: int
    seat: int
    action: ActionName
    tile: NotRequired[TileIn]
    end: NotRequired[EndName | None]
    points: NotRequired[int]
    reason: NotRequired[str]


class LedgerHandResult(_Record):
    reason: HandReason
    winner: int | None
    tied: bool
    pips: list[int]
    points: int


class LedgerHand(_Record):
    number: int
    attempt: int
    opener: int
    dealt: list[list[TileIn]] = Field(description="Each seat's dealt tiles, in dealt order")
    stock: list[TileIn]
    moves: list[LedgerMove]
    result: LedgerHandResult


class LedgerOut(BaseModel):
    """The full record of a finished, abandoned or cancelled match (the deal: docs/RULES.md 11)."""

    match_id: str | None
    ruleset: RulesetParams
    seats: list[LedgerSeat]
    deal: LedgerDeal
    hands: list[LedgerHand]
    result: ResultOut | None
