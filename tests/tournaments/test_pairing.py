"""Seeded order, single-elimination brackets and round-robin schedules (pure pairing)."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino_api.tournaments.pairing import (
    Bracket,
    Round,
    Slot,
    SlotKey,
    SlotStatus,
    advance,
    cancel,
    first_round,
    round_robin_schedule,
    seeded_order,
    single_elimination,
)
from domino_api.tournaments.standings import MatchRecord, standings

seeds = st.binary(min_size=32, max_size=32)


def entrants(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


def seed_of(i: int) -> bytes:
    return hashlib.sha256(f"seed-{i}".encode()).digest()


def reference_shuffle(seed: bytes, items: list[str]) -> list[str]:
    """docs/RULES.md section 11 steps 2-4 written out independently of engine.rng."""
    numbers: list[int] = []
    block = 0

    def next_number() -> int:
        nonlocal block
        if not numbers:
            digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
            numbers.extend(int.from_bytes(digest[k : k + 8], "big") for k in (24, 16, 8, 0))
            block += 1
        return numbers.pop()

    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        n = i + 1
        while (x := next_number()) >= 2**64 - 2**64 % n:
            pass
        j = x % n
        result[i], result[j] = result[j], result[i]
    return result


# --- seeded order ---------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 5, 17, 40])
@pytest.mark.parametrize("i", range(3))
def test_seeded_order_is_the_section_11_shuffle_of_entry_order(n: int, i: int) -> None:
    ids = entrants(n)
    assert seeded_order(seed_of(i), ids) == reference_shuffle(seed_of(i), ids)


@given(seed=seeds, n=st.integers(0, 40))
def test_seeded_order_is_a_reproducible_permutation(seed: bytes, n: int) -> None:
    ids = entrants(n)
    order = seeded_order(seed, ids)
    assert sorted(order) == ids
    assert seeded_order(seed, ids) == order
    assert seeded_order(seed, tuple(ids)) == order


def test_seeded_order_depends_on_the_seed() -> None:
    ids = entrants(10)
    assert len({tuple(seeded_order(seed_of(i), ids)) for i in range(20)}) == 20


def test_seeded_order_rejects_duplicates() -> None:
    with pytest.raises(ValueError, match="unique"):
        seeded_order(b"x" * 32, ["a", "b", "a"])


def test_byes_are_uniform_over_entrants() -> None:
    """n = 5, P = 8: 3 byes a tournament; each entry position should get one 3/5 of the time."""
    n, trials = 5, 2000
    ids = entrants(n)
    counts = Counter[str]()
    for i in range(trials):
        counts.update(first_round(seeded_order(seed_of(i), ids)).byes)
    assert sum(counts.values()) == 3 * trials
    expected = trials * 3 / n
    chi_square = sum((counts[p] - expected) ** 2 / expected for p in ids)
    # 0.999 quantile of the chi-square distribution with df = n - 1 = 4: for even df the
    # survival function is exp(-x/2) * sum_{k < df/2} (x/2)^k / k!, i.e. exp(-x/2) * (1 + x/2)
    # here, which equals 0.001 at x = 18.4668 (scipy.stats.chi2.ppf(0.999, 4) = 18.4668).
    # Three byes are drawn without replacement per tournament, so the statistic is, if anything,
    # smaller than a chi-square(4) variable: the bound is loose, as intended.
    chi_square_999_df4 = 18.4668
    assert chi_square < chi_square_999_df4, (counts, chi_square)


def test_a_heavily_biased_assignment_would_fail_the_uniformity_bound() -> None:
    # Sanity check of the statistic itself: byes always to the first 3 entrants by entry order.
    trials, expected = 2000, 1200.0
    counts = [trials, trials, trials, 0, 0]
    assert sum((c - expected) ** 2 / expected for c in counts) > 18.4668


# --- single elimination ---------------------------------------------------------------------


def test_first_round_examples() -> None:
    assert first_round(["a", "b"]) == Round(1, pairs=(("a", "b"),), byes=())
    assert first_round(list("abcde")) == Round(1, pairs=(("d", "e"),), byes=("a", "b", "c"))
    assert first_round(list("abcdef")) == Round(1, pairs=(("c", "d"), ("e", "f")), byes=("a", "b"))
    assert first_round(list("abcdefgh")).byes == ()
    assert first_round(list("abcdefghi")).byes == tuple("abcdefg")
    assert first_round(list("abcdefghi")).pairs == (("h", "i"),)


@pytest.mark.parametrize("bad", [[], ["a"], ["a", "b", "a"]])
def test_single_elimination_needs_two_distinct_entrants(bad: list[str]) -> None:
    with pytest.raises(ValueError):
        single_elimination(bad)
    with pytest.raises(ValueError):
        first_round(bad)


def test_bracket_mapping_for_five_entrants() -> None:
    bracket = single_elimination(list("abcde"))
    assert bracket.size == 8
    assert [len(row) for row in bracket.rounds] == [4, 2, 1]
    assert bracket.byes == ("a", "b", "c")
    assert [s.status for s in bracket.rounds[0]] == [SlotStatus.BYE] * 3 + [SlotStatus.READY]
    # Round 2 slot 0 is fed by the byes of a and b: playable at once.
    assert bracket.slot(SlotKey(2, 0)).pair == ("a", "b")
    assert bracket.slot(SlotKey(2, 1)).players == ("c", None)
    assert bracket.slot(SlotKey(2, 1)).status is SlotStatus.WAITING
    assert [s.key for s in bracket.ready()] == [SlotKey(1, 3), SlotKey(2, 0)]

    step = advance(bracket, SlotKey(1, 3), "e")
    assert step.ready == (Slot(SlotKey(2, 1), players=("c", "e")),)
    step = advance(step.bracket, SlotKey(2, 1), "e")
    assert step.ready == ()  # the other semi-final is still open
    assert step.bracket.slot(SlotKey(3, 0)).players == (None, "e")
    step = advance(step.bracket, SlotKey(2, 0), "b")
    assert step.ready == (Slot(SlotKey(3, 0), players=("b", "e")),)
    assert step.bracket.champion is None
    final = advance(step.bracket, SlotKey(3, 0), "e")
    assert final.ready == ()
    assert final.bracket.champion == "e"
    assert final.bracket.finished
    assert final.bracket.ready() == ()


def test_two_entrants_play_only_the_final() -> None:
    bracket = single_elimination(["x", "y"])
    assert bracket.size == 2
    assert [s.key for s in bracket.ready()] == [SlotKey(1, 0)]
    done = advance(bracket, SlotKey(1, 0), "y")
    assert done.bracket.champion == "y"
    assert done.ready == ()


def test_advance_rejects_bad_results_and_leaves_input_unchanged() -> None:
    bracket = single_elimination(list("abcdef"))
    snapshot = bracket
    with pytest.raises(ValueError, match="bye"):
        advance(bracket, SlotKey(1, 0), "a")
    with pytest.raises(ValueError, match="waiting"):
        advance(bracket, SlotKey(2, 1), "c")
    with pytest.raises(ValueError, match="does not play"):
        advance(bracket, SlotKey(1, 2), "a")
    with pytest.raises(KeyError):
        advance(bracket, SlotKey(4, 0), "a")
    with pytest.raises(KeyError):
        bracket.slot(SlotKey(1, 4))
    step = advance(bracket, SlotKey(1, 2), "c")
    with pytest.raises(ValueError, match="decided"):
        advance(step.bracket, SlotKey(1, 2), "d")
    assert bracket == snapshot
    assert bracket.slot(SlotKey(1, 2)).winner is None


def test_cancelled_match_blocks_its_path_and_the_champion() -> None:
    bracket = single_elimination(list("abcd"))
    bracket = cancel(bracket, SlotKey(1, 0))
    assert bracket.cancelled
    assert bracket.slot(SlotKey(1, 0)).status is SlotStatus.CANCELLED
    with pytest.raises(ValueError, match="cancelled"):
        advance(bracket, SlotKey(1, 0), "a")
    with pytest.raises(ValueError, match="cancelled"):
        cancel(bracket, SlotKey(1, 0))
    step = advance(bracket, SlotKey(1, 1), "d")
    assert step.ready == ()
    assert step.bracket.slot(SlotKey(2, 0)).players == (None, "d")
    assert step.bracket.ready() == ()
    assert step.bracket.champion is None
    assert not step.bracket.finished


def play_out(bracket: Bracket, rnd: random.Random) -> tuple[Bracket, list[MatchRecord]]:
    """Play every match in a random order with random winners, checking each step."""
    records: list[MatchRecord] = []
    playable = {slot.key for slot in bracket.ready()}
    while playable:
        ready = bracket.ready()
        assert {slot.key for slot in ready} == playable
        busy = [p for slot in ready for p in slot.players]
        assert len(busy) == len(set(busy)), "nobody plays two matches at once"
        slot = rnd.choice(ready)
        pair = slot.pair
        assert pair is not None
        winner = rnd.choice(pair)
        step = advance(bracket, slot.key, winner)
        bracket = step.bracket
        assert bracket.slot(slot.key).winner == winner
        playable.discard(slot.key)
        assert all(s.key not in playable for s in step.ready)
        assert all(s.key.round == slot.key.round + 1 for s in step.ready)
        playable.update(s.key for s in step.ready)
        hands = (2, rnd.randrange(2)) if winner == pair[0] else (rnd.randrange(2), 2)
        points = (rnd.randrange(200), rnd.randrange(200))
        records.append(MatchRecord(players=pair, winner=winner, hands=hands, points=points))
    return bracket, records


@settings(max_examples=150, deadline=None)
@given(seed=seeds, n=st.integers(2, 40), rnd=st.randoms(use_true_random=False))
def test_single_elimination_plays_out(seed: bytes, n: int, rnd: random.Random) -> None:
    order = seeded_order(seed, entrants(n))
    bracket = single_elimination(order)
    size = bracket.size
    assert size >= n > size // 2
    assert bracket.byes == tuple(order[: size - n])
    assert bracket == single_elimination(seeded_order(seed, entrants(n)))

    final, records = play_out(bracket, rnd)

    assert len(records) == n - 1
    assert len(final.byes) == size - n
    assert all(s.status in (SlotStatus.DECIDED, SlotStatus.BYE) for s in final.slots())
    losses = Counter(p for r in records for p in r.players if p != r.winner)
    assert max(losses.values()) == 1
    assert len(losses) == n - 1
    champion = final.champion
    assert champion is not None
    assert final.finished and not final.cancelled
    assert losses[champion] == 0
    assert champion in final.slot(SlotKey(len(final.rounds), 0)).players

    table = {s.player_id: s for s in standings(order, records)}
    wins = Counter(r.winner for r in records)
    for player in order:
        assert table[player].match_wins == wins[player]  # a bye adds no win
    for player in final.byes:
        first_match = next(r for r in records if player in r.players)
        if first_match.winner != player:
            assert table[player].match_wins == 0
    rounds = len(final.rounds)
    assert table[champion].match_wins == rounds - (1 if champion in final.byes else 0)
    assert table[champion].rank == 1


@given(seed=seeds, n=st.integers(2, 40), rnd=st.randoms(use_true_random=False))
def test_a_cancelled_match_means_no_champion(seed: bytes, n: int, rnd: random.Random) -> None:
    bracket = single_elimination(seeded_order(seed, entrants(n)))
    bracket = cancel(bracket, rnd.choice(bracket.ready()).key)
    final, records = play_out(bracket, rnd)
    assert final.cancelled
    assert final.champion is None
    assert len(records) < n - 1


# --- round-robin ----------------------------------------------------------------------------


def test_round_robin_four_and_three() -> None:
    assert round_robin_schedule(list("abcd")) == [
        Round(1, pairs=(("a", "d"), ("b", "c"))),
        Round(2, pairs=(("a", "c"), ("d", "b"))),
        Round(3, pairs=(("a", "b"), ("c", "d"))),
    ]
    assert round_robin_schedule(list("abc")) == [
        Round(1, pairs=(("b", "c"),), rests=("a",)),
        Round(2, pairs=(("a", "c"),), rests=("b",)),
        Round(3, pairs=(("a", "b"),), rests=("c",)),
    ]
    assert round_robin_schedule(["a", "b"]) == [Round(1, pairs=(("a", "b"),))]


@pytest.mark.parametrize("bad", [[], ["a"], ["a", "b", "a"]])
def test_round_robin_needs_two_distinct_entrants(bad: list[str]) -> None:
    with pytest.raises(ValueError):
        round_robin_schedule(bad)


@given(seed=seeds, n=st.integers(2, 40))
def test_round_robin_schedule(seed: bytes, n: int) -> None:
    order = seeded_order(seed, entrants(n))
    schedule = round_robin_schedule(order)
    assert [r.number for r in schedule] == list(range(1, len(schedule) + 1))
    assert len(schedule) == (n if n % 2 else n - 1)
    met = Counter(frozenset(pair) for r in schedule for pair in r.pairs)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(order, 2)}
    assert set(met.values()) == {1}
    for r in schedule:
        assert r.byes == ()
        seen = [p for pair in r.pairs for p in pair] + list(r.rests)
        assert sorted(seen) == sorted(order), "everyone plays or rests exactly once a round"
        assert len(r.rests) == n % 2
    rests = Counter(p for r in schedule for p in r.rests)
    if n % 2:
        assert rests == Counter(order)  # each entrant rests exactly once
    else:
        assert not rests
    assert schedule == round_robin_schedule(seeded_order(seed, entrants(n)))
