"""The app's routes are one flat list (docs/ARCHITECTURE.md, "Routes"): every area's router is
joined into it as it is, so a request is matched against it once."""

from __future__ import annotations

from fastapi.routing import APIRouter

from domino_api.api import create_app
from domino_api.matches.routes import router as matches
from domino_api.metrics import router as metrics
from domino_api.players.routes import router as players
from domino_api.realtime.socket import router as realtime
from domino_api.tournaments.routes import router as tournaments


def test_every_area_router_is_joined_into_the_apps_one_list_of_routes() -> None:
    routes = create_app().router.routes
    for router in (players, matches, realtime, tournaments, metrics):
        assert router.routes and all(route in routes for route in router.routes)
    # No nested router left to be matched a second time (FastAPI's include_router keeps one).
    assert not any(isinstance(getattr(r, "original_router", None), APIRouter) for r in routes)
