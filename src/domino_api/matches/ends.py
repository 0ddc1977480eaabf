"""What happens when a match ends, in the transaction of the step that ended it.

Every finish with a winner folds into its players' records (players/records.py). Other parts
of the service register their own hook here at start-up (tournaments record the result and
move their bracket on: tournaments/hooks.py), so matches never import what builds on them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import asyncpg
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.clock import Clock
from domino_api.engine.table import Table
from domino_api.players import records

EndHook = Callable[[AsyncSession, Clock, Table], Awaitable[None]]
Applies = Callable[[Table], bool]


@dataclass(frozen=True)
class _Registered:
    hook: EndHook
    applies: Applies


_HOOKS: list[_Registered] = []


def on_match_end(hook: EndHook, applies: Applies) -> None:
    """Run `hook(session, clock, table)` when a match for which `applies(table)` ends; once
    per hook however often it is registered."""
    if all(entry.hook is not hook for entry in _HOOKS):
        _HOOKS.append(_Registered(hook, applies))


def needs_session(table: Table) -> bool:
    """A match that ended and that a registered hook must see (it needs an ORM session)."""
    return table.over and any(entry.applies(table) for entry in _HOOKS)


async def finish(
    connection: asyncpg.Connection, session: AsyncSession | None, clock: Clock, table: Table
) -> None:
    """The ended match's finishes and records, then every hook that applies to it."""
    await records.write_finishes(connection, records.finish_rows(table, table.match.finished_at))
    for entry in _HOOKS:
        if entry.applies(table):
            assert session is not None, "needs_session(table) decides who passes a session"
            await entry.hook(session, clock, table)
