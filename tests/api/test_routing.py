"""The app's routes are one flat list (docs/ARCHITECTURE.md, "Routes"): every area's router is
joined into it as it is, so a request is matched against it once."""

from __future__ import annotations

import re
from typing import Any

from fastapi.routing import APIRoute, APIRouter, APIWebSocketRoute
from starlette.routing import Match

from domino_api.app.api import create_app
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


def _sample_scope(route: APIRoute | APIWebSocketRoute, method: str | None) -> dict[str, Any]:
    # Each parameter as a value its convertor takes ("7" is a seat, a ruleset's name and an id).
    path = re.sub(r"\{[^}]+\}", "7", route.path)
    if method is None:
        return {"type": "websocket", "path": path, "root_path": "", "headers": []}
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}


def test_the_matches_routes_come_first_and_no_request_is_taken_by_two_routes() -> None:
    """The list is matched in order, so the routes most requests take are put first; that
    changes no answer only while no request fully matches two routes."""
    routes = create_app().router.routes
    assert routes[: len(matches.routes)] == matches.routes
    assert routes.index(next(r for r in routes if getattr(r, "name", "") == "move")) < 6
    api_routes = [r for r in routes if isinstance(r, APIRoute | APIWebSocketRoute)]
    for route in api_routes:
        for method in sorted(getattr(route, "methods", None) or {None}, key=str):
            scope = _sample_scope(route, method)
            taking = [r for r in api_routes if r.matches(scope)[0] == Match.FULL]
            assert taking == [route], (method, route.path, [r.path for r in taking])
