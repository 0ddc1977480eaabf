"""A ruleset's parameters (docs/RULES.md section 2) and each preset's overrides, as published in
the view, the ledger and `GET /v1/rulesets`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, JsonValue

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
from domino_api.engine.shapes import CatalogEntry


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


# Seat 0 is the host's, so a human's.
HOST_SEAT: dict[str, JsonValue] = {"properties": {"type": {"const": "human"}}}


def _option_rule(allowed: object) -> JsonValue:
    if isinstance(allowed, list):
        # A null option is as if it were not given (schemas.py `as_overrides`).
        return {"enum": allowed if None in allowed else [*allowed, None]}
    assert isinstance(allowed, dict)
    return {"minimum": allowed["min"]} if "min" in allowed else {}


def _opener_pair(entry: CatalogEntry, pair: tuple[FirstOpener, NextOpener]) -> JsonValue:
    first, later = pair
    if (entry["first_opener"], entry["next_opener"]) == pair:
        # The preset's own pair: an opener not given, or null (schemas.py `as_overrides`),
        # is the preset's.
        return {
            "properties": {
                "first_opener": {"enum": [first, None]},
                "next_opener": {"enum": [later, None]},
            }
        }
    return {
        "properties": {"first_opener": {"const": first}, "next_opener": {"const": later}},
        "required": ["first_opener", "next_opener"],
    }


def match_create_rules() -> list[JsonValue]:
    """What creation checks per preset, in MatchCreate's schema (one branch per preset, read
    from the engine's catalogue): the seats it seats, and the options it lets a match change."""
    branches: list[JsonValue] = []
    for entry in rulesets.ruleset_catalog():
        overrides = entry["overrides"]
        counts = overrides.get("players", [entry["players"]])
        rules = {key: _option_rule(allowed) for key, allowed in overrides.items()}
        rules.pop("players", None)
        keys: list[JsonValue] = [*rules, "spectators"]
        seats: dict[str, JsonValue] = {
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
        options: dict[str, JsonValue] = {"propertyNames": {"enum": keys}, "properties": rules}
        pairs = rulesets.OPENER_PAIRS.get(entry["name"])
        if pairs:
            options["oneOf"] = [_opener_pair(entry, pair) for pair in pairs]
        branch: dict[str, JsonValue] = {
            "properties": {
                "ruleset": {"const": entry["name"]},
                "seats": {"anyOf": [seats, {"type": "null"}]},
                "options": options,
            }
        }
        if 2 not in counts:  # no seat list means the host and one open seat
            branch["required"] = ["ruleset", "seats"]
        branches.append(branch)
    return branches
