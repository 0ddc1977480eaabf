"""Who opens a hand and with what, reshuffling when the rule says so (RULES section 9)."""

from __future__ import annotations

from msgspec import Struct

from domino_api.engine.deal import Deal, deal
from domino_api.engine.kinds import FirstOpener, NextOpener
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import HandState
from domino_api.engine.tiles import Tile
from domino_api.engine.trains.deal import round_deal
from domino_api.engine.trains.layout import TRAINS

# A deal without any double happens about once in 300 two-seat deals; this bound only guards
# against a ruleset where no deal could ever hold one.
_MAX_ATTEMPTS = 10_000


class Opening(Struct, frozen=True, kw_only=True, gc=False):
    attempt: int
    deal: Deal
    opener: int
    opening_tile: Tile | None  # None: the opener may open with any tile


def highest_double(hands: tuple[tuple[Tile, ...], ...]) -> tuple[int, Tile] | None:
    best: tuple[int, Tile] | None = None
    for seat, tiles in enumerate(hands):
        for tile in tiles:
            if tile[0] == tile[1] and (best is None or tile[0] > best[1][0]):
                best = (seat, tile)
    return best


def heaviest_tile(hands: tuple[tuple[Tile, ...], ...]) -> tuple[int, Tile]:
    """The highest pip count, ties broken by the higher half: [0,6] beats [1,5]."""
    seat, tile = max(
        ((seat, tile) for seat, tiles in enumerate(hands) for tile in tiles),
        key=lambda item: (item[1][0] + item[1][1], item[1][1]),
    )
    return seat, tile


def opening_rule(ruleset: Ruleset, previous: HandState | None) -> tuple[str, int | None]:
    """(rule, opener for the `*_any` rules) for the hand after `previous` (None: hand 1)."""
    players = ruleset.players
    if previous is None:
        rule: FirstOpener | NextOpener = ruleset.first_opener
        return rule, 0 if rule == "seat_zero_any" else None
    result = previous.result
    assert result is not None
    rule = ruleset.next_opener
    if rule == "winner_any":
        if result.winner is None:
            return "any", (previous.opener + 1) % players
        return "any", result.winner
    if rule == "winner_any_lock_reshuffle":
        if result.reason == "domino" and result.winner is not None:
            return "any", result.winner
        return "highest_double_else_reshuffle", None
    if rule == "alternate_any":
        return "any", (previous.opener + 1) % players
    return rule, None


def open_hand(
    ruleset: Ruleset, secret: bytes, cut: str, number: int, previous: HandState | None
) -> Opening:
    rule, seat = opening_rule(ruleset, previous)
    if ruleset.layout == TRAINS:
        # Any tile opens a train; the seats take the first play in turn (`alternate_any`).
        assert seat is not None
        dealt = round_deal(secret, cut, number, ruleset.max_pip, ruleset.players, ruleset.hand_size)
        return Opening(attempt=0, deal=dealt, opener=seat, opening_tile=None)
    for attempt in range(_MAX_ATTEMPTS):
        dealt = deal(
            secret, cut, number, attempt, ruleset.max_pip, ruleset.players, ruleset.hand_size
        )
        if seat is not None:
            return Opening(attempt=attempt, deal=dealt, opener=seat, opening_tile=None)
        double = highest_double(dealt.hands)
        if double is not None:
            return Opening(attempt=attempt, deal=dealt, opener=double[0], opening_tile=double[1])
        if rule == "highest_double_else_heaviest":
            holder, tile = heaviest_tile(dealt.hands)
            return Opening(attempt=attempt, deal=dealt, opener=holder, opening_tile=tile)
    raise RuntimeError("no deal held a double")
