"""Every router of the app, in one place."""

from __future__ import annotations

from fastapi import FastAPI


def include_routers(app: FastAPI) -> None:
    from fastapi.staticfiles import StaticFiles

    from domino_api.matches.routes import router as matches
    from domino_api.players.routes import router as players
    from domino_api.players.tile_backs import IMAGES, URL_PREFIX
    from domino_api.realtime.socket import router as realtime
    from domino_api.tournaments.routes import router as tournaments

    app.include_router(players)
    app.include_router(matches)
    app.include_router(realtime)
    app.include_router(tournaments)
    # Every tile back's image (the catalogue's `image` URLs), drawn by this project.
    app.mount(URL_PREFIX, StaticFiles(directory=IMAGES), name="tile-backs")
