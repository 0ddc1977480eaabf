"""The forms the engine stores and publishes itself, as frozen msgspec Structs: a snapshot (what
storage keeps of a match) and the ledger (`GET /v1/matches/{id}/ledger`).

Each type owns its wire form: msgspec writes a snapshot and reads it back (`decode_snapshot`),
and the published schemas are generated from these types. A snapshot's placements, open ends,
moves and double to cover are rows (`array_like`: values in field order), the form every stored
snapshot holds.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta, Struct

from domino_api.engine.kinds import (
    ActionName,
    EndName,
    HandReason,
    SeatKind,
    Status,
)
from domino_api.engine.move_record import Move
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import HandResult, MatchResult
from domino_api.engine.tiles import Tile

# ---------------------------------------------------------------- a snapshot


class PlacementRow(Struct, frozen=True, array_like=True, gc=False):
    tile: Tile
    end: EndName | None
    outer: int | None
    spinner: bool


class OpenEndRow(Struct, frozen=True, array_like=True, gc=False):
    name: EndName
    pip: int
    value: int


class MoveRow(Struct, frozen=True, array_like=True, gc=False):
    seq: int
    seat: int
    action: ActionName
    tile: Tile | None
    end: EndName | None
    points: int | None
    reason: str | None


class MustCoverRow(Struct, frozen=True, array_like=True, gc=False):
    tile: Tile
    ends: tuple[EndName, ...]


class BoardSnapshot(Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    tiles: tuple[PlacementRow, ...]
    ends: tuple[OpenEndRow, ...]
    total: int
    spinner: int | None
    spinner_mains: tuple[EndName, ...]
    markers: int = 0  # Mexican Train's markers (a bit set of seats); left out when none


class HandSnapshot(Struct, frozen=True, kw_only=True, gc=False):
    number: int
    attempt: int
    opener: int
    dealt: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    drawn: int
    hands: tuple[tuple[Tile, ...], ...]
    board: BoardSnapshot
    turn: int | None
    opening_tile: Tile | None
    must_cover: MustCoverRow | None
    passes: int
    moves: tuple[MoveRow, ...]
    result: HandResult | None


class Snapshot(Struct, frozen=True, kw_only=True, gc=False):
    """A whole match as storage keeps it (`serialize.to_json`); the secret in hex."""

    version: int
    ruleset: Ruleset
    secret: str
    status: Status
    seq: int
    game_seq: int
    cut: str | None
    hand_number: int
    scores: tuple[int, ...]
    hands_won: tuple[int, ...]
    forfeited: tuple[bool, ...]
    hand: HandSnapshot | None
    history: tuple[HandSnapshot, ...]
    result: MatchResult | None


_SNAPSHOT = msgspec.json.Decoder(Snapshot)


def decode_snapshot(text: str | bytes) -> Snapshot:
    """A stored snapshot read from its JSON text (a malformed one: msgspec.ValidationError)."""
    return _SNAPSHOT.decode(text)


def snapshot_of(value: object) -> Snapshot:
    """A snapshot from plain JSON values (a column SQLAlchemy or a test read back)."""
    return msgspec.convert(value, Snapshot)


# ---------------------------------------------------------------- the ledger


class LedgerSeat(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    seat: int
    name: str | None
    type: SeatKind
    strategy: str | None
    forfeited: bool


class LedgerHandResult(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    reason: HandReason
    winner: int | None
    tied: bool
    pips: tuple[int, ...]
    points: int


class LedgerHand(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    number: int
    attempt: int
    opener: int
    dealt: Annotated[
        tuple[tuple[Tile, ...], ...], Meta(description="Each seat's dealt tiles, in dealt order")
    ]
    stock: tuple[Tile, ...]
    moves: tuple[Move, ...]  # the hand's own record (engine/state.py), published as it is
    result: LedgerHandResult


class LedgerDeal(Struct, frozen=True, kw_only=True):
    algorithm: Annotated[str, Meta(extra_json_schema={"enum": ["sha256-fy-v1"]})]
    commitment: str
    secret: str
    cut: str | None


class LedgerOut(Struct, frozen=True, kw_only=True):
    """The full record of a finished, abandoned or cancelled match (the deal: docs/RULES.md 11)."""

    match_id: str | None
    ruleset: Ruleset
    seats: tuple[LedgerSeat, ...]
    deal: LedgerDeal
    hands: tuple[LedgerHand, ...]
    result: MatchResult
