"""Compatibility records: what the engine produced at f5d0777 for fixed seeds, replayed now.

For every preset (and every player count a preset allows, and the overrides a preset offers)
40 matches are played by seeded random choices over `legal_actions`, plus two by Plain from its
`seat_view`. Each match gives its ledger (kept whole) and a SHA-256 over every step's snapshot
(`to_json`), the step's events (`Event.to_json`), every seat's and a spectator's `view` and the
legal list: a byte that moves anywhere changes the digest. The deal vectors are kept whole.

    .venv/bin/python -m tests.engine.compat   # rewrites tests/engine/fixtures/ (only on purpose)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import msgspec
from msgspec import to_builtins

from domino_api.bots.plain import PlainStrategy
from domino_api.documents import deal_vectors as published
from domino_api.engine import (
    NextHand,
    Start,
    apply,
    from_json,
    ledger,
    legal_actions,
    make_ruleset,
    new_match,
    seat_view,
    to_json,
    view,
)
from domino_api.engine.events import Event
from domino_api.engine.shapes import LedgerOut
from domino_api.engine.state import LegalAction
from domino_api.engine.vectors import published_vectors
from domino_api.engine.view import TableView

FIXTURES = Path(__file__).parent / "fixtures"
MATCHES = 40
PLAIN_MATCHES = 2
# Matches whose every step is digested whole (snapshot, its round trip and every view); the
# others digest each step's events and the final snapshot, which keeps the test quick.
FULL_MATCHES = 4

# (file stem, preset, overrides)
VARIANTS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("all-fives", "all-fives", {}),
    ("all-fives-hand9", "all-fives", {"hand_size": 9}),
    (
        "all-fives-any",
        "all-fives",
        {"first_opener": "seat_zero_any", "next_opener": "alternate_any"},
    ),
    ("house-nines-2", "house-nines", {"players": 2}),
    ("house-nines-3", "house-nines", {"players": 3}),
    ("house-nines-4", "house-nines", {}),
    ("draw-50", "draw-50", {}),
    ("draw", "draw", {}),
    ("block", "block", {}),
    ("classic", "classic", {}),
    ("classic-draw-one", "classic", {"draw": "one"}),
    ("classic-best-of-3", "classic", {"best_of": 3}),
    ("classic-alternate", "classic", {"next_opener": "alternate_any"}),
    ("fives-and-threes-2", "fives-and-threes", {}),
    ("fives-and-threes-3", "fives-and-threes", {"players": 3}),
    ("fives-and-threes-4", "fives-and-threes", {"players": 4}),
    ("partners-block", "partners-block", {}),
    ("partners-nines", "partners-nines", {}),
    ("partners-all-fives", "partners-all-fives", {}),
)
# Mexican Train, recorded when it came (not at f5d0777), two rounds a match to keep the replay
# quick; its own oracle is tests/engine/test_trains_oracle.py.
TRAIN_VARIANTS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("mexican-train-4", "mexican-train", {"rounds": 2}),
    ("mexican-train-8", "mexican-train", {"players": 8, "rounds": 2}),
)


def _stored(event: Event) -> dict[str, Any]:
    """An event's public data and private parts apart, as plain JSON values."""
    private = {str(seat): to_builtins(part) for seat, part in event.private.items()}
    return {
        "seq": event.seq,
        "type": event.type,
        "data": to_builtins(event.data),
        "private": private,
    }


def _recorded_view(shown: TableView) -> object:
    """The view as the digests recorded it: the engine's view was a dict then, whose draw, pass
    and next-hand options were `{"action"}` alone (as the options are now), and a seat's view
    of a hand that is over offered `next_hand` (now `status` says so: `legal` holds moves only).
    Everything else is the same JSON."""
    plain = msgspec.json.decode(msgspec.json.encode(shown))
    if plain["status"] == "hand_over" and plain["you_hand"] is not None:
        plain["legal"] = [{"action": "next_hand"}]
    return plain


def _dump(value: object) -> bytes:
    # Structs (a snapshot, a ledger) as the plain JSON values they write.
    plain = to_builtins(value)
    return json.dumps(plain, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _option(option: LegalAction) -> dict[str, Any]:
    """An offered option as the digests recorded it: a play with its tile, end and points, the
    others by their action alone."""
    if option.action != "play":
        return {"action": option.action}
    return {"action": "play", "tile": option.tile, "end": option.end, "points": option.points}


def play(stem: str, preset: str, options: dict[str, Any], index: int) -> tuple[str, LedgerOut]:
    """One match: (hex digest of every step, its ledger)."""
    rules = make_ruleset(preset, options)
    secret = hashlib.sha256(f"compat|{stem}|{index}".encode()).digest()
    rng = random.Random(f"compat:{stem}:{index}")
    plain = PlainStrategy() if index >= MATCHES else None
    full = plain is not None or index < FULL_MATCHES
    digest = hashlib.sha256()
    state = new_match(rules, secret)
    transition = apply(state, None, Start(f"cut-{stem}-{index}"))
    while True:
        state = transition.state
        digest.update(_dump([_stored(event) for event in transition.events]))
        over = state.status not in ("playing", "hand_over")
        if full or over:
            snapshot = to_json(state)
            digest.update(_dump(snapshot))
            digest.update(_dump(to_json(from_json(snapshot))))
            for seat in (None, *range(rules.players)):
                digest.update(_dump(_recorded_view(view(state, seat))))
        if over:
            break
        if state.status == "hand_over":
            transition = apply(state, None, NextHand())
            continue
        seat = state.turn
        assert seat is not None
        legal = legal_actions(state, seat)
        if full:
            digest.update(_dump([_option(option) for option in legal]))
        if plain is not None:
            action, reason = plain.choose(seat_view(state, seat), rng)
            digest.update(reason.encode())
            transition = apply(state, seat, action)
        else:
            transition = apply(state, seat, rng.choice(legal))
    return digest.hexdigest(), ledger(state, match_id=f"compat-{stem}-{index}")


def record(stem: str, preset: str, options: dict[str, Any]) -> dict[str, Any]:
    digests, ledgers = [], []
    for index in range(MATCHES + PLAIN_MATCHES):
        step_digest, match_ledger = play(stem, preset, options, index)
        digests.append(step_digest)
        ledgers.append(match_ledger)
    return {"preset": preset, "options": options, "digests": digests, "ledgers": ledgers}


def deal_vectors() -> dict[str, Any]:
    return published_vectors(published.reference(published.load()))


def write() -> None:
    FIXTURES.mkdir(exist_ok=True)
    for stem, preset, options in VARIANTS + TRAIN_VARIANTS:
        data = _dump(record(stem, preset, options))
        (FIXTURES / f"{stem}.json.gz").write_bytes(gzip.compress(data, mtime=0))
    (FIXTURES / "deal-vectors.json.gz").write_bytes(gzip.compress(_dump(deal_vectors()), mtime=0))


def stored(stem: str) -> bytes:
    return gzip.decompress((FIXTURES / f"{stem}.json.gz").read_bytes())


if __name__ == "__main__":
    write()
