"""The table's seat steps: joins and claims, the host's hold on seats, autopilot, check-in,
table talk, rematch offers, tile backs and presence (engine/table/seats.py has the rules)."""

from __future__ import annotations

from datetime import datetime, timedelta

from msgspec.structs import replace

from domino_api.engine import event_types as ev
from domino_api.engine.clock_text import iso
from domino_api.engine.errors import (
    MatchInProgress,
    MatchOver,
    NotHost,
    NotYourSeat,
    SeatForfeited,
    SeatInUse,
    SeatNotFound,
    SeatUnavailable,
    TalkEtiquette,
    TalkOff,
)
from domino_api.engine.table import commands
from domino_api.engine.table.clocks import away_deadline
from domino_api.engine.table.model import Stepped, Table, with_info, with_seat
from domino_api.engine.table.play import require_host, start_if_checked_in
from domino_api.engine.table.seats import (
    held_for,
    joined_data,
    lapsed,
    lease_end,
    may_take,
    pick_seat,
    seat_for,
    seat_name,
    unknown_number,
)
from domino_api.engine.table.transitions import Steps, record
from domino_api.engine.table.witness import Witness


def _host_hold(table: Table, player_id: str) -> None:
    require_host(table, player_id)
    if table.over:
        raise MatchOver("The match is over.")


def _seat(table: Table, seat: int) -> None:
    if not 0 <= seat < len(table.seats):
        raise SeatNotFound(f"The match has no seat {seat}.")


def join(table: Table, command: commands.Join, now: datetime) -> Stepped:
    """A seat by game number (engine/table/seats.py `seat_for`); a holder's own join moves the
    row's version, so a claim decided on an older read cannot commit after this join has
    answered with the seat (its save fails its guard and is decided again)."""
    if table.seats_of(command.by):
        before = table.match.updated_at
        later = now if now > before else before + timedelta(microseconds=1)
        return Stepped(with_info(table, updated_at=later))
    if table.over or table.match.code != command.code:
        # The number no longer opens this table (it ended, perhaps by what was due just now).
        raise unknown_number(command.code, command.lease_s)
    settled = settle(table, now, command.lease_s, command.witness)
    return settled.then(_join(settled.table, command, now))


def _join(table: Table, command: commands.Join, now: datetime) -> Stepped:
    wanted = command.name or command.profile_name
    row, claimed = seat_for(
        table, command.by, wanted, command.code, now, command.lease_s, command.witness
    )
    host = table.match.host_player_id
    if host is not None and row.seat == 0 and row.player_id == host:
        # Host rights go with seat 0: whoever takes it over by name is the host from then on.
        table = with_info(table, host_player_id=command.by)
    taken = replace(
        row,
        player_id=command.by,
        # The name given at the join, else the profile's: the seat's name here from now on (a
        # profile rename later must not make two seats of one table look alike).
        name=command.name or row.name or command.profile_name,
        last_seen_at=now,
        away_since=None,
        connected=True,  # the joiner is here: this request is its sighting
        connected_until=None,  # the old holder's sockets no longer hold it
    )
    seats = tuple(taken if s.seat == row.seat else s for s in table.seats)
    names = {**table.names, command.by: command.profile_name}
    backs = {**table.tile_backs, command.by: command.tile_back}
    table = replace(table, seats=seats, names=names, tile_backs=backs)
    table = with_info(table, solo=False)
    data = joined_data(table, taken)
    if claimed:  # every seat is told; the old holder's sockets close on it
        data = replace(data, claimed=True)
    steps = Steps(table)
    steps.add(record(table, now, ev.SeatJoinedEvent(seq=0, data=data)))
    if not row.connected:  # the joiner is here: its dot shows it, as the stream says
        seat = ev.SeatData(seat=row.seat)
        steps.add(record(steps.table, now, ev.SeatConnectedEvent(seq=0, data=seat)))
    return steps.result()


def lock(table: Table, command: commands.Lock, now: datetime) -> Stepped:
    _host_hold(table, command.by)
    return Stepped(with_info(table, claims_locked=command.on))


