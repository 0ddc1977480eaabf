"""Planner: determinized Monte Carlo search over what its own seat can see, and nothing else.

For each decision it deals the unseen tiles into imagined opponents' hands (each hand the
right size, without the pips that seat has shown it lacks, the heavy tiles a seat's plays say
it passed over less often: `beliefs`) and an imagined stock, then plays
every candidate move out to the end of the hand in each imagined deal with the Plain-like
rollout policy of `rollout`, on the engine's own hand reducer. Candidates share the same deals
(common random numbers), so their differences are measured, not guessed. A move is worth the
chance of winning the match the hand leaves behind (a race to the target, so points near the
target count more), averaged over the deals. Candidates that fall clearly behind
stop being simulated.

The search stops at a sample cap or a budget of simulated moves, neither of which reads a
clock: a decision depends only on the view and the rng, so a busy machine makes the Planner
slower, never weaker (it decides in a worker process, bots/computers.py, and the answer's
floor, matches/pacing.py, hides how long it took).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from domino_api.bots.beliefs import PARTNER_PASSED_OVER, PASSED_OVER, Beliefs, read_plays
from domino_api.bots.knowledge import known_voids, lacks
from domino_api.bots.plain import PlainStrategy, forced_action, play_of
from domino_api.bots.rollout import Outcome, play_out
from domino_api.bots.trains import train_shape, train_value
from domino_api.engine import Action, Board, LegalAction, SeatView, Tile
from domino_api.engine.hand import position_hand
from domino_api.engine.kinds import Layout
from domino_api.engine.layout import place
from domino_api.engine.state import HandState, Rules, rules_of
from domino_api.engine.teams import won_by

MAX_SAMPLES = 200
# Simulated actions per decision: sized so that a searched decision takes 10-30 ms here.
WORK_BUDGET = 10_000
PRUNE_EVERY = 16
PRUNE_Z = 3.0


@dataclass(frozen=True, slots=True)
class World:
    """One imagined deal of the unseen tiles."""

    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]


@dataclass(slots=True)
class Tally:
    option: LegalAction
    values: list[float]
    wins: int = 0

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0


class PlannerStrategy:
    name = "planner"

    def __init__(
        self,
        max_samples: int = MAX_SAMPLES,
        work_budget: int = WORK_BUDGET,
        passed_over: float = PASSED_OVER,
        partner_over: float = PARTNER_PASSED_OVER,
        reasonable: bool = True,
    ) -> None:
        self.max_samples = max_samples
        self.work_budget = work_budget
        self.passed_over = passed_over
        self.partner_over = partner_over
        self.reasonable = reasonable
        self.plain = PlainStrategy()

    def choose(self, view: SeatView, rng: random.Random) -> tuple[Action, str]:
        plays = [o for o in view.legal if o.action == "play"]
        if not plays:
            return forced_action(view)
        options = distinct_plays(view, plays)
        if len(options) == 1:
            action, reason = self.plain.choose(view, rng)
            return action, reason
        tallies, samples = self.search(view, options, rng)
        best = max(tallies, key=lambda t: t.mean)
        won = round(100 * best.wins / max(len(best.values), 1))
        scoring = f"scores {best.option.points}, " if best.option.points else ""
        return play_of(best.option), f"planner: {scoring}wins {won}% of {samples} samples"

    def search(
        self, view: SeatView, options: Sequence[LegalAction], rng: random.Random
    ) -> tuple[list[Tally], int]:
        rules = rules_of(view.ruleset)
        voids = known_voids(view)
        beliefs = read_plays(view, self.passed_over, self.partner_over, self.reasonable)
        tallies = [Tally(option, []) for option in options]
        alive = list(tallies)
        samples = 0
        work = 0
        while samples < self.max_samples and work < self.work_budget:
            start = start_hand(view, sample_world(view, voids, rng, beliefs), rules)
            for tally in alive:
                outcome = play_out(start, tally.option, view.scores, view.ruleset.target)
                work += outcome.moves
                tally.values.append(match_value(view, outcome))
                tally.wins += won_by(view.ruleset, outcome.winner, view.seat)
            samples += 1
            if samples % PRUNE_EVERY == 0:
                alive = prune(alive)
                if len(alive) == 1:
                    break
        return alive, samples


def distinct_plays(view: SeatView, plays: Sequence[LegalAction]) -> list[LegalAction]:
    """The plays that lead to different positions (a tile on either of two equal ends is one)."""
    seen: set[object] = set()
    result = []
    for option in plays:
        assert option.tile is not None
        after = place(view.board, option.tile, option.end, view.ruleset.layout)
        key = (option.tile, board_shape(after, view.ruleset.layout))
        if key not in seen:
            seen.add(key)
            result.append(option)
    return result


def board_shape(board: Board, layout: Layout) -> object:
    """What matters about a board for play from here on, blind to mirror images."""
    if layout == "trains":
        return train_shape(board)
    if layout == "spinner_opening_double":
        return (tuple(sorted((end.pip, end.value) for end in board.ends)), board.total)
    mains = tuple(sorted((e.pip, e.value) for e in board.ends if e.name in ("left", "right")))
    arms = tuple(sorted((e.pip, e.value) for e in board.ends if e.name in ("up", "down")))
    return (mains, arms, len(board.spinner_mains), board.spinner, board.total)


def start_hand(view: SeatView, world: World, rules: Rules) -> HandState:
    """The imagined hand as of this decision, the view's seat to act."""
    return position_hand(rules, world.hands, world.stock, view.board, view.seat, view.must_cover)


