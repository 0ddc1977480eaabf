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
from typing import Any

import msgspec

from domino_api.engine import HistoryEntry, LegalAction, Ruleset, SeatView, Tile, full_set
from domino_api.engine.layout import EMPTY_BOARD, Board, fitting_ends, place
from domino_api.engine.legal import cover_after, open_to
from domino_api.engine.state import MustCover

# The event types that are moves of the hand, and the history kind each records.
MOVE_KINDS = {"tile_played": "play", "tile_drawn": "draw", "passed": "pass"}


def tile_of(value: Sequence[Any]) -> Tile:
    return (int(value[0]), int(value[1]))


def legal_from_json(items: Iterable[Any]) -> tuple[LegalAction, ...]:
    """Legal actions as sent: objects `{"action", "tile", "end", "points"}` (`LegalOut`), also
    read in the positional `[action, tile, end, points]` form; `next_hand` is not a move:
    dropped."""
    out = []
    for item in items:
        if isinstance(item, list | tuple):
            item = dict(zip(("action", "tile", "end", "points"), item, strict=False))
        action = item.get("action")
        if action not in ("play", "draw", "pass"):
            continue
        raw_tile = item.get("tile")
        tile = None if action != "play" or raw_tile is None else tile_of(raw_tile)
        points = item.get("points") if action == "play" else None
        end = item.get("end") if action == "play" else None
        points = None if points is None else int(points)
        out.append(LegalAction(action=action, tile=tile, end=end, points=points))
    return tuple(out)


def board_from_tiles(tiles: Iterable[Mapping[str, Any]], layout: str) -> Board:
    """The engine board after playing `tiles` (the view's `board.tiles`, in play order)."""
    board = EMPTY_BOARD
    for item in tiles:
        board = place(board, tile_of(item["tile"]), item.get("end"), layout)
    return board


def _check_board(board: Board, shown: Mapping[str, Any]) -> None:
    """Raise ValueError unless the rebuilt board is the one the view shows."""
    tiles = [
        {"tile": list(p.tile), "end": p.end, "outer": p.outer, "spinner": p.spinner}
        for p in board.tiles
    ]
    ends = [{"end": end.name, "pips": end.pip} for end in board.ends]
    shown_tiles = [
        {
            "tile": [int(t["tile"][0]), int(t["tile"][1])],
            "end": t.get("end"),
            "outer": t.get("outer"),
            "spinner": bool(t.get("spinner")),
        }
        for t in shown.get("tiles", [])
    ]
    shown_ends = [{"end": e["end"], "pips": int(e["pips"])} for e in shown.get("ends", [])]
    if tiles != shown_tiles or ends != shown_ends or board.total != shown.get("ends_total"):
        raise ValueError("the board rebuilt from its tiles differs from the board shown")


def _must_cover(raw: Mapping[str, Any] | None) -> MustCover | None:
    if raw is None:
        return None
    return msgspec.convert(raw, MustCover)  # checks the end names against the contract


def current_hand_events(events: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The events from the last `hand_started` on (all of them if there is none)."""
    kept: list[dict[str, Any]] = []
    for event in events:
        if event.get("type") == "hand_started":
            kept = []
        kept.append(dict(event))
    return kept


def history_from_events(
    ruleset: Ruleset, hand_events: Iterable[Mapping[str, Any]]
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
        data = event["data"]
        seat = int(data["seat"])
        pips = tuple(open_end.pip for open_end in open_to(board, must_cover))
        if kind != "play":
            entries.append(HistoryEntry(seat, kind, None, None, pips))
            continue
        tile = tile_of(data["tile"])
        end = data.get("end")
        if (end is None) != (not board.tiles) or (
            end is not None and end not in fitting_ends(board, tile)
        ):
            raise ValueError(f"the plays do not replay: {list(tile)} on {end}")
        entries.append(HistoryEntry(seat, "play", tile, end, pips))
        board = place(board, tile, end, ruleset.layout)
        must_cover = cover_after(ruleset.cover_doubles, board, tile, end)
    return tuple(entries), board


def seat_view_from_public(
    view: Mapping[str, Any], hand_events: Sequence[Mapping[str, Any]]
) -> SeatView:
    """The `engine.SeatView` of the view's seat (`view["you"]["seat"]`).

    `view` is the view JSON as the API sends it (or the engine's own `view()` core, whose
    `you_hand` stands for `you.hand` and whose seat is then read from `view["seat"]`).
    `hand_events` are the current hand's events as this seat received them; earlier events are
    ignored (everything before the last `hand_started`). When their plays are not exactly the
    board's tiles (events missed, e.g. after a reconnect that brought only a snapshot), the
    history is left empty rather than wrong. Raises ValueError when the view contradicts itself.
    """
    ruleset = Ruleset.from_dict(view["ruleset"])
    you = view.get("you")
    if you is not None:
        seat, own_raw = int(you["seat"]), you.get("hand") or []
    else:
        seat, own_raw = int(view["seat"]), view.get("you_hand") or []
    own = tuple(tile_of(t) for t in own_raw)
    shown_board = view.get("board") or {}
    board = board_from_tiles(shown_board.get("tiles", []), ruleset.layout)
    _check_board(board, shown_board)
    try:
        history, replayed = history_from_events(ruleset, current_hand_events(hand_events))
    except (ValueError, KeyError, TypeError, IndexError):
        history, replayed = (), EMPTY_BOARD
    if replayed.tiles != board.tiles:
        history = ()
    seats = sorted(view["seats"], key=lambda s: int(s["seat"]))
    status = str(view["status"])
    turn_raw = view.get("turn")
    playing = status == "playing" and turn_raw is not None
    seen = set(own) | {placement.tile for placement in board.tiles}
    return SeatView(
        ruleset=ruleset,
        seat=seat,
        status=status,
        hand_number=int(view["hand_number"]),
        hand=own,
        board=board,
        ends_total=board.total,
        counts=tuple(int(s["tiles"]) for s in seats),
        stock=int(view.get("stock") or 0),
        scores=tuple(int(s["score"]) for s in seats),
        hands_won=tuple(int(s["hands_won"]) for s in seats),
        turn=int(turn_raw["seat"]) if playing and turn_raw is not None else None,
        must_cover=_must_cover(turn_raw.get("must_cover")) if playing and turn_raw else None,
        legal=legal_from_json(view.get("legal") or []) if status == "playing" else (),
        history=history,
        unseen=tuple(t for t in full_set(ruleset.max_pip) if t not in seen),
    )
