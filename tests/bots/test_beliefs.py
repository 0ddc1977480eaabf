"""What the Planner reads from the other seats' public plays (bots/beliefs.py), and how its
imagined deals follow it, from real deals of the partnership presets."""

from __future__ import annotations

import random
from collections import Counter

from domino_api.bots.beliefs import read_plays, weight
from domino_api.bots.knowledge import known_voids
from domino_api.bots.plain import PlainStrategy
from domino_api.bots.planner import sample_world
from domino_api.engine import PRESETS, Start, apply, new_match, seat_view
from domino_api.engine.state import MatchState


def _dealt(preset: str, seed: int) -> MatchState:
    return apply(new_match(PRESETS[preset], bytes([seed]) * 32), None, Start("c")).state


def _played(state: MatchState, moves: int) -> MatchState:
    plain = PlainStrategy()
    for _ in range(moves):
        assert state.status == "playing" and state.turn is not None
        action, _ = plain.choose(seat_view(state, state.turn), random.Random(state.seq))
        state = apply(state, state.turn, action).state
    return state


def test_a_double_opening_below_the_highest_bars_the_higher_doubles_from_every_hand() -> None:
    # Deal 5 of partners-nines opens with [6,6]: the highest double dealt, so [7,7], [8,8] and
    # [9,9] are out of play. Whoever imagines the deal keeps them out of every other hand.
    state = _played(_dealt("partners-nines", 5), 1)
    hand = state.hand
    assert hand is not None and hand.moves[0].tile == (6, 6)
    for seat in range(4):
        view = seat_view(state, seat)
        beliefs = read_plays(view)
        higher = {(7, 7), (8, 8), (9, 9)}
        assert all(beliefs.barred[s] == higher for s in range(4) if s != seat)
        rng = random.Random(seat)
        for _ in range(30):
            world = sample_world(view, known_voids(view), rng, beliefs)
            assert not higher & {t for s, h in enumerate(world.hands) if s != seat for t in h}
        assert all(hand.hand_of(s).count(t) == 0 for s in range(4) for t in higher)


def test_a_seat_that_played_light_while_heavier_tiles_fitted_holds_them_less_often() -> None:
    state = _played(_dealt("partners-nines", 0), 9)
    hand = state.hand
    assert hand is not None
    view = seat_view(state, 0)
    beliefs = read_plays(view, 0.2, reasonable=False)  # by weight alone, as on a train's board
    # Every tile read as less likely for a seat is unseen by seat 0, heavier than a tile that
    # seat played, and fits what was open to it then; the partner's plays are not read.
    read = [(s, t) for s in range(4) for t in beliefs.rarity[s]]
    assert read and not beliefs.rarity[0] and not beliefs.rarity[2]
    for seat, tile in read:
        assert tile in view.unseen
        assert any(
            e.seat == seat
            and e.tile is not None
            and weight(tile) > weight(e.tile)
            and (not e.pips or set(tile) & set(e.pips))
            for e in view.history
        )
    # The imagined deals give such tiles to that seat less often than deals blind to plays.
    rng = random.Random(3)
    voids = known_voids(view)
    blind, reading = Counter[tuple[int, object]](), Counter[tuple[int, object]]()
    for _ in range(400):
        for counter, sampled in ((blind, None), (reading, beliefs)):
            world = sample_world(view, voids, rng, sampled)
            counter.update((s, t) for s, h in enumerate(world.hands) for t in h)
    assert sum(reading[k] for k in read) < 0.8 * sum(blind[k] for k in read)
    # Whatever it reads, each imagined hand is its seat's size and honours its voids.
    world = sample_world(view, voids, rng, beliefs)
    assert [len(h) for h in world.hands] == list(view.counts)


def test_read_against_plain_players_no_passed_over_tile_is_in_the_real_hand() -> None:
    # Plain plays as the reading's reasonable player does (block the next seat, then the
    # heaviest), so the tiles read as passed over are never in the hands of Plain seats; read by
    # weight alone, a tile Plain kept while it blocked with a lighter one would be.
    read = 0
    for seed in range(6):
        state = _dealt("partners-nines", seed)
        while state.status == "playing":
            hand = state.hand
            assert hand is not None
            view = seat_view(state, seed % 4)
            beliefs = read_plays(view, 0.2, partner_over=0.2)
            for seat in range(4):
                assert not set(beliefs.rarity[seat]) & set(hand.hand_of(seat))
                read += len(beliefs.rarity[seat])
            state = _played(state, 1)
    assert read > 100  # the reading said something, deal after deal


def test_plays_are_not_read_where_a_play_can_score() -> None:
    # At all-fives the points, not the weight, lead a choice: a light play says nothing.
    state = _played(_dealt("partners-all-fives", 1), 6)
    for seat in range(4):
        assert not any(read_plays(seat_view(state, seat)).rarity)
