"""A civil table's bodies and answers: mutes, reports and blocks (matches/civil.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from msgspec import Meta
from pydantic import BaseModel, Field

from domino_api.web.names import ReasonText
from domino_api.web.struct_bodies import Body


class MutesOut(BaseModel):
    """The seats whose talk the caller has muted at this match (on every device of its)."""

    seats: list[int] = Field(description="Muted seats; their `message` events come marked")


class ReportBody(Body):
    reason: Annotated[ReasonText | None, Meta(examples=["insults after every hand"])] = None


class ReportOut(BaseModel):
    """A message reported to the operators, kept as it was sent."""

    id: int
    match_id: str
    seq: int
    seat: int
    created_at: datetime


class BlockOut(BaseModel):
    player_id: str
    name: str = Field(description="The name the player went by at the table it was blocked from")
    created_at: datetime


class BlocksOut(BaseModel):
    """The players the caller keeps from the tables it hosts, newest first."""

    blocks: list[BlockOut]
