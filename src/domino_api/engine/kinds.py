"""The engine's closed sets, named once: the state, the events and the published schemas use
these Literals (a value outside one is a bug mypy or the contract's tests find)."""

from __future__ import annotations

from typing import Literal, TypeAlias

# A JSON value as decoded (a stored event's data, a match's options): read by checking it.
Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"

Status = Literal["waiting", "playing", "hand_over", "finished", "abandoned", "cancelled"]
# The statuses of a match that is over: nothing is played in it any more. `is_over` is the one
# test (MatchState.over and Table.over ask it; the store's queries use OVER).
OVER: tuple[Status, ...] = ("finished", "abandoned", "cancelled")
ActionName = Literal["play", "draw", "pass"]
# The options a view lists: the actions, and `next_hand` once a hand has ended.
OptionName = Literal["play", "draw", "pass", "next_hand"]
# The line's and the spinner's ends, then Mexican Train's: each seat's own train and the
# Mexican train every seat may play on (engine/trains/layout.py).
EndName = Literal[
    "left",
    "right",
    "up",
    "down",
    "train0",
    "train1",
    "train2",
    "train3",
    "train4",
    "train5",
    "train6",
    "train7",
    "mexican",
]
HandReason = Literal["domino", "blocked", "target", "forfeit", "abandoned"]
# `rounds`: Mexican Train's match ends after its rounds, the lowest total winning.
MatchReason = Literal["target", "best_of", "rounds", "forfeit", "abandoned", "cancelled"]
# Why points were scored: a play, or a hand's end (the winner's count, a block, the target).
ScoreCause = Literal["play", "domino", "blocked", "target"]
ForfeitCause = Literal["clock", "away", "resign", "check_in"]
SeatKind = Literal["human", "bot"]
Strategy = Literal["plain", "planner", "random"]
# A ruleset's parameters (RULES section 2).
DrawRule = Literal["until_playable", "one", "none"]
Layout = Literal["line", "spinner_first_double", "spinner_opening_double", "trains"]
PlayScoring = Literal["none", "fives", "fives_and_threes"]
# What the seat that empties its hand scores: the others' pips, or the one point of Fives and
# Threes' "chip out".
# `own_pips` (Mexican Train): every seat adds the pips it still holds to its own total.
# `all_pips` (partnership, RULES 14): every hand left, the partner's too.
DominoScoring = Literal[
    "opponents_pips", "opponents_pips_round5", "one_point", "own_pips", "all_pips"
]
BlockScoring = Literal[
    "lowest_takes_others",
    "lowest_takes_difference",
    "lowest_takes_others_round5",
    "nobody",
    "own_pips",
    "lowest_takes_all",
]
FirstOpener = Literal[
    "highest_double_else_reshuffle", "highest_double_else_heaviest", "seat_zero_any"
]
NextOpener = Literal[
    "winner_any", "winner_any_lock_reshuffle", "highest_double_else_heaviest", "alternate_any"
]


def is_over(status: str) -> bool:
    """The match is over: finished, abandoned or cancelled."""
    return status in OVER
