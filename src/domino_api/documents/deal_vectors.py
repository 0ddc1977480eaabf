"""The one copy of the published deal test vectors: where it lives, how it is read and written.

It lives in the package, beside the /play client that checks itself against it, and is served
with the client's files at `/play/deal-vectors.json`; docs/RULES.md (section 11) describes it.
It holds the rule model's reference vectors first, as they were given, then this engine's own
(engine/vectors.py). `domino-api deal-vectors` rewrites it, the engine's tests reproduce it.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

from domino_api.engine.vectors import DealVector, DealVectors, published_vectors

PATH = Path(__file__).resolve().parents[1] / "play" / "deal-vectors.json"


def load(path: Path = PATH) -> DealVectors:
    return msgspec.json.decode(path.read_bytes(), type=DealVectors)


def reference(document: DealVectors) -> tuple[DealVector, ...]:
    """The vectors this engine did not make: those before its own first one. No code here can
    make them again, so a rewrite keeps them as they are."""
    first_own = published_vectors(()).vectors[0].secret
    vectors = document.vectors
    return vectors[: [v.secret for v in vectors].index(first_own)]


def text(document: DealVectors) -> str:
    """The file's text as the command writes it."""
    return json.dumps(msgspec.to_builtins(document), indent=1, ensure_ascii=False) + "\n"


def rewritten(path: Path = PATH) -> str:
    """The text the file should hold: its reference vectors, then this engine's own, made now."""
    return text(published_vectors(reference(load(path))))
