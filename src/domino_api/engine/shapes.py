"""The JSON shapes the engine writes: a ruleset, a result, an action, a snapshot and a ledger.

TypedDicts, so the dicts stay the plain values storage and the wire have always held (a stored
snapshot must equal what `to_json` writes) while mypy knows each field.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict  # pydantic reads these too (matches/ruleset_models.py)

from domino_api.engine.kinds import (
    ActionName,
    BlockScoring,
    DominoScoring,
    DrawRule,
    EndName,
    FirstOpener,
    ForfeitCause,
    HandReason,
    Layout,
    MatchReason,
    NextOpener,
    PlayScoring,
    Status,
)

TileJSON = list[int]  # [low, high]


class TurnClockJSON(TypedDict):
    allowance_s: int
    grace_s: int


class RulesetJSON(TypedDict):
    name: str
    max_pip: int
    players: int
    hand_size: int
    draw: DrawRule
    layout: Layout
    cover_doubles: bool
    play_scoring: PlayScoring
    domino_scoring: DominoScoring
    block_scoring: BlockScoring
    first_opener: FirstOpener
    next_opener: NextOpener
    target: int
    best_of: int | None
    end_mid_hand: bool
    turn_clock: TurnClockJSON | None
    away_forfeit_s: int | None


class Minimum(TypedDict):
    min: int


class ClockOverride(TypedDict):
    allowance_s: Minimum
    grace_s: Minimum
    nullable: bool


class Overrides(TypedDict, total=False):
    """What a match may override: the values a parameter allows, or its minimum; a preset lists
    only the parameters it lets a match change."""

    target: Minimum
    players: list[int]
    hand_size: list[int]
    draw: list[DrawRule]
    first_opener: list[FirstOpener]
    next_opener: list[NextOpener]
    best_of: list[int | None]
    away_forfeit_s: Minimum
    turn_clock: ClockOverride


class CatalogEntry(RulesetJSON):
    overrides: Overrides


class HandResultJSON(TypedDict):
    number: int
    reason: HandReason
    winner: int | None
    tied: bool
    pips: list[int]
    points: int
    hands: list[list[TileJSON]]


class MatchResultJSON(TypedDict):
    winner: int | None
    reason: MatchReason
    scores: list[int]
    hands_won: list[int]
    forfeited_by: int | None


class OptionJSON(TypedDict):
    """An offered option (`legal`): a play names its tile, end and what it scores."""

    action: Literal["play", "draw", "pass", "next_hand"]
    tile: NotRequired[TileJSON]
    end: NotRequired[EndName | None]
    points: NotRequired[int | None]


class StartJSON(TypedDict):
    action: Literal["start"]
    cut: str


class MoveJSON(TypedDict):
    """A seat's move: a play names its tile and end; a computer's carries its reason."""

    action: Literal["play", "draw", "pass"]
    tile: NotRequired[TileJSON]
    end: NotRequired[EndName | None]
    reason: NotRequired[str]


class NextHandJSON(TypedDict):
    action: Literal["next_hand"]


class ForfeitJSON(TypedDict):
    action: Literal["forfeit"]
    seat: int
    cause: ForfeitCause


class AbandonJSON(TypedDict):
    action: Literal["abandon"]
    reason: Literal["abandoned", "cancelled"]


ActionJSON = StartJSON | MoveJSON | NextHandJSON | ForfeitJSON | AbandonJSON


# A snapshot's rows: values in field order, the form every stored snapshot holds (JSON arrays,
# lists in Python, so a snapshot equals what storage gives back; serialize.py reads them as the
# tuples they mean).
PlacementRow = list[TileJSON | EndName | int | bool | None]  # tile, end, outer, spinner
OpenEndRow = list[EndName | int]  # name, pip, value
MoveRow = list[int | str | TileJSON | None]  # seq, seat, action, tile, end, points, reason
MustCoverRow = list[TileJSON | list[EndName]]  # tile, ends


class BoardJSON(TypedDict):
    tiles: list[PlacementRow]
    ends: list[OpenEndRow]
    total: int
    spinner: int | None
    spinner_mains: list[EndName]


class HandSnapshot(TypedDict):
    number: int
    attempt: int
    opener: int
    dealt: list[list[TileJSON]]
    stock: list[TileJSON]
    drawn: int
    hands: list[list[TileJSON]]
    board: BoardJSON
    turn: int | None
    opening_tile: TileJSON | None
    must_cover: MustCoverRow | None
    passes: int
    moves: list[MoveRow]
    result: HandResultJSON | None


class Snapshot(TypedDict):
    """A whole match as storage keeps it (`serialize.to_json`)."""

    version: int
    ruleset: RulesetJSON
    secret: str
    status: Status
    seq: int
    game_seq: int
    cut: str | None
    hand_number: int
    scores: list[int]
    hands_won: list[int]
    forfeited: list[bool]
    hand: HandSnapshot | None
    history: list[HandSnapshot]
    result: MatchResultJSON | None


class LedgerMoveJSON(TypedDict):
    seq: int
    seat: int
    action: ActionName
    tile: NotRequired[TileJSON]
    end: NotRequired[EndName | None]
    points: NotRequired[int | None]
    reason: NotRequired[str]


class LedgerHandResultJSON(TypedDict):
    reason: HandReason
    winner: int | None
    tied: bool
    pips: list[int]
    points: int


class LedgerHandJSON(TypedDict):
    number: int
    attempt: int
    opener: int
    dealt: list[list[TileJSON]]
    stock: list[TileJSON]
    moves: list[LedgerMoveJSON]
    result: LedgerHandResultJSON


class LedgerDealJSON(TypedDict):
    algorithm: str
    commitment: str
    secret: str
    cut: str | None


class LedgerJSON(TypedDict):
    match_id: str | None
    ruleset: RulesetJSON
    seats: list[dict[str, object]]  # the service's seat summaries, each with `forfeited`
    deal: LedgerDealJSON
    hands: list[LedgerHandJSON]
    result: MatchResultJSON
