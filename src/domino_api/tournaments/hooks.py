"""What a match tells its tournament: its result, in the transaction that ended it.

`install` registers the hook with the write core (matches/ends.py); every process that writes
matches calls it at start-up (the app, the worker, the sweep command), so matches never import
tournaments.
"""

from __future__ import annotations

from domino_api.matches import ends
from domino_api.matches.table import Table
from domino_api.tournaments.service import record_result


def _is_tournament_match(table: Table) -> bool:
    return table.match.tournament_id is not None


def install() -> None:
    ends.on_match_end(record_result, applies=_is_tournament_match)
