"""The SeatView a remote bot rebuilds from the API's view JSON and its event copies equals the
engine's own `seat_view`, and the strategies decide the same from either."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from domino_api import engine
from domino_api.bots import get_strategy
from domino_api.bots.planner import PlannerStrategy
from domino_api.bots.reducer import apply_event
from domino_api.bots.remote import current_hand_events, seat_view_from_public
from domino_api.engine import (
    Draw,
    Event,
    Forfeit,
    MatchState,
    NextHand,
    Pass,
    Play,
    Start,
    apply,
    new_match,
    seat_view,
)
from domino_api.engine.event_types import AnyEvent, TilePlayedEvent
from domino_api.engine.table import Info, Seat, Table
from domino_api.engine.view_types import ViewOut
from domino_api.matches.views import build_view, event_for
from domino_api.store.models import MatchEvent
from tests.bots.helpers import CONFIGS, rules_for

NOW = datetime(2026, 1, 1, tzinfo=UTC)
PLAIN = get_strategy("plain")
PLANNER = PlannerStrategy()
QUICK_PLANNER = PlannerStrategy(max_samples=16, work_budget=2_000)


def wire(value: Any) -> Any:
    """What the client gets: the JSON text read back."""
    return msgspec.json.decode(msgspec.json.encode(value))


def public_view(state: MatchState, seat: int) -> dict[str, Any]:
    """The view JSON `seat` gets, built by the service's own `build_view`."""
    match = Info(
        id="m1",
        ruleset=state.ruleset.name,
        secret=bytes(32),
        commitment="c",
        created_at=NOW,
        updated_at=NOW,
        code="ABCD",
        host_player_id="p0",
        started_at=NOW,
    )
    seats = tuple(Seat(seat=n, type="bot", strategy="random") for n in range(state.ruleset.players))
    table = Table(match=match, seats=seats, state=state)
    view: dict[str, Any] = wire(build_view(table, seat, [seat], NOW))
    return view


def typed_view(state: MatchState, seat: int) -> ViewOut:
    return msgspec.convert(public_view(state, seat), ViewOut)


def copies(events: tuple[Event, ...], seat: int) -> list[AnyEvent]:
    """The seat's copies, as the service serves stored events (and the engine's own for_seat),
    read as a client reads them."""
    out = []
    for event in events:
        private = {str(n): wire(part) for n, part in event.private.items()}
        stored = MatchEvent(
            seq=event.seq, type=event.type, at=NOW, data=wire(event.data), private=private
        )
        served = wire(event_for(stored, seat))
        direct = {k: v for k, v in wire(event.for_seat(seat)).items() if k != "at"}
        assert {k: v for k, v in served.items() if k != "at"} == direct
        out.append(msgspec.convert(served, AnyEvent))
    return out


def random_action(state: MatchState, rng: random.Random) -> tuple[int | None, engine.Action]:
    if state.status == "hand_over":
        return None, NextHand()
    seat = state.turn
    assert seat is not None
    option = rng.choice(list(state.hand.legal if state.hand else ()))
    if option.action == "play":
        assert option.tile is not None
        return seat, Play(option.tile, option.end)
    return seat, Draw() if option.action == "draw" else Pass()


def assert_same(state: MatchState, seat: int, view: dict[str, Any], events: list[AnyEvent]) -> None:
    rebuilt = seat_view_from_public(msgspec.convert(view, ViewOut), events)
    expected = seat_view(state, seat)
    for name in expected.__struct_fields__:
        assert getattr(rebuilt, name) == getattr(expected, name), (name, state.seq)
    assert rebuilt == expected


