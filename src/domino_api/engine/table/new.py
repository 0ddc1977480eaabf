"""A new table before its first deal: its facts, seats and their `seat_joined` events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from msgspec import Struct
from msgspec.structs import replace

from domino_api.engine.deal import commitment
from domino_api.engine.kinds import SeatKind, Strategy
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import new_match
from domino_api.engine.table.clocks import due_at
from domino_api.engine.table.model import Info, Seat, Stepped, Table
from domino_api.engine.table.seats import joined
from domino_api.engine.table.transitions import Steps, record


class NewSeat(Struct, frozen=True, kw_only=True):
    """A new seat: a computer's strategy, or a human seat's holder and name. `seen`: its holder
    is there at creation (seen now; the creator's seats connected too, as the request that made
    the table is theirs); a tournament's pairing seats holders who have not come yet."""

    type: SeatKind
    strategy: Strategy | None = None
    player_id: str | None = None
    name: str | None = None
    seen: bool = True


def new_table(
    match_id: str,
    ruleset: Ruleset,
    secret: bytes,
    now: datetime,
    seats: Sequence[NewSeat],
    holders: Mapping[str, tuple[str, str]],
    *,
    code: str | None = None,
    host_player_id: str | None = None,
    host_address: str | None = None,
    solo: bool = False,
    spectators: bool = False,
    rated: bool = False,
    per_move_s: int | None = None,
    talk_etiquette: bool = False,
    tournament_id: str | None = None,
    check_in_deadline: datetime | None = None,
) -> Stepped:
    """The waiting table (the deal's `secret` chosen by the caller, its commitment shown) with
    its seats, `holders` each holder's (profile name, tile back), and the keywords what the
    creator decides (`Info`'s fields of the same names). The seats' `seat_joined` events are
    staged."""
    info = Info(
        id=match_id,
        ruleset=ruleset.name,
        secret=secret,
        commitment=commitment(secret),
        created_at=now,
        updated_at=now,
        code=code,
        host_player_id=host_player_id,
        host_address=host_address,
        solo=solo,
        spectators=spectators,
        rated=rated,
        per_move_s=per_move_s,
        talk_etiquette=talk_etiquette,
        tournament_id=tournament_id,
        check_in_deadline=check_in_deadline,
    )
    rows = tuple(_seat(number, spec, host_player_id, now) for number, spec in enumerate(seats))
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


def _seat(number: int, spec: NewSeat, host: str | None, now: datetime) -> Seat:
    """The seat's row, with its holder's presence marks at creation (see `NewSeat.seen`)."""
    here = spec.seen and bool(spec.player_id)
    return Seat(
        seat=number,
        type=spec.type,
        strategy=spec.strategy,
        player_id=spec.player_id,
        name=spec.name,
        last_seen_at=now if here else None,
        connected=here and spec.player_id == host,
    )


def _named(row: Seat, holders: Mapping[str, tuple[str, str]]) -> Seat:
    holder = holders.get(row.player_id) if row.player_id else None
    return replace(row, name=holder[0]) if holder and not row.name else row
