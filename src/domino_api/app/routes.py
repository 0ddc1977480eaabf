"""Every router of the app, in one place, joined into the app's one list of routes."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI


def add_routes(app: FastAPI, router: APIRouter, *, first: bool = False) -> None:
    """The router's routes become the app's own, as they are (each already carries its full
    path, tags and responses: the OpenAPI document is the same), after the others or `first`.

    `include_router` would keep the router as a nested one, which FastAPI matches twice per
    request (once to find the router, once to find the route in it, re-counting its routes'
    version each time): routing took 11% of the API process's time under load with the
    routers included, 7% with one flat list (its run is in bench/README.md's history:
    `git log -S 'One list of routes' -- bench/README.md`)."""
    if first:
        app.router.routes[:0] = router.routes
    else:
        app.router.routes.extend(router.routes)


def include_socket_routers(app: FastAPI) -> None:
    """A socket process's routes (`DOMINO_ROLE=sockets`): the watch and lobby sockets, which
    write nothing of a match (docs/OPERATING.md, "Socket processes")."""
    from domino_api.lobby.socket import router as lobby_socket
    from domino_api.realtime.watch import router as watch

    for router in (watch, lobby_socket):
        add_routes(app, router)


def include_routers(app: FastAPI) -> None:
    from fastapi.staticfiles import StaticFiles

    from domino_api.accounts.device_routes import router as devices
    from domino_api.accounts.routes import router as passkeys
    from domino_api.lobby.routes import router as lobby
    from domino_api.lobby.socket import router as lobby_socket
    from domino_api.matches.civil_routes import router as civil
    from domino_api.matches.listing_routes import router as listing
    from domino_api.matches.lock_routes import router as locks
    from domino_api.matches.routes import router as matches
    from domino_api.players.profile_routes import router as profiles
    from domino_api.players.routes import router as players
    from domino_api.players.tile_backs import IMAGES, URL_PREFIX
    from domino_api.push.routes import router as push
    from domino_api.ratings.routes import router as ratings
    from domino_api.realtime.socket import router as realtime
    from domino_api.realtime.watch import router as watch
    from domino_api.social.routes import router as social
    from domino_api.tournaments.listing import router as tournament_list
    from domino_api.tournaments.routes import router as tournaments
    from domino_api.turns.routes import router as turns

    # A request is matched against the list in order, one route after another, and most
    # requests are a match's (a move, a view): its routes come first, ahead of the documents',
    # the probes' and the players' (no path of one area is a path of another, so the order
    # changes no answer). A move was matched against 19 routes before its own, 5 now.
    add_routes(app, matches, first=True)
    for router in (
        locks,
        listing,
        civil,
        players,
        profiles,
        ratings,
        passkeys,
        devices,
        realtime,
        watch,
        tournaments,
        tournament_list,
        lobby,
        lobby_socket,
        turns,
        push,
        social,
    ):
        add_routes(app, router)
    # Every tile back's image (the catalogue's `image` URLs), drawn by this project.
    app.mount(URL_PREFIX, StaticFiles(directory=IMAGES), name="tile-backs")
