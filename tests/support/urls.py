"""PostgreSQL URLs as the suite meets them, taken apart and rebuilt by their parts.

The test server's URL comes in any form libpq and asyncpg accept: the embedded server's
(`postgresql://postgres:@/db?host=/socket/dir`), a TCP one with or without a password, another
user, a `postgresql+asyncpg://` scheme. Tests that need another database, another role or the
server's address ask here rather than edit the text (`replace("://postgres@", ...)` once missed
the embedded form).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

DEFAULT_PORT = 5432


@dataclass(frozen=True)
class Address:
    """Where the server listens: a host name or address, or a socket directory (`/...`)."""

    host: str
    port: int

    @property
    def is_socket(self) -> bool:
        return self.host.startswith("/")


def _query(url: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def user_of(url: str) -> str:
    """The user the URL logs in as (libpq's default `postgres` when it names none)."""
    parts = urlsplit(url)
    return unquote(parts.username or "") or _query(url).get("user") or "postgres"


def password_of(url: str) -> str:
    parts = urlsplit(url)
    return unquote(parts.password or "") or _query(url).get("password", "")


def address_of(url: str) -> Address:
    """The server's host (or socket directory) and port, from the authority or the query."""
    parts = urlsplit(url)
    query = _query(url)
    host = parts.hostname or query.get("host") or "127.0.0.1"
    port = parts.port or int(query.get("port") or DEFAULT_PORT)
    return Address(host.split(",")[0], port)


def with_database(url: str, name: str) -> str:
    """The same server and login, database `name`."""
    parts = urlsplit(url)
    query = urlencode({k: v for k, v in _query(url).items() if k != "dbname"})
    return urlunsplit(parts._replace(path=f"/{name}", query=query))


def with_login(url: str, user: str, password: str = "") -> str:
    """The same server and database, logging in as `user` (with `password` when given)."""
    parts = urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    login = quote(user, safe="") + (f":{quote(password, safe='')}" if password else "")
    query = urlencode({k: v for k, v in _query(url).items() if k not in ("user", "password")})
    return urlunsplit(parts._replace(netloc=f"{login}@{host}", query=query))
