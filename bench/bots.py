"""Planner against Plain: match win rate per preset and decision time per strategy.

Each pair of matches shares one sealed deal with the seats swapped (Planner at seat 0, then at
seat 1), so the luck of the deal cancels out as far as it can. house-nines is played heads-up.

    .venv/bin/python bench/bots.py --matches 500 --processes 2
    .venv/bin/python bench/bots.py --matches 40 --presets all-fives,draw   # a quick look
    .venv/bin/python bench/bots.py --matches 200 --presets mexican-train --rounds 3
    .venv/bin/python bench/bots.py --matches 200 --presets mexican-train --log m.jsonl
    .venv/bin/python bench/bots.py --tally m.jsonl   # the matches a stopped run finished
    .venv/bin/python bench/bots.py --matches 168 --first 32 ...   # go on after 32 matches
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import msgspec

from domino_api.bots import get_strategy
from domino_api.bots import planner as planner_module
from domino_api.engine import PRESETS, NextHand, Ruleset, Start, apply, new_match, seat_view

CONTENDERS = ("planner", "plain")

# Playouts per decision, counted by wrapping the planner's play_out (the same name before and
# after the engine rewrite, so one harness measures both for an A/B).
_playouts = [0]
_play_out = planner_module.play_out


def _with_reason(action: Any, reason: str) -> Any:
    # The same harness runs f5d0777's engine, whose actions were dataclasses, for an A/B.
    try:
        from domino_api.engine import with_reason
    except ImportError:
        return dataclasses.replace(action, reason=reason)
    return with_reason(action, reason)


def _counted_play_out(*args: Any, **kwargs: Any) -> Any:
    _playouts[0] += 1
    return _play_out(*args, **kwargs)


planner_module.play_out = _counted_play_out  # type: ignore[assignment]


def bench_ruleset(preset: str, rounds: int | None = None) -> Ruleset:
    ruleset = PRESETS[preset]
    if dataclasses.is_dataclass(ruleset):  # an older engine's, in an A/B run
        return dataclasses.replace(ruleset, players=2)
    if rounds is not None and ruleset.rounds is not None:  # Mexican Train's shorter match
        return msgspec.structs.replace(ruleset, players=2, rounds=rounds)
    return msgspec.structs.replace(ruleset, players=2)


def play_match(preset: str, index: int, rounds: int | None = None) -> dict[str, Any]:
    """One match; even indexes seat Planner first, odd ones swap seats on the same deal."""
    rules = bench_ruleset(preset, rounds)
    seats = CONTENDERS if index % 2 == 0 else CONTENDERS[::-1]
    secret = hashlib.sha256(f"bench-bots:{preset}:{index // 2}".encode()).digest()
    state = apply(new_match(rules, secret), None, Start(f"cut-{index // 2}")).state
    times: dict[str, list[float]] = {name: [] for name in CONTENDERS}
    searched: list[float] = []  # planner decisions with more than one distinct play
    playouts: list[int] = []  # playouts of each searched decision
    while state.status in ("playing", "hand_over"):
        if state.status == "hand_over":
            state = apply(state, None, NextHand()).state
            continue
        seat = state.turn
        assert seat is not None
        name = seats[seat]
        view = seat_view(state, seat)
        rng = random.Random(f"{preset}:{index}:{state.seq}")
        _playouts[0] = 0
        started = time.perf_counter()
        action, reason = get_strategy(name).choose(view, rng)
        elapsed = time.perf_counter() - started
        times[name].append(elapsed)
        if name == "planner" and reason.startswith("planner:"):
            searched.append(elapsed)
            playouts.append(_playouts[0])
        state = apply(state, seat, _with_reason(action, reason)).state
    assert state.result is not None
    winner = state.result.winner  # None: a shared lowest total (Mexican Train), half a win
    return {
        "preset": preset,
        "planner_won": 0.5 if winner is None else float(seats[winner] == "planner"),
        "hands": state.hand_number,
        "times": times,
        "searched": searched,
        "playouts": playouts,
    }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarize(preset: str, results: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    n = len(results)
    wins = sum(r["planner_won"] for r in results)
    low, high = wilson(wins, n)
    summary: dict[str, Any] = {
        "preset": preset,
        "matches": n,
        "planner_wins": wins,
        "win_rate": wins / n,
        "wilson95": [low, high],
        "hands_per_match": sum(r["hands"] for r in results) / n,
        "seconds": seconds,
    }
    for name in CONTENDERS:
        values = [t for r in results for t in r["times"][name]]
        summary[name] = {
            "decisions": len(values),
            "p50_ms": 1000 * percentile(values, 0.5),
            "p99_ms": 1000 * percentile(values, 0.99),
            "max_ms": 1000 * max(values),
        }
    searched = [t for r in results for t in r["searched"]]
    playouts = sorted(p for r in results for p in r["playouts"])
    summary["planner_searched"] = {
        "decisions": len(searched),
        "playouts_mean": sum(playouts) / max(len(playouts), 1),
        "playouts_p50": percentile([float(p) for p in playouts], 0.5),
        "p50_ms": 1000 * percentile(searched, 0.5),
        "p99_ms": 1000 * percentile(searched, 0.99),
    }
    return summary


def line(s: dict[str, Any]) -> str:
    low, high = s["wilson95"]
    return (
        f"{s['preset']:<12} planner {s['planner_wins']}/{s['matches']} = {100 * s['win_rate']:.1f}%"
        f" [{100 * low:.1f}, {100 * high:.1f}]  planner p50/p99 {s['planner']['p50_ms']:.2f}/"
        f"{s['planner']['p99_ms']:.1f} ms (searching {s['planner_searched']['p50_ms']:.1f}/"
        f"{s['planner_searched']['p99_ms']:.1f}, playouts mean/p50 "
        f"{s['planner_searched']['playouts_mean']:.0f}/{s['planner_searched']['playouts_p50']:.0f})"
        f"  plain p50/p99 {s['plain']['p50_ms']:.3f}/"
        f"{s['plain']['p99_ms']:.3f} ms  {s['seconds']:.0f} s"
    )


def _logged(result: dict[str, Any], index: int, log: Path | None) -> dict[str, Any]:
    """`result`, first appended to `log` (one JSON line a match): a run stopped before its
    last match still leaves every finished one to count (`--tally`)."""
    if log is not None:
        with log.open("a") as out:
            out.write(json.dumps({"index": index, **result}) + "\n")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500, help="matches per preset (even)")
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--out", type=Path, help="write the summaries as JSON here")
    parser.add_argument("--rounds", type=int, help="Mexican Train's rounds (default: its 13)")
    parser.add_argument("--log", type=Path, help="append each match's result here as it ends")
    parser.add_argument("--tally", type=Path, help="summarize a --log file's matches and stop")
    parser.add_argument(
        "--first", type=int, default=0, help="the first match's index (even: deals come in pairs)"
    )
    args = parser.parse_args(argv)
    if args.tally:
        logged = [json.loads(row) for row in args.tally.read_text().splitlines()]
        print(line(summarize(logged[0]["preset"], logged, 0.0)))
        return 0
    matches = args.matches + args.matches % 2
    summaries = []
    with ProcessPoolExecutor(max_workers=args.processes) as pool:
        for preset in args.presets.split(","):
            started = time.perf_counter()
            indexes = range(args.first - args.first % 2, args.first + matches)
            jobs = [pool.submit(play_match, preset, i, args.rounds) for i in indexes]
            done = zip(indexes, jobs, strict=True)
            results = [_logged(job.result(), i, args.log) for i, job in done]
            summary = summarize(preset, results, time.perf_counter() - started)
            summaries.append(summary)
            print(line(summary), flush=True)
            if args.out:
                args.out.write_text(json.dumps(summaries, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
