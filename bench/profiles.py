"""py-spy profiles of a server under load: record one while a level runs, then read it as
shares per function, per layer or per purpose (bench/load.py's `--profile`, bench/capacity.py's).

    pip install py-spy   (into the venv: found beside its python)
"""

from __future__ import annotations

import concurrent.futures.thread
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path


def profile(
    pid: int, seconds: int, out: Path, children: bool = True, whole: bool = False
) -> subprocess.Popen[bytes] | None:
    """py-spy (pip install py-spy) samples the server (and its `children`) while a level runs:
    collapsed stacks. Without pausing the process a stack is read while it changes, and about
    a third of them come back cut short of their root (their leaf, which `grouped` reads, is
    right); `whole` pauses the process for each sample, so that every stack is whole, as
    `by_purpose` needs (what a sample was for is near the root: the route)."""
    beside = Path(sys.executable).parent / "py-spy"
    spy = str(beside) if beside.exists() else "py-spy"
    command = [spy, "record", "--pid", str(pid), "--duration", str(seconds)]
    command += ["--subprocesses"] if children else []
    command += ["--format", "raw", "--output", str(out), "--rate", "200"]
    command += [] if whole else ["--nonblocking"]
    try:
        return subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=out.with_suffix(".err").open("wb")
        )
    except FileNotFoundError:
        print("py-spy not found: skipping the profile")
        return None


def stacks(path: Path) -> Iterator[tuple[list[str], int]]:
    """(frames, samples) per collapsed stack; with --subprocesses py-spy prefixes each stack
    with its process's command line, which may span lines: those pieces are skipped."""
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if count_text.isdigit() and stack:
            yield stack.split(";"), int(count_text)


def summarize_profile(path: Path, top: int = 25) -> list[str]:
    """Inclusive share per function (file:function), from py-spy's collapsed stacks."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for raw_frames, count in stacks(path):
        total += count
        frames = [frame_name(f) for f in raw_frames]
        for name in set(frames):
            inclusive[name] += count
        if frames:
            own[frames[-1]] += count
    if not total:
        return ["(no samples)"]
    lines = [f"{total} samples; inclusive % | self % | function"]
    for name, count in inclusive.most_common(top):
        lines.append(f"{100 * count / total:5.1f} | {100 * own[name] / total:5.1f} | {name}")
    lines.append("top self time:")
    for name, count in own.most_common(15):
        lines.append(f"{100 * count / total:5.1f} | {name}")
    return lines


def frame_name(frame: str) -> str:
    # py-spy raw frames look like "function (FILE:LINE)", FILE a path.
    func, _, where = frame.partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    for marker in ("site-packages/", "src/", "lib/python3.11/"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{path}:{func}"


# A thread of the default executor waiting for work (its pool's `_worker` loop): py-spy samples
# it as busy when it pauses the process, though it only waits on its queue.
WAITING = frame_name(f"_worker ({concurrent.futures.thread.__file__}:1)")


def working(path: Path) -> Iterator[tuple[list[str], int]]:
    """`stacks` that were work: a waiting thread's are left out."""
    for frames, count in stacks(path):
        if frame_name(frames[-1]) != WAITING:
            yield frames, count


def grouped(path: Path) -> dict[str, float]:
    """Share of samples by layer: the first matching frame (from the leaf) decides."""
    layers = [
        ("engine", "domino_api/engine/"),
        ("bots", "domino_api/bots/"),
        ("views", "domino_api/matches/views"),
        ("service (domino_api)", "domino_api/"),
        ("bare route", "bare_app.py"),
        ("sqlalchemy", "sqlalchemy/"),
        ("asyncpg", "asyncpg/"),
        ("pydantic", "pydantic"),
        ("fastapi/starlette", "fastapi/"),
        ("fastapi/starlette", "starlette/"),
        ("uvicorn/http", "uvicorn/"),
        ("json", "json/"),
        ("logging", "logging/"),
        ("prometheus", "prometheus_client/"),
    ]
    shares: defaultdict[str, int] = defaultdict(int)
    total = 0
    for frames, count in working(path):
        total += count
        for frame in reversed(frames):
            hit = next((name for name, marker in layers if marker in frame), None)
            if hit:
                shares[hit] += count
                break
        else:
            shares["other (asyncio, idle)"] += count
    return {k: 100 * v / total for k, v in sorted(shares.items(), key=lambda kv: -kv[1])}


