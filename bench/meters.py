"""The CPU meter of the side-by-side benchmarks (bench/versus_bgio.py, bench/bgio_side.py):
bench/load.py's, with PostgreSQL narrowed to the bench server's own processes."""

from __future__ import annotations

import asyncpg
import psutil
from load import CpuMeter


class PgMeter(CpuMeter):
    """bench/load.py's meter with "postgres" narrowed to the bench server's own processes (the
    machine runs other PostgreSQL servers)."""

    def __init__(self, server_pids: list[int], postmaster: int) -> None:
        self.postmaster = postmaster
        super().__init__(server_pids)

    def _processes(self) -> dict[str, list[psutil.Process]]:
        groups = super()._processes()
        root = psutil.Process(self.postmaster)
        groups["postgres"] = [root, *root.children()]
        return groups


async def postmaster_of(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(psutil.Process(await conn.fetchval("SELECT pg_backend_pid()")).ppid())
    finally:
        await conn.close()
