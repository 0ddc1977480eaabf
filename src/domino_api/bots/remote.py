"""A seat's engine `SeatView`, rebuilt from what the server sends that seat over the API.

A bot playing over the WebSocket or REST sees the view JSON (`ViewOut` in
openapi/openapi.json) and its own copies of the events. The strategies were written against
the engine's `SeatView`; this module rebuilds exactly that (tests/bots/test_remote.py checks
it equals `engine.seat_view`) from

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

from collections.abc import Iterable, Mapping, Sequence

import msgspec
from msgspec import Struct

from domino_api.engine import HistoryEntry, LegalAction, Ruleset, SeatView, Tile, full_set
from domino_api.engine.kinds import ActionName, EndName, Layout
from domino_api.engine.layout import EMPTY_BOARD, Board, fitting_ends, place
from domino_api.engine.legal import cover_after, open_to
from domino_api.engine.state import MustCover

# The event types that are moves of the hand, and the history kind each records.
MOVE_KINDS: Mapping[str, ActionName] = {
    "tile_played": "play",
    "tile_drawn": "draw",
    "passed": "pass",
}
_MOVES: Mapping[str, ActionName] = {"play": "play", "draw": "draw", "pass": "pass"}


# What a bot reads of the view and the events (msgspec reads them; a field of the wrong type is
# a ValueError, msgspec.ValidationError). Other fields are left alone.
class _Offered(Struct, frozen=True):
    action: str
    tile: Tile | None = None
    end: EndName | None = None
    points: int | None = None


class _Placed(Struct, frozen=True):
    tile: Tile
    end: EndName | None = None
    outer: int | None = None
    spinner: bool | None = None


class _ShownEnd(Struct, frozen=True):
    end: EndName
    pips: int


class _ShownBoard(Struct, frozen=True):
    tiles: list[_Placed] = []
    ends: list[_ShownEnd] = []
    ends_total: int | None = None


class _You(Struct, frozen=True):
    seat: int
    hand: list[Tile] | None = None


class _SeatShown(Struct, frozen=True):
    seat: int
    tiles: int
    score: int
    hands_won: int


class _Turn(Struct, frozen=True):
    seat: int
    must_cover: MustCover | None = None  # the end names checked against the contract


class _View(Struct, frozen=True):
    ruleset: dict[str, object]
    status: str
    hand_number: int
    seats: list[_SeatShown]
    you: _You | None = None
    seat: int | None = None  # the engine's own view() core names its seat here
    you_hand: list[Tile] | None = None  # and its tiles here
    board: _ShownBoard | None = None
    stock: int | None = None
    turn: _Turn | None = None
    legal: list[object] | None = None


class _Acted(Struct, frozen=True):
    seat: int
    tile: Tile | None = None
    end: EndName | None = None


def legal_from_json(items: Iterable[object]) -> tuple[LegalAction, ...]:
    """Legal actions as sent: objects `{"action", "tile", "end", "points"}` (`LegalOut`), also
    read in the positional `[action, tile, end, points]` form; `next_hand` is not a move:
    dropped."""
    out = []
    for item in items:
        if isinstance(item, list | tuple):
            item = dict(zip(("action", "tile", "end", "points"), item, strict=False))
        offered = msgspec.convert(item, _Offered)
        action = _MOVES.get(offered.action)
        if action is None:
            continue
        play = action == "play"
        tile = offered.tile if play else None
        end, points = (offered.end, offered.points) if play else (None, None)
        out.append(LegalAction(action=action, tile=tile, end=end, points=points))
    return tuple(out)


def board_from_tiles(tiles: Iterable[_Placed], layout: Layout) -> Board:
    """The engine board after playing `tiles` (the view's `board.tiles`, in play order)."""
    board = EMPTY_BOARD
    for item in tiles:
        board = place(board, item.tile, item.end, layout)
    return board


def _check_board(board: Board, shown: _ShownBoard) -> None:
    """Raise ValueError unless the rebuilt board is the one the view shows."""
    tiles = [(p.tile, p.end, p.outer, p.spinner) for p in board.tiles]
    ends = [(end.name, end.pip) for end in board.ends]
    shown_tiles = [(t.tile, t.end, t.outer, bool(t.spinner)) for t in shown.tiles]
    shown_ends = [(e.end, e.pips) for e in shown.ends]
    if tiles != shown_tiles or ends != shown_ends or board.total != shown.ends_total:
        raise ValueError("the board rebuilt from its tiles differs from the board shown")


def current_hand_events(events: Iterable[Mapping[str, object]]) -> list[dict[str, object]]:
    """The events from the last `hand_started` on (all of them if there is none)."""
    kept: list[dict[str, object]] = []
    for event in events:
        if event.get("type") == "hand_started":
            kept = []
        kept.append(dict(event))
    return kept


def history_from_events(
    ruleset: Ruleset, hand_events: Iterable[Mapping[str, object]]
) -> tuple[tuple[HistoryEntry, ...], Board]:
    """The hand's public history and the board its plays build, replaying the move events;
    ValueError when a play does not fit (an event is missing)."""
    board = EMPTY_BOARD
    must_cover: MustCover | None = None
    entries: list[HistoryEntry] = []
    for event in hand_events:
        kind = MOVE_KINDS.get(str(event.get("type")))
        if kind is None:
            continue
        data = msgspec.convert(event["data"], _Acted)
        seat, end = data.seat, data.end
        pips = tuple(open_end.pip for open_end in open_to(board, must_cover))
        if kind != "play":
            entries.append(HistoryEntry(seat, kind, None, None, pips))
            continue
        if data.tile is None:
            raise ValueError("a play without its tile")
        tile = data.tile
        if (end is None) != (not board.tiles) or (
            end is not None and end not in fitting_ends(board, tile)
        ):
            raise ValueError(f"the plays do not replay: {list(tile)} on {end}")
        entries.append(HistoryEntry(seat, "play", tile, end, pips))
        board = place(board, tile, end, ruleset.layout)
        must_cover = cover_after(ruleset.cover_doubles, board, tile, end)
    return tuple(entries), board


def seat_view_from_public(
    raw_view: Mapping[str, object], hand_events: Sequence[Mapping[str, object]]
) -> SeatView:
    """The `engine.SeatView` of the view's seat (`view["you"]["seat"]`).

    `view` is the view JSON as the API sends it (or the engine's own `view()` core, whose
    `you_hand` stands for `you.hand` and whose seat is then read from `view["seat"]`).
    `hand_events` are the current hand's events as this seat received them; earlier events are
    ignored (everything before the last `hand_started`). When their plays are not exactly the
    board's tiles (events missed, e.g. after a reconnect that brought only a snapshot), the
    history is left empty rather than wrong. Raises ValueError when the view contradicts itself.
    """
    view = msgspec.convert(raw_view, _View)
    ruleset = Ruleset.from_dict(view.ruleset)
    if view.you is not None:
        seat, own = view.you.seat, tuple(view.you.hand or ())
    elif view.seat is not None:
        seat, own = view.seat, tuple(view.you_hand or ())
    else:
        raise ValueError("the view names no seat")
    shown_board = view.board or _ShownBoard()
    board = board_from_tiles(shown_board.tiles, ruleset.layout)
    _check_board(board, shown_board)
    try:
        history, replayed = history_from_events(ruleset, current_hand_events(hand_events))
    except (ValueError, KeyError, TypeError, IndexError):
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
        stock=view.stock or 0,
        scores=tuple(s.score for s in seats),
        hands_won=tuple(s.hands_won for s in seats),
        turn=None if turn is None else turn.seat,
        must_cover=None if turn is None else turn.must_cover,
        legal=legal_from_json(view.legal or []) if status == "playing" else (),
        history=history,
        unseen=tuple(t for t in full_set(ruleset.max_pip) if t not in seen),
    )