def sample_world(
    view: SeatView,
    voids: Sequence[frozenset[int]],
    rng: random.Random,
    beliefs: Beliefs | None = None,
) -> World:
    """Deal the unseen tiles into each other seat's hand (its size, avoiding its known voids
    and what `beliefs` bar, its less likely tiles less often) and the stock. Only the view is
    read: its own hand, the counts and the unseen tiles."""
    pool = list(view.unseen)
    rng.shuffle(pool)
    others = [s for s in range(view.ruleset.players) if s != view.seat]
    # The most constrained seat picks first, so a feasible deal is rarely missed.
    others.sort(key=lambda s: sum(1 for t in pool if lacks(t, voids[s])) - view.counts[s])
    hands: list[tuple[Tile, ...]] = [()] * view.ruleset.players
    hands[view.seat] = view.hand
    for seat in others:
        barred = beliefs.barred[seat] if beliefs else frozenset()
        allowed = [t for t in pool if lacks(t, voids[seat]) and t not in barred]
        if len(allowed) < view.counts[seat]:
            allowed = [t for t in pool if lacks(t, voids[seat])]
        if len(allowed) < view.counts[seat]:
            allowed = pool  # the inference cannot be met by this deal: drop it for this seat
        if beliefs and beliefs.rarity[seat]:
            allowed = likelier_first(allowed, beliefs.rarity[seat], rng)
        taken = allowed[: view.counts[seat]]
        hands[seat] = tuple(taken)
        chosen = set(taken)
        pool = [t for t in pool if t not in chosen]
    return World(tuple(hands), tuple(pool))


def likelier_first(tiles: list[Tile], rarity: dict[Tile, float], rng: random.Random) -> list[Tile]:
    """`tiles` in a random order where a tile `rarity` times less likely comes first that many
    times less often (weighted sampling without replacement: exponential keys over weights)."""
    random_ = rng.random
    return sorted(tiles, key=lambda t: -math.log(1.0 - random_()) * rarity.get(t, 1.0))


def match_value(view: SeatView, outcome: Outcome) -> float:
    """The chance of winning the match after this hand, as a race to the target: each seat's
    share of (1 / what it still needs)^2, so the last points before the target weigh most."""
    ruleset = view.ruleset
    if ruleset.layout == "trains":
        return train_value(view, [-gain for gain in outcome.gains])  # gains are pips held
    if ruleset.best_of is not None:
        needed = ruleset.best_of // 2 + 1
        won = list(view.hands_won)
        if outcome.winner is not None:
            won[outcome.winner] += 1
        needs = [needed - w for w in won]
    else:
        needs = [ruleset.target - s - g for s, g in zip(view.scores, outcome.gains, strict=True)]
    me = view.seat
    if ruleset.partnership:
        # Partners share one need (engine/teams.py): the race is the two teams', and the
        # partner's points are the Planner's own.
        needs, me = [needs[me], needs[(me + 1) % ruleset.players]], 0
    if needs[me] <= 0:
        return 1.0
    if min(needs) <= 0:
        return 0.0
    weights = [1.0 / (n * n) for n in needs]
    return weights[me] / sum(weights)


def prune(alive: list[Tally]) -> list[Tally]:
    """Drop candidates whose paired shortfall against the leader is clearly more than noise."""
    leader = max(alive, key=lambda t: t.mean)
    kept = []
    for tally in alive:
        if tally is leader or not _clearly_worse(tally.values, leader.values):
            kept.append(tally)
    return kept


def _clearly_worse(values: list[float], leader: list[float]) -> bool:
    n = len(values)
    diffs = [b - a for a, b in zip(values, leader, strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1)
    if variance == 0.0:
        return mean > 0.0
    return mean > PRUNE_Z * math.sqrt(variance / n)
