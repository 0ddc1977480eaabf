"""A match's life around its moves: the start, each deal, the end of a hand and of the match,
forfeits and abandonment (RULES sections 8-10)."""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from domino_api.engine import events
from domino_api.engine.actions import ABANDON_REASONS, FORFEIT_CAUSES, Abandon, Forfeit, Start
from domino_api.engine.deal import check_cut
from domino_api.engine.errors import (
    HandInProgress,
    IllegalMove,
    MatchInProgress,
    MatchNotStarted,
    MatchOver,
    SeatForfeited,
)
from domino_api.engine.events import Event, Transition
from domino_api.engine.hand import cut_short, deal_hand
from domino_api.engine.kinds import HandReason, MatchReason
from domino_api.engine.openers import open_hand
from domino_api.engine.scoring import match_winner
from domino_api.engine.state import HandState, MatchResult, MatchState, rules_of, with_seat
from domino_api.engine.teams import credit, standing_winner, winning_team
from domino_api.engine.trains.layout import TRAINS
from domino_api.engine.trains.rounds import end_round


def refuse_if_over(state: MatchState) -> None:
    if state.over:
        raise MatchOver(f"the match is over ({state.status})")


def start(state: MatchState, action: Start) -> Transition:
    if state.status != "waiting":
        refuse_if_over(state)
        raise MatchInProgress("the match has already started")
    return _deal(state, check_cut(action.cut))


def next_hand(state: MatchState) -> Transition:
    if state.status != "hand_over":
        if state.status == "waiting":
            raise MatchNotStarted("the match has not started yet")
        if state.status == "playing":
            raise HandInProgress("the current hand is still being played")
        refuse_if_over(state)
    assert state.cut is not None
    return _deal(state, state.cut)


def _deal(state: MatchState, cut: str) -> Transition:
    """Deal the next hand (reshuffling as the opener rule says) and give the opener the turn;
    `cut` is the match's, fixed at its start."""
    number = state.hand_number + 1
    previous = state.hand
    opening = open_hand(state.ruleset, state.secret, cut, number, previous)
    hand = deal_hand(
        rules_of(state.ruleset),
        number=number,
        attempt=opening.attempt,
        opener=opening.opener,
        dealt=opening.deal.hands,
        stock=opening.deal.stock,
        opening_tile=opening.opening_tile,
    )
    # hand_started and the opener's turn, after match_started on the match's first deal.
    last = state.seq + (3 if number == 1 else 2)
    dealt = replace(
        state,
        status="playing",
        cut=cut,
        seq=last,
        game_seq=last,
        hand_number=number,
        hand=hand,
        history=state.history if previous is None else (*state.history, previous),
        result=None,
    )
    return Transition(dealt, _dealt_events)


def _dealt_events(dealt: MatchState) -> tuple[Event, ...]:
    """A deal's events, the last numbered `dealt.seq`: hand_started and the opener's turn,
    after match_started when it is the match's first hand."""
    hand = dealt.hand
    assert hand is not None
    last = dealt.seq
    opened = (events.hand_started(last - 1, hand), events.turn(last, hand))
    if hand.deal.number == 1:
        return (events.match_started(last - 2, dealt), *opened)
    return opened


