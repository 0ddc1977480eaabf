"""A new table before its first deal: its facts, seats and their `seat_joined` events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import NotRequired, TypedDict, Unpack

from msgspec.structs import replace

from domino_api.engine.deal import commitment
from domino_api.engine.kinds import SeatKind, Strategy
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import new_match
from domino_api.engine.table.clocks import due_at
from domino_api.engine.table.model import Info, Seat, Stepped, Table
from domino_api.engine.table.seats import joined
from domino_api.engine.table.transitions import Steps, record


class NewSeat(TypedDict):
    """A new seat's columns: a computer's strategy, or a human seat's holder and name."""

    type: SeatKind
    strategy: NotRequired[Strategy | None]
    player_id: NotRequired[str | None]
    name: NotRequired[str | None]


class Facts(TypedDict, total=False):
    """What the creator of a table decides about it (`Info`'s fields of the same names)."""

    code: str | None
    host_player_id: str | None
    host_address: str | None
    solo: bool
    spectators: bool
    rated: bool
    tournament_id: str | None
    check_in_deadline: datetime | None


def new_table(
    match_id: str,
    ruleset: Ruleset,
    secret: bytes,
    now: datetime,
    seats: Sequence[Mapping[str, object]],
    holders: Mapping[str, tuple[str, str]],
    **facts: Unpack[Facts],
) -> Stepped:
    """The waiting table (the deal's `secret` chosen by the caller, its commitment shown) with
    its seats; `seats` give each seat's columns (type, strategy, player_id, name), `holders`
    each holder's (profile name, tile back), `facts` what the creator decides (code, host,
    solo, tournament, ...). The seats' `seat_joined` events are staged."""
    info = Info(
        id=match_id,
        ruleset=ruleset.name,
        secret=secret,
        commitment=commitment(secret),
        created_at=now,
        updated_at=now,
        **facts,
    )
    host = facts.get("host_player_id")
    rows = tuple(
        Seat(**{"seat": number, **_here(spec, host, now), **spec})  # type: ignore[arg-type]
        for number, spec in enumerate(seats)
    )
    # A seat keeps the name it was taken under: a later profile rename shows at new tables
    # only, so nobody can take the name of another seat at a table they already sit at.
    rows = tuple(_named(row, holders) for row in rows)
    table = Table(
        match=info,
        seats=rows,
        state=new_match(ruleset, secret),
        names={pid: name for pid, (name, _) in holders.items()},
        tile_backs={pid: back for pid, (_, back) in holders.items()},
    )
    steps = Steps(table)
    for row in rows:
        if row.player_id or row.type == "bot":
            steps.add(record(steps.table, now, joined(steps.table, row)))
    steps.change(replace(steps.table, match=replace(steps.table.match, due_at=due_at(steps.table))))
    return steps.result()


def _here(spec: Mapping[str, object], host: object, now: datetime) -> dict[str, object]:
    """A holder's presence marks at creation: seen now; the creator's seats connected too (its
    request made the table), as its first view shows them."""
    holder = spec.get("player_id")
    if not holder:
        return {}
    return {"last_seen_at": now, "connected": holder == host}


def _named(row: Seat, holders: Mapping[str, tuple[str, str]]) -> Seat:
    holder = holders.get(row.player_id) if row.player_id else None
    return replace(row, name=holder[0]) if holder and not row.name else row
