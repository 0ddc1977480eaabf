"""Every router of the app, in one place, joined into the app's one list of routes."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI


def add_routes(app: FastAPI, router: APIRouter) -> None:
    """The router's routes become the app's own, as they are (each already carries its full
    path, tags and responses: the OpenAPI document is the same).

    `include_router` would keep the router as a nested one, which FastAPI matches twice per
    request (once to find the router, once to find the route in it, re-counting its routes'
    version each time): routing took 11% of the API process's time under load with the
    routers included, 7% with one flat list (bench/README.md, "One list of routes")."""
    app.router.routes.extend(router.routes)


def include_routers(app: FastAPI) -> None:
    from fastapi.staticfiles import StaticFiles

    from domino_api.matches.routes import router as matches
    from domino_api.players.routes import router as players
    from domino_api.players.tile_backs import IMAGES, URL_PREFIX
    from domino_api.realtime.socket import router as realtime
    from domino_api.tournaments.routes import router as tournaments

    for router in (players, matches, realtime, tournaments):
        add_routes(app, router)
    # Every tile back's image (the catalogue's `image` URLs), drawn by this project.
    app.mount(URL_PREFIX, StaticFiles(directory=IMAGES), name="tile-backs")
