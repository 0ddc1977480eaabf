"""The end of a Mexican Train round and of its match (RULES, "Mexican Train"): every seat adds
the pips it still holds to its own total, and after the last round the lowest total wins."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from msgspec.structs import replace

from domino_api.engine import events
from domino_api.engine.events import Event, Transition
from domino_api.engine.kinds import ScoreCause
from domino_api.engine.state import HandState, MatchResult, MatchState, with_seat


def end_round(
    state: MatchState,
    closed: HandState,
    seq: int,
    scores: tuple[int, ...],
    before: Callable[[], list[Event]],
) -> Transition:
    """Count the closed round against each seat and end the match after its last round.
    `before` builds the events of the move that ended it, the last numbered `seq`."""
    result = closed.result
    assert result is not None
    hands_won = state.hands_won
    if result.winner is not None:
        hands_won = with_seat(hands_won, result.winner, hands_won[result.winner] + 1)
    counted = result.reason in ("domino", "blocked")  # a cut-short round counts nothing
    charged = [s for s, pips in enumerate(result.pips) if pips and counted]
    for seat in charged:
        scores = with_seat(scores, seat, scores[seat] + result.pips[seat])
    scored_from = seq + 1
    ended_seq = seq = seq + len(charged) + 1
    match_result = None
    if closed.deal.number >= (state.ruleset.rounds or 0):
        match_result = MatchResult(
            winner=lowest(scores, state.forfeited),
            reason="rounds",
            scores=scores,
            hands_won=hands_won,
            forfeited_by=None,
        )
        seq += 1
    ended = replace(
        state,
        status="hand_over" if match_result is None else "finished",
        seq=seq,
        game_seq=seq,
        scores=scores,
        hands_won=hands_won,
        hand=closed,
        result=match_result,
    )

    def build(_: MatchState) -> tuple[Event, ...]:
        happened = before()
        cause: ScoreCause = "domino" if result.reason == "domino" else "blocked"
        for at, seat in enumerate(charged, start=scored_from):
            pips = result.pips[seat]
            happened.append(events.scored(at, seat, pips, scores[seat], cause))
        happened.append(events.hand_ended(ended_seq, result))
        if match_result is not None:
            happened.append(events.match_ended(ended_seq + 1, match_result))
        return tuple(happened)

    return Transition(ended, build)


def lowest(scores: Sequence[int], forfeited: Sequence[bool]) -> int | None:
    """The seat with the lowest total among those that did not forfeit; None when shared."""
    standing = [seat for seat in range(len(scores)) if not forfeited[seat]]
    best = min((scores[seat] for seat in standing), default=None)
    leaders = [seat for seat in standing if scores[seat] == best]
    return leaders[0] if len(leaders) == 1 else None
