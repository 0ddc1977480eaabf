"""How a connection to PostgreSQL is made: bounded in time, and on a multi-host URL to the one
server that takes writes, found by asking every host at once (docs/OPERATING.md, "Failover").

asyncpg's own multi-host connect tries the hosts one after another under one timeout: a primary
that froze (SIGSTOP, a hung machine: its kernel still accepts the TCP connection, nothing ever
answers) holds the whole budget, so the promoted standby listed after it is never reached. Here
each host has `db_connect_timeout_s` of its own, all at once, and the first that answers as
`target_session_attrs` asks wins. Every statement is bounded by `db_command_timeout_s`
(asyncpg's `command_timeout`): a statement sent to a frozen server fails, and its connection is
dropped (store/db.py), instead of holding its request.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import asyncpg

from domino_api.config import Settings

# asyncpg's values of `target_session_attrs` that ask for the primary.
WRITABLE = ("read-write", "primary")


@dataclass(frozen=True, slots=True)
class _Host:
    """One host of a multi-host URL, as asyncpg's `host` and `port` keywords take it."""

    host: object  # SQLAlchemy's list holds the URL's text, the DSN's parts are read here
    port: object


class Connector:
    """Makes the process's connections: the pool's (handed to SQLAlchemy's asyncpg dialect as
    its `async_creator_fn`, which passes the URL's parts as asyncpg's keywords) and the LISTEN
    connections (`connect_url`)."""

    def __init__(self, settings: Settings) -> None:
        self.connect_timeout_s = settings.db_connect_timeout_s
        self.command_timeout_s = settings.db_command_timeout_s

    async def connect_url(self, plain_url: str) -> asyncpg.Connection:
        """A connection from a libpq URL (`postgresql://u@a:5432,b:5432/db?...`)."""
        return await self.connect(dsn=plain_url)

    async def connect(self, **options: object) -> asyncpg.Connection:
        """asyncpg.connect's keywords; a list of hosts with a writable `target_session_attrs`
        is raced, each host on its own deadline."""
        options = {**options, "command_timeout": self.command_timeout_s}
        dsn = options.get("dsn")
        hosts = _hosts(options.get("host"), options.get("port"), dsn)
        wanted = str(options.get("target_session_attrs") or _dsn_attrs(dsn) or "any")
        if len(hosts) < 2 or wanted not in WRITABLE:
            try:
                return await asyncpg.connect(**options, timeout=self.connect_timeout_s)
            except TimeoutError as exc:
                raise no_answer("connect", exc) from exc
        # The keywords for one host: no host list, no `target_session_attrs` (checked here),
        # and a DSN's hosts left out (the keywords' `host` and `port` win over the DSN's).
        one_host = ("host", "port", "target_session_attrs")
        rest = {key: value for key, value in options.items() if key not in one_host}
        if isinstance(dsn, str):
            rest["dsn"] = _one_host_dsn(dsn)
        return await self._race(hosts, **rest)

    async def _race(self, hosts: list[_Host], **rest: object) -> asyncpg.Connection:
        tries = [
            asyncio.ensure_future(self._writable(**rest, host=h.host, port=h.port)) for h in hosts
        ]
        chosen: asyncpg.Connection | None = None
        errors: list[BaseException] = []
        try:
            for done in asyncio.as_completed(tries):
                try:
                    chosen = await done
                    break
                except Exception as exc:  # this host will not do; another may
                    errors.append(exc)
        finally:
            for task in tries:
                task.cancel()
            # Hosts that answered too, or late: their connections are not kept.
            for result in await asyncio.gather(*tries, return_exceptions=True):
                if isinstance(result, asyncpg.Connection) and result is not chosen:
                    result.terminate()
        if chosen is None:
            raise _worst(errors)
        return chosen

    async def _writable(self, **options: object) -> asyncpg.Connection:
        """A connection to one host, if that host takes writes (asyncpg's own check for
        `read-write`), all within `db_connect_timeout_s`."""
        try:
            async with asyncio.timeout(self.connect_timeout_s):
                connection = await asyncpg.connect(**options)
                try:
                    read_only = await connection.fetchval("SHOW transaction_read_only")
                except BaseException:
                    connection.terminate()
                    raise
        except TimeoutError as exc:
            raise no_answer("connect", exc) from exc
        if read_only != "off":
            connection.terminate()
            raise asyncpg.TargetServerAttributeNotMatched(
                "this host does not take writes (a standby)"
            )
        return connection


def no_answer(what: str, exc: BaseException) -> ConnectionError:
    """What a connection attempt or a statement that got no answer in time raises: a lost
    connection (errors.database_state: 503 `service_busy`), not a bug's TimeoutError."""
    error = ConnectionAbortedError(f"PostgreSQL did not answer in time ({what})")
    error.__cause__ = exc
    return error


def _hosts(host: object, port: object, dsn: object) -> list[_Host]:
    """Each host of the keywords (SQLAlchemy hands lists of hosts and ports) or of the DSN."""
    if isinstance(host, list):
        ports = port if isinstance(port, list) else [port] * len(host)
        return [_Host(h, p) for h, p in zip(host, ports, strict=True)]
    if isinstance(dsn, str):
        netloc = dsn.partition("://")[2].partition("/")[0].rpartition("@")[2]
        listed = [part for part in netloc.split(",") if part]
        if len(listed) > 1:
            return [_host_port(part) for part in listed]
    return []


def _host_port(part: str) -> _Host:
    host, colon, port = part.rpartition(":")
    if not colon or "]" in port:  # no port, or the end of an IPv6 address
        return _Host(part.strip("[]"), 5432)
    return _Host(host.strip("[]"), int(port))


def _dsn_attrs(dsn: object) -> str | None:
    if not isinstance(dsn, str):
        return None
    for pair in dsn.partition("?")[2].split("&"):
        key, _, value = pair.partition("=")
        if key == "target_session_attrs":
            return value
    return None


def _one_host_dsn(dsn: str) -> str:
    """The DSN without its hosts and its `target_session_attrs`."""
    scheme, _, after = dsn.partition("://")
    location, question, query = after.partition("?")
    netloc, slash, path = location.partition("/")
    user, at, _hosts_part = netloc.rpartition("@")
    kept = "&".join(p for p in query.split("&") if not p.startswith("target_session_attrs="))
    return f"{scheme}://{user}{at}{slash}{path}" + (f"?{kept}" if kept else "")


def _worst(errors: list[BaseException]) -> BaseException:
    """The error to raise when no host would do: one a standby gave (the primary is being
    promoted), else the first."""
    standby = [e for e in errors if isinstance(e, asyncpg.TargetServerAttributeNotMatched)]
    chosen: list[BaseException] = standby or errors
    return chosen[0] if chosen else ConnectionError("no host of the URL answered")
