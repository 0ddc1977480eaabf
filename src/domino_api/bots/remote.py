"""A seat's engine `SeatView`, rebuilt from what the server sends that seat over the API.

A bot playing over the WebSocket or REST reads the view (`ViewOut`, engine/view_types.py) and
its own copies of the events (`AnyEvent`, engine/event_types.py): the contract's types, decoded
once. The strategies were written against the engine's `SeatView`; this module rebuilds exactly
that (tests/bots/test_remote.py checks it equals `engine.seat_view`) from

- the view: ruleset, seat, status, hand, board tiles in play order, counts, stock, scores,
  hands won, turn and legal actions; and
- the current hand's events as this seat received them (from its `hand_started` on): only the
  `tile_played`, `tile_drawn` and `passed` ones matter, for the public `history` and the pips
  each seat had open to it when it acted.

A client that took one snapshot follows the stream alone with `bots.reducer.apply_event`, the
clients' one reducer, and still holds the current view when its turn comes. All functions are
pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domino_api.bots.reducer import board_of
from domino_api.engine import HistoryEntry, Ruleset, SeatView, full_set
from domino_api.engine.board import Board
from domino_api.engine.event_types import (
    AnyEvent,
    HandStartedEvent,
    PassedEvent,
    TileDrawnEvent,
    TilePlayedEvent,
)
from domino_api.engine.layout import EMPTY_BOARD, fitting_ends, place
from domino_api.engine.legal import cover_after, open_to
from domino_api.engine.move_types import legal_of
from domino_api.engine.state import MustCover
from domino_api.engine.trains.layout import TRAINS, engine_pip, hub, marked, played
from domino_api.engine.view import BoardOut
from domino_api.engine.view_types import ViewOut

MoveEvent = TilePlayedEvent | TileDrawnEvent | PassedEvent


def _check_board(board: Board, shown: BoardOut) -> None:
    """Raise ValueError unless the rebuilt board is the one the view shows."""
    ends = [(end.name, end.pip) for end in board.ends]
    shown_ends = [(e.end, e.pips) for e in shown.ends]
    if board.tiles != shown.tiles or ends != shown_ends or board.total != shown.ends_total:
        raise ValueError("the board rebuilt from its tiles differs from the board shown")


def current_hand_events(events: Iterable[AnyEvent]) -> list[AnyEvent]:
    """The events from the last `hand_started` on (all of them if there is none)."""
    kept: list[AnyEvent] = []
    for event in events:
        if isinstance(event, HandStartedEvent):
            kept = []
        kept.append(event)
    return kept


def history_from_events(
    ruleset: Ruleset, hand_events: Iterable[AnyEvent]
) -> tuple[tuple[HistoryEntry, ...], Board]:
    """The hand's public history and the board its plays build, replaying the move events;
    ValueError when a play does not fit (an event is missing)."""
    board = EMPTY_BOARD
    must_cover: MustCover | None = None
    entries: list[HistoryEntry] = []
    trains = ruleset.layout == TRAINS
    moves = []
    for event in hand_events:
        if isinstance(event, HandStartedEvent) and trains:
            engine = engine_pip(ruleset.max_pip, event.data.hand_number)
            board = hub(engine, ruleset.players)
        elif isinstance(event, MoveEvent):
            moves.append(event)
    for at, event in enumerate(moves):
        seat = event.data.seat
        pips = tuple(open_end.pip for open_end in open_to(board, must_cover, ruleset.layout, seat))
        if isinstance(event, TileDrawnEvent | PassedEvent):
            kind = "draw" if isinstance(event, TileDrawnEvent) else "pass"
            entries.append(HistoryEntry(seat, kind, None, None, pips))
            # A pass, or a draw after which the turn moved on: a marker goes on its train.
            if trains and (at + 1 == len(moves) or moves[at + 1].data.seat != seat):
                board = marked(board, seat)
            continue
        tile, end = event.data.tile, event.data.end
        if (end is None) != (not board.tiles) or (
            end is not None and end not in fitting_ends(board, tile)
        ):
            raise ValueError(f"the plays do not replay: {list(tile)} on {end}")
        entries.append(HistoryEntry(seat, "play", tile, end, pips))
        board = place(board, tile, end, ruleset.layout)
        must_cover = cover_after(ruleset.cover_doubles, board, tile, end)
        if trains:
            board = played(board, seat, end)
    return tuple(entries), board


def seat_view_from_public(view: ViewOut, hand_events: Sequence[AnyEvent]) -> SeatView:
    """The `engine.SeatView` of the view's seat (`view.you.seat`).

    `hand_events` are the current hand's events as this seat received them; earlier events are
    ignored (everything before the last `hand_started`). When their plays are not exactly the
    board's tiles (events missed, e.g. after a reconnect that brought only a snapshot), the
    history is left empty rather than wrong. Raises ValueError when the view names no seat or
    contradicts itself.
    """
    if view.you is None:
        raise ValueError("the view names no seat")
    ruleset, seat, own = view.ruleset, view.you.seat, view.you.hand
    board = board_of(ruleset, view.board)
    _check_board(board, view.board)
    try:
        history, replayed = history_from_events(ruleset, current_hand_events(hand_events))
    except ValueError:
        history, replayed = (), EMPTY_BOARD
    if replayed.tiles != board.tiles:
        history = ()
    seats = sorted(view.seats, key=lambda s: s.seat)
    status = view.status
    turn = view.turn if status == "playing" else None
    seen = set(own) | {placement.tile for placement in board.tiles}
    return SeatView(
        ruleset=ruleset,
        seat=seat,
        status=status,
        hand_number=view.hand_number,
        hand=own,
        board=board,
        ends_total=board.total,
        counts=tuple(s.tiles for s in seats),
        stock=view.stock,
        scores=tuple(s.score for s in seats),
        hands_won=tuple(s.hands_won for s in seats),
        turn=None if turn is None else turn.seat,
        must_cover=None if turn is None else turn.must_cover,
        legal=legal_of(view.legal) if status == "playing" else (),
        history=history,
        unseen=tuple(t for t in full_set(ruleset.max_pip) if t not in seen),
    )
