"""NATS servers of a test's own: `/usr/sbin/nats-server` processes on free local ports, alone or
as a cluster, which a test may stop (SIGSTOP), kill and start again on the same ports. The
machine's shared NATS on 4222 is never touched.

Core subjects only (realtime/announce.py uses no JetStream), so the nodes run without it.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from tests.support.servers import free_port

NATS_SERVER = "/usr/sbin/nats-server"
CLUSTER_NAME = "domino-test"


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

    async def wait_ready(self, routes: int = 0, timeout: float = 30.0) -> None:
        """Until the node answers /healthz and has `routes` cluster routes up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"nats-server {self.name} exited: {self._log_tail()}")
            try:
                if self.monitor("routez").get("num_routes", 0) >= routes:
                    return
            except OSError:
                pass
            await asyncio.sleep(0.05)
        raise RuntimeError(f"nats-server {self.name} not ready: {self._log_tail()}")

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
