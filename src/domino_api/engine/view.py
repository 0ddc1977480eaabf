"""What one seat (or a spectator) may see: the API view and the computer players' SeatView.

Hidden information is hidden here and only here: other seats' tiles, the stock's order and the
secret never leave through these functions (the events hide them with their `private` parts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domino_api.engine.layout import EMPTY_BOARD, Board, place
from domino_api.engine.legal import cover_after, legal_actions, open_to
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.shapes import OptionJSON
from domino_api.engine.state import HandState, LegalAction, MatchState, MustCover
from domino_api.engine.tiles import Tile, full_set

_BLANK_OPTION = {"action": None, "tile": None, "end": None, "points": None}


def full_option(option: dict[str, Any]) -> dict[str, Any]:
    """An option's JSON with every field a client reads (the API's LegalOut), null where a draw,
    a pass or the next hand has none; events carry the short form (`LegalAction.to_dict`)."""
    return {**_BLANK_OPTION, **option}


def board_dict(board: Board) -> dict[str, Any]:
    return {
        "tiles": [
            {"tile": list(p.tile), "end": p.end, "outer": p.outer, "spinner": p.spinner}
            for p in board.tiles
        ],
        "ends": [{"end": end.name, "pips": end.pip} for end in board.ends],
        "ends_total": board.total,
    }


def _must_cover_dict(must_cover: MustCover | None) -> dict[str, Any] | None:
    if must_cover is None:
        return None
    return {"tile": list(must_cover.tile), "ends": list(must_cover.ends)}


def _seated(state: MatchState, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < state.ruleset.players


def view(state: MatchState, seat: int | None) -> dict[str, Any]:
    """The view (`ViewOut` in openapi/openapi.json) for `seat` (None: a spectator); the service
    adds names, presence etc.

    A seat sees its own tiles and its legal actions; a spectator sees neither, only counts.

    >>> from domino_api.engine import PRESETS, Start, apply, new_match
    >>> state = apply(new_match(PRESETS["block"], bytes(32)), None, Start("cut")).state
    >>> mine, watching = view(state, 0), view(state, None)
    >>> len(mine["you_hand"]), [seat["tiles"] for seat in mine["seats"]], mine["stock"]
    (7, [7, 7], 14)
    >>> watching["you_hand"], watching["legal"], watching["turn"]["seat"]
    (None, [], 0)
    """
    hand = state.hand
    players = state.ruleset.players
    seated = _seated(state, seat)
    counts = [len(tiles) for tiles in hand.hands] if hand is not None else [0] * players
    turn = None
    if state.status == "playing" and hand is not None and hand.turn is not None:
        turn = {
            "seat": hand.turn,
            "deadline": None,
            "must_cover": _must_cover_dict(hand.must_cover),
        }
    if state.status == "hand_over" and seated:
        legal: list[OptionJSON] = [{"action": "next_hand"}]
    else:
        legal = [option.to_dict() for option in legal_actions(state, seat)]
    last_hand = state.last_hand
    return {
        "status": state.status,
        "ruleset": state.ruleset.to_dict(),
        "seq": state.seq,
        "hand_number": state.hand_number,
        "seats": [
            {
                "seat": s,
                "score": state.scores[s],
                "hands_won": state.hands_won[s],
                "tiles": counts[s],
                "forfeited": state.forfeited[s],
            }
            for s in range(players)
        ],
        "you_hand": _own_tiles(state, seat) if seated else None,
        "board": board_dict(EMPTY_BOARD if hand is None else hand.board),
        "stock": 0 if hand is None else hand.stock_left,
        "turn": turn,
        "legal": legal,
        "last_hand": None if last_hand is None else last_hand.to_dict(),
        "result": None if state.result is None else state.result.to_dict(),
    }


def _own_tiles(state: MatchState, seat: int | None) -> list[list[int]]:
    if state.hand is None or seat is None:
        return []
    return [list(tile) for tile in state.hand.hands[seat]]


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One public action of the current hand, with the pips the seat could have played on."""

    seat: int
    kind: str  # play | draw | pass
    tile: Tile | None  # the tile played; None for draws and passes (their faces are hidden)
    end: str | None
    pips: tuple[int, ...]  # exposed pips of the ends open to this seat just before it acted


@dataclass(frozen=True, slots=True)
class SeatView:
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
    own = () if hand is None else hand.hands[seat]
    seen = set(own) | {placement.tile for placement in board.tiles}
    return SeatView(
        ruleset=state.ruleset,
        seat=seat,
        status=state.status,
        hand_number=state.hand_number,
        hand=own,
        board=board,
        ends_total=board.total,
        counts=tuple(len(t) for t in hand.hands) if hand else (0,) * state.ruleset.players,
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
    board = EMPTY_BOARD
    must_cover: MustCover | None = None
    entries: list[HistoryEntry] = []
    for move in hand.moves:
        pips = tuple(end.pip for end in open_to(board, must_cover))
        entries.append(
            HistoryEntry(
                move.seat, move.action, move.tile if move.action == "play" else None, move.end, pips
            )
        )
        if move.action == "play":
            assert move.tile is not None
            board = place(board, move.tile, move.end, ruleset.layout)
            must_cover = cover_after(ruleset.cover_doubles, board, move.tile, move.end)
    return tuple(entries)
