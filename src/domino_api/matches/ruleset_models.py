"""The published list of rulesets (`GET /v1/rulesets`, the engine's `RulesetOut`s)."""

from __future__ import annotations

from msgspec import Struct

from domino_api.engine.rulesets import RulesetOut


class RulesetsOut(Struct, frozen=True):
    """Every preset with its parameters and what a match may override."""

    rulesets: tuple[RulesetOut, ...]
