"""What happens when a match ends, in the transaction of the step that ended it.

Every finish with a winner folds into its players' records (players/records.py). Other parts
of the service hand their own hooks to the write core where the process is wired (tournaments
record the result and move their bracket on: tournaments/hooks.py; ratings move:
ratings/service.py; domino_api/app/wiring.py), so matches never import what builds on them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.clock import Clock
from domino_api.engine.table import Stepped, Table
from domino_api.players import records


class Within(Protocol):
    """The transaction a match ended in (matches/writes.Tx), as a hook sees it: its
    connection and ORM session, the clock, and the insertion of new matches (a tournament's
    next round), announced after its commit."""

    connection: asyncpg.Connection
    session: AsyncSession

    @property
    def clock(self) -> Clock: ...

    async def insert(self, new: Stepped, at: datetime) -> Stepped: ...


Hook = Callable[[Within, Table], Awaitable[None]]
# Run once with every match a transaction ended (the sweep ends many in one), in their order.
BatchHook = Callable[[Within, Sequence[Table]], Awaitable[None]]
Applies = Callable[[Table], bool]


@dataclass(frozen=True)
class EndHook:
    """Run `hook(within, table)` when a match for which `applies(table)` ends."""

    hook: Hook
    applies: Applies


@dataclass(frozen=True)
class Ends:
    """The finishes of one write core: records, then the hooks it was handed: those of all
    the ended matches at once (`batch`), then each match's own."""

    hooks: Sequence[EndHook] = ()
    batch: Sequence[BatchHook] = ()

    async def finish(self, within: Within, tables: Sequence[Table]) -> None:
        """The ended matches' finishes and records, then every hook that applies to each."""
        rows = [
            row for table in tables for row in records.finish_rows(table, table.match.finished_at)
        ]
        await records.write_finishes(within.connection, rows)
        for hook in self.batch:
            await hook(within, tables)
        for table in tables:
            for entry in self.hooks:
                if entry.applies(table):
                    await entry.hook(within, table)
