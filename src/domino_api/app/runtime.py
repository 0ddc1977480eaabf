"""Background parts of a server process: started and stopped by the app's lifespan."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI

if TYPE_CHECKING:
    from domino_api.realtime.lifecycle import Realtime


async def start_runtime(app: FastAPI, start_background: bool) -> None:
    app.state.background = []
    # realtime (issue 4): made here from the write core and handed to the socket routes;
    # LISTEN + presence leases when background work is on, else from the first socket.
    from domino_api.realtime.lifecycle import start_realtime

    realtime = await start_realtime(app, app.state.core, start_background)
    _start_push(app)
    _start_online(app, realtime)
    if start_background:  # service liveness for the outage rule (issue 5, jobs/liveness.py)
        await app.state.computers.start()  # the computers' workers, ready before the first table
        from domino_api.jobs.liveness import start_api_heartbeat

        heartbeat = await start_api_heartbeat(app)
        # Presence passes are recorded on the process's row: leases are witnessed (issue 48).
        app.state.realtime.witnessed = heartbeat.witnessed
        if app.state.settings.sweep_in_process:
            from domino_api.jobs.loop import start_sweep_loop

            start_sweep_loop(app)
        await app.state.push.start()  # the VAPID keys made on first start, and the sender


def _start_online(app: FastAPI, realtime: Realtime) -> None:
    """Friends' presence (social/presence.py): the players of this process's sockets, lobby
    sockets included, so a socket process keeps its players online too."""
    from domino_api.social.presence import Online

    lobby = app.state.lobby
    held = realtime.hub.held_seats
    app.state.online = Online(
        app.state.core,
        lobby.publish,
        lobby.feed.players,
        lambda: (p for _, _, p in held()),
        app.state.settings.presence_lease_s,
    )
    realtime.holders.append(app.state.online)


def _start_push(app: FastAPI) -> None:
    """Web Push (push/): its keys and sender; this process's turn notices wake the sender."""
    from domino_api.push.runtime import Push
    from domino_api.turns.notices import TurnNotices

    core = app.state.core
    app.state.push = push = Push(core.pool, app.state.settings)
    for follower in core.writer.followers:
        if isinstance(follower, TurnNotices):
            follower.on_stored = push.sender.wake


async def start_socket_runtime(app: FastAPI) -> None:
    """A socket process (`DOMINO_ROLE=sockets`): its hub fed by the announcements from the
    start (the listener, keepalives and catch-up); it holds no seat, so it renews no lease,
    keeps no heartbeat (presence is witnessed by the API processes' passes), runs no sweep and
    starts no computer."""
    app.state.background = []
    from domino_api.realtime.lifecycle import start_realtime

    realtime = await start_realtime(app, app.state.core, start_background=False)
    _start_online(app, realtime)
    await realtime.ensure_started()


async def stop_runtime(app: FastAPI) -> None:
    from domino_api.jobs.loop import stop_sweep_loop

    await stop_sweep_loop(app)
    push = getattr(app.state, "push", None)  # none on a socket process
    if push is not None:
        await push.stop()
    from domino_api.realtime.lifecycle import stop_realtime

    await stop_realtime(app)
    await app.state.lobby.stop()
    from domino_api.jobs.liveness import stop_api_heartbeat

    await stop_api_heartbeat(app)
    if app.state.own_computers:
        await app.state.computers.stop()
    for task in getattr(app.state, "background", []):
        task.cancel()
