"""A committed step without its announcement, in this process or in a writer subprocess.

These tests exercise the fan-out on its own: they commit an event row as the write core stores
it and then announce it through the real `Announcer`, or crash before it. The same over the
real write path (REST moves on one server process, sockets on another) is in
tests/realtime/test_write_path_fanout.py.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parents[2]

STEP_SQL = """
WITH moved AS (
    UPDATE matches
    SET seq = seq + 1, updated_at = now(),
        snapshot = jsonb_set(snapshot::jsonb, '{seq}', to_jsonb(seq + 1))::json
    WHERE id = $1
    RETURNING id, seq
)
INSERT INTO match_events (match_id, seq, type, at, data, private, action)
SELECT id, seq, 'seat_connected', now(), jsonb_build_object('seat', $2::int), '{}',
       '{"record": "seat_connected"}'
FROM moved RETURNING seq
"""


async def commit_step(
    target: asyncpg.Pool | asyncpg.Connection, match_id: str, seat: int = 0
) -> int:
    """Append one event (a seat's connection) in one commit, as the write path stores it: the
    row's seq and its snapshot's move on together (the next real step numbers after it, and
    the events still replay to the snapshot); returns its seq."""
    seq = await target.fetchval(STEP_SQL, match_id, seat)
    assert isinstance(seq, int), f"no match {match_id}"
    return seq


# The writer: commit a step, then announce it through the configured announcer (the backend and
# the fault come from its environment, as app/wiring.py makes it). Prints the committed seq
# before announcing.
WRITER = """
import asyncio, sys
import asyncpg
from domino_api.config import Settings
from domino_api.realtime.announce import make_announcer
from domino_api.realtime.fault import with_fault
from tests.realtime.steps import commit_step

async def main(url, match_id):
    pool = await asyncpg.create_pool(url, min_size=1, max_size=1)
    settings = Settings()
    announcer = with_fault(make_announcer(settings, pool), settings)
    await announcer.start()
    seq = await commit_step(pool, match_id)
    print(seq, flush=True)
    await announcer.announce(match_id, seq)
    await announcer.close()
    await pool.close()

asyncio.run(main(*sys.argv[1:3]))
"""


def run_writer(database_url: str, match_id: str, env: Mapping[str, str]) -> tuple[int, int]:
    """Run the writer to its end; (exit status, the seq it committed)."""
    done = subprocess.run(
        [sys.executable, "-c", WRITER, database_url, match_id],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.split()
    assert lines, f"the writer committed nothing: {done.stderr}"
    return done.returncode, int(lines[0])
