"""The ledger of a finished match (`LedgerOut`, openapi/openapi.json) and its re-check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from domino_api.engine.actions import Abandon, Draw, Forfeit, NextHand, Pass, Play, Start
from domino_api.engine.deal import ALGORITHM, commitment
from domino_api.engine.errors import EngineError, LedgerSealed
from domino_api.engine.event_types import DrawnPrivate, TilePlayedData
from domino_api.engine.rules import OVER, apply
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import HandState, MatchState, Move, new_match


def _tiles(tiles: Sequence[tuple[int, int]]) -> list[list[int]]:
    return [list(t) for t in tiles]


def _move_dict(move: Move) -> dict[str, Any]:
    data: dict[str, Any] = {"seq": move.seq, "seat": move.seat, "action": move.action}
    if move.action == "play":
        assert move.tile is not None
        data.update(tile=list(move.tile), end=move.end, points=move.points)
    elif move.action == "draw":
        assert move.tile is not None
        data["tile"] = list(move.tile)
    if move.reason is not None:
        data["reason"] = move.reason
    return data


def _hand_dict(hand: HandState) -> dict[str, Any]:
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
    seats: Sequence[Mapping[str, Any]] | None = None,
    match_id: str | None = None,
) -> dict[str, Any]:
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


def verify_ledger(record: Mapping[str, Any]) -> list[str]:
    """Every disagreement between the ledger and a replay through the engine; empty means ok."""
    problems: list[str] = []
    try:
        _verify(record, problems)
    except _Mismatch as stop:
        problems.append(str(stop))
    except EngineError as error:
        problems.append(f"the ledger's ruleset or deal is invalid: {error.message}")
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        problems.append(f"malformed ledger: {type(error).__name__}: {error}")
    return problems


def _verify(record: Mapping[str, Any], problems: list[str]) -> None:
    ruleset = Ruleset.from_dict(record["ruleset"])
    deal_info = record["deal"]
    if deal_info["algorithm"] != ALGORITHM:
        raise _Mismatch(f"unknown deal algorithm {deal_info['algorithm']!r}")
    secret = bytes.fromhex(deal_info["secret"])
    if commitment(secret) != deal_info["commitment"]:
        problems.append("the commitment is not the SHA-256 of the secret")
    state = new_match(ruleset, secret)
    cut = deal_info["cut"]
    hands = record["hands"]
    if cut is None:
        if hands:
            raise _Mismatch("a match without a cut cannot have hands")
    else:
        state = apply(state, None, Start(cut)).state
    for index, hand_record in enumerate(hands):
        if index > 0:
            if state.status != "hand_over":
                raise _Mismatch(f"hand {hand_record['number']}: the match was already over")
            state = apply(state, None, NextHand()).state
        state = _verify_hand(state, hand_record, record["result"], problems)
    state = _finish(state, record["result"])
    expected = state.result.to_dict() if state.result is not None else None
    if expected != dict(record["result"]):
        problems.append(f"match result: ledger {record['result']}, replay gives {expected}")


def _verify_hand(
    state: MatchState,
    hand_record: Mapping[str, Any],
    match_result: Mapping[str, Any],
    problems: list[str],
) -> MatchState:
    hand = state.hand
    assert hand is not None
    label = f"hand {hand_record['number']}"
    deal_fields = {
        "number": (hand.number, hand_record["number"]),
        "attempt": (hand.attempt, hand_record["attempt"]),
        "opener": (hand.opener, hand_record["opener"]),
        "dealt": ([_tiles(t) for t in hand.dealt], hand_record["dealt"]),
        "stock": (_tiles(hand.stock), hand_record["stock"]),
    }
    for name, (replayed, recorded) in deal_fields.items():
        if replayed != recorded:
            problems.append(
                f"{label}: {name} is {recorded} in the ledger, the deal gives {replayed}"
            )
    for move in hand_record["moves"]:
        state = _replay_move(state, move, label, problems)
    reason = hand_record["result"]["reason"]
    if state.status == "playing" and reason == "forfeit":
        loser = match_result["forfeited_by"]
        state = apply(state, None, Forfeit(seat=loser, cause="resign")).state
    elif state.status == "playing" and reason == "abandoned":
        state = apply(state, None, Abandon(reason=match_result["reason"])).state
    assert state.hand is not None
    replayed_result = state.hand.result
    if replayed_result is None:
        raise _Mismatch(f"{label}: the moves end before the hand does")
    replayed = replayed_result.to_dict()
    del replayed["number"], replayed["hands"]
    if replayed != dict(hand_record["result"]):
        problems.append(f"{label}: result {hand_record['result']} in the ledger, replay {replayed}")
    return state


def _replay_move(
    state: MatchState, move: Mapping[str, Any], label: str, problems: list[str]
) -> MatchState:
    seq = move["seq"]
    if type(seq) is not int or seq <= state.seq:
        problems.append(f"{label}: move seq {seq!r} does not follow seq {state.seq}")
    elif seq > state.seq + 1:
        # Events the service adds (joins, chat) sit between moves; line the replay up with them.
        state = replace(state, seq=seq - 1, game_seq=seq - 1)
    kind = move["action"]
    reason = move.get("reason")
    action: Play | Draw | Pass
    if kind == "play":
        action = Play(tile=(move["tile"][0], move["tile"][1]), end=move["end"], reason=reason)
    elif kind == "draw":
        action = Draw(reason=reason)
    elif kind == "pass":
        action = Pass(reason=reason)
    else:
        raise _Mismatch(f"{label}: unknown move {kind!r}")
    try:
        transition = apply(state, move["seat"], action)
    except EngineError as error:
        raise _Mismatch(f"{label}: move seq {seq} ({kind}) is refused: {error.message}") from None
    first = transition.events[0]
    played = first.data
    if isinstance(played, TilePlayedData) and played.points != move["points"]:
        problems.append(
            f"{label}: move seq {seq} scores {played.points}, ledger says {move['points']}"
        )
    mine = first.private.get(move["seat"])
    if kind == "draw" and isinstance(mine, DrawnPrivate):
        drawn = list(mine.tile)
        if drawn != list(move["tile"]):
            problems.append(f"{label}: move seq {seq} draws {drawn}, ledger says {move['tile']}")
    return transition.state


def _finish(state: MatchState, match_result: Mapping[str, Any]) -> MatchState:
    """Apply the ending the moves alone cannot show: a forfeit or abandonment between hands."""
    if state.status in OVER:
        return state
    reason = match_result["reason"]
    if reason == "forfeit" and match_result["forfeited_by"] is not None:
        return apply(state, None, Forfeit(seat=match_result["forfeited_by"], cause="resign")).state
    if reason in ("abandoned", "cancelled"):
        return apply(state, None, Abandon(reason=reason)).state
    raise _Mismatch(f"the moves end before the match does (result reason {reason!r})")
