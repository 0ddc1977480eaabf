"""Snapshots: `to_json(state)` and `from_json(data)` round-trip a match exactly (JSONB storage)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import msgspec

from domino_api.engine.kinds import ActionName, EndName
from domino_api.engine.layout import Board, OpenEnd, Placement
from domino_api.engine.legal import legal_plays
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.shapes import (
    BoardJSON,
    HandSnapshot,
    MoveRow,
    Snapshot,
    TileJSON,
)
from domino_api.engine.state import (
    HandDeal,
    HandResult,
    HandState,
    LegalAction,
    MatchResult,
    MatchState,
    Move,
    MustCover,
    rules_of,
)
from domino_api.engine.tiles import Tile

SNAPSHOT_VERSION = 1


def _tile(raw: Sequence[int]) -> Tile:
    return (int(raw[0]), int(raw[1]))


def _tiles(raw: Sequence[Sequence[int]]) -> tuple[Tile, ...]:
    return tuple(_tile(t) for t in raw)


def _opt_tile(raw: Sequence[int] | None) -> Tile | None:
    return None if raw is None else _tile(raw)


# The snapshot is written by hand, not by msgspec.to_builtins: that keeps tuples as tuples, and
# a snapshot must equal what storage gives back (lists), as replays compare it. Placements, open
# ends, moves and the double to cover are rows (values in field order), the form every stored
# snapshot holds.
def _board_to_json(board: Board) -> BoardJSON:
    return {
        "tiles": [[list(p.tile), p.end, p.outer, p.spinner] for p in board.tiles],
        "ends": [[end.name, end.pip, end.value] for end in board.ends],
        "total": board.total,
        "spinner": board.spinner,
        "spinner_mains": list(board.spinner_mains),
    }


def _move_to_json(move: Move) -> MoveRow:
    tile = None if move.tile is None else list(move.tile)
    return [move.seq, move.seat, move.action, tile, move.end, move.points, move.reason]


# Rows are read back by hand too: every read of a match from the database reads all of them,
# and msgspec.convert needs each row made an object first, which made a long match's read a
# third slower than these constructors. The results are objects, and msgspec reads them. A row
# is read as the tuple it means: storage gives back what `to_json` wrote.
_Placed = tuple[TileJSON, EndName | None, int | None, bool]
_Open = tuple[EndName, int, int]
_Cover = tuple[TileJSON, list[EndName]]
_Moved = tuple[int, int, ActionName, TileJSON | None, EndName | None, int | None, str | None]


def _board_from_json(data: BoardJSON) -> Board:
    return Board(
        tiles=tuple(
            Placement(tile=_tile(tile), end=end, outer=outer, spinner=spinner)
            for tile, end, outer, spinner in cast("list[_Placed]", data["tiles"])
        ),
        ends=tuple(
            OpenEnd(name=name, pip=pip, value=count)
            for name, pip, count in cast("list[_Open]", data["ends"])
        ),
        total=data["total"],
        spinner=data["spinner"],
        spinner_mains=tuple(data["spinner_mains"]),
    )


def _move_from_json(data: _Moved) -> Move:
    seq, seat, action, tile, end, points, reason = data
    return Move(
        seq=seq,
        seat=seat,
        action=action,
        tile=_opt_tile(tile),
        end=end,
        points=points,
        reason=reason,
    )


def _hand_to_json(hand: HandState) -> HandSnapshot:
    # The state keeps the deal's tables and each seat's tiles as bit sets over the deal; the
    # snapshot keeps the tiles themselves, what from_json deals back from.
    must_cover = hand.must_cover
    return {
        "number": hand.number,
        "attempt": hand.attempt,
        "opener": hand.opener,
        "dealt": [[list(t) for t in tiles] for tiles in hand.dealt],
        "stock": [list(t) for t in hand.stock],
        "drawn": hand.drawn,
        "hands": [[list(t) for t in tiles] for tiles in hand.hands],
        "board": _board_to_json(hand.board),
        "turn": hand.turn,
        "opening_tile": None if hand.opening_tile is None else list(hand.opening_tile),
        "must_cover": None
        if must_cover is None
        else [list(must_cover.tile), list(must_cover.ends)],
        "passes": hand.passes,
        "moves": [_move_to_json(m) for m in hand.moves],
        "result": None if hand.result is None else hand.result.to_dict(),
    }


def _hand_from_json(ruleset: Ruleset, data: HandSnapshot) -> HandState:
    rules = rules_of(ruleset)
    deal = HandDeal.of(
        rules,
        number=data["number"],
        attempt=data["attempt"],
        opener=data["opener"],
        dealt=tuple(_tiles(h) for h in data["dealt"]),
        stock=_tiles(data["stock"]),
        opening_tile=_opt_tile(data["opening_tile"]),
    )
    held = tuple(sum(deal.bit(_tile(t)) for t in tiles) for tiles in data["hands"])
    board = _board_from_json(data["board"])
    cover = data["must_cover"]
    must_cover = None if cover is None else _must_cover(*cast(_Cover, cover))
    turn = data["turn"]
    result = msgspec.convert(data["result"], HandResult | None)
    legal: tuple[LegalAction, ...] = ()
    if turn is not None and result is None:
        # The legal list is derived state: worked out again rather than trusted from storage.
        stock_left = len(deal.stock) - data["drawn"]
        opening_tile = deal.opening_tile if not data["moves"] else None
        legal = legal_plays(rules, deal, held[turn], board, must_cover, opening_tile, stock_left)
    return HandState(
        deal=deal,
        held=held,
        drawn=data["drawn"],
        board=board,
        turn=turn,
        must_cover=must_cover,
        passes=data["passes"],
        moves=tuple(_move_from_json(m) for m in cast("list[_Moved]", data["moves"])),
        legal=legal,
        result=result,
    )


def _must_cover(tile: TileJSON, ends: list[EndName]) -> MustCover:
    return MustCover(tile=_tile(tile), ends=tuple(ends))


def to_json(state: MatchState) -> Snapshot:
    """A JSON-able snapshot of the whole match, secret included (hex): keep it server-side."""
    # By hand as well because msgspec would write the secret in base64, not the hex every stored
    # snapshot holds.
    return {
        "version": SNAPSHOT_VERSION,
        "ruleset": state.ruleset.to_dict(),
        "secret": state.secret.hex(),
        "status": state.status,
        "seq": state.seq,
        "game_seq": state.game_seq,
        "cut": state.cut,
        "hand_number": state.hand_number,
        "scores": list(state.scores),
        "hands_won": list(state.hands_won),
        "forfeited": list(state.forfeited),
        "hand": None if state.hand is None else _hand_to_json(state.hand),
        "history": [_hand_to_json(h) for h in state.history],
        "result": None if state.result is None else state.result.to_dict(),
    }


def from_json(data: Snapshot) -> MatchState:
    if data.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"unknown snapshot version {data.get('version')!r}")
    ruleset = Ruleset.from_dict(data["ruleset"])
    return MatchState(
        ruleset=ruleset,
        secret=bytes.fromhex(data["secret"]),
        status=data["status"],
        seq=data["seq"],
        game_seq=data["game_seq"],
        cut=data["cut"],
        hand_number=data["hand_number"],
        scores=tuple(data["scores"]),
        hands_won=tuple(data["hands_won"]),
        forfeited=tuple(data["forfeited"]),
        hand=None if data["hand"] is None else _hand_from_json(ruleset, data["hand"]),
        history=tuple(_hand_from_json(ruleset, h) for h in data["history"]),
        result=msgspec.convert(data["result"], MatchResult | None),
    )
