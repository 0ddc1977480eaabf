"""How uvicorn serves the app: forwarded headers believed only from the operator's proxies.

uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise, so that a client on the
same machine (or any client behind a proxy that passes the header through) could name any
address it likes and rotate past every per-address budget. Both `domino-api serve` and the
tests' servers take their options from here.
"""

from __future__ import annotations

from typing import Any

from domino_api.config import Settings


def trusted_proxies(settings: Settings) -> list[str]:
    return [part.strip() for part in settings.trusted_proxies.split(",") if part.strip()]


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for `uvicorn.run`/`uvicorn.Config` about forwarded headers."""
    proxies = trusted_proxies(settings)
    if not proxies:
        return {"proxy_headers": False, "forwarded_allow_ips": ""}
    return {"proxy_headers": True, "forwarded_allow_ips": ",".join(proxies)}
