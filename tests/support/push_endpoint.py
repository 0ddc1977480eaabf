"""A push service of the test's own: an HTTP server on 127.0.0.1 that keeps what it is sent,
and a device's subscription keys to decrypt it (RFC 8291, aes128gcm, with `http_ece`)."""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's subscription keys: the P-256 pair and the 16-byte auth secret."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def keys(self) -> dict[str, str]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64url(point), "auth": b64url(self.auth)}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        decoded: dict[str, Any] = json.loads(plain)
        return decoded


@dataclass(frozen=True)
class Delivery:
    path: str
    headers: dict[str, str]
    body: bytes


class PushEndpoint:
    """Answers each POST 201 (410 for a path in `gone`, 503 for one in `failing`) and keeps
    it."""

    def __init__(self) -> None:
        self.received: queue.Queue[Delivery] = queue.Queue()
        self.gone: set[str] = set()
        self.failing: set[str] = set()  # answered 503
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                outer.received.put(Delivery(self.path, headers, body))
                status = 503 if self.path in outer.failing else 201
                self.send_response(410 if self.path in outer.gone else status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def __enter__(self) -> PushEndpoint:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def next(self, timeout: float = 30.0) -> Delivery:
        """The next delivery (a bound on a wait for something that must come, not a limit)."""
        return self.received.get(timeout=timeout)


def vapid_key_of(delivery: Delivery) -> str:
    """The `k=` of the request's `Authorization: vapid t=..., k=...` (RFC 8292)."""
    auth = delivery.headers["authorization"]
    assert auth.startswith("vapid "), auth
    parts = dict(p.strip().split("=", 1) for p in auth[len("vapid ") :].split(","))
    return parts["k"]
