"""The match reducer: `apply(state, seat, action)` returns the next state and its events.

A seat's move is checked against the hand's legal list (legal.legal_plays, the one generator),
played by the hand reducer (hand.act), and numbered and announced here; the rest of a match's
life is in lifecycle. Nothing is changed in place: a refused action raises an EngineError.
"""

from __future__ import annotations

from functools import partial

from msgspec.structs import replace

from domino_api.engine import events, lifecycle
from domino_api.engine.actions import Abandon, Action, Draw, Forfeit, NextHand, Pass, Play, Start
from domino_api.engine.errors import (
    EngineError,
    IllegalMove,
    MatchNotStarted,
    MatchOver,
    NotYourTurn,
)
from domino_api.engine.event_types import AnyEvent
from domino_api.engine.events import NON_GAME_EVENTS, SERVICE_EVENTS, Event, Transition
from domino_api.engine.explain import refused_draw_or_pass, refused_play
from domino_api.engine.hand import act
from domino_api.engine.legal import legal_actions
from domino_api.engine.move_record import Move
from domino_api.engine.state import HandState, LegalAction, MatchState
from domino_api.engine.teams import credit
from domino_api.engine.tiles import tile_problem

__all__ = ["apply", "is_stale", "legal_actions", "record"]

SEAT_ACTIONS = (LegalAction, Play, Draw, Pass)  # what a seat does on its turn


def apply(state: MatchState, seat: int | None, action: Action | LegalAction) -> Transition:
    """The state after `action` and the events it caused; raises an EngineError if refused.

    An option of `legal_actions` is itself an action: it is checked like any other, so a stale
    or forged one is refused, and a play's points are always the engine's own.

    >>> from domino_api.engine import PRESETS, Start, new_match, legal_actions
    >>> started = apply(new_match(PRESETS["block"], bytes(32)), None, Start("cut"))
    >>> [event.type for event in started.events]
    ['match_started', 'hand_started', 'turn']
    >>> state = started.state
    >>> played = apply(state, 0, legal_actions(state, 0)[0])
    >>> [event.type for event in played.events], played.state.turn
    (['tile_played', 'turn'], 1)
    >>> apply(played.state, 0, legal_actions(state, 0)[1])
    Traceback (most recent call last):
    domino_api.engine.errors.NotYourTurn: it is seat 1's turn, not seat 0's
    """
    if not isinstance(action, SEAT_ACTIONS):
        return _match_action(state, action)
    hand = state.hand
    if state.status != "playing" or hand is None or seat is None or seat != hand.turn:
        raise _not_now(state, seat)
    for option in hand.legal:
        # One of the options itself (a bot's pick): found by identity, not by comparing the
        # options before it field by field as `index` would; a plain loop, as the lists are
        # short (a few options in most turns) and `any` over a `map` cost more to build.
        if option is action:
            break
    else:
        option = _named_option(state, hand, seat, action)
    reason = None if isinstance(action, LegalAction) else action.reason
    seq = state.seq + 1
    scores = state.scores
    after = act(hand, seat, option, seq, reason, state.ruleset.target - scores[seat])
    points = option.points
    if points:
        scores = credit(state.ruleset, scores, seat, points)  # partners share one score
        seq += 1  # the play's own `scored` event
    if after.result is not None:
        before = partial(_move_events, after.last_move, after, scores)
        return lifecycle.end_hand(state, after, seq, scores, before)
    # A seat that drew and may play on gets its new options with the draw, not in a `turn`.
    last = seq if option.action == "draw" and after.turn == seat else seq + 1
    moved = replace(state, seq=last, game_seq=last, scores=scores, hand=after)
    return Transition(moved, _events_after)


def _named_option(
    state: MatchState, hand: HandState, seat: int, action: LegalAction | Play | Draw | Pass
) -> LegalAction:
    """The engine's own option equal to `action`, else the one it names: equal is not enough,
    (0.0, 4.0) == (0, 4), so the option the engine made is the one played."""
    legal = hand.legal
    try:
        return legal[legal.index(action)]
    except ValueError:
        return _named(state, hand, seat, action)