# What a sample's work was for: the first purpose with a frame on its stack, in this order.
# The rest is every request's own work outside its route (uvicorn, middleware, FastAPI's
# routing and parameters, the access line) and the event loop's; SQLAlchemy's pool checkouts
# count there too, wherever they were asked for: they run on greenlets, whose stacks end there.
PURPOSES = (
    ("computers' replies", ("domino_api/matches/unit.py:reply",)),
    (
        "new matches, starts, next hands",
        (
            "domino_api/matches/routes.py:create_match",
            "domino_api/matches/routes.py:start",
            "domino_api/matches/routes.py:next_hand",
            "domino_api/players/routes.py:create_player",
        ),
    ),
    ("the move's route", ("domino_api/matches/routes.py:move", "bare_app.py:move")),
    ("background (sweeps, announcements)", ("domino_api/jobs/", "domino_api/realtime/")),
)
OUTSIDE = "every request outside its route"


def by_purpose(path: Path) -> dict[str, float]:
    """Share of the working samples (%) by what the work was for (`PURPOSES`); needs whole
    stacks (`profile(..., whole=True)`)."""
    shares: defaultdict[str, int] = defaultdict(int)
    total = 0
    for frames, count in working(path):
        names = [frame_name(f) for f in frames]
        total += count
        purpose = next(
            (p for p, marks in PURPOSES if any(m in n for m in marks for n in names)), OUTSIDE
        )
        shares[purpose] += count
    return {k: 100 * v / max(total, 1) for k, v in shares.items()}


WORKERS_ROW = "computers' workers"


def print_shares(
    shares: dict[str, tuple[dict[str, float], dict[str, float], float]],
    per_move: dict[str, list[float]],
    per_main: dict[str, list[float]],
) -> None:
    """Each server's CPU per move by layer and by purpose (`PURPOSES`), side by side: py-spy's
    share of the API process's samples (`shares`: layers, purposes, the moves' share of the
    requests) times that process's median CPU per move, the computers' workers' beside it."""
    names = list(shares)
    main = {n: statistics.median(per_main[n]) for n in names}
    workers = {n: statistics.median(per_move[n]) - main[n] for n in names}
    ms = {n: {k: v / 100 * main[n] for k, v in shares[n][0].items()} for n in names}
    print("(a) server CPU per move by layer (ms; shares from the profiled round):")
    print_table("layer", names, ms, sorted({k for n in names for k in ms[n]}), workers)
    ms = {n: {k: v / 100 * main[n] for k, v in shares[n][1].items()} for n in names}
    print("(a) server CPU per move by purpose (ms):")
    print_table("purpose", names, ms, [p for p, _ in PURPOSES] + [OUTSIDE], workers)
    moves = {n: shares[n][2] for n in names}
    print_the_move_alone(ms, moves, {n: main[n] + workers[n] for n in names})


def print_the_move_alone(
    ms: dict[str, dict[str, float]], moves: dict[str, float], total: dict[str, float]
) -> None:
    """The move alone: its route, plus its share (`moves`: moves / requests) of every request's
    work outside its route and of the background, what the bare route's one request does. The
    rest (the computers, new matches and starts) has no counterpart in the bare route: were the
    move as cheap as the bare route's, the ratio would still be bare + rest over bare."""
    shared = (OUTSIDE, PURPOSES[-1][0])
    alone = {
        n: ms[n].get("the move's route", 0.0) + moves[n] * sum(ms[n].get(r, 0.0) for r in shared)
        for n in ms
    }
    print(f"    {'the move alone':36s}" + "".join(f"{1000 * alone[n]:10.3f}" for n in ms))
    if "bare" not in ms:
        return
    for name in [n for n in ms if n != "bare"]:
        ratio, share = alone[name] / alone["bare"], f"moves {100 * moves[name]:.0f}% of requests"
        print(f"    the move alone, {name} / bare route: {ratio:.2f} ({share})")
        floor = (total["bare"] + total[name] - alone[name]) / total["bare"]
        print(f"    {name} with a move as cheap as the bare route's: {floor:.2f}")


def print_table(
    title: str,
    names: list[str],
    ms: dict[str, dict[str, float]],
    rows: list[str],
    workers: dict[str, float],
) -> None:
    print("    " + f"{title:36s}" + "".join(f"{n:>10s}" for n in names))
    for row in sorted(rows, key=lambda k: -ms[names[0]].get(k, 0.0)):
        cells = "".join(f"{1000 * ms[n].get(row, 0.0):10.3f}" for n in names)
        print(f"    {row:36s}{cells}")
    cells = "".join(f"{1000 * workers[n]:10.3f}" for n in names)
    print(f"    {WORKERS_ROW:36s}{cells}")
