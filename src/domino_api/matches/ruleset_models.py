"""A ruleset's parameters (docs/RULES.md section 2) and each preset's overrides, as published in
the view, the ledger and `GET /v1/rulesets`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from domino_api.engine import rulesets


def _one_of(values: tuple[str, ...], description: str) -> Any:
    # A documented enum read from the engine's own tuple, so the two cannot drift.
    return Field(description=description, json_schema_extra={"enum": list(values)})


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
    draw: str = _one_of(rulesets.DRAW_RULES, "When a seat that cannot play draws")
    layout: str = _one_of(rulesets.LAYOUTS, "Line, or a spinner and which double it is")
    cover_doubles: bool
    play_scoring: str = _one_of(rulesets.PLAY_SCORING, "Points scored by plays")
    domino_scoring: str = _one_of(rulesets.DOMINO_SCORING, "Points for going out")
    block_scoring: str = _one_of(rulesets.BLOCK_SCORING, "Points for a blocked hand")
    first_opener: str = _one_of(rulesets.FIRST_OPENERS, "Who opens the first hand")
    next_opener: str = _one_of(rulesets.NEXT_OPENERS, "Who opens later hands")
    target: int
    best_of: int | None
    end_mid_hand: bool
    turn_clock: TurnClockOut | None
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

    __pydantic_config__ = ConfigDict(extra="forbid")  # type: ignore[misc]

    target: Minimum
    players: list[int]
    hand_size: list[int]
    draw: list[str]
    first_opener: list[str]
    next_opener: list[str]
    best_of: list[int | None]
    away_forfeit_s: Minimum
    turn_clock: ClockOverride


class RulesetOut(RulesetParams):
    overrides: Overrides


class RulesetsOut(BaseModel):
    rulesets: list[RulesetOut]
