"""A civil table (issue 43): the host's talk switch, a player's mutes, reports and blocks.

- Talk off is the table's (a step of the write core: `talk_changed` tells every seat, and a
  message is then `409 talk_off` over REST and the socket alike).
- A mute is the player's own, kept in the database so it holds on every device: the server
  goes on sending the muted seat's `message` events to that player, so its `seq` has no gap,
  but marks each `"muted": true`, and /play folds it away. Which copies are marked is decided
  once per event by the hub (realtime/visibility.py), from mutes it reads again only when a
  mute or unmute is announced after its commit (`announce_visibility`).
- A report keeps the message as it was sent, for the operators (`domino-api reports`).
- A block keeps a player from the tables the blocker hosts: its joins there are `403 blocked`.

Mutes, reports and blocks are for the players seated at the match (a spectator mutes nobody).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.engine import table as tables
from domino_api.engine.errors import NotSeated, SeatNotFound, SeatUnavailable
from domino_api.engine.view_types import ViewOut
from domino_api.errors import MatchNotFound, MessageNotFound, OwnSeat
from domino_api.matches.civil_models import BlockOut, BlocksOut, MutesOut, ReportOut
from domino_api.matches.ports import Announces
from domino_api.matches.service import view_for
from domino_api.matches.unit import Core, Stage
from domino_api.store import civil_repo
from domino_api.store.civil_models import Report
from domino_api.store.civil_repo import Holder
from domino_api.store.db import after_commit
from domino_api.store.models import Player


async def set_talk(core: Core, player: Player, match_id: str, on: bool) -> ViewOut:
    def step(stage: Stage) -> ViewOut:
        return view_for(stage.do(tables.Talk(player.id, on)), player, core)

    return await core.run(match_id, step, player_id=player.id)


async def _seated(session: AsyncSession, match_id: str, player_id: str) -> list[Holder]:
    found = await civil_repo.seats(session, match_id)
    if found is None:
        raise MatchNotFound(f"No match {match_id}.")
    holders = found[1]
    if not any(h.player_id == player_id for h in holders):
        raise NotSeated("Only the players seated at this match may do this.")
    return holders


def _other(holders: list[Holder], seat: int, player_id: str) -> Holder:
    if seat >= len(holders):
        raise SeatNotFound(f"The match has no seat {seat}.")
    holder = holders[seat]
    if holder.player_id == player_id:
        raise OwnSeat(f"Seat {seat} is your own.")
    return holder


async def mutes(session: AsyncSession, player: Player, match_id: str) -> MutesOut:
    await _seated(session, match_id, player.id)
    return MutesOut(seats=await civil_repo.muted_seats(session, player.id, match_id))


async def set_mute(
    session: AsyncSession,
    announcer: Announces,
    now: datetime,
    player: Player,
    match_id: str,
    seat: int,
    on: bool,
) -> MutesOut:
    _other(await _seated(session, match_id, player.id), seat, player.id)
    if on:
        await civil_repo.mute(session, player.id, match_id, seat, now)
    else:
        await civil_repo.unmute(session, player.id, match_id, seat)
    after_commit(session, lambda: announcer.announce_visibility(match_id))
    return MutesOut(seats=await civil_repo.muted_seats(session, player.id, match_id))


async def report(
    session: AsyncSession,
    now: datetime,
    player: Player,
    match_id: str,
    seq: int,
    reason: str | None,
) -> ReportOut:
    holders = await _seated(session, match_id, player.id)
    event = await civil_repo.message(session, match_id, seq)
    if event is None:
        raise MessageNotFound(f"The match has no message at seq {seq}.")
    seat = event.seat
    _other(holders, seat, player.id)
    kept = Report(
        match_id=match_id,
        seq=seq,
        reporter_id=player.id,
        reported_id=holders[seat].player_id,
        seat=seat,
        name=event.name,
        text=event.text,
        reason=reason or "",
        created_at=now,
    )
    report_id = await civil_repo.add_report(session, kept)
    return ReportOut(id=report_id, match_id=match_id, seq=seq, seat=seat, created_at=now)


async def block_seat(
    session: AsyncSession, now: datetime, player: Player, match_id: str, seat: int
) -> BlockOut:
    holder = _other(await _seated(session, match_id, player.id), seat, player.id)
    if holder.type != "human" or holder.player_id is None:
        raise SeatUnavailable(f"Seat {seat} has no player to block.")
    name = holder.name or "a player"
    await civil_repo.block(session, player.id, holder.player_id, name, now)
    return BlockOut(player_id=holder.player_id, name=name, created_at=now)


async def blocks(session: AsyncSession, player: Player) -> BlocksOut:
    found = await civil_repo.blocks(session, player.id)
    return BlocksOut(
        blocks=[
            BlockOut(player_id=b.blocked_id, name=b.name, created_at=b.created_at) for b in found
        ]
    )


async def unblock(session: AsyncSession, player: Player, blocked_id: str) -> None:
    await civil_repo.unblock(session, player.id, blocked_id)
