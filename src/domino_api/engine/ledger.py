"""The ledger of a finished match (`LedgerOut`, openapi/openapi.json) and its re-check."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from msgspec import Struct, UnsetType
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
from domino_api.engine.event_types import DrawnPrivate, SeatJoinedData, TilePlayedData
from domino_api.engine.move_record import Move
from domino_api.engine.rules import apply
from domino_api.engine.rulesets import Ruleset, checked
from domino_api.engine.shapes import (
    LedgerDeal,
    LedgerHand,
    LedgerHandResult,
    LedgerOut,
    LedgerSeat,
)
from domino_api.engine.state import (
    HandResult,
    HandState,
    MatchResult,
    MatchState,
    new_match,
)


def _ledger_hand(hand: HandState) -> LedgerHand:
    result = hand.result
    assert result is not None
    return LedgerHand(
        number=hand.number,
        attempt=hand.attempt,
        opener=hand.opener,
        dealt=hand.dealt,
        stock=hand.stock,
        moves=hand.moves,
        result=_hand_result(result),
    )


def _hand_result(result: HandResult) -> LedgerHandResult:
    return LedgerHandResult(
        reason=result.reason,
        winner=result.winner,
        tied=result.tied,
        pips=result.pips,
        points=result.points,
    )


def ledger(
    state: MatchState,
    seats: Sequence[SeatJoinedData] | None = None,
    match_id: str | None = None,
) -> LedgerOut:
    """The full record of a match that is over; sealed (LedgerSealed) before that."""
    if not state.over or state.result is None:
        raise LedgerSealed("the ledger is sealed until the match is finished or abandoned")
    if seats is None:
        seats = [
            SeatJoinedData(seat=s, name=f"Seat {s}", type="human", strategy=None)
            for s in range(state.ruleset.players)
        ]
    hands = [*state.history, *([state.hand] if state.hand is not None else [])]
    return LedgerOut(
        match_id=match_id,
        ruleset=state.ruleset,
        seats=tuple(
            LedgerSeat(
                seat=seat.seat,
                name=seat.name,
                type=seat.type,
                strategy=seat.strategy,
                forfeited=state.forfeited[i],
            )
            for i, seat in enumerate(seats)
        ),
        deal=LedgerDeal(
            algorithm=ALGORITHM,
            commitment=commitment(state.secret),
            secret=state.secret.hex(),
            cut=state.cut,
        ),
        hands=tuple(_ledger_hand(hand) for hand in hands),
        result=state.result,
    )


class _Mismatch(Exception):
    """Replay cannot go on past this disagreement."""


class _Record(Struct, frozen=True):
    """What a ledger's check reads of it: untrusted JSON, read by msgspec (a field of the wrong
    type or missing is a malformed ledger, not a crash)."""

    ruleset: Ruleset
    deal: LedgerDeal
    hands: tuple[LedgerHand, ...]
    result: MatchResult
    seats: tuple[LedgerSeat, ...] = ()


def _read(record: object) -> _Record:
    if isinstance(record, LedgerOut):
        return _Record(record.ruleset, record.deal, record.hands, record.result, record.seats)
    return msgspec.convert(record, _Record)


def verify_ledger(record: object) -> list[str]:
    """Every disagreement between the ledger and a replay through the engine; empty means ok."""
    problems: list[str] = []
    try:
        _verify(_read(record), problems)
    except _Mismatch as stop:
        problems.append(str(stop))
    except EngineError as error:
        problems.append(f"the ledger's ruleset or deal is invalid: {error.message}")
    except (msgspec.ValidationError, ValueError) as error:
        problems.append(f"malformed ledger: {type(error).__name__}: {error}")
    return problems


def _verify(record: _Record, problems: list[str]) -> None:
    ruleset = checked(record.ruleset)
    deal_info = record.deal
    if deal_info.algorithm != ALGORITHM:
        raise _Mismatch(f"unknown deal algorithm {deal_info.algorithm!r}")
    secret = bytes.fromhex(deal_info.secret)
    if commitment(secret) != deal_info.commitment:
        problems.append("the commitment is not the SHA-256 of the secret")
    state = _with_forfeits(new_match(ruleset, secret), record.seats)
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
        shown = msgspec.to_builtins(state.result)
        ledgered = msgspec.to_builtins(record.result)
        problems.append(f"match result: ledger {ledgered}, replay gives {shown}")


def _with_forfeits(state: MatchState, seats: tuple[LedgerSeat, ...]) -> MatchState:
    """With three or four seats a forfeit hands the seat to the computer and the match goes on,
    so no move shows it; what it changes is who may win at the end (a forfeited seat never
    does, RULES 9). The replay takes the seats the ledger says forfeited as forfeited from the
    start: nothing else reads it before the end. (At two seats the forfeit ends the match and
    the replay applies it from the result.)"""
    players = state.ruleset.players
    if players <= 2:
        return state
    gone = {seat.seat for seat in seats if seat.forfeited}
    return replace(state, forfeited=tuple(seat in gone for seat in range(players)))


def _verify_hand(
    state: MatchState, hand_record: LedgerHand, match_result: MatchResult, problems: list[str]
) -> MatchState:
    hand = state.hand
    assert hand is not None
    label = f"hand {hand_record.number}"
    deal_fields: dict[str, tuple[object, object]] = {
        "number": (hand.number, hand_record.number),
        "attempt": (hand.attempt, hand_record.attempt),
        "opener": (hand.opener, hand_record.opener),
        "dealt": (hand.dealt, hand_record.dealt),
        "stock": (hand.stock, hand_record.stock),
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
    replayed = _hand_result(done)
    if replayed != hand_record.result:
        problems.append(
            f"{label}: result {msgspec.to_builtins(hand_record.result)} in the ledger, "
            f"replay {msgspec.to_builtins(replayed)}"
        )
    return state


def _abandon_reason(result: MatchResult) -> AbandonReason:
    return "cancelled" if result.reason == "cancelled" else "abandoned"


def _replay_move(state: MatchState, move: Move, label: str, problems: list[str]) -> MatchState:
    seq = move.seq
    if seq <= state.seq:
        problems.append(f"{label}: move seq {seq!r} does not follow seq {state.seq}")
    elif seq > state.seq + 1:
        # Events the service adds (joins, chat) sit between moves; line the replay up with them.
        state = replace(state, seq=seq - 1, game_seq=seq - 1)
    action: Play | Draw | Pass
    reason = None if isinstance(move.reason, UnsetType) else move.reason
    if move.action == "play":
        if isinstance(move.tile, UnsetType):
            raise _Mismatch(f"{label}: move seq {seq} plays no tile")
        end = None if isinstance(move.end, UnsetType) else move.end
        action = Play(tile=move.tile, end=end, reason=reason)
    elif move.action == "draw":
        action = Draw(reason=reason)
    else:
        action = Pass(reason=reason)
    try:
        transition = apply(state, move.seat, action)
    except EngineError as error:
        raise _Mismatch(
            f"{label}: move seq {seq} ({move.action}) is refused: {error.message}"
        ) from None
    first = transition.events[0]
    played = first.data
    points = None if isinstance(move.points, UnsetType) else move.points
    if isinstance(played, TilePlayedData) and played.points != points:
        problems.append(
            f"{label}: move seq {seq} scores {played.points}, ledger says {move.points}"
        )
    mine = first.private.get(move.seat)
    if move.action == "draw" and isinstance(mine, DrawnPrivate) and mine.tile != move.tile:
        problems.append(f"{label}: move seq {seq} draws {list(mine.tile)}, ledger says {move.tile}")
    return transition.state


def _finish(state: MatchState, match_result: MatchResult) -> MatchState:
    """Apply the ending the moves alone cannot show: a forfeit or abandonment between hands."""
    if state.over:
        return state
    reason = match_result.reason
    if reason == "forfeit" and match_result.forfeited_by is not None:
        return apply(state, None, Forfeit(seat=match_result.forfeited_by, cause="resign")).state
    if reason in ("abandoned", "cancelled"):
        return apply(state, None, Abandon(reason=_abandon_reason(match_result))).state
    raise _Mismatch(f"the moves end before the match does (result reason {reason!r})")
