"""What one seat (or a spectator) may see: the API view and the computer players' SeatView.

Hidden information is hidden here and only here: other seats' tiles, the stock's order and the
secret never leave through these functions (the events hide them with their `private` parts).
"""

from __future__ import annotations

from msgspec import UNSET, Struct, UnsetType

from domino_api.engine.board import Board, Placement
from domino_api.engine.kinds import EndName, Status
from domino_api.engine.layout import EMPTY_BOARD, place
from domino_api.engine.legal import cover_after, legal_actions, open_to
from domino_api.engine.move_record import Move
from domino_api.engine.move_types import Option, options
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import (
    HandResult,
    HandState,
    LegalAction,
    MatchResult,
    MatchState,
    MustCover,
)
from domino_api.engine.teams import TeamCount, team_counts
from domino_api.engine.tiles import Tile, full_set
from domino_api.engine.trains import layout as trains
from domino_api.engine.trains.layout import MEXICAN, TRAINS, marker_seats


class OpenEndOut(Struct, frozen=True, kw_only=True, gc=False):
    end: EndName
    pips: int


class BoardOut(Struct, frozen=True, kw_only=True, gc=False):
    """The board as a view shows it: its tiles in the order played, its open ends, their total.
    In Mexican Train the first tile is the hub's engine double, each open end a train, and
    `markers` the seats whose trains carry a marker."""

    tiles: tuple[Placement, ...]
    ends: tuple[OpenEndOut, ...]
    ends_total: int
    markers: tuple[int, ...] | UnsetType = UNSET  # Mexican Train only


class TurnOut(Struct, frozen=True, kw_only=True, gc=False):
    seat: int
    deadline: str | None  # the turn clock's; the service stamps it (matches/views.py)
    must_cover: MustCover | None


class SeatCount(Struct, frozen=True, kw_only=True, gc=False):
    """A seat's public counts; the service adds who holds it (engine/view_types.py SeatOut)."""

    seat: int
    score: int
    hands_won: int
    tiles: int
    forfeited: bool


