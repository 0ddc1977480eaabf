"""A Patroni cluster of a test's own: one etcd and two Patroni nodes, each managing a PostgreSQL
15 server on free loopback ports, with a synchronous standby (docs/OPERATING.md, "Failover").

Patroni runs from the virtualenv tools/system-deps.sh makes (DOMINO_PATRONI_VENV, else
/opt/domino-patroni) as the user PostgreSQL runs as (tests/faults/postgres.py); etcd is Debian's
`etcd-server`. The timings are the smallest Patroni takes, so a failover takes seconds: ttl 20
(its least), loop_wait 1, retry_timeout 5 (its rule: loop_wait + 2 x retry_timeout <= ttl).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import psutil
import yaml

from tests.faults.postgres import PG_BIN, ServerDir, as_user
from tests.support.servers import free_port

PATRONI = Path(os.environ.get("DOMINO_PATRONI_VENV", "/opt/domino-patroni")) / "bin" / "patroni"
SCOPE = "domino"
TIMINGS = {"ttl": 20, "loop_wait": 1, "retry_timeout": 5}
BOUND_S = 120.0


class Etcd:
    """One etcd member on loopback, its data in the test's directory."""

    def __init__(self, root: ServerDir) -> None:
        self.data = root.path / "etcd"
        self.log = root.path / "etcd.log"
        self.client_port, self.peer_port = free_port(), free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"127.0.0.1:{self.client_port}"

    def start(self) -> None:
        etcd = shutil.which("etcd")
        if etcd is None:
            raise RuntimeError("no etcd: apt-get install etcd-server (tools/system-deps.sh)")
        client, peer = f"http://{self.endpoint}", f"http://127.0.0.1:{self.peer_port}"
        argv = [
            etcd,
            *("--name", "e0", "--data-dir", str(self.data)),
            *("--listen-client-urls", client, "--advertise-client-urls", client),
            *("--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer),
            *("--initial-cluster", f"e0={peer}", "--log-level", "warn"),
        ]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        _until(self._healthy, f"etcd never became healthy:\n{_tail(self.log)}")

    def _healthy(self) -> bool:
        return _get_json(f"http://{self.endpoint}/health") is not None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)


class PatroniNode:
    """One Patroni process and the PostgreSQL server it manages."""

    def __init__(self, root: ServerDir, name: str, etcd: Etcd) -> None:
        self.name = name
        self.dir = root.path / name
        self.config = root.path / f"{name}.yml"
        self.log = root.path / f"{name}.log"
        self.port, self.api_port = free_port(), free_port()
        self.etcd = etcd
        self.process: subprocess.Popen[bytes] | None = None

    def write_config(self) -> None:
        """Patroni's configuration: trust on loopback (as the other fault servers), the
        cluster's timings and synchronous mode bootstrapped into etcd by the first node."""
        parameters = {
            "unix_socket_directories": "",
            "max_connections": 60,
            "shared_buffers": "16MB",
            "log_min_messages": "warning",
        }
        config = {
            "scope": SCOPE,
            "name": self.name,
            "log": {"level": "WARNING"},
            "restapi": {
                "listen": f"127.0.0.1:{self.api_port}",
                "connect_address": f"127.0.0.1:{self.api_port}",
            },
            "etcd3": {"hosts": [self.etcd.endpoint]},
            "bootstrap": {
                "dcs": {
                    **TIMINGS,
                    "synchronous_mode": True,
                    "postgresql": {"use_pg_rewind": False, "parameters": parameters},
                },
                "initdb": [{"auth": "trust"}, {"username": "postgres"}],
                "pg_hba": [
                    "host all all 127.0.0.1/32 trust",
                    "host replication all 127.0.0.1/32 trust",
                ],
            },
            "postgresql": {
                "listen": f"127.0.0.1:{self.port}",
                "connect_address": f"127.0.0.1:{self.port}",
                "data_dir": str(self.dir / "data"),
                "bin_dir": str(PG_BIN),
                "pgpass": str(self.dir / "pgpass"),
                "authentication": {
                    "superuser": {"username": "postgres"},
                    "replication": {"username": "postgres"},
                },
                "parameters": parameters,
            },
        }
        self.dir.mkdir()
        self.config.write_text(yaml.safe_dump(config))
        for path in (self.dir, self.config):
            shutil.chown(path, *_owner())

    def start(self) -> None:
        if not PATRONI.exists():
            raise RuntimeError(f"no Patroni at {PATRONI}: run tools/system-deps.sh")
        self.write_config()
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [str(PATRONI), str(self.config)],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.dir,
                **as_user(),  # type: ignore[call-overload]
            )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def state(self) -> dict[str, object] | None:
        """Patroni's own word on this node (GET /patroni), None while it does not answer."""
        return _get_json(f"http://127.0.0.1:{self.api_port}/patroni")

    def role(self) -> str | None:
        state = self.state()
        return str(state.get("role")) if state else None

    def postgres_processes(self) -> list[psutil.Process]:
        """The postmaster (from its pid file) and every process of the server."""
        try:
            pid = int((self.dir / "data" / "postmaster.pid").read_text().split()[0])
            postmaster = psutil.Process(pid)
            return [postmaster, *postmaster.children(recursive=True)]
        except (FileNotFoundError, IndexError, ValueError, psutil.NoSuchProcess):
            return []

    def signal_node(self, sig: signal.Signals) -> None:
        """SIGKILL (the machine died) or SIGSTOP (it froze: its sockets open, nothing answers)
        to Patroni and then every process of its PostgreSQL server: the leader key is no longer
        renewed, and no Patroni restarts or demotes the server behind the test's back."""
        postgres = self.postgres_processes()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
        for process in postgres:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.send_signal(sig)

    def stop(self) -> None:
        """Patroni, then whatever of its server is left (SIGKILL: nothing to keep)."""
        processes = self.postgres_processes()
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)
        for process in processes:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        psutil.wait_procs(processes, timeout=30)

    def log_tail(self) -> str:
        return _tail(self.log)


