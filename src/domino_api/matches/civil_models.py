"""A civil table's bodies and answers: mutes, reports and blocks (matches/civil.py)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from domino_api.web.names import ReasonText
from domino_api.web.responses import DateTime
from domino_api.web.struct_bodies import Body


class MutesOut(Struct, frozen=True, kw_only=True):
    """The seats whose talk the caller has muted at this match (on every device of its)."""

    seats: Annotated[list[int], Meta(description="Muted seats; their `message` events come marked")]


class ReportBody(Body):
    reason: Annotated[ReasonText | None, Meta(examples=["insults after every hand"])] = None


class ReportOut(Struct, frozen=True, kw_only=True):
    """A message reported to the operators, kept as it was sent."""

    id: int
    match_id: str
    seq: int
    seat: int
    created_at: DateTime


class BlockOut(Struct, frozen=True, kw_only=True):
    """A player kept from the caller's tables."""

    player_id: str
    name: Annotated[
        str,
        Meta(description="The name the player went by at the table it was blocked from"),
    ]
    created_at: DateTime


class BlocksOut(Struct, frozen=True, kw_only=True):
    """The players the caller keeps from the tables it hosts, newest first."""

    blocks: list[BlockOut]


# The civil table's answers, published beside the matches' (documents/openapi_doc.py).
ANSWERS = (MutesOut, ReportOut, BlockOut, BlocksOut)
