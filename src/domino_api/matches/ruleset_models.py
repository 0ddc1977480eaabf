"""A ruleset's parameters (docs/RULES.md section 2) and each preset's overrides, as published in
the view, the ledger and `GET /v1/rulesets`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from domino_api.engine import rulesets, shapes
from domino_api.engine.kinds import (
    BlockScoring,
    DominoScoring,
    DrawRule,
    FirstOpener,
    Layout,
    NextOpener,
    PlayScoring,
)


class TurnClockOut(BaseModel):
    allowance_s: int = Field(description="Seconds per turn")
    grace_s: int = Field(description="Extra seconds once per turn")


class RulesetParams(BaseModel):
    """Every parameter of the ruleset a match plays (docs/RULES.md section 2)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(json_schema_extra={"enum": list(rulesets.PRESETS)})
    max_pip: int
    players: int
    hand_size: int
    draw: DrawRule = Field(description="When a seat that cannot play draws")
    layout: Layout = Field(description="Line, or a spinner and which double it is")
    cover_doubles: bool
    play_scoring: PlayScoring = Field(description="Points scored by plays")
    domino_scoring: DominoScoring = Field(description="Points for going out")
    block_scoring: BlockScoring = Field(description="Points for a blocked hand")
    first_opener: FirstOpener = Field(description="Who opens the first hand")
    next_opener: NextOpener = Field(description="Who opens later hands")
    target: int
    best_of: int | None
    end_mid_hand: bool
    turn_clock: TurnClockOut | None
    away_forfeit_s: int | None


class Overrides(shapes.Overrides, total=False):
    """What a match may override: the values a parameter allows, or its minimum; a preset lists
    only the parameters it lets a match change."""

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]


class RulesetOut(RulesetParams):
    overrides: Overrides


class RulesetsOut(BaseModel):
    rulesets: list[RulesetOut]