class Cluster:
    """etcd and two Patroni nodes: `start` returns once there is a leader and a synchronous
    standby streaming from it."""

    def __init__(self, root: ServerDir) -> None:
        self.etcd = Etcd(root)
        self.nodes = [PatroniNode(root, f"node{i}", self.etcd) for i in range(2)]

    def url(self, database: str) -> str:
        """The service's URL: every node, the one that takes writes chosen at connect."""
        hosts = ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)
        return f"postgresql://postgres@{hosts}/{database}?target_session_attrs=read-write"

    def start(self) -> None:
        self.etcd.start()
        self.nodes[0].start()
        _until(lambda: self.nodes[0].role() == "primary", self.why("no leader"))
        self.nodes[1].start()
        _until(self._synchronous, self.why("no synchronous standby"))

    def leader(self) -> PatroniNode | None:
        for node in self.nodes:
            state = node.state() or {}
            if state.get("role") == "primary" and state.get("state") == "running":
                return node
        return None

    def _synchronous(self) -> bool:
        members = _get_json(f"http://127.0.0.1:{self.nodes[0].api_port}/cluster")
        roles = [m.get("role") for m in members.get("members", [])] if members else []
        return sorted(roles) == ["leader", "sync_standby"]

    def stop(self) -> None:
        for node in self.nodes:
            node.signal_node(signal.SIGCONT)
            node.stop()
        self.etcd.stop()

    def why(self, what: str) -> str:
        logs = "\n".join(f"--- {node.name}\n{node.log_tail()}" for node in self.nodes)
        return f"{what}:\n{logs}\n--- etcd\n{_tail(self.etcd.log)}"


def _owner() -> tuple[str, str] | tuple[int, int]:
    if os.geteuid() == 0:
        return ("postgres", "postgres")
    return (os.geteuid(), os.getegid())


def _get_json(url: str) -> dict[str, object] | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as answer:
            body: dict[str, object] = json.loads(answer.read())
            return body
    except (OSError, ValueError):
        return None


def _until(ready: Callable[[], bool], why: str) -> None:
    deadline = time.monotonic() + BOUND_S
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.1)
    raise RuntimeError(why)


def _tail(path: Path, lines: int = 30) -> str:
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
