"""Security headers on every HTTP answer: no sniffing, no framing, and a Content-Security-Policy.

- Every answer: `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` and a policy with
  `frame-ancestors 'none'` (no page of this service may be framed, against clickjacking).
- The API's own answers (JSON, text, SVG): `default-src 'none'`: nothing they carry may load
  or run anything.
- /play: it loads nothing from elsewhere, so only its own scripts, styles, images and
  connections (the socket included: CSP3's 'self' covers ws/wss to the same host); no inline
  script or style at all.
- /docs and /redoc (app/documented.py serves fastapi-offline's assets from
  /static-offline-docs): the page starts Swagger UI with one inline script, allowed by its
  SHA-256 hash, computed from the page as served (so it follows the options). Both
  renderers set inline styles, hence `style-src 'unsafe-inline'` there only; ReDoc's
  search runs in a worker made from a blob.
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

NO_FRAMING = "frame-ancestors 'none'"
API_POLICY = f"default-src 'none'; {NO_FRAMING}"
PLAY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    f"connect-src 'self'; base-uri 'none'; form-action 'none'; {NO_FRAMING}"
)
DOCS_POLICY = (
    "default-src 'none'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; worker-src blob:; base-uri 'none'; "
    f"form-action 'none'; {NO_FRAMING}"
)
DOCS_PAGES = ("/docs", "/redoc", "/docs/oauth2-redirect")
INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def policy_for(path: str) -> str | None:
    """The policy of a path's answer; None for a docs page (its own, from its body)."""
    if path == "/play" or path.startswith("/play/"):
        return PLAY_POLICY
    if path in DOCS_PAGES:
        return None
    return API_POLICY


def docs_policy(body: bytes) -> str:
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
        for script in INLINE_SCRIPT.findall(body)
    )
    return DOCS_POLICY.format(hashes=hashes)


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = policy_for(scope.get("path", ""))
        if policy is None:
            await self._docs_page(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                _secure(message, policy)
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _docs_page(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A docs page is small: held whole, so that its policy can name its inline script."""
        start: Message | None = None
        body = b""

        async def held(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            body += message.get("body", b"")
            if not message.get("more_body", False):
                assert start is not None
                _secure(start, docs_policy(body))
                MutableHeaders(scope=start)["content-length"] = str(len(body))
                await send(start)
                await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, held)


# Set on every answer (a value the app set is replaced); the policy only where none was set.
FIXED = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"))
FIXED_NAMES = frozenset(name for name, _ in FIXED)
POLICY = b"content-security-policy"


def _secure(start: Message, policy: str) -> None:
    # One pass over the raw list (an answer carries a handful of headers): this runs on every
    # response, where MutableHeaders scanned the list once per header set.
    headers = [h for h in start.get("headers", ()) if h[0].lower() not in FIXED_NAMES]
    if not any(name.lower() == POLICY for name, _ in headers):
        headers.append((POLICY, policy.encode("latin-1")))
    headers.extend(FIXED)
    start["headers"] = headers
