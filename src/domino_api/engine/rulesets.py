"""Rulesets: the parameters of RULES section 2, the presets of section 3 and their overrides."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Annotated, TypeAlias, get_args

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType, structs
from msgspec.structs import replace

from domino_api.engine.errors import BadOptions, UnknownRuleset
from domino_api.engine.kinds import (
    BlockScoring,
    DominoScoring,
    DrawRule,
    FirstOpener,
    Json,
    Layout,
    NextOpener,
    PlayScoring,
)
from domino_api.engine.partner_presets import PARTNER_PRESETS, partner_presets

DRAW_RULES: tuple[DrawRule, ...] = get_args(DrawRule)
LAYOUTS: tuple[Layout, ...] = get_args(Layout)
PLAY_SCORING: tuple[PlayScoring, ...] = get_args(PlayScoring)
DOMINO_SCORING: tuple[DominoScoring, ...] = get_args(DominoScoring)
BLOCK_SCORING: tuple[BlockScoring, ...] = get_args(BlockScoring)
FIRST_OPENERS: tuple[FirstOpener, ...] = get_args(FirstOpener)
NEXT_OPENERS: tuple[NextOpener, ...] = get_args(NextOpener)
PRESET_NAMES = (
    "all-fives",
    "house-nines",
    "draw-50",
    "draw",
    "block",
    "classic",
    "fives-and-threes",
    "mexican-train",
    *PARTNER_PRESETS,
)


class TurnClock(Struct, frozen=True, gc=False):
    allowance_s: Annotated[int, Meta(description="Seconds per turn")]
    grace_s: Annotated[int, Meta(description="Extra seconds once per turn")]


class Ruleset(
    Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True, omit_defaults=True
):
    """Every parameter of the ruleset a match plays (docs/RULES.md section 2)."""

    # The one ruleset type: the engine's, the snapshot's, the ledger's, the view's and the
    # catalogue's (`RulesetOut`), its schema generated from here.

    name: Annotated[str, Meta(extra_json_schema={"enum": list(PRESET_NAMES)})]
    max_pip: int
    players: int
    hand_size: int
    draw: Annotated[DrawRule, Meta(description="When a seat that cannot play draws")]
    layout: Annotated[Layout, Meta(description="Line, or a spinner and which double it is")]
    cover_doubles: bool
    play_scoring: Annotated[PlayScoring, Meta(description="Points scored by plays")]
    domino_scoring: Annotated[DominoScoring, Meta(description="Points for going out")]
    block_scoring: Annotated[BlockScoring, Meta(description="Points for a blocked hand")]
    first_opener: Annotated[FirstOpener, Meta(description="Who opens the first hand")]
    next_opener: Annotated[NextOpener, Meta(description="Who opens later hands")]
    target: int
    best_of: int | None
    end_mid_hand: bool
    turn_clock: TurnClock | None
    away_forfeit_s: int | None
    # Mexican Train's rounds (RULES 13); other rulesets have none and leave it out of their JSON.
    rounds: int | None = None
    # Four seats in two teams, 0 and 2 against 1 and 3 (RULES 14). Left out of a ruleset's JSON
    # when false, so every ledger and snapshot written before it reads and writes as it did.
    partnership: Annotated[bool, Meta(description="Seats 0 and 2 play against 1 and 3")] = False

    @classmethod
    def from_dict(cls, data: object) -> Ruleset:
        """Read an untrusted ruleset (a ledger's, a view's); a malformed one is refused
        (BadOptions)."""
        names = cls.__struct_fields__
        optional = {"partnership", "rounds"}  # absent: false, none
        if not isinstance(data, Mapping) or not set(names) - optional <= set(data) <= set(names):
            raise BadOptions(f"a ruleset needs exactly these fields: {', '.join(names)}")
        clock = data["turn_clock"]
        if clock is not None and (
            not isinstance(clock, Mapping) or set(clock) != {"allowance_s", "grace_s"}
        ):
            raise BadOptions("turn_clock must be null or {allowance_s, grace_s}")
        try:
            ruleset = msgspec.convert(data, cls)
        except msgspec.ValidationError as error:
            raise BadOptions(f"malformed ruleset: {error}") from None
        return checked(ruleset)


class Minimum(Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    min: int


class ClockOverride(Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    allowance_s: Minimum
    grace_s: Minimum
    nullable: bool


Allowed = Minimum | ClockOverride | tuple[object, ...]  # what one overridable parameter allows


class Overrides(Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """What a match may override: the values a parameter allows, or its minimum; a preset lists
    only the parameters it lets a match change."""

    target: Minimum | UnsetType = UNSET
    players: tuple[int, ...] | UnsetType = UNSET
    hand_size: tuple[int, ...] | UnsetType = UNSET
    draw: tuple[DrawRule, ...] | UnsetType = UNSET
    first_opener: tuple[FirstOpener, ...] | UnsetType = UNSET
    next_opener: tuple[NextOpener, ...] | UnsetType = UNSET
    best_of: tuple[int | None, ...] | UnsetType = UNSET
    away_forfeit_s: Minimum | UnsetType = UNSET
    turn_clock: ClockOverride | UnsetType = UNSET
    rounds: tuple[int, ...] | UnsetType = UNSET

    def allowed(self) -> dict[str, Allowed]:
        """The parameters a match may override, each with what it allows, in field order."""
        return {
            name: value
            for name in self.__struct_fields__
            if not isinstance(value := getattr(self, name), UnsetType)
        }


class RulesetOut(Ruleset, frozen=True, kw_only=True, omit_defaults=False):
    """A preset with all its parameters and what a match may override (`GET /v1/rulesets`)."""

    overrides: Overrides


def _whole(value: object, name: str, minimum: int) -> int:
    # bool is an int subclass in Python, but `true` is not a number of points.
    if type(value) is not int or value < minimum:
        raise BadOptions(f"{name} must be a whole number of at least {minimum}, got {value!r}")
    return value


def _one_of(value: object, name: str, allowed: tuple[object, ...]) -> None:
    # Compare types too: True == 1 in Python, yet `true` is not a pip count.
    if not any(value == a and type(value) is type(a) for a in allowed):
        raise BadOptions(f"{name} must be one of {list(allowed)}, got {value!r}")


def checked(r: Ruleset) -> Ruleset:
    """`r` if it passes the structural checks every ruleset must pass, preset or restored."""
    if not isinstance(r.name, str) or not r.name:
        raise BadOptions("name must be a non-empty string")
    trains = r.layout == "trains"  # Mexican Train alone plays double-twelve, up to 8 seats
    _one_of(r.max_pip, "max_pip", (12,) if trains else (6, 9))
    _one_of(r.players, "players", tuple(range(2, 9 if trains else 5)))
    _whole(r.hand_size, "hand_size", 1)
    if r.players * r.hand_size > (r.max_pip + 1) * (r.max_pip + 2) // 2:
        raise BadOptions("players x hand_size exceeds the set")
    _one_of(r.draw, "draw", DRAW_RULES)
    _one_of(r.layout, "layout", LAYOUTS)
    _one_of(r.play_scoring, "play_scoring", PLAY_SCORING)
    _one_of(r.domino_scoring, "domino_scoring", DOMINO_SCORING)
    _one_of(r.block_scoring, "block_scoring", BLOCK_SCORING)
    _one_of(r.first_opener, "first_opener", FIRST_OPENERS)
    _one_of(r.next_opener, "next_opener", NEXT_OPENERS)
    for flag in ("cover_doubles", "end_mid_hand", "partnership"):
        if type(getattr(r, flag)) is not bool:
            raise BadOptions(f"{flag} must be true or false")
    if r.partnership and r.players != 4:
        raise BadOptions("partnership needs four seats (two teams of two)")
    _whole(r.target, "target", 1)
    if r.best_of is not None:
        _one_of(r.best_of, "best_of", (1, 2, 3, 4, 5))
    if r.away_forfeit_s is not None:
        _whole(r.away_forfeit_s, "away_forfeit_s", 1)
    if r.turn_clock is not None:
        _whole(r.turn_clock.allowance_s, "turn_clock.allowance_s", 1)
        _whole(r.turn_clock.grace_s, "turn_clock.grace_s", 1)
    if trains or r.rounds is not None:
        _one_of(r.rounds, "rounds", tuple(range(1, r.max_pip + 2)) if trains else (None,))
    return r


# What a preset leaves as it is (the plain Draw game); `replace` makes the others.
_DRAW = Ruleset(
    name="draw",
    max_pip=6,
    players=2,
    hand_size=7,
    draw="until_playable",
    layout="line",
    cover_doubles=False,
    play_scoring="none",
    domino_scoring="opponents_pips",
    block_scoring="lowest_takes_difference",
    first_opener="seat_zero_any",
    next_opener="alternate_any",
    target=100,
    best_of=None,
    end_mid_hand=False,
    turn_clock=None,
    away_forfeit_s=None,
)


PRESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        "all-fives": replace(
            _DRAW,
            name="all-fives",
            layout="spinner_first_double",
            play_scoring="fives",
            domino_scoring="opponents_pips_round5",
            block_scoring="lowest_takes_others_round5",
            first_opener="highest_double_else_reshuffle",
            next_opener="winner_any_lock_reshuffle",
            target=150,
            end_mid_hand=True,
            away_forfeit_s=180,
        ),
        # The preset seats four; a match creator picks 2-4 through its seat list.
        "house-nines": replace(
            _DRAW,
            name="house-nines",
            max_pip=9,
            players=4,
            draw="one",
            layout="spinner_opening_double",
            cover_doubles=True,
            block_scoring="lowest_takes_others",
            first_opener="highest_double_else_heaviest",
            next_opener="highest_double_else_heaviest",
        ),
        "draw-50": replace(
            _DRAW,
            name="draw-50",
            block_scoring="lowest_takes_others",
            first_opener="highest_double_else_heaviest",
            target=50,
        ),
        "draw": _DRAW,
        "block": replace(_DRAW, name="block", draw="none"),
        "classic": replace(
            _DRAW,
            name="classic",
            first_opener="highest_double_else_heaviest",
            next_opener="winner_any",
            turn_clock=TurnClock(allowance_s=180, grace_s=120),
        ),
        # The British pub game: a line, no drawing, fives and threes scored as played, one point
        # for chipping out, to 61 (a cribbage board's length). Two seat 7 tiles, three or four 5.
        "fives-and-threes": replace(
            _DRAW,
            name="fives-and-threes",
            draw="none",
            play_scoring="fives_and_threes",
            domino_scoring="one_point",
            block_scoring="nobody",
            target=61,
            end_mid_hand=True,
        ),
        # Double-twelve trains (RULES 13): each round opened by its engine double, the pips
        # left in a hand counted against its holder, the lowest total after 13 rounds wins.
        "mexican-train": replace(
            _DRAW,
            name="mexican-train",
            max_pip=12,
            players=4,
            hand_size=15,
            draw="one",
            layout="trains",
            cover_doubles=True,
            domino_scoring="own_pips",
            block_scoring="own_pips",
            rounds=13,
        ),
        **partner_presets(_DRAW),  # engine/partner_presets.py
    }
)

# A match's options: a JSON object of parameter overrides by name (a request's `options`, a
# seek's, a tournament's, a player's settings), which `make_ruleset` checks member by member.
Options: TypeAlias = Mapping[str, Json]

# Presets whose hand size follows the number of seats (unless a match sets it).
HAND_BY_PLAYERS: Mapping[str, Mapping[int, int]] = {
    "fives-and-threes": {2: 7, 3: 5, 4: 5},
    "mexican-train": {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10},
}

assert tuple(PRESETS) == PRESET_NAMES  # the names Ruleset's schema lists

_ALL_FIVES_OPENERS: tuple[tuple[FirstOpener, NextOpener], ...] = (
    ("highest_double_else_reshuffle", "winner_any_lock_reshuffle"),
    ("seat_zero_any", "alternate_any"),
)

# Presets whose openers go in pairs: (first_opener, next_opener) must be one of these.
OPENER_PAIRS: Mapping[str, tuple[tuple[FirstOpener, NextOpener], ...]] = {
    "all-fives": _ALL_FIVES_OPENERS
}

# What each preset lets a match override (RULES section 3), as published by the catalog.
_OVERRIDES: Mapping[str, Overrides] = {
    "all-fives": Overrides(
        hand_size=(7, 9),
        first_opener=tuple(pair[0] for pair in _ALL_FIVES_OPENERS),
        next_opener=tuple(pair[1] for pair in _ALL_FIVES_OPENERS),
        away_forfeit_s=Minimum(1),
    ),
    "house-nines": Overrides(players=(2, 3, 4)),
    "draw-50": Overrides(),
    "draw": Overrides(),
    "block": Overrides(),
    "fives-and-threes": Overrides(players=(2, 3, 4)),
    "mexican-train": Overrides(players=tuple(range(2, 9)), rounds=tuple(range(1, 14))),
    **{name: Overrides() for name in PARTNER_PRESETS},
    "classic": Overrides(
        draw=("until_playable", "one"),
        next_opener=("winner_any", "alternate_any"),
        best_of=(None, 1, 2, 3, 4, 5),
        turn_clock=ClockOverride(Minimum(1), Minimum(1), nullable=True),
    ),
}


def _overrides_for(name: str) -> Overrides:
    if name == "mexican-train":
        return _OVERRIDES[name]  # its rounds end the match, never a target
    return replace(_OVERRIDES[name], target=Minimum(1))  # every other preset lets a match set it


def _parse_override(key: str, value: object, allowed: Allowed) -> object:
    if isinstance(allowed, ClockOverride):
        if value is None:
            return None
        if not isinstance(value, Mapping) or set(value) != {"allowance_s", "grace_s"}:
            raise BadOptions("turn_clock must be null or {allowance_s, grace_s}, each at least 1")
        return TurnClock(
            _whole(value["allowance_s"], "turn_clock.allowance_s", allowed.allowance_s.min),
            _whole(value["grace_s"], "turn_clock.grace_s", allowed.grace_s.min),
        )
    if isinstance(allowed, Minimum):
        return _whole(value, key, allowed.min)
    if not any(value == a and type(value) is type(a) for a in allowed):
        raise BadOptions(f"{key} must be one of {allowed}, got {value!r}")
    return value


def make_ruleset(name: str, options: Options) -> Ruleset:
    """A preset with the overrides RULES section 3 allows for it; anything else is refused."""
    if name not in PRESETS:
        raise UnknownRuleset(f"unknown ruleset {name!r}; the presets are {', '.join(PRESETS)}")
    if not isinstance(options, Mapping):
        raise BadOptions("options must be an object of parameter overrides")
    allowed = _overrides_for(name).allowed()
    changes = {}
    for key, value in options.items():
        if key not in allowed:
            what = "not a ruleset parameter" if key not in _FIELD_NAMES else "fixed by this preset"
            raise BadOptions(
                f"option {key!r} is {what}; {name} allows overriding only {', '.join(allowed)}"
            )
        changes[key] = _parse_override(key, value, allowed[key])
    sizes = HAND_BY_PLAYERS.get(name)
    if sizes is not None and "hand_size" not in changes:
        players = changes.get("players", PRESETS[name].players)
        assert isinstance(players, int)  # _parse_override took it from the allowed counts
        changes["hand_size"] = sizes[players]
    ruleset = replace(PRESETS[name], **changes)
    if name == "all-fives" and (ruleset.first_opener, ruleset.next_opener) not in (
        _ALL_FIVES_OPENERS
    ):
        raise BadOptions(
            "all-fives takes first_opener seat_zero_any only together with "
            "next_opener alternate_any"
        )
    return ruleset


_FIELD_NAMES = frozenset(Ruleset.__struct_fields__)


def ruleset_catalog() -> list[RulesetOut]:
    """Every preset with all its parameters and what a match may override."""
    return [
        RulesetOut(**structs.asdict(ruleset), overrides=_overrides_for(name))
        for name, ruleset in PRESETS.items()
    ]
