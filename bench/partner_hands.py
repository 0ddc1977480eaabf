"""Planner variants against Plain in partnership, hand by hand: a quick A/B of the Planner.

Each deal's first hand is played with the two Planners at seats 0 and 2, then with the teams
swapped, for every variant on the same deals (common deals: their differences are measured,
not guessed). A variant is the Planner's `passed_over` (1.0: plays read for nothing, only
passes and draws). Reported per variant: the Planners' team's points minus the Plains' per
hand, with its standard error, and the Planner's decision times.

    .venv/bin/python bench/partner_hands.py --deals 60 --variants 1.0,0.35
    .venv/bin/python bench/partner_hands.py --preset partners-block --deals 30
    .venv/bin/python bench/partner_hands.py --time 200 --variants 1.0,0.15   # decision times

`--time N` times each variant's decisions (processor time) on the same N positions with
several distinct plays (from Plain play of the preset), the variants taken in turn.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from domino_api.bots.beliefs import PARTNER_PASSED_OVER
from domino_api.bots.plain import PlainStrategy
from domino_api.bots.planner import WORK_BUDGET, PlannerStrategy, distinct_plays
from domino_api.engine import PRESETS, SeatView, Start, apply, new_match, seat_view
from domino_api.engine.teams import team_of


def planner_of(variant: str) -> PlannerStrategy:
    """A variant: passed_over, `w` before it to read plays by weight alone, `/p` and a factor
    to read the partner's plays by (else PARTNER_PASSED_OVER), `/b` and a work budget:
    `0.05`, `w0.05/p0.05`, `0.05/p0.3`, `0.05/b20000`."""
    variant, _, budget = variant.partition("/b")
    reasonable = not variant.startswith("w")
    factor, _, partner = variant.lstrip("w").partition("/p")
    return PlannerStrategy(
        work_budget=int(budget) if budget else WORK_BUDGET,
        passed_over=float(factor),
        partner_over=float(partner) if partner else PARTNER_PASSED_OVER,
        reasonable=reasonable,
    )


def first_hand(preset: str, deal: int, planners: int, passed_over: str) -> dict[str, Any]:
    """The first hand of deal `deal` with the Planners as team `planners` (0: seats 0 and 2)."""
    secret = hashlib.sha256(f"bench-partners:{preset}:{deal}".encode()).digest()
    state = apply(new_match(PRESETS[preset], secret), None, Start(f"cut-{deal}")).state
    planner, plain = planner_of(passed_over), PlainStrategy()
    times: list[float] = []
    while state.status == "playing":
        seat = state.turn
        assert seat is not None
        rng = random.Random(f"{preset}:{deal}:{planners}:{state.seq}")
        mine = team_of(seat) == planners
        started = time.perf_counter()
        action, _ = (planner if mine else plain).choose(seat_view(state, seat), rng)
        if mine:
            times.append(time.perf_counter() - started)
        state = apply(state, seat, action).state
    ours, theirs = state.scores[planners], state.scores[1 - planners]
    return {"diff": ours - theirs, "times": times}


def searched_views(preset: str, count: int) -> list[SeatView]:
    """Views of seats with more than one distinct play, from Plain play of `preset`."""
    views: list[SeatView] = []
    plain = PlainStrategy()
    for deal in range(10_000):
        state = apply(
            new_match(PRESETS[preset], bytes([deal % 256]) * 32), None, Start(f"t{deal}")
        ).state
        while state.status == "playing" and len(views) < count:
            assert state.turn is not None
            view = seat_view(state, state.turn)
            plays = [o for o in view.legal if o.action == "play"]
            if plays and len(distinct_plays(view, plays)) > 1:
                views.append(view)
            action, _ = plain.choose(view, random.Random(state.seq))
            state = apply(state, state.turn, action).state
        if len(views) >= count:
            return views
    return views


def time_variants(preset: str, count: int, variants: list[str]) -> None:
    views = searched_views(preset, count)
    planners = [planner_of(v) for v in variants]
    times: list[list[float]] = [[] for _ in variants]
    for index, view in enumerate(views):
        for planner, out in zip(planners, times, strict=True):
            # Processor time, the faster of two: what the decision costs, not how long other
            # processes on the shared cores kept it waiting.
            best = math.inf
            for _ in range(2):
                started = time.process_time()
                planner.choose(view, random.Random(index))
                best = min(best, time.process_time() - started)
            out.append(best)
    for v, out in zip(variants, times, strict=True):
        out.sort()
        print(
            f"{preset} passed_over={v}: {len(out)} searched decisions, p50/p90/p99"
            f" {1000 * out[len(out) // 2]:.1f}/{1000 * out[int(0.9 * len(out))]:.1f}/"
            f"{1000 * out[int(0.99 * len(out))]:.1f} ms, mean {1000 * mean(out):.1f} ms",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="partners-nines")
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--variants", default="1.0,0.35", help="comma-separated, see planner_of")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--time", type=int, help="time the variants on this many positions")
    args = parser.parse_args(argv)
    variants = args.variants.split(",")
    if args.time:
        time_variants(args.preset, args.time, variants)
        return 0
    deals = range(args.first_deal, args.first_deal + args.deals)
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        jobs = {
            (v, d, t): pool.submit(first_hand, args.preset, d, t, v)
            for d in deals
            for v in variants
            for t in (0, 1)
        }
        results = {key: job.result() for key, job in jobs.items()}
    base = variants[0]
    for v in variants:
        per_deal = [(results[(v, d, 0)]["diff"] + results[(v, d, 1)]["diff"]) / 2 for d in deals]
        paired = [
            p - (results[(base, d, 0)]["diff"] + results[(base, d, 1)]["diff"]) / 2
            for d, p in zip(deals, per_deal, strict=True)
        ]
        times = sorted(t for d in deals for s in (0, 1) for t in results[(v, d, s)]["times"])
        print(
            f"{args.preset} passed_over={v}: team diff/hand {mean(per_deal):+.1f}"
            f" (se {se(per_deal):.1f}, {len(per_deal)} deals x 2 seatings);"
            f" vs {base}: {mean(paired):+.1f} (se {se(paired):.1f});"
            f" decisions p50/p99 {1000 * times[len(times) // 2]:.1f}/"
            f"{1000 * times[int(0.99 * len(times))]:.1f} ms",
            flush=True,
        )
    return 0


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


def se(values: list[float]) -> float:
    m = mean(values)
    return math.sqrt(sum((x - m) ** 2 for x in values) / max(len(values) - 1, 1) / len(values))


if __name__ == "__main__":
    sys.exit(main())
