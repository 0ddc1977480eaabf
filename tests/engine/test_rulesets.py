"""RULES sections 2 and 3: presets, their overrides and the catalog."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from domino_api.engine import (
    PRESETS,
    BadOptions,
    Ruleset,
    TurnClock,
    UnknownRuleset,
    make_ruleset,
    ruleset_catalog,
)
from domino_api.engine.rulesets import Minimum

TABLE = {
    # set, players, draw, layout, cover, play, domino, block, first, next, target, mid-hand, clock
    "all-fives": (6, 2, "until_playable", "spinner_first_double", False, "fives",
                  "opponents_pips_round5", "lowest_takes_others_round5",
                  "highest_double_else_reshuffle", "winner_any_lock_reshuffle", 150, True, None),
    "house-nines": (9, 4, "one", "spinner_opening_double", True, "none", "opponents_pips",
                    "lowest_takes_others", "highest_double_else_heaviest",
                    "highest_double_else_heaviest", 100, False, None),
    "draw-50": (6, 2, "until_playable", "line", False, "none", "opponents_pips",
                "lowest_takes_others", "highest_double_else_heaviest", "alternate_any", 50,
                False, None),
    "draw": (6, 2, "until_playable", "line", False, "none", "opponents_pips",
             "lowest_takes_difference", "seat_zero_any", "alternate_any", 100, False, None),
    "block": (6, 2, "none", "line", False, "none", "opponents_pips", "lowest_takes_difference",
              "seat_zero_any", "alternate_any", 100, False, None),
    "classic": (6, 2, "until_playable", "line", False, "none", "opponents_pips",
                "lowest_takes_difference", "highest_double_else_heaviest", "winner_any", 100,
                False, TurnClock(180, 120)),
}  # fmt: skip


@pytest.mark.parametrize("name", list(TABLE))
def test_preset_table(name: str) -> None:
    r = PRESETS[name]
    got = (r.max_pip, r.players, r.draw, r.layout, r.cover_doubles, r.play_scoring,
           r.domino_scoring, r.block_scoring, r.first_opener, r.next_opener, r.target,
           r.end_mid_hand, r.turn_clock)  # fmt: skip
    assert got == TABLE[name]
    assert r.name == name and r.hand_size == 7 and r.best_of is None
    assert r.away_forfeit_s == (180 if name == "all-fives" else None)


def test_a_ruleset_round_trips_through_json() -> None:
    for ruleset in PRESETS.values():
        data = json.loads(msgspec.json.encode(ruleset))
        assert Ruleset.from_dict(data) == ruleset
        assert msgspec.json.decode(msgspec.json.encode(ruleset), type=Ruleset) == ruleset
    assert json.loads(msgspec.json.encode(PRESETS["classic"]))["turn_clock"] == {
        "allowance_s": 180,
        "grace_s": 120,
    }


@pytest.mark.parametrize(
    ("name", "options", "field", "value"),
    [
        ("draw", {"target": 250}, "target", 250),
        ("all-fives", {"hand_size": 9}, "hand_size", 9),
        ("all-fives", {"away_forfeit_s": 60}, "away_forfeit_s", 60),
        ("house-nines", {"players": 3}, "players", 3),
        ("classic", {"draw": "one"}, "draw", "one"),
        ("classic", {"next_opener": "alternate_any"}, "next_opener", "alternate_any"),
        ("classic", {"best_of": 3}, "best_of", 3),
        ("classic", {"turn_clock": {"allowance_s": 60, "grace_s": 5}}, "turn_clock",
         TurnClock(60, 5)),
        ("classic", {"turn_clock": None}, "turn_clock", None),
    ],
)  # fmt: skip
def test_allowed_overrides(name: str, options: dict[str, Any], field: str, value: object) -> None:
    assert getattr(make_ruleset(name, options), field) == value


def test_all_fives_any_opener_pair() -> None:
    r = make_ruleset("all-fives", {"first_opener": "seat_zero_any", "next_opener": "alternate_any"})
    assert (r.first_opener, r.next_opener) == ("seat_zero_any", "alternate_any")
    with pytest.raises(BadOptions, match="together"):
        make_ruleset("all-fives", {"first_opener": "seat_zero_any"})
    with pytest.raises(BadOptions, match="together"):
        make_ruleset("all-fives", {"next_opener": "alternate_any"})


@pytest.mark.parametrize(
    ("name", "options", "mention"),
    [
        ("draw", {"target": 0}, "target"),
        ("draw", {"target": True}, "target"),
        ("draw", {"target": 10.5}, "target"),
        ("draw", {"target": "100"}, "target"),
        ("draw", {"players": 3}, "players"),
        ("draw", {"colour": "red"}, "colour"),
        ("all-fives", {"hand_size": 8}, "hand_size"),
        ("all-fives", {"away_forfeit_s": 0}, "away_forfeit_s"),
        ("house-nines", {"players": 5}, "players"),
        ("house-nines", {"players": True}, "players"),
        ("classic", {"draw": "none"}, "draw"),
        ("classic", {"best_of": 6}, "best_of"),
        ("classic", {"best_of": True}, "best_of"),
        ("classic", {"turn_clock": {"allowance_s": 0, "grace_s": 5}}, "allowance_s"),
        ("classic", {"turn_clock": {"allowance_s": 10}}, "turn_clock"),
        ("block", {"draw": "one"}, "draw"),
    ],
)
def test_refused_overrides(name: str, options: dict[str, Any], mention: str) -> None:
    with pytest.raises(BadOptions, match=mention) as info:
        make_ruleset(name, options)
    assert info.value.code == "bad_options"


def test_unknown_ruleset() -> None:
    with pytest.raises(UnknownRuleset) as info:
        make_ruleset("chess", {})
    assert info.value.code == "unknown_ruleset"


def test_catalog_lists_every_preset_with_its_overrides() -> None:
    catalog = {entry["name"]: entry for entry in json.loads(msgspec.json.encode(ruleset_catalog()))}
    assert set(catalog) == set(PRESETS)
    assert catalog["all-fives"]["overrides"]["hand_size"] == [7, 9]
    assert catalog["draw"]["overrides"] == {"target": {"min": 1}}
    assert catalog["house-nines"]["overrides"]["players"] == [2, 3, 4]
    assert catalog["classic"]["turn_clock"] == {"allowance_s": 180, "grace_s": 120}
    assert ruleset_catalog()[3].overrides.target == Minimum(1)


def test_from_dict_refuses_malformed_rulesets() -> None:
    data = json.loads(msgspec.json.encode(PRESETS["draw"]))
    with pytest.raises(BadOptions):
        Ruleset.from_dict({**data, "players": 7})
    with pytest.raises(BadOptions):
        Ruleset.from_dict({k: v for k, v in data.items() if k != "draw"})