def _match_action(state: MatchState, action: Action | LegalAction) -> Transition:
    """Start, NextHand, Forfeit and Abandon: what happens to the match rather than a hand."""
    if isinstance(action, Start):
        return lifecycle.start(state, action)
    if isinstance(action, NextHand):
        return lifecycle.next_hand(state)
    if isinstance(action, Forfeit):
        return lifecycle.forfeit(state, action)
    if isinstance(action, Abandon):
        return lifecycle.abandon(state, action)
    raise IllegalMove(f"unknown action {action!r}")


def _not_now(state: MatchState, seat: int | None) -> EngineError:
    """Why `seat` may not move now: the match is not in play, or it is another seat's turn."""
    if state.status == "waiting":
        return MatchNotStarted("the match has not started yet")
    if state.status == "hand_over":
        return NotYourTurn("the hand is over: nobody moves until the next hand starts")
    if state.status != "playing" or state.hand is None:
        return MatchOver(f"the match is over ({state.status})")
    return NotYourTurn(f"it is seat {state.hand.turn}'s turn, not seat {seat}'s")


def _named(
    state: MatchState, hand: HandState, seat: int, action: LegalAction | Play | Draw | Pass
) -> LegalAction:
    """The option of the legal list that `action` names, when it is not one of those options
    itself; an IllegalMove if there is none."""
    legal = hand.legal
    if type(action) is LegalAction:
        if action.action in ("draw", "pass"):
            wanted = action.action
        elif action.action == "play":
            return _named_play(state, hand, seat, action.tile, action.end)
        else:
            raise IllegalMove(f"unknown action {action.action!r}")
    elif isinstance(action, Play):
        return _named_play(state, hand, seat, action.tile, action.end)
    else:
        wanted = "draw" if isinstance(action, Draw) else "pass"
    if legal[0].action == wanted:
        return legal[0]
    raise refused_draw_or_pass(state.ruleset, hand, wanted)


def _named_play(
    state: MatchState, hand: HandState, seat: int, tile: object, end: object
) -> LegalAction:
    if isinstance(tile, list) and tile_problem(tile, state.ruleset.max_pip) is None:
        tile = (tile[0], tile[1])  # a JSON list is as good as a tuple
    for option in hand.legal:
        if option.action == "play" and option.tile == tile and option.end == end:
            return option
    raise refused_play(state.ruleset, hand, seat, tile, end)


def _events_after(moved: MatchState) -> tuple[Event, ...]:
    """The events of the move that led to `moved`, a hand still in play: the move's own and,
    numbered last, the next seat's `turn` (when `apply` numbered one)."""
    after = moved.hand
    assert after is not None
    happened = _move_events(after.last_move, after, moved.scores)
    if moved.seq > happened[-1].seq:
        happened.append(events.turn(moved.seq, after))
    return tuple(happened)


def _move_events(move: Move, after: HandState, scores: tuple[int, ...]) -> list[Event]:
    """The move's own events: tile_played (and scored, when the play scored), tile_drawn or
    passed; `scores` are the match scores after the move."""
    if move.action == "play":
        happened = [events.tile_played(move, after)]
        if move.points:
            score = scores[move.seat]
            happened.append(events.scored(move.seq + 1, move.seat, move.points, score, "play"))
        return happened
    if move.action == "draw":
        return [events.tile_drawn(move, after)]
    return [events.passed(move)]


def record(state: MatchState, event: AnyEvent) -> Transition:
    """Number an event the service originates (joins, presence, chat, ...) after the last one:
    `event`'s own `seq` is replaced."""
    kind = str(event.__struct_config__.tag)
    if kind not in SERVICE_EVENTS:
        raise ValueError(f"{kind!r} is not an event the service may record")
    seq = state.seq + 1
    game_seq = state.game_seq if kind in NON_GAME_EVENTS else seq
    numbered = Event(replace(event, seq=seq))  # the service's events are public to all
    return Transition(replace(state, seq=seq, game_seq=game_seq), (numbered,))


def is_stale(state: MatchState, seq: int) -> bool:
    """A move made after seeing `seq` is stale once a game event followed it, or from the future."""
    return seq < state.game_seq or seq > state.seq
