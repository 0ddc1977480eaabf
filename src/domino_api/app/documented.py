"""The app's class: FastAPI whose `openapi()` is the published document
(documents/openapi_doc.py), and Swagger UI (/docs) and ReDoc (/redoc) served from the assets
fastapi-offline ships, so the documentation works with no network (FastAPI's own pages load a
CDN).

fastapi-offline's `FastAPIOffline` is a factory of plain `FastAPI` apps, which left the document
to be set by assigning over the `openapi` method; a subclass overrides it as a method, and the
two pages it would add are the few lines below.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.staticfiles import StaticFiles
from pydantic import JsonValue
from starlette.responses import HTMLResponse

from domino_api.documents import openapi_doc

ASSETS = Path(fastapi_offline.__file__).parent / "static"
STATIC = "/static-offline-docs"


class DocumentedAPI(FastAPI):
    """A FastAPI app answering `/openapi.json` with the contract's whole document."""

    def __init__(self, **options: Any) -> None:
        super().__init__(docs_url=None, redoc_url=None, **options)
        self.mount(STATIC, StaticFiles(directory=ASSETS), name="static-offline-docs")
        self._add_pages()

    def openapi(self) -> dict[str, JsonValue]:
        if self.openapi_schema is None:
            openapi_doc.complete(super().openapi())
        return super().openapi()

    def _add_pages(self) -> None:
        document = self.openapi_url or "/openapi.json"
        redirect = self.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"

        @self.get("/docs", include_in_schema=False)
        async def swagger(request: Request) -> HTMLResponse:
            root = request.scope.get("root_path", "")
            return get_swagger_ui_html(
                openapi_url=f"{root}{document}",
                title=f"{self.title} - Swagger UI",
                oauth2_redirect_url=redirect,
                swagger_js_url=f"{root}{STATIC}/swagger-ui-bundle.js",
                swagger_css_url=f"{root}{STATIC}/swagger-ui.css",
                swagger_favicon_url=f"{root}{STATIC}/favicon.png",
                swagger_ui_parameters=self.swagger_ui_parameters,
            )

        @self.get(redirect, include_in_schema=False)
        async def swagger_redirect() -> HTMLResponse:
            return get_swagger_ui_oauth2_redirect_html()

        @self.get("/redoc", include_in_schema=False)
        async def redoc(request: Request) -> HTMLResponse:
            root = request.scope.get("root_path", "")
            return get_redoc_html(
                openapi_url=f"{root}{document}",
                title=f"{self.title} - ReDoc",
                redoc_js_url=f"{root}{STATIC}/redoc.standalone.js",
                with_google_fonts=False,
                redoc_favicon_url=f"{root}{STATIC}/favicon.png",
            )
