"""Background parts of a server process: started and stopped by the app's lifespan."""

from __future__ import annotations

from fastapi import FastAPI


async def start_runtime(app: FastAPI, start_background: bool) -> None:
    app.state.background = []


async def stop_runtime(app: FastAPI) -> None:
    for task in getattr(app.state, "background", []):
        task.cancel()
