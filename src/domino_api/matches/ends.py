"""What happens when a match ends, in the transaction of the step that ended it.

Every finish with a winner folds into its players' records (players/records.py). Other parts
of the service hand their own hooks to the write core where the process is wired (tournaments
record the result and move their bracket on: tournaments/hooks.py; domino_api/wiring.py), so
matches never import what builds on them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.clock import Clock
from domino_api.engine.table import Table
from domino_api.players import records

Hook = Callable[[AsyncSession, Clock, Table], Awaitable[None]]
Applies = Callable[[Table], bool]


@dataclass(frozen=True)
class EndHook:
    """Run `hook(session, clock, table)` when a match for which `applies(table)` ends."""

    hook: Hook
    applies: Applies


@dataclass(frozen=True)
class Ends:
    """The finishes of one write core: records, then the hooks it was handed."""

    hooks: Sequence[EndHook] = ()

    def needs_session(self, table: Table) -> bool:
        """A match that ended and that a hook must see (it needs an ORM session)."""
        return table.over and any(entry.applies(table) for entry in self.hooks)

    async def finish(
        self,
        connection: asyncpg.Connection,
        session: AsyncSession | None,
        clock: Clock,
        tables: Sequence[Table],
    ) -> None:
        """The ended matches' finishes and records, then every hook that applies to each."""
        rows = [
            row for table in tables for row in records.finish_rows(table, table.match.finished_at)
        ]
        await records.write_finishes(connection, rows)
        for table in tables:
            for entry in self.hooks:
                if entry.applies(table):
                    assert session is not None, "needs_session(table) decides who passes one"
                    await entry.hook(session, clock, table)