def end_hand(
    state: MatchState,
    closed: HandState,
    seq: int,
    scores: tuple[int, ...],
    before: Callable[[], list[Event]],
) -> Transition:
    """Score the closed hand and decide whether the match ends. `before` builds the events of
    the move that ended it, the last numbered `seq`; `scores` count that move's own points."""
    if state.ruleset.layout == TRAINS:
        return end_round(state, closed, seq, scores, before)
    result = closed.result
    assert result is not None
    hands_won = state.hands_won
    scored_seq = None
    if result.winner is not None:
        # In partnership both partners are credited: each seat's entry is its team's.
        hands_won = credit(state.ruleset, hands_won, result.winner, 1)
        if result.points:
            scores = credit(state.ruleset, scores, result.winner, result.points)
            seq = scored_seq = seq + 1
    ended_seq = seq = seq + 1
    decided: tuple[int | None, MatchReason] | None = None
    if result.reason == "target":
        decided = (result.winner, "target")
    decided = decided or match_winner(state.ruleset, scores, hands_won)
    match_result = None
    if decided is not None:
        winner = _standing(state, decided[0], scores, hands_won)
        match_result = MatchResult(
            winner=winner,
            reason=decided[1],
            scores=scores,
            hands_won=hands_won,
            forfeited_by=None,
            team=winning_team(state.ruleset, winner),
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
        if scored_seq is not None:
            assert result.winner is not None
            score = scores[result.winner]
            cause = result.reason
            assert cause in ("domino", "blocked", "target"), "a cut-short hand scores nothing"
            happened.append(events.scored(scored_seq, result.winner, result.points, score, cause))
        happened.append(events.hand_ended(ended_seq, result))
        if match_result is not None:
            happened.append(events.match_ended(ended_seq + 1, match_result))
        return tuple(happened)

    return Transition(ended, build)


def _cut_short(
    state: MatchState, reason: HandReason, seq: int, happened: list[Event]
) -> HandState | None:
    """End a hand still in play with no winner and no points (forfeit or abandonment)."""
    hand = state.hand
    if state.status != "playing" or hand is None:
        return hand
    closed = cut_short(hand, reason)
    assert closed.result is not None
    happened.append(events.hand_ended(seq, closed.result))
    return closed


def _standing(
    state: MatchState, winner: int | None, scores: tuple[int, ...], hands_won: tuple[int, ...]
) -> int | None:
    """The match's winner among the seats that did not forfeit (RULES 9): a forfeited seat the
    computer played on to the target ends the match but never wins it; the best of the others
    does (by hands won first in a best-of match, then by points), none when they share first."""
    if winner is None or not state.forfeited[winner]:
        return winner
    standing = [seat for seat in range(len(scores)) if not state.forfeited[seat]]
    best_of = state.ruleset.best_of is not None

    def key(seat: int) -> tuple[int, int]:
        return (hands_won[seat] if best_of else 0, scores[seat])

    top = max((key(seat) for seat in standing), default=None)
    leaders = [seat for seat in standing if key(seat) == top]
    if state.ruleset.partnership:
        return standing_winner(leaders)
    return leaders[0] if len(leaders) == 1 else None


def forfeit(state: MatchState, action: Forfeit) -> Transition:
    refuse_if_over(state)
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state.ruleset.players:
        raise IllegalMove(f"there is no seat {seat!r}")
    if action.cause not in FORFEIT_CAUSES:
        raise IllegalMove(f"forfeit cause must be one of {list(FORFEIT_CAUSES)}")
    if state.forfeited[seat]:
        raise SeatForfeited(f"seat {seat} has already forfeited")
    seq = state.seq + 1
    happened = [events.forfeit(seq, seat, action.cause)]
    forfeited = with_seat(state.forfeited, seat, True)
    if state.ruleset.players > 2:
        # The seat goes to the computer for good and the match goes on (RULES section 9).
        moved_on = replace(state, seq=seq, game_seq=seq, forfeited=forfeited)
        return Transition(moved_on, tuple(happened))
    hand = _cut_short(state, "forfeit", seq + 1, happened)
    seq = happened[-1].seq + 1
    result = MatchResult(
        winner=1 - seat,
        reason="forfeit",
        scores=state.scores,
        hands_won=state.hands_won,
        forfeited_by=seat,
    )
    happened.append(events.match_ended(seq, result))
    finished = replace(
        state,
        status="finished",
        seq=seq,
        game_seq=seq,
        forfeited=forfeited,
        hand=hand,
        result=result,
    )
    return Transition(finished, tuple(happened))


def abandon(state: MatchState, action: Abandon) -> Transition:
    refuse_if_over(state)
    if action.reason not in ABANDON_REASONS:
        raise IllegalMove(f"abandon reason must be one of {list(ABANDON_REASONS)}")
    happened: list[Event] = []
    hand = _cut_short(state, "abandoned", state.seq + 1, happened)
    seq = (happened[-1].seq if happened else state.seq) + 1
    result = MatchResult(
        winner=None,
        reason=action.reason,
        scores=state.scores,
        hands_won=state.hands_won,
        forfeited_by=None,
    )
    happened.append(events.match_ended(seq, result))
    over = replace(state, status=action.reason, seq=seq, game_seq=seq, hand=hand, result=result)
    return Transition(over, tuple(happened))