def settle(table: Table, now: datetime, lease_s: float, witness: Witness) -> Stepped:
    """Every lapsed lease recorded first (`seat_disconnected`), so that a step which hands a
    seat on (a claim, a release, autopilot) decides on what the seats' dots show: the rule
    `may_take` and the `connected` flag never disagree."""
    every = tuple(range(len(table.seats)))
    return lapse(table, commands.Lapse(every, lease_s, witness), now)


def talk(table: Table, command: commands.Talk, now: datetime) -> Stepped:
    """The host turns talk off (every message refused, `409 talk_off`) or on again; every seat
    is told once, by `talk_changed`, and the view's `talk_off` says which."""
    _host_hold(table, command.by)
    if table.match.talk_off == (not command.on):
        return Stepped(table)
    table = with_info(table, talk_off=not command.on)
    event = ev.TalkChangedEvent(seq=0, data=ev.TalkChangedData(off=not command.on))
    return record(table, now, event)


def release(table: Table, command: commands.Release, now: datetime) -> Stepped:
    """The host frees another's human seat once its holder has been away for the lease: the
    next join by number takes it (even on a locked or started table), and the old holder's
    sockets close (4409 `seat_claimed`). A present holder keeps it (issue 41)."""
    _host_hold(table, command.by)
    _seat(table, command.seat)
    row = table.seats[command.seat]
    if row.type != "human" or row.forfeited or row.player_id in (None, command.by):
        raise SeatUnavailable(f"Seat {command.seat} has no other human holder to release.")
    settled = settle(table, now, command.lease_s, command.witness)
    if not may_take(row, command.by, now, command.lease_s, command.witness):
        raise held_for(command.lease_s)
    # The away clock starts for the seat, not for a ghost.
    table = with_seat(
        settled.table,
        row.seat,
        player_id=None,  # not connected: `settle` recorded its holder's lapse
        connected_until=None,
        last_seen_at=now,
        away_since=now,
    )
    data = replace(joined_data(table, table.seats[row.seat]), released=True)
    return settled.then(record(table, now, ev.SeatJoinedEvent(seq=0, data=data)))


def autopilot(table: Table, command: commands.Autopilot, now: datetime) -> Stepped:
    _seat(table, command.seat)
    row, on = table.seats[command.seat], command.on
    is_host = table.match.host_player_id == command.by
    if on and not is_host:
        raise NotHost("Only the host may hand a seat to the computer.")
    if not on and not is_host and row.player_id != command.by:
        raise NotYourSeat("Only the seat's holder or the host may take it back.")
    if row.type != "human":
        raise SeatUnavailable(f"Seat {row.seat} is a computer seat.")
    if table.over:
        raise MatchOver("The match is over.")
    if not on and row.forfeited:
        raise SeatForfeited(f"Seat {row.seat} has forfeited; it stays with the computer.")
    if on and not may_take(row, command.by, now, command.lease_s, command.witness):
        raise SeatInUse("The seat's holder is connected; autopilot waits until they leave.")
    settled = settle(table, now, command.lease_s, command.witness)
    if row.autopilot == on:
        return settled
    table = with_seat(settled.table, row.seat, autopilot=on)
    seat = ev.SeatData(seat=row.seat)
    event = ev.AutopilotOnEvent(seq=0, data=seat) if on else ev.AutopilotOffEvent(seq=0, data=seat)
    return settled.then(record(table, now, event))


def ready(table: Table, command: commands.Ready, now: datetime) -> Stepped:
    seat = pick_seat(table, command.by, command.seat)
    if table.state.status != "waiting":
        raise MatchInProgress("Check-in is over: the match has started.")
    if table.seats[seat].ready:
        return Stepped(table)
    steps = Steps(with_seat(table, seat, ready=True))
    steps.add(record(steps.table, now, ev.ReadyEvent(seq=0, data=ev.SeatData(seat=seat))))
    steps.add(start_if_checked_in(steps.table, now, command.cut))
    return steps.result()


def chat(table: Table, command: commands.Chat, now: datetime) -> Stepped:
    seat = pick_seat(table, command.by, command.seat)
    if table.match.talk_off:
        raise TalkOff("The host has turned table talk off at this table.")
    if table.match.talk_etiquette and table.state.status == "playing":
        raise TalkEtiquette("Partnership etiquette: no table talk while a hand is in play.")
    # The name the seat goes by at this table (a join's or hot-seat name), not the profile's.
    data = ev.MessageData(seat=seat, name=seat_name(table, table.seats[seat]), text=command.text)
    return record(table, now, ev.MessageEvent(seq=0, data=data))


