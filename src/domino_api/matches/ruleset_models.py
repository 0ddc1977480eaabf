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


# Seat 0 is the host's, so a human's.
HOST_SEAT = {"properties": {"type": {"const": "human"}}}


def _option_rule(allowed: object) -> dict[str, Any]:
    if isinstance(allowed, list):
        # A null option is as if it were not given (schemas.py `as_overrides`).
        return {"enum": allowed if None in allowed else [*allowed, None]}
    assert isinstance(allowed, dict)
    return {"minimum": allowed["min"]} if "min" in allowed else {}


def _opener_pair(entry: dict[str, Any], pair: tuple[str, str]) -> dict[str, Any]:
    first, later = pair
    if (entry["first_opener"], entry["next_opener"]) == pair:
        # The preset's own pair: an opener not given, or null (schemas.py `as_overrides`),
        # is the preset's.
        both = {"first_opener": {"enum": [first, None]}, "next_opener": {"enum": [later, None]}}
        return {"properties": both}
    return {
        "properties": {"first_opener": {"const": first}, "next_opener": {"const": later}},
        "required": ["first_opener", "next_opener"],
    }


def match_create_rules() -> Any:
    """What creation checks per preset, in MatchCreate's schema (one branch per preset, read
    from the engine's catalogue): the seats it seats, and the options it lets a match change."""
    branches = []
    for entry in rulesets.ruleset_catalog():
        overrides = entry["overrides"]
        counts = overrides.get("players", [entry["players"]])
        keys = [key for key in overrides if key != "players"] + ["spectators"]
        seats = {
            # No `type` here (MatchCreate's `seats` says array): a type generator then leaves
            # the seats MatchCreate's type, where a tuple of `unknown` made TypeScript widen
            # `{type: "human"}` to `{type: string}`.
            "minItems": min(counts),
            "maxItems": max(counts),
            # "Seat 0 is no seat but the host's", not `prefixItems: [HOST_SEAT]`: type
            # generators read `prefixItems` as the whole tuple (openapi-typescript made the
            # README's two seats a one-seat tuple), and they leave `not` alone.
            "not": {"prefixItems": [{"not": HOST_SEAT}]},
        }
        branch: dict[str, Any] = {
            "properties": {
                "ruleset": {"const": entry["name"]},
                "seats": {"anyOf": [seats, {"type": "null"}]},
                "options": {
                    "propertyNames": {"enum": keys},
                    "properties": {key: _option_rule(overrides[key]) for key in keys[:-1]},
                },
            }
        }
        pairs = rulesets.OPENER_PAIRS.get(entry["name"])
        if pairs:
            options = branch["properties"]["options"]
            options["oneOf"] = [_opener_pair(entry, pair) for pair in pairs]
        if 2 not in counts:  # no seat list means the host and one open seat
            branch["required"] = ["ruleset", "seats"]
        branches.append(branch)
    return branches
