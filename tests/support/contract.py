"""Every problem an API test meets is one its route lists in openapi.json (issue 48: `POST
.../messages` answered `409 talk_off`, which the document did not list). The shared `client`
checks each answer it gets; a problem its route does not list fails the test that met it."""

from __future__ import annotations

import re
from collections.abc import Mapping

import httpx

# What answers before any route does (an unknown path, a wrong method) or for every route
# alike (the edge's own refusals, a database that stopped answering).
ANY_ROUTE = {"not_found", "method_not_allowed", "service_busy", "request_too_large"}


class Listed:
    """The problem codes each route's answers list, read from the OpenAPI document."""

    def __init__(self, spec: Mapping[str, object]) -> None:
        paths = spec["paths"]
        assert isinstance(paths, dict)
        self.routes: list[tuple[re.Pattern[str], str, dict[str, str]]] = []
        for path, operations in paths.items():
            pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")
            for method, operation in operations.items():
                answers = {
                    status: str(answer.get("description", ""))
                    for status, answer in operation.get("responses", {}).items()
                }
                self.routes.append((pattern, method.upper(), answers))
        # A literal path before a templated one: /v1/matches/join is not /v1/matches/{id}.
        self.routes.sort(key=lambda route: route[0].pattern.count("[^/]+"))

    def missing(self, method: str, path: str, status: int, code: str) -> str | None:
        """Why this answer is not in the document, or None when it is."""
        if code in ANY_ROUTE:
            return None
        for pattern, verb, answers in self.routes:
            if verb == method and pattern.match(path):
                if f"`{code}`" in answers.get(str(status), ""):
                    return None
                return f"{method} {path} answered {status} {code}, which openapi.json omits"
        return None  # no route: an unknown path answers as any does


def checking(listed: Listed) -> dict[str, list[object]]:
    """httpx event hooks that fail on an answer its route does not list."""

    async def check(response: httpx.Response) -> None:
        if response.headers.get("content-type") != "application/problem+json":
            return
        await response.aread()
        code = str(response.json().get("code", ""))
        request = response.request
        why = listed.missing(request.method, request.url.path, response.status_code, code)
        assert why is None, why

    return {"response": [check]}
