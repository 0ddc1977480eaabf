"""Snapshots: `to_json(state)` and `from_json(snapshot)` round-trip a match exactly (the
snapshot's form: engine/shapes.py)."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from domino_api.engine.board import Board, OpenEnd, Placement
from domino_api.engine.legal import legal_plays
from domino_api.engine.move_record import Move, chained
from domino_api.engine.rulesets import Ruleset, checked
from domino_api.engine.shapes import (
    BoardSnapshot,
    HandSnapshot,
    MoveRow,
    MustCoverRow,
    OpenEndRow,
    PlacementRow,
    Snapshot,
)
from domino_api.engine.state import (
    HandDeal,
    HandState,
    LegalAction,
    MatchState,
    MustCover,
    rules_of,
)

SNAPSHOT_VERSION = 1
# Finished hands' snapshots by the hand's identity: a match's history never changes, and every
# move's snapshot carried it encoded again (a quarter of a move's own CPU by the end of a match
# to 150). Bounded: a miss only encodes the hand again.
_PAST: dict[int, tuple[HandState, HandSnapshot]] = {}
_PAST_KEPT = 4096


def _board_to_json(board: Board) -> BoardSnapshot:
    return BoardSnapshot(
        tiles=tuple(PlacementRow(p.tile, p.end, p.outer, p.spinner) for p in board.tiles),
        ends=tuple(OpenEndRow(end.name, end.pip, end.value) for end in board.ends),
        total=board.total,
        spinner=board.spinner,
        spinner_mains=board.spinner_mains,
        markers=board.markers,
    )


def _move_to_json(m: Move) -> MoveRow:
    """A row holds what a move lacks as null (the form every stored snapshot holds)."""
    return MoveRow(
        m.seq,
        m.seat,
        m.action,
        None if isinstance(m.tile, UnsetType) else m.tile,
        None if isinstance(m.end, UnsetType) else m.end,
        None if isinstance(m.points, UnsetType) else m.points,
        None if isinstance(m.reason, UnsetType) else m.reason,
    )


def _board_from_json(data: BoardSnapshot) -> Board:
    return Board(
        tiles=tuple(
            Placement(tile=p.tile, end=p.end, outer=p.outer, spinner=p.spinner) for p in data.tiles
        ),
        ends=tuple(OpenEnd(name=e.name, pip=e.pip, value=e.value) for e in data.ends),
        total=data.total,
        spinner=data.spinner,
        spinner_mains=data.spinner_mains,
        markers=data.markers,
    )


def _move_from_json(m: MoveRow) -> Move:
    reason = UNSET if m.reason is None else m.reason
    if m.action != "play":  # a draw's tile, or nothing (a pass)
        tile = UNSET if m.tile is None else m.tile
        return Move(seq=m.seq, seat=m.seat, action=m.action, tile=tile, reason=reason)
    assert m.tile is not None and m.points is not None
    return Move(
        seq=m.seq,
        seat=m.seat,
        action=m.action,
        tile=m.tile,
        end=m.end,  # null: the hand's first tile
        points=m.points,
        reason=reason,
    )


def _hand_to_json(hand: HandState) -> HandSnapshot:
    # The state keeps the deal's tables and each seat's tiles as bit sets over the deal; the
    # snapshot keeps the tiles themselves, what from_json deals back from.
    cover = hand.must_cover
    return HandSnapshot(
        number=hand.number,
        attempt=hand.attempt,
        opener=hand.opener,
        dealt=hand.dealt,
        stock=hand.stock,
        drawn=hand.drawn,
        hands=hand.hands,
        board=_board_to_json(hand.board),
        turn=hand.turn,
        opening_tile=hand.opening_tile,
        must_cover=None if cover is None else MustCoverRow(cover.tile, cover.ends),
        passes=hand.passes,
        moves=tuple(_move_to_json(m) for m in hand.moves),
        result=hand.result,
    )


def _hand_from_json(ruleset: Ruleset, data: HandSnapshot) -> HandState:
    rules = rules_of(ruleset)
    deal = HandDeal.of(
        rules,
        number=data.number,
        attempt=data.attempt,
        opener=data.opener,
        dealt=data.dealt,
        stock=data.stock,
        opening_tile=data.opening_tile,
    )
    held = tuple(sum(deal.bit(t) for t in tiles) for tiles in data.hands)
    board = _board_from_json(data.board)
    cover = data.must_cover
    must_cover = None if cover is None else MustCover(tile=cover.tile, ends=cover.ends)
    turn, result = data.turn, data.result
    legal: tuple[LegalAction, ...] = ()
    if turn is not None and result is None:
        # The legal list is derived state: worked out again rather than trusted from storage.
        stock_left = len(deal.stock) - data.drawn
        opening_tile = deal.opening_tile if not data.moves else None
        legal = legal_plays(
            rules, deal, held[turn], board, must_cover, opening_tile, stock_left, turn
        )
    return HandState(
        deal=deal,
        held=held,
        drawn=data.drawn,
        board=board,
        turn=turn,
        must_cover=must_cover,
        passes=data.passes,
        log=chained(tuple(_move_from_json(m) for m in data.moves)),
        legal=legal,
        result=result,
    )


def to_json(state: MatchState) -> Snapshot:
    """The snapshot of the whole match, secret included (hex): keep it server-side."""
    return Snapshot(
        version=SNAPSHOT_VERSION,
        ruleset=state.ruleset,
        secret=state.secret.hex(),
        status=state.status,
        seq=state.seq,
        game_seq=state.game_seq,
        cut=state.cut,
        hand_number=state.hand_number,
        scores=state.scores,
        hands_won=state.hands_won,
        forfeited=state.forfeited,
        hand=None if state.hand is None else _hand_to_json(state.hand),
        history=tuple(_past_to_json(h) for h in state.history),
        result=state.result,
    )


def _past_to_json(hand: HandState) -> HandSnapshot:
    """A finished hand's snapshot, kept for the next snapshot of its match (`_PAST`)."""
    kept = _PAST.get(id(hand))
    if kept is not None and kept[0] is hand:
        return kept[1]
    snapshot = _hand_to_json(hand)
    if len(_PAST) >= _PAST_KEPT:
        _PAST.clear()
    _PAST[id(hand)] = (hand, snapshot)
    return snapshot


def from_json(data: Snapshot) -> MatchState:
    """The match a snapshot holds (read by `shapes.decode_snapshot`); its ruleset is checked."""
    if data.version != SNAPSHOT_VERSION:
        raise ValueError(f"unknown snapshot version {data.version!r}")
    ruleset = checked(data.ruleset)
    return MatchState(
        ruleset=ruleset,
        secret=bytes.fromhex(data.secret),
        status=data.status,
        seq=data.seq,
        game_seq=data.game_seq,
        cut=data.cut,
        hand_number=data.hand_number,
        scores=data.scores,
        hands_won=data.hands_won,
        forfeited=data.forfeited,
        hand=None if data.hand is None else _hand_from_json(ruleset, data.hand),
        history=tuple(_hand_from_json(ruleset, h) for h in data.history),
        result=data.result,
    )
