"""The ledger of a finished match (`LedgerOut`, openapi/openapi.json) and its re-check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec
from msgspec import Struct
from msgspec.structs import replace

from domino_api.engine.actions import (
    Abandon,
    AbandonReason,
    Draw,
    Forfeit,
    NextHand,
    Pass,
    Play,
    Start,
)
from domino_api.engine.deal import ALGORITHM, commitment
from domino_api.engine.errors import EngineError, LedgerSealed
from domino_api.engine.event_types import DrawnPrivate, TilePlayedData
from domino_api.engine.kinds import ActionName, EndName, HandReason
from domino_api.engine.rules import OVER, apply
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.shapes import LedgerHandJSON, LedgerJSON, LedgerMoveJSON, TileJSON
from domino_api.engine.state import HandState, MatchResult, MatchState, Move, new_match
from domino_api.engine.tiles import Tile


def _tiles(tiles: Sequence[tuple[int, int]]) -> list[TileJSON]:
    return [list(t) for t in tiles]


def _move_dict(move: Move) -> LedgerMoveJSON:
    data: LedgerMoveJSON = {"seq": move.seq, "seat": move.seat, "action": move.action}
    if move.action == "play":
        assert move.tile is not None
        data["tile"], data["end"], data["points"] = list(move.tile), move.end, move.points
    elif move.action == "draw":
        assert move.tile is not None
        data["tile"] = list(move.tile)
    if move.reason is not None:
        data["reason"] = move.reason
    return data


def _hand_dict(hand: HandState) -> LedgerHandJSON:
    result = hand.result
    assert result is not None
    return {
        "number": hand.number,
        "attempt": hand.attempt,
        "opener": hand.opener,
        "dealt": [_tiles(tiles) for tiles in hand.dealt],
        "stock": _tiles(hand.stock),
        "moves": [_move_dict(m) for m in hand.moves],
        "result": {
            "reason": result.reason,
            "winner": result.winner,
            "tied": result.tied,
            "pips": list(result.pips),
            "points": result.points,
        },
    }


def ledger(
    state: MatchState,
    seats: Sequence[Mapping[str, object]] | None = None,
    match_id: str | None = None,
) -> LedgerJSON:
    """The full record of a match that is over; sealed (LedgerSealed) before that."""
    if state.status not in OVER or state.result is None:
        raise LedgerSealed("the ledger is sealed until the match is finished or abandoned")
    players = state.ruleset.players
    if seats is None:
        seats = [
            {"seat": s, "name": f"Seat {s}", "type": "human", "strategy": None}
            for s in range(players)
        ]
    hands = [*state.history, *([state.hand] if state.hand is not None else [])]
    return {
        "match_id": match_id,
        "ruleset": state.ruleset.to_dict(),
        "seats": [{**seat, "forfeited": state.forfeited[i]} for i, seat in enumerate(seats)],
        "deal": {
            "algorithm": ALGORITHM,
            "commitment": commitment(state.secret),
            "secret": state.secret.hex(),
            "cut": state.cut,
        },
        "hands": [_hand_dict(hand) for hand in hands],
        "result": state.result.to_dict(),
    }


class _Mismatch(Exception):
    """Replay cannot go on past this disagreement."""


# A ledger as read back for its check: untrusted JSON, read into these by msgspec (a field of
# the wrong type or missing is a malformed ledger, not a crash).
class _Deal(Struct, frozen=True):
    algorithm: str
    commitment: str
    secret: str
    cut: str | None


class _Move(Struct, frozen=True):
    seq: int
    seat: int
    action: ActionName
    tile: Tile | None = None
    end: EndName | None = None
    points: int | None = None
    reason: str | None = None


class _HandResult(Struct, frozen=True):
    reason: HandReason
    winner: int | None
    tied: bool
    pips: tuple[int, ...]
    points: int


class _Hand(Struct, frozen=True):
    number: int
    attempt: int
    opener: int
    dealt: list[list[TileJSON]]
    stock: list[TileJSON]
    moves: tuple[_Move, ...]
    result: _HandResult


class _Record(Struct, frozen=True):
    ruleset: dict[str, object]
    deal: _Deal
    hands: tuple[_Hand, ...]
    result: MatchResult


def verify_ledger(record: object) -> list[str]:
    """Every disagreement between the ledger and a replay through the engine; empty means ok."""
    problems: list[str] = []
    try:
        _verify(msgspec.convert(record, _Record), problems)
    except _Mismatch as stop:
        problems.append(str(stop))
    except EngineError as error:
        problems.append(f"the ledger's ruleset or deal is invalid: {error.message}")
    except (msgspec.ValidationError, ValueError) as error:
        problems.append(f"malformed ledger: {type(error).__name__}: {error}")
    return problems


def _verify(record: _Record, problems: list[str]) -> None:
    ruleset = Ruleset.from_dict(record.ruleset)
    deal_info = record.deal
    if deal_info.algorithm != ALGORITHM:
        raise _Mismatch(f"unknown deal algorithm {deal_info.algorithm!r}")
    secret = bytes.fromhex(deal_info.secret)
    if commitment(secret) != deal_info.commitment:
        problems.append("the commitment is not the SHA-256 of the secret")
    state = new_match(ruleset, secret)
    if deal_info.cut is None:
        if record.hands:
            raise _Mismatch("a match without a cut cannot have hands")
    else:
        state = apply(state, None, Start(deal_info.cut)).state
    for index, hand_record in enumerate(record.hands):
        if index > 0:
            if state.status != "hand_over":
                raise _Mismatch(f"hand {hand_record.number}: the match was already over")
            state = apply(state, None, NextHand()).state
        state = _verify_hand(state, hand_record, record.result, problems)
    state = _finish(state, record.result)
    if state.result != record.result:
        shown = None if state.result is None else state.result.to_dict()
        problems.append(f"match result: ledger {record.result.to_dict()}, replay gives {shown}")


def _verify_hand(
    state: MatchState, hand_record: _Hand, match_result: MatchResult, problems: list[str]
) -> MatchState:
    hand = state.hand
    assert hand is not None
    label = f"hand {hand_record.number}"
    deal_fields: dict[str, tuple[object, object]] = {
        "number": (hand.number, hand_record.number),
        "attempt": (hand.attempt, hand_record.attempt),
        "opener": (hand.opener, hand_record.opener),
        "dealt": ([_tiles(t) for t in hand.dealt], hand_record.dealt),
        "stock": (_tiles(hand.stock), hand_record.stock),
    }
    for name, (replayed, recorded) in deal_fields.items():
        if replayed != recorded:
            problems.append(
                f"{label}: {name} is {recorded} in the ledger, the deal gives {replayed}"
            )
    for move in hand_record.moves:
        state = _replay_move(state, move, label, problems)
    reason = hand_record.result.reason
    if state.status == "playing" and reason == "forfeit" and match_result.forfeited_by is not None:
        loser = match_result.forfeited_by
        state = apply(state, None, Forfeit(seat=loser, cause="resign")).state
    elif state.status == "playing" and reason == "abandoned":
        state = apply(state, None, Abandon(reason=_abandon_reason(match_result))).state
    assert state.hand is not None
    done = state.hand.result
    if done is None:
        raise _Mismatch(f"{label}: the moves end before the hand does")
    replayed = _HandResult(done.reason, done.winner, done.tied, done.pips, done.points)
    if replayed != hand_record.result:
        problems.append(
            f"{label}: result {msgspec.to_builtins(hand_record.result)} in the ledger, "
            f"replay {msgspec.to_builtins(replayed)}"
        )
    return state


def _abandon_reason(result: MatchResult) -> AbandonReason:
    return "cancelled" if result.reason == "cancelled" else "abandoned"


def _replay_move(state: MatchState, move: _Move, label: str, problems: list[str]) -> MatchState:
    seq = move.seq
    if seq <= state.seq:
        problems.append(f"{label}: move seq {seq!r} does not follow seq {state.seq}")
    elif seq > state.seq + 1:
        # Events the service adds (joins, chat) sit between moves; line the replay up with them.
        state = replace(state, seq=seq - 1, game_seq=seq - 1)
    action: Play | Draw | Pass
    if move.action == "play":
        if move.tile is None:
            raise _Mismatch(f"{label}: move seq {seq} plays no tile")
        action = Play(tile=move.tile, end=move.end, reason=move.reason)
    elif move.action == "draw":
        action = Draw(reason=move.reason)
    else:
        action = Pass(reason=move.reason)
    try:
        transition = apply(state, move.seat, action)
    except EngineError as error:
        raise _Mismatch(
            f"{label}: move seq {seq} ({move.action}) is refused: {error.message}"
        ) from None
    first = transition.events[0]
    played = first.data
    if isinstance(played, TilePlayedData) and played.points != move.points:
        problems.append(
            f"{label}: move seq {seq} scores {played.points}, ledger says {move.points}"
        )
    mine = first.private.get(move.seat)
    if move.action == "draw" and isinstance(mine, DrawnPrivate) and mine.tile != move.tile:
        problems.append(f"{label}: move seq {seq} draws {list(mine.tile)}, ledger says {move.tile}")
    return transition.state


def _finish(state: MatchState, match_result: MatchResult) -> MatchState:
    """Apply the ending the moves alone cannot show: a forfeit or abandonment between hands."""
    if state.status in OVER:
        return state
    reason = match_result.reason
    if reason == "forfeit" and match_result.forfeited_by is not None:
        return apply(state, None, Forfeit(seat=match_result.forfeited_by, cause="resign")).state
    if reason in ("abandoned", "cancelled"):
        return apply(state, None, Abandon(reason=_abandon_reason(match_result))).state
    raise _Mismatch(f"the moves end before the match does (result reason {reason!r})")
