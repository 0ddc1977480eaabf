"""Match and hand state: immutable records that `apply` replaces, never changes.

A hand's tiles are numbered by their place in its deal (the shuffled set: seat 0's tiles, seat
1's, ..., then the stock), and each seat's hand is a bit set over those numbers. Draws take the
stock in order, so reading a hand's bits from the lowest up gives the tiles in the order the
seat holds them (dealt order, then drawn order), which is the order the API has always shown.
`HandDeal.suits[pip]` is the bit set of the tiles carrying `pip`: a seat's tiles that fit an
end are one intersection (python-chess finds its moves with bitboards the same way).
"""

from __future__ import annotations

from functools import cache
from itertools import chain
from typing import TypeVar, get_args

from msgspec import Struct

from domino_api.engine.board import Board
from domino_api.engine.kinds import (
    EndName,
    HandReason,
    Layout,
    MatchReason,
    OptionName,
    Status,
    is_over,
)
from domino_api.engine.layout import EMPTY_BOARD
from domino_api.engine.move_record import Move, MoveChain, moves_of
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.tiles import Tile, full_set

V = TypeVar("V")


def with_seat(values: tuple[V, ...], seat: int, value: V) -> tuple[V, ...]:
    """`values` (one per seat) with `seat`'s replaced by `value`."""
    changed = list(values)
    changed[seat] = value
    return tuple(changed)


class LegalAction(Struct, frozen=True, kw_only=True, gc=False):
    """One action the seat to act may take now; plays carry what they would score."""

    action: OptionName
    tile: Tile | None
    end: EndName | None
    points: int | None


DRAW_ACTION = LegalAction(action="draw", tile=None, end=None, points=None)
PASS_ACTION = LegalAction(action="pass", tile=None, end=None, points=None)
ONLY_DRAW = (DRAW_ACTION,)  # the legal list of a seat that cannot play and may draw
ONLY_PASS = (PASS_ACTION,)


class HandResult(Struct, frozen=True, kw_only=True, gc=False):
    number: int
    reason: HandReason
    winner: int | None
    tied: bool
    pips: tuple[int, ...]
    points: int
    hands: tuple[tuple[Tile, ...], ...]


class MatchResult(Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    winner: int | None
    reason: MatchReason
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    forfeited_by: int | None
    # The winning team in partnership (RULES 14: seats 0 and 2 are team 0); absent otherwise.
    team: int | None = None


class MustCover(Struct, frozen=True, kw_only=True, gc=False):
    """The double a seat must cover and the ends that cover it (RULES section 6)."""

    tile: Tile
    ends: tuple[EndName, ...]


END_NAMES: tuple[EndName, ...] = get_args(EndName)  # the line's, the spinner's, the trains'


class Rules(Struct, frozen=True, kw_only=True):
    """What the generator and the reducer read from a ruleset, worked out once per ruleset."""

    ruleset: Ruleset
    players: int
    layout: Layout
    scores_plays: bool  # plays score during the hand (RULES section 7)
    cover_doubles: bool
    may_draw: bool
    draw_one: bool
    end_mid_hand: bool
    following: tuple[int, ...]  # the seat after each seat
    # The plays worth no points, one object per (end, tile), shared by every legal list.
    plain_plays: dict[str | None, dict[Tile, LegalAction]]


@cache
def rules_of(ruleset: Ruleset) -> Rules:
    tiles = full_set(ruleset.max_pip)
    return Rules(
        ruleset=ruleset,
        players=ruleset.players,
        layout=ruleset.layout,
        scores_plays=ruleset.play_scoring != "none",
        cover_doubles=ruleset.cover_doubles,
        may_draw=ruleset.draw != "none",
        draw_one=ruleset.draw == "one",
        end_mid_hand=ruleset.end_mid_hand and ruleset.best_of is None,
        following=(*range(1, ruleset.players), 0),
        plain_plays={
            end: {tile: LegalAction(action="play", tile=tile, end=end, points=0) for tile in tiles}
            for end in (None, *END_NAMES)
        },
    )


class HandDeal(Struct, frozen=True, kw_only=True, gc=False):
    """What a hand's deal fixed: built once per hand, shared by all of its states.

    Two deals are equal when they dealt the same: `opening_tile` and the tables derived from
    the deal are left out (a snapshot taken after the first move no longer says which tile
    opened, and it no longer matters)."""

    number: int
    attempt: int
    opener: int
    dealt: tuple[tuple[Tile, ...], ...]  # each seat's tiles as dealt (the ledger shows them)
    stock: tuple[Tile, ...]  # the undealt tiles in dealt order; draws take from the front
    opening_tile: Tile | None  # the tile the opener must open with (None: any tile)
    order: tuple[Tile, ...]  # tile number -> tile
    # pip -> bit set of the tiles carrying it, and the bit set of the doubles, both over the
    # tiles a seat can ever hold: without drawing, the stock's never enter a hand.
    suits: tuple[int, ...]
    doubles: int
    rules: Rules  # the ruleset's tables (rules_of)

    def _dealt(self) -> tuple[object, ...]:
        return (self.number, self.attempt, self.opener, self.dealt, self.stock)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandDeal):
            return NotImplemented
        return self._dealt() == other._dealt()

    def __hash__(self) -> int:
        return hash(self._dealt())

    @classmethod
    def of(
        cls,
        rules: Rules,
        number: int,
        attempt: int,
        opener: int,
        dealt: tuple[tuple[Tile, ...], ...],
        stock: tuple[Tile, ...],
        opening_tile: Tile | None,
    ) -> HandDeal:
        holdable = tuple(chain.from_iterable(dealt))
        order = holdable + stock
        if rules.may_draw:
            holdable = order
        suits = [0] * (rules.ruleset.max_pip + 1)
        doubles = 0
        bit = 1  # tile number 0's
        for low, high in holdable:
            suits[low] |= bit
            if low == high:
                doubles |= bit
            else:
                suits[high] |= bit
            bit <<= 1
        return cls(
            number=number,
            attempt=attempt,
            opener=opener,
            dealt=dealt,
            stock=stock,
            opening_tile=opening_tile,
            order=order,
            suits=tuple(suits),
            doubles=doubles,
            rules=rules,
        )

    def bit(self, tile: Tile) -> int:
        """The bit of `tile`, a tile a seat holds: the one tile carrying both its pips, or for a
        double the one double carrying its pip."""
        low, high = tile
        return self.suits[low] & (self.doubles if low == high else self.suits[high])

    def dealt_sets(self) -> tuple[int, ...]:
        """Each seat's dealt tiles as a bit set."""
        sets, start = [], 0
        for tiles in self.dealt:
            sets.append(((1 << len(tiles)) - 1) << start)
            start += len(tiles)
        return tuple(sets)

    def tiles_of(self, tile_set: int) -> tuple[Tile, ...]:
        """The tiles of a bit set, lowest number first (the order a seat holds them in)."""
        order = self.order
        tiles = []
        while tile_set:
            lowest = tile_set & -tile_set
            tiles.append(order[lowest.bit_length() - 1])
            tile_set ^= lowest
        return tuple(tiles)


