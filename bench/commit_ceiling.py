"""The database's commit ceiling, with the announcement inside the step's transaction or not.

pgbench runs a one-row UPDATE per transaction (a random row of 100,000, so clients never wait
on one another's rows) at 1..32 clients, in three shapes:

- `none`: the UPDATE alone (what the database can commit);
- `inside`: `BEGIN; UPDATE; SELECT pg_notify(...); COMMIT` (the write path before issue 17:
  the notifying commit takes PostgreSQL's database-wide notify lock until it is flushed, so
  all such commits run one at a time);
- `after`: the UPDATE, then `SELECT pg_notify(...)` as its own transaction (the announcement
  after the commit, realtime/announce.py).

Shapes are taken in turn at each client count (the machine is noisy) for `--rounds` rounds;
the figure is committed UPDATEs per second (pgbench's tps without connection time), printed as
min-max (median) over the rounds. Nobody LISTENs: the lock is taken by the notifying commit
whether or not anyone listens. Run under the bench lock:

    flock /tmp/domino-bench.lock .venv/bin/python bench/commit_ceiling.py --seconds 5 --rounds 2
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlparse

SHAPES = {
    "none": "\\set id random(1, 100000)\nUPDATE ceiling SET n = n + 1 WHERE id = :id;\n",
    "inside": (
        "\\set id random(1, 100000)\nBEGIN;\nUPDATE ceiling SET n = n + 1 WHERE id = :id;\n"
        "SELECT pg_notify('domino_bench', :id::text);\nCOMMIT;\n"
    ),
    "after": (
        "\\set id random(1, 100000)\nUPDATE ceiling SET n = n + 1 WHERE id = :id;\n"
        "SELECT pg_notify('domino_bench', :id::text);\n"
    ),
}
TPS = re.compile(r"tps = ([0-9.]+) \(without initial connection time\)")
CLIENTS = (1, 2, 4, 8, 16, 32)
SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


def libpq_env(url: str, database: str) -> dict[str, str]:
    """psql and pgbench take the server from PG* variables (the URL's user, host and port)."""
    parts = urlparse(url.replace("postgresql+asyncpg://", "postgresql://"))
    env = {**os.environ, "PGDATABASE": database, "PGHOST": parts.hostname or "127.0.0.1"}
    env["PGPORT"] = str(parts.port or 5432)
    env["PGUSER"] = parts.username or "postgres"
    if parts.password:
        env["PGPASSWORD"] = parts.password
    return env


def psql(env: dict[str, str], sql: str) -> None:
    subprocess.run(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], env=env, check=True)


def setup(url: str, database: str) -> dict[str, str]:
    admin = libpq_env(url, "postgres")
    psql(admin, f'DROP DATABASE IF EXISTS "{database}"')
    psql(admin, f'CREATE DATABASE "{database}"')
    env = libpq_env(url, database)
    psql(env, "CREATE TABLE ceiling (id int PRIMARY KEY, n bigint NOT NULL DEFAULT 0)")
    psql(env, "INSERT INTO ceiling (id) SELECT generate_series(1, 100000)")
    psql(env, "VACUUM ANALYZE ceiling")
    return env


def run(env: dict[str, str], script: Path, clients: int, seconds: int) -> float:
    threads = min(clients, os.cpu_count() or 1)
    argv = ["pgbench", "-n", "-M", "prepared", "-c", str(clients), "-j", str(threads)]
    argv += ["-T", str(seconds), "-f", str(script)]
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
    found = TPS.search(out)
    if found is None:
        raise RuntimeError(f"no tps in pgbench output:\n{out}")
    return float(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--clients", type=int, nargs="*", default=list(CLIENTS))
    args = parser.parse_args()
    url = os.environ.get("DOMINO_DATABASE_URL", SERVER)
    database = f"domino_bench_ceiling_{os.getpid()}"
    env = setup(url, database)
    results: dict[tuple[str, int], list[float]] = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            scripts = {}
            for shape, text in SHAPES.items():
                scripts[shape] = Path(folder) / f"{shape}.sql"
                scripts[shape].write_text(text)
            for clients in args.clients:
                for _ in range(args.rounds):
                    for shape in SHAPES:  # in turn: the three shapes share each spell
                        tps = run(env, scripts[shape], clients, args.seconds)
                        results.setdefault((shape, clients), []).append(tps)
                        print(f"{shape:>6} {clients:>2} clients {tps:>9,.0f} commits/s", flush=True)
    finally:
        psql(libpq_env(url, "postgres"), f'DROP DATABASE IF EXISTS "{database}"')
    print("\n| clients | " + " | ".join(SHAPES) + " |")
    print("|---:|" + "---:|" * len(SHAPES))
    for clients in args.clients:
        cells = []
        for shape in SHAPES:
            runs = results[(shape, clients)]
            median = sorted(runs)[len(runs) // 2]
            cells.append(f"{min(runs):,.0f}-{max(runs):,.0f} ({median:,.0f})")
        print(f"| {clients} | " + " | ".join(cells) + " |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