class TableView(Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    """What the rules let `seat` see of a match; the service wraps it as a ViewOut."""

    status: Status
    ruleset: Ruleset
    seq: int
    hand_number: int
    seats: tuple[SeatCount, ...]
    you_hand: tuple[Tile, ...] | None
    board: BoardOut
    stock: int
    turn: TurnOut | None
    legal: tuple[Option, ...]
    last_hand: HandResult | None
    result: MatchResult | None
    teams: tuple[TeamCount, ...] | None = None  # partnership only (engine/teams.py)


def board_out(board: Board) -> BoardOut:
    ends = tuple(OpenEndOut(end=end.name, pips=end.pip) for end in board.ends)
    if board.ends and board.ends[-1].name == MEXICAN:  # a hub and its trains
        markers = marker_seats(board)
        return BoardOut(tiles=board.tiles, ends=ends, ends_total=board.total, markers=markers)
    return BoardOut(tiles=board.tiles, ends=ends, ends_total=board.total)


def _seated(state: MatchState, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < state.ruleset.players


def view(state: MatchState, seat: int | None) -> TableView:
    """What `seat` (None: a spectator) may see of the match; the service adds names, presence
    etc. (`ViewOut` in openapi/openapi.json).

    A seat sees its own tiles and its legal actions; a spectator sees neither, only counts.

    >>> from domino_api.engine import PRESETS, Start, apply, new_match
    >>> state = apply(new_match(PRESETS["block"], bytes(32)), None, Start("cut")).state
    >>> mine, watching = view(state, 0), view(state, None)
    >>> len(mine.you_hand or ()), [seat.tiles for seat in mine.seats], mine.stock
    (7, [7, 7], 14)
    >>> watching.you_hand, watching.legal, watching.turn and watching.turn.seat
    (None, (), 0)
    """
    hand = state.hand
    players = state.ruleset.players
    seated = _seated(state, seat)
    counts = hand.counts if hand is not None else (0,) * players
    turn = None
    if state.status == "playing" and hand is not None and hand.turn is not None:
        turn = TurnOut(seat=hand.turn, deadline=None, must_cover=hand.must_cover)
    seats = tuple(
        SeatCount(
            seat=s,
            score=state.scores[s],
            hands_won=state.hands_won[s],
            tiles=counts[s],
            forfeited=state.forfeited[s],
        )
        for s in range(players)
    )
    return TableView(
        status=state.status,
        ruleset=state.ruleset,
        seq=state.seq,
        hand_number=state.hand_number,
        seats=seats,
        you_hand=_own_tiles(state, seat) if seated else None,
        board=board_out(EMPTY_BOARD if hand is None else hand.board),
        stock=0 if hand is None else hand.stock_left,
        turn=turn,
        # Moves only: once a hand is over any seat may start the next (`status` says so).
        legal=options(legal_actions(state, seat)),
        last_hand=state.last_hand,
        result=state.result,
        teams=team_counts(
            state.ruleset,
            state.scores,
            state.hands_won,
            None if state.result is None else state.result.winner,
        ),
    )


def _own_tiles(state: MatchState, seat: int | None) -> tuple[Tile, ...]:
    if state.hand is None or seat is None:
        return ()
    return state.hand.hand_of(seat)


class HistoryEntry(Struct, frozen=True, gc=False):
    """One public action of the current hand, with the pips the seat could have played on."""

    seat: int
    kind: str  # play | draw | pass
    tile: Tile | None  # the tile played; None for draws and passes (their faces are hidden)
    end: str | None
    pips: tuple[int, ...]  # exposed pips of the ends open to this seat just before it acted


class SeatView(Struct, frozen=True, kw_only=True, gc=False):
    """Everything one seat may know, for computer players; nothing about other seats' tiles."""

    ruleset: Ruleset
    seat: int
    status: str
    hand_number: int
    hand: tuple[Tile, ...]
    board: Board
    ends_total: int
    counts: tuple[int, ...]
    stock: int
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    turn: int | None
    must_cover: MustCover | None
    legal: tuple[LegalAction, ...]
    history: tuple[HistoryEntry, ...]
    unseen: tuple[Tile, ...]  # the set less this seat's tiles and the board, canonical order

    @property
    def open_ends(self) -> dict[str, int]:
        return self.board.pips()

    @property
    def spinner(self) -> int | None:
        return self.board.spinner


def seat_view(state: MatchState, seat: int) -> SeatView:
    hand = state.hand
    board = EMPTY_BOARD if hand is None else hand.board
    own = () if hand is None else hand.hand_of(seat)
    seen = set(own) | {placement.tile for placement in board.tiles}
    return SeatView(
        ruleset=state.ruleset,
        seat=seat,
        status=state.status,
        hand_number=state.hand_number,
        hand=own,
        board=board,
        ends_total=board.total,
        counts=hand.counts if hand else (0,) * state.ruleset.players,
        stock=0 if hand is None else hand.stock_left,
        scores=state.scores,
        hands_won=state.hands_won,
        turn=state.turn,
        must_cover=None if hand is None or state.status != "playing" else hand.must_cover,
        legal=legal_actions(state, seat),
        history=() if hand is None else public_history(state.ruleset, hand),
        unseen=tuple(t for t in full_set(state.ruleset.max_pip) if t not in seen),
    )


def public_history(ruleset: Ruleset, hand: HandState) -> tuple[HistoryEntry, ...]:
    """Replay the hand's board to record which pips were open to each seat at each action."""
    layout = ruleset.layout
    board = EMPTY_BOARD
    if layout == TRAINS:
        board = trains.hub(trains.engine_pip(ruleset.max_pip, hand.number), ruleset.players)
    must_cover: MustCover | None = None
    entries: list[HistoryEntry] = []
    moves = hand.moves
    for at, move in enumerate(moves):
        pips = tuple(end.pip for end in open_to(board, must_cover, layout, move.seat))
        tile, end = move.tile, None if isinstance(move.end, UnsetType) else move.end
        if move.action == "play" and not isinstance(tile, UnsetType):
            entries.append(HistoryEntry(move.seat, move.action, tile, end, pips))
            if layout == TRAINS:  # one board: the play takes its seat's marker off too
                assert end is not None
                board = trains.play_on_train(board, tile, end, move.seat)
            else:
                board = place(board, tile, end, layout)
            must_cover = cover_after(ruleset.cover_doubles, board, tile, end)
            continue
        entries.append(HistoryEntry(move.seat, move.action, None, end, pips))  # a draw's hidden
        if layout == TRAINS and _stuck(move.seat, moves, at + 1, hand.turn):
            board = trains.marked(board, move.seat)
    return tuple(entries)


def _stuck(seat: int, moves: tuple[Move, ...], after: int, turn: int | None) -> bool:
    """A pass, or a draw after which the turn moved on (to the seat of move `after`, or
    `turn` when none follows): the seat could not play. Reads one move, copies none."""
    return (moves[after].seat if after < len(moves) else turn) != seat