def run_match(
    name: str, players: int, seed: int, forfeit_at: int | None = None
) -> list[tuple[MatchState, tuple[Event, ...]]]:
    """A random match: every state after a transition, with the events that led to it."""
    rules = rules_for(name, players, target=60)
    rng = random.Random(seed)
    transition = apply(new_match(rules, f"s{seed}".encode()), None, Start(f"c{seed}"))
    steps = [(transition.state, transition.events)]
    for count in range(3000):
        state = steps[-1][0]
        if state.status not in ("playing", "hand_over"):
            break
        if forfeit_at is not None and count == forfeit_at:
            transition = apply(state, None, Forfeit(seat=players - 1, cause="resign"))
        else:
            seat, action = random_action(state, rng)
            transition = apply(state, seat, action)
        steps.append((transition.state, transition.events))
    return steps


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rebuilt_view_equals_the_engines(name: str, players: int, seed: int) -> None:
    steps = run_match(name, players, seed, forfeit_at=40 if players > 2 and seed == 3 else None)
    assert steps[-1][0].status in ("finished", "abandoned")
    rng = random.Random(seed)
    # Each seat follows the stream from a snapshot taken at a random point.
    snapshot_at = {seat: rng.randrange(len(steps)) for seat in range(players)}
    followed: dict[int, dict[str, Any]] = {}
    received: dict[int, list[AnyEvent]] = {seat: [] for seat in range(players)}
    checked = 0
    for index, (state, events) in enumerate(steps):
        for seat in range(players):
            mine = copies(events, seat)
            received[seat] = current_hand_events([*received[seat], *mine])
            view = public_view(state, seat)
            assert_same(state, seat, view, received[seat])
            if index == snapshot_at[seat]:
                followed[seat] = view
            elif seat in followed:
                typed = msgspec.convert(followed[seat], ViewOut)
                for event in mine:
                    typed = apply_event(typed, event)
                followed[seat] = wire(typed)
                if followed[seat]["you"] is None:
                    # The seat forfeited: its holder sees nothing private any more (docs/API.md).
                    assert state.forfeited[seat]
                    del followed[seat]
                    continue
                assert_same(state, seat, followed[seat], received[seat])
                for key in ("status", "hand_number", "board", "stock", "turn", "legal"):
                    assert followed[seat][key] == view[key], key
                assert followed[seat]["you"]["hand"] == view["you"]["hand"]
                fields = ("seat", "tiles", "score", "hands_won", "forfeited")
                assert [{k: s[k] for k in fields} for s in followed[seat]["seats"]] == [
                    {k: s[k] for k in fields} for s in view["seats"]
                ]
            checked += 1
    assert checked > 20


# Partnership once (its All Fives: drawing, fives, the spinner): the Planner's searches at four
# seats are the slowest here, and the two block games add no path of their own to this test.
SEARCHED = [c for c in CONFIGS if c[0] not in ("partners-block", "partners-nines")]


@pytest.mark.parametrize(("name", "players"), SEARCHED)
def test_strategies_choose_the_same_from_either_view(name: str, players: int) -> None:
    steps = run_match(name, players, seed=7)
    received: dict[int, list[AnyEvent]] = {seat: [] for seat in range(players)}
    decisions = 0
    for index, (state, events) in enumerate(steps):
        for number in range(players):
            received[number] = current_hand_events([*received[number], *copies(events, number)])
        seat = state.turn
        if seat is None:
            continue
        rebuilt = seat_view_from_public(typed_view(state, seat), received[seat])
        expected = seat_view(state, seat)
        assert rebuilt == expected
        # The planner without its wall-clock budget: a decision then depends on view and rng only.
        planner = PLANNER if name != "mexican-train" else QUICK_PLANNER  # its long rounds
        strategies = (PLAIN, planner) if index % 3 == 0 else (PLAIN,)
        for strategy in strategies:
            chosen = strategy.choose(rebuilt, random.Random(index))
            assert chosen == strategy.choose(expected, random.Random(index))
            decisions += 1
    assert decisions > 10


def test_missed_events_leave_the_history_empty() -> None:
    steps = run_match("house-nines", 2, seed=5)
    received: list[AnyEvent] = []
    for state, events in steps[:30]:
        received = current_hand_events([*received, *copies(events, 0)])
        if state.hand is not None and len(state.hand.board.tiles) >= 3:
            break
    plays = [i for i, e in enumerate(received) if isinstance(e, TilePlayedEvent)]
    gappy = received[: plays[0]] + received[plays[0] + 1 :]
    rebuilt = seat_view_from_public(typed_view(state, 0), gappy)
    assert rebuilt.history == ()
    assert rebuilt.board == seat_view(state, 0).board


def test_a_board_that_contradicts_its_tiles_is_refused() -> None:
    state = run_match("all-fives", 2, seed=6)[10][0]
    view = public_view(state, 0)
    view["board"]["ends_total"] += 1
    with pytest.raises(ValueError, match="board"):
        seat_view_from_public(msgspec.convert(view, ViewOut), [])
