"""Match and hand state: immutable records of tuples that `apply` replaces, never changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from domino_api.engine.layout import EMPTY_BOARD, Board
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.tiles import Tile


class LegalAction(NamedTuple):
    """One action the seat to act may take now; plays carry what they would score."""

    action: str  # play | draw | pass
    tile: Tile | None
    end: str | None
    points: int | None

    def to_dict(self) -> dict[str, Any]:
        if self.action != "play":
            return {"action": self.action}
        assert self.tile is not None
        return {"action": "play", "tile": list(self.tile), "end": self.end, "points": self.points}


DRAW_ACTION = LegalAction("draw", None, None, None)
PASS_ACTION = LegalAction("pass", None, None, None)


class Move(NamedTuple):
    """A seat's action as the ledger records it; `seq` is the seq of the event it produced."""

    seq: int
    seat: int
    action: str  # play | draw | pass
    tile: Tile | None  # the tile played or drawn
    end: str | None
    points: int | None
    reason: str | None


@dataclass(frozen=True, slots=True, init=False)
class HandResult:
    number: int
    reason: str  # domino | blocked | target | forfeit | abandoned
    winner: int | None
    tied: bool
    pips: tuple[int, ...]
    points: int
    hands: tuple[tuple[Tile, ...], ...]

    # Slots set through their descriptors, as actions.Play does: every hand's end builds one,
    # and the generated frozen __init__ (object.__setattr__ by name) costs nearly twice as much.
    def __init__(
        self,
        number: int,
        reason: str,
        winner: int | None,
        tied: bool,
        pips: tuple[int, ...],
        points: int,
        hands: tuple[tuple[Tile, ...], ...],
    ) -> None:
        _hr_number(self, number)
        _hr_reason(self, reason)
        _hr_winner(self, winner)
        _hr_tied(self, tied)
        _hr_pips(self, pips)
        _hr_points(self, points)
        _hr_hands(self, hands)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "reason": self.reason,
            "winner": self.winner,
            "tied": self.tied,
            "pips": list(self.pips),
            "points": self.points,
            "hands": [[list(t) for t in tiles] for tiles in self.hands],
        }


_hr_number, _hr_reason, _hr_winner, _hr_tied, _hr_pips, _hr_points, _hr_hands = (
    HandResult.__dict__[name].__set__
    for name in ("number", "reason", "winner", "tied", "pips", "points", "hands")
)


@dataclass(frozen=True, slots=True, init=False)
class MatchResult:
    winner: int | None
    reason: str  # target | best_of | forfeit | abandoned | cancelled
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    forfeited_by: int | None

    def __init__(  # as HandResult's
        self,
        winner: int | None,
        reason: str,
        scores: tuple[int, ...],
        hands_won: tuple[int, ...],
        forfeited_by: int | None,
    ) -> None:
        _mr_winner(self, winner)
        _mr_reason(self, reason)
        _mr_scores(self, scores)
        _mr_hands_won(self, hands_won)
        _mr_forfeited_by(self, forfeited_by)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "scores": list(self.scores),
            "hands_won": list(self.hands_won),
            "forfeited_by": self.forfeited_by,
        }


_mr_winner, _mr_reason, _mr_scores, _mr_hands_won, _mr_forfeited_by = (
    MatchResult.__dict__[name].__set__
    for name in ("winner", "reason", "scores", "hands_won", "forfeited_by")
)


# The double a seat must cover and the ends that cover it (RULES section 6).
MustCover = tuple[Tile, tuple[str, ...]]


class HandState(NamedTuple):
    """One hand. A NamedTuple, not a frozen dataclass: `apply` builds one per move, and a tuple
    builds ~6x faster while being just as immutable."""

    number: int
    attempt: int
    opener: int
    dealt: tuple[tuple[Tile, ...], ...]  # each seat's tiles as dealt (the ledger shows them)
    stock: tuple[Tile, ...]  # the undealt tiles in dealt order; draws take from the front
    drawn: int  # how many stock tiles have been drawn
    hands: tuple[tuple[Tile, ...], ...]  # what each seat holds now
    board: Board
    turn: int | None  # None once the hand is over
    opening_tile: Tile | None  # the tile the opener must open with; None: any tile
    must_cover: MustCover | None
    passes: int  # passes in a row; every seat passing blocks the hand
    moves: tuple[Move, ...]
    # The turn seat's legal actions: derived from the fields above, kept so that validating a
    # move and announcing the next turn cost one computation, not three.
    legal: tuple[LegalAction, ...]
    result: HandResult | None

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.drawn


class MatchState(NamedTuple):
    """The whole match (a NamedTuple for the same reason as HandState)."""

    ruleset: Ruleset
    secret: bytes
    status: str  # waiting | playing | hand_over | finished | abandoned | cancelled
    seq: int  # seq of the last event
    game_seq: int  # seq of the last game event (what makes a move stale)
    cut: str | None
    hand_number: int
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    forfeited: tuple[bool, ...]
    hand: HandState | None  # the current hand, or the last one once it is over
    history: tuple[HandState, ...]  # hands before `hand`, oldest first
    result: MatchResult | None

    @property
    def turn(self) -> int | None:
        """The seat to act, or None outside play."""
        if self.status != "playing" or self.hand is None:
            return None
        return self.hand.turn

    @property
    def turn_seat(self) -> int | None:
        return self.turn

    @property
    def players(self) -> int:
        return self.ruleset.players

    @property
    def last_hand(self) -> HandResult | None:
        if self.hand is not None and self.hand.result is not None:
            return self.hand.result
        if self.history:
            return self.history[-1].result
        return None

    @property
    def board(self) -> Board:
        return EMPTY_BOARD if self.hand is None else self.hand.board


def new_match(ruleset: Ruleset, secret: bytes) -> MatchState:
    """A match waiting for its start: no events yet, the deal sealed by `secret`."""
    if not isinstance(secret, bytes) or len(secret) == 0:
        raise ValueError("the deal secret must be non-empty bytes")
    zeros = (0,) * ruleset.players
    # tuple.__new__ rather than MatchState(...): the keyword constructor is a Python function.
    return _new(
        MatchState,
        (
            ruleset,
            secret,
            "waiting",
            0,
            0,
            None,
            0,
            zeros,
            zeros,
            (False,) * ruleset.players,
            None,
            (),
            None,
        ),
    )


_new = tuple.__new__
