"""PostgreSQL servers of a test's own (PostgreSQL 15's initdb, pg_ctl, pg_basebackup): each on
a free TCP port, its data in a temporary directory, to restart, kill and promote at will.

The binaries are found in DOMINO_PG_BIN, else /usr/lib/postgresql/15/bin (Debian's
`postgresql-15`). Run as root, the servers run as the `postgres` system user (PostgreSQL
refuses to run as root), so their directory is made and handed over to that user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psutil

from tests.support.servers import free_port

PG_BIN = Path(os.environ.get("DOMINO_PG_BIN", "/usr/lib/postgresql/15/bin"))
SYSTEM_USER = "postgres"
# Every test server: TCP on 127.0.0.1 only (no socket file in a shared directory), quick to
# stop, small, and ready for a streaming standby (wal_level replica and wal senders are the
# defaults; `initdb --auth=trust` lets 127.0.0.1 replicate).
SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "unix_socket_directories": "",
    "max_connections": "60",
    "shared_buffers": "16MB",
    "fsync": "on",
    "log_min_messages": "warning",
}


def as_user() -> dict[str, str]:
    """Popen's `user`: the system user to run PostgreSQL as when we are root."""
    return {"user": SYSTEM_USER} if os.geteuid() == 0 else {}


def _run(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True, timeout=120, **as_user())  # type: ignore[call-overload]


class ServerDir:
    """A temporary directory that PostgreSQL's user owns; removed by `remove`."""

    def __init__(self) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="domino-faults-"))
        if os.geteuid() == 0:
            user = pwd.getpwnam(SYSTEM_USER)
            os.chown(self.path, user.pw_uid, user.pw_gid)

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


class PgServer:
    """One server: `init` (or `clone_of` a primary, as its streaming standby), then `start`."""

    def __init__(self, root: ServerDir, name: str) -> None:
        self.name = name
        self.data = root.path / name
        self.log = root.path / f"{name}.log"
        self.port = free_port()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def init(self, **settings: str) -> None:
        if not (PG_BIN / "pg_basebackup").exists():
            raise RuntimeError(f"no PostgreSQL 15 in {PG_BIN}: apt-get install postgresql-15")
        _run(str(PG_BIN / "initdb"), "-D", str(self.data), "--auth=trust", "-U", "postgres")
        self._configure({**SETTINGS, **settings})

    def clone_of(self, primary: PgServer) -> None:
        """A streaming standby of `primary` (running): its base backup with the standby's
        settings written by `-R` (standby.signal, primary_conninfo)."""
        _run(
            str(PG_BIN / "pg_basebackup"),
            *("-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres"),
            *("-D", str(self.data), "-R", "-X", "stream", "-c", "fast"),
        )
        self._configure({"port": str(self.port)})

    def _configure(self, settings: dict[str, str]) -> None:
        lines = [
            f"{key} = '{value}'" for key, value in {**settings, "port": str(self.port)}.items()
        ]
        with (self.data / "postgresql.auto.conf").open("a") as conf:
            conf.write("\n".join(lines) + "\n")

    def start(self) -> None:
        self._pg_ctl("start", "-w", "-t", "120", "-l", str(self.log))

    def restart(self, mode: str = "fast") -> None:
        self._pg_ctl("restart", "-m", mode, "-w", "-t", "120", "-l", str(self.log))

    def stop(self, mode: str = "fast") -> None:
        if self.pid() is not None:
            self._pg_ctl("stop", "-m", mode, "-w", "-t", "60")

    def promote(self) -> None:
        """The standby becomes a primary; returns once it accepts writes (`pg_ctl -w`)."""
        self._pg_ctl("promote", "-w", "-t", "120")

    def kill(self) -> None:
        """SIGKILL the postmaster and every process of the server at once, as when its
        machine dies (the clients' sockets are closed by the kernel)."""
        pid = self.pid()
        if pid is None:
            return
        postmaster = psutil.Process(pid)
        processes = [postmaster, *postmaster.children(recursive=True)]
        for process in processes:
            process.kill()
        psutil.wait_procs(processes, timeout=30)

    def pid(self) -> int | None:
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
        except (FileNotFoundError, IndexError, ValueError):
            return None
        return pid if psutil.pid_exists(pid) else None

    def accepts_connections(self) -> bool:
        ready = subprocess.run(
            [str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), "-t", "1"],
            capture_output=True,
        )
        return ready.returncode == 0

    def wait_accepting(self, timeout: float = 120.0) -> float:
        """Poll until the server accepts connections; the monotonic moment it first did."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.accepts_connections():
                return time.monotonic()
            time.sleep(0.02)
        raise RuntimeError(f"{self.name} does not accept connections:\n{self.log_tail()}")

    def _pg_ctl(self, *args: str) -> None:
        try:
            _run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), *args)
        except subprocess.CalledProcessError as exc:
            raise RuntimeError(
                f"pg_ctl {args[0]} of {self.name} failed: {exc.stderr!r}\n{self.log_tail()}"
            ) from exc

    def log_tail(self, lines: int = 30) -> str:
        if not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
