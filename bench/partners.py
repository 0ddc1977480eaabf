"""Two Planners against two Plains in partnership, beside one Planner against one Plain.

Each pair of partnership matches shares one sealed deal with the teams swapped (the Planners at
seats 0 and 2, then at 1 and 3), so the luck of the deal cancels out as far as it can. The
baseline, in the same run, is bots.py's heads-up match of the same game without partners
(`partners-block` beside `block`, `partners-all-fives` beside `all-fives`, `partners-nines`
beside `house-nines` for two), played the same way.

    .venv/bin/python bench/partners.py --matches 200 --processes 2
    .venv/bin/python bench/partners.py --matches 20 --presets partners-block   # a quick look
    .venv/bin/python bench/partners.py --presets partners-block --log b.jsonl  # each match's end
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from partner_hands import planner_of

from bots import play_match as heads_up
from bots import wilson
from domino_api.bots import get_strategy
from domino_api.engine import PRESETS, NextHand, Start, apply, new_match, seat_view
from domino_api.engine.teams import team_of

BASELINE = {
    "partners-block": "block",
    "partners-all-fives": "all-fives",
    "partners-nines": "house-nines",
}


def play_partners(preset: str, index: int, variant: str | None = None) -> dict[str, Any]:
    """One partnership match; even indexes seat the Planners at 0 and 2, odd ones swap the
    teams on the same deal. `variant`: a Planner of partner_hands.py's, else the registry's."""
    strategies = {"planner": planner_of(variant) if variant else get_strategy("planner")}
    strategies["plain"] = get_strategy("plain")
    rules = PRESETS[preset]
    planners = 0 if index % 2 == 0 else 1  # the Planners' team
    secret = hashlib.sha256(f"bench-partners:{preset}:{index // 2}".encode()).digest()
    state = apply(new_match(rules, secret), None, Start(f"cut-{index // 2}")).state
    decisions: list[float] = []
    while state.status in ("playing", "hand_over"):
        if state.status == "hand_over":
            state = apply(state, None, NextHand()).state
            continue
        seat = state.turn
        assert seat is not None
        name = "planner" if team_of(seat) == planners else "plain"
        rng = random.Random(f"{preset}:{index}:{state.seq}")
        started = time.perf_counter()
        action, _ = strategies[name].choose(seat_view(state, seat), rng)
        if name == "planner":
            decisions.append(time.perf_counter() - started)
        state = apply(state, seat, action).state
    assert state.result is not None and state.result.team is not None
    return {"won": state.result.team == planners, "hands": state.hand_number, "ms": decisions}


def logged(log: Path | None, preset: str, index: int, result: dict[str, Any]) -> dict[str, Any]:
    """`result`, first appended to `log` as one JSON line: a run cut short still counts."""
    if log is not None:
        won = result["won"] if "won" in result else result["planner_won"]
        with log.open("a") as out:
            out.write(json.dumps({"preset": preset, "index": index, "won": won}) + "\n")
    return result


def rate(label: str, wins: int, n: int, seconds: float) -> dict[str, Any]:
    low, high = wilson(wins, n)
    print(
        f"{label:<34} {wins}/{n} = {100 * wins / n:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
        f"  {seconds:.0f} s",
        flush=True,
    )
    return {
        "label": label,
        "wins": wins,
        "matches": n,
        "win_rate": wins / n,
        "wilson95": [low, high],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="matches per preset (even)")
    parser.add_argument("--presets", default=",".join(BASELINE), help="comma-separated presets")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, help="write the summaries as JSON here")
    parser.add_argument("--first", type=int, default=0, help="first match index (even)")
    parser.add_argument("--log", type=Path, help="append each match's result here as it ends")
    parser.add_argument("--planner", help="a Planner variant (partner_hands.py's planner_of)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the heads-up matches")
    args = parser.parse_args(argv)
    matches = args.matches + args.matches % 2
    summaries = []
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        for preset in args.presets.split(","):
            started = time.perf_counter()
            indexes = range(args.first, args.first + matches)
            jobs = [pool.submit(play_partners, preset, i, args.planner) for i in indexes]
            teams = [
                logged(args.log, preset, i, j.result()) for i, j in zip(indexes, jobs, strict=True)
            ]
            wins = sum(r["won"] for r in teams)
            summaries.append(
                rate(
                    f"{preset} 2 Planners v 2 Plains {args.planner or ''}".rstrip(),
                    wins,
                    matches,
                    time.perf_counter() - started,
                )
            )
            if args.no_baseline:
                continue
            started = time.perf_counter()
            base = BASELINE[preset]
            jobs = [pool.submit(heads_up, base, i) for i in indexes]
            solo = [
                logged(args.log, base, i, j.result()) for i, j in zip(indexes, jobs, strict=True)
            ]
            wins = sum(r["planner_won"] for r in solo)
            summaries.append(
                rate(f"{base} Planner v Plain", wins, matches, time.perf_counter() - started)
            )
            if args.out:
                args.out.write_text(json.dumps(summaries, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