class HandState(Struct, frozen=True, kw_only=True, gc=False):
    """One hand, as of its last move."""

    deal: HandDeal
    held: tuple[int, ...]  # each seat's tiles now, as a bit set over the deal's tile numbers
    drawn: int  # how many stock tiles have been drawn
    board: Board
    turn: int | None  # None once the hand is over
    must_cover: MustCover | None
    passes: int  # passes in a row; every seat passing blocks the hand
    log: MoveChain  # the moves so far (`moves` lists them)
    # The turn seat's legal actions, derived from the fields above by legal.legal_plays when
    # the state is made: checking a move and announcing the next turn then read one list.
    legal: tuple[LegalAction, ...]
    result: HandResult | None

    @property
    def number(self) -> int:
        return self.deal.number

    @property
    def attempt(self) -> int:
        return self.deal.attempt

    @property
    def opener(self) -> int:
        return self.deal.opener

    @property
    def dealt(self) -> tuple[tuple[Tile, ...], ...]:
        return self.deal.dealt

    @property
    def stock(self) -> tuple[Tile, ...]:
        return self.deal.stock

    @property
    def opening_tile(self) -> Tile | None:
        """The tile the opener must open with, until the hand's first move."""
        return None if self.log else self.deal.opening_tile

    @property
    def moves(self) -> tuple[Move, ...]:
        """The hand's moves, oldest first."""
        return moves_of(self.log)

    @property
    def move_count(self) -> int:
        """`len(moves)`, read from the record's last cell."""
        return self.log[2] if self.log else 0

    @property
    def last_move(self) -> Move:
        """The hand's latest move (it has one)."""
        assert self.log, "no move yet"
        return self.log[1]

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """What each seat holds now, in the order it holds them."""
        return tuple(map(self.deal.tiles_of, self.held))

    @property
    def counts(self) -> tuple[int, ...]:
        """How many tiles each seat holds: its bits counted, no tile listed."""
        return tuple(map(int.bit_count, self.held))

    def hand_of(self, seat: int) -> tuple[Tile, ...]:
        """What `seat` holds now (`hands[seat]`, the other seats' left unread)."""
        return self.deal.tiles_of(self.held[seat])

    @property
    def stock_left(self) -> int:
        return len(self.deal.stock) - self.drawn


class MatchState(Struct, frozen=True, kw_only=True, gc=False):
    """The whole match."""

    ruleset: Ruleset
    secret: bytes
    status: Status
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
    def over(self) -> bool:
        return is_over(self.status)

    @property
    def turn(self) -> int | None:
        """The seat to act, or None outside play."""
        if self.status != "playing" or self.hand is None:
            return None
        return self.hand.turn

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
    """A match waiting for its start: no events yet, the deal sealed by `secret`.

    >>> from domino_api.engine import PRESETS
    >>> state = new_match(PRESETS["draw"], bytes(32))
    >>> state.status, state.seq, state.scores
    ('waiting', 0, (0, 0))
    """
    if not isinstance(secret, bytes) or len(secret) == 0:
        raise ValueError("the deal secret must be non-empty bytes")
    zeros = (0,) * ruleset.players
    return MatchState(
        ruleset=ruleset,
        secret=secret,
        status="waiting",
        seq=0,
        game_seq=0,
        cut=None,
        hand_number=0,
        scores=zeros,
        hands_won=zeros,
        forfeited=(False,) * ruleset.players,
        hand=None,
        history=(),
        result=None,
    )
