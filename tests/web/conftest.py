"""The reference web client (`/play`) in a real browser: Playwright driving Debian's Chromium.

One server subprocess on a database of its own (named from DOMINO_TEST_DB and this process's
pid, so parallel suites never meet), one browser for the session, a fresh browser context per
player. Every page fails its test on any console error or uncaught exception. Screenshots go
to test-output/web/.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    expect,
    sync_playwright,
)

from domino_api.store.db import to_plain_url
from tests.support.servers import ROOT, ServerProcess, drop_database, fresh_database_sync

CHROMIUM = os.environ.get("DOMINO_CHROMIUM", "/usr/bin/chromium")
# What Chromium needs as root in a container, and nothing that phones home.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SHOTS = ROOT / "test-output" / "web"
WEB_DB = f"{os.environ.get('DOMINO_TEST_DB', 'domino_test')}_web_{os.getpid()}"
# Short presence leases, so a closed page's dot goes out within a couple of seconds.
SERVER_ENV = {
    "DOMINO_PRESENCE_LEASE_S": "1",
    "DOMINO_PRESENCE_REFRESH_S": "0.5",
    "DOMINO_LOG_JSON": "false",
    # Every test makes its players and tables from 127.0.0.1: the suite is one busy address.
    "DOMINO_CREATE_PLAYER_RATE_LIMIT": "1000",
    "DOMINO_CREATE_MATCH_RATE_LIMIT": "1000",
    "DOMINO_TOURNAMENT_RATE_LIMIT": "1000",
}

# What a page must never show: values that slipped through from JavaScript.
LEAKS = re.compile(r"\bnull\b|\bundefined\b|\bNaN\b|\[object ")

expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"No Chromium at {CHROMIUM}: the browser tests of /play cannot run. Install "
            "Debian's package (apt-get install -y chromium) or set DOMINO_CHROMIUM.",
            pytrace=False,
        )
    return CHROMIUM


@pytest.fixture(scope="session")
def play_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    url = to_plain_url(fresh_database_sync(WEB_DB))
    log = tmp_path_factory.mktemp("web") / "server.log"
    server = ServerProcess(url, log, env=SERVER_ENV, ready_path="/readyz")
    server.start()
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()
        with ThreadPoolExecutor(1) as pool:  # off the thread pytest-asyncio's loop lives on
            pool.submit(asyncio.run, drop_database(WEB_DB)).result()


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path, args=LAUNCH_ARGS)
        yield launched
        launched.close()


class Player:
    """One person's browser (context) with one page, its console errors collected."""

    def __init__(self, context: BrowserContext, base_url: str) -> None:
        self.context = context
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []  # errors a test provokes on purpose
        self.base_url = base_url
        self.page = self.new_page()

    def new_page(self) -> Page:
        """Another page (tab) of this person's browser, watched like the first."""
        page = self.context.new_page()
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        return page

    def _console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if not any(pattern.search(message.text) for pattern in self.allowed):
            self.errors.append(f"console: {message.text}")

    def open(self, route: str) -> Page:
        self.page.goto(f"{self.base_url}/play/#/{route}")
        return self.page

    def shot(self, name: str) -> Path:
        """Save a screenshot, after checking the page shows no leaked JavaScript values."""
        leaked = LEAKS.search(self.page.inner_text("body"))
        assert leaked is None, f"{name}: the page shows {leaked.group()!r}"
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path


@pytest.fixture
def players(browser: Browser, play_server: ServerProcess) -> Iterator[Callable[..., Player]]:
    """players() -> a new Player in a fresh context; no console errors allowed on any."""
    made: list[Player] = []

    def new(width: int = 1280, height: int = 900) -> Player:
        context = browser.new_context(viewport={"width": width, "height": height})
        player = Player(context, play_server.base_url)
        made.append(player)
        return player

    yield new
    errors = [error for player in made for error in player.errors]
    for player in made:
        player.context.close()
    assert errors == [], f"console errors: {errors}"
