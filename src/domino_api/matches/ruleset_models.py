"""The published list of rulesets (`GET /v1/rulesets`, the engine's `RulesetOut`s) and
MatchCreate's per-preset constraint branches, read from the engine's catalogue."""

from __future__ import annotations

from msgspec import Struct, UnsetType
from pydantic import JsonValue

from domino_api.engine import rulesets
from domino_api.engine.kinds import FirstOpener, NextOpener
from domino_api.engine.rulesets import RulesetOut


class RulesetsOut(Struct, frozen=True):
    """Every preset with its parameters and what a match may override."""

    rulesets: tuple[RulesetOut, ...]


# Seat 0 is the host's, so a human's.
HOST_SEAT: dict[str, JsonValue] = {"properties": {"type": {"const": "human"}}}


def _option_rule(allowed: rulesets.Allowed) -> JsonValue:
    if isinstance(allowed, tuple):
        # A null option is as if it were not given (schemas.py `as_overrides`).
        values: list[JsonValue] = [v for v in allowed if isinstance(v, str | int) or v is None]
        return {"enum": values if None in values else [*values, None]}
    return {"minimum": allowed.min} if isinstance(allowed, rulesets.Minimum) else {}


def _opener_pair(entry: RulesetOut, pair: tuple[FirstOpener, NextOpener]) -> JsonValue:
    first, later = pair
    if (entry.first_opener, entry.next_opener) == pair:
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
        overrides = entry.overrides.allowed()
        players = entry.overrides.players
        counts = (entry.players,) if isinstance(players, UnsetType) else players
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
        pairs = rulesets.OPENER_PAIRS.get(entry.name)
        if pairs:
            options["oneOf"] = [_opener_pair(entry, pair) for pair in pairs]
        branch: dict[str, JsonValue] = {
            "properties": {
                "ruleset": {"const": entry.name},
                "seats": {"anyOf": [seats, {"type": "null"}]},
                "options": options,
            }
        }
        if 2 not in counts:  # no seat list means the host and one open seat
            branch["required"] = ["ruleset", "seats"]
        branches.append(branch)
    return branches