def offer_rematch(table: Table, command: commands.OfferRematch, now: datetime) -> Stepped:
    pick_seat(table, command.by, command.seat)
    if not table.over:
        raise MatchInProgress("A rematch is offered once the match is over.")
    steps = Steps(table)
    if table.match.rematch_match_id is not None:
        return steps.result()
    for number in table.seats_of(command.by):
        if not steps.table.seats[number].rematch:
            steps.change(with_seat(steps.table, number, rematch=True))
            offered = ev.RematchOfferedEvent(seq=0, data=ev.SeatData(seat=number))
            steps.add(record(steps.table, now, offered))
    return steps.result()


def rematch_agreed(table: Table) -> bool:
    """Every human holder offered a rematch, and none was made yet."""
    humans = [s for s in table.seats if s.type == "human" and s.player_id]
    return table.match.rematch_match_id is None and all(s.rematch for s in humans)


def rematch_created(table: Table, command: commands.RematchCreated, now: datetime) -> Stepped:
    table = with_info(table, rematch_match_id=command.match_id)
    data = ev.RematchCreatedData(match_id=command.match_id)
    return record(table, now, ev.RematchCreatedEvent(seq=0, data=data))


def tile_back(table: Table, command: commands.TileBack, now: datetime) -> Stepped:
    steps = Steps(replace(table, tile_backs={**table.tile_backs, command.by: command.tile_back}))
    for number in table.seats_of(command.by):
        data = ev.TileBackChangedData(seat=number, tile_back=command.tile_back)
        steps.add(record(steps.table, now, ev.TileBackChangedEvent(seq=0, data=data)))
    return steps.result()


# ---------------------------------------------------------------- presence


def seen(table: Table, command: commands.Seen, now: datetime) -> Stepped:
    """A request about the match counts as presence (docs/API.md, "The away rule"): the
    caller's seats are marked seen (marks closer together than `every_s` are not rewritten:
    the away clock may start up to that much early) and the ones not connected announced."""
    if table.over:
        return Stepped(table)
    steps = Steps(table)
    for number in table.seats_of(command.by):
        row = steps.table.seats[number]
        last = row.last_seen_at
        if last is None or (now - last).total_seconds() >= command.every_s:
            steps.change(with_seat(steps.table, number, last_seen_at=now, away_since=None))
        if row.type == "human" and not row.connected:
            steps.change(with_seat(steps.table, number, connected=True))
            steps.add(record(steps.table, now, _connected(number)))
    return steps.result()


def _connected(seat: int) -> ev.SeatConnectedEvent:
    return ev.SeatConnectedEvent(seq=0, data=ev.SeatData(seat=seat))


def connect(table: Table, command: commands.Connect, now: datetime) -> Stepped:
    """Extend the seats' leases; announce the ones that were not connected."""
    steps = Steps(table)
    for number in command.seats:
        row = steps.table.seats[number]
        if row.type != "human" or command.by not in (None, row.player_id):
            continue
        until = max(now + timedelta(seconds=command.lease_s), row.connected_until or now)
        marks = {"connected_until": until, "last_seen_at": now, "away_since": None}
        if not row.connected and not table.over:
            steps.change(with_seat(steps.table, number, connected=True, **marks))
            steps.add(record(steps.table, now, _connected(number)))
        else:
            steps.change(with_seat(steps.table, number, **marks))
    return steps.result()


def lapse(table: Table, command: commands.Lapse, now: datetime) -> Stepped:
    """Mark seats whose lease lapsed as gone and announce it (nothing once the match is over)."""
    steps = Steps(table)
    for number in command.seats:
        row = steps.table.seats[number]
        if not lapsed(row, now, command.lease_s, command.witness):
            continue
        away = lease_end(row, command.lease_s) or now
        steps.change(with_seat(steps.table, number, connected=False, away_since=away))
        if not table.over:
            deadline = iso(away_deadline(steps.table, number))
            data = ev.AwayData(seat=number, away_since=iso(away), away_deadline=deadline)
            gone = ev.SeatDisconnectedEvent(seq=0, data=data)
            steps.add(record(steps.table, now, gone))
    return steps.result()
