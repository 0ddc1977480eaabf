"""Every tournament event type as a pydantic model: the `data` each `type` carries.

`GET /v1/tournaments/{id}/events` answers these, one union by `type` (openapi/openapi.json);
tournaments/service.py and hooks.py write the `data` dicts that these models read back.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid")


class EntrantJoinedData(_Data):
    player_id: str
    name: str


class EntrantLeftData(_Data):
    player_id: str


class TournamentStartedData(_Data):
    seed: str = Field(description="The seed of the seeded order, as hex")
    order: list[str] = Field(description="Player ids in seeded order")


class RoundOpenedData(_Data):
    round: int = Field(ge=1)
    byes: list[str] = Field(description="Players who advance without a match this round")
    rests: list[str] = Field(description="Players who sit this round out (round robin)")


class MatchOpenedData(_Data):
    round: int = Field(ge=1)
    index: int = Field(ge=0)
    match_id: str
    players: list[str]
    check_in_deadline: str


class MatchDecidedData(_Data):
    round: int = Field(ge=1)
    index: int = Field(ge=0)
    match_id: str | None
    winner: str | None
    reason: Literal["played", "forfeit", "no_show"] | None


class RoundCompletedData(_Data):
    round: int = Field(ge=1)


class TournamentFinishedData(_Data):
    champion: str


class TournamentCancelledData(_Data):
    pass


class _Event(BaseModel):
    """One change to the tournament; `seq` rises by one from 1 within the tournament."""

    seq: int = Field(ge=1, examples=[1])
    at: datetime


class EntrantJoinedEvent(_Event):
    type: Literal["entrant_joined"]
    data: EntrantJoinedData


class EntrantLeftEvent(_Event):
    type: Literal["entrant_left"]
    data: EntrantLeftData


class TournamentStartedEvent(_Event):
    type: Literal["tournament_started"]
    data: TournamentStartedData


class RoundOpenedEvent(_Event):
    type: Literal["round_opened"]
    data: RoundOpenedData


class MatchOpenedEvent(_Event):
    type: Literal["match_opened"]
    data: MatchOpenedData


class MatchDecidedEvent(_Event):
    type: Literal["match_decided"]
    data: MatchDecidedData


class RoundCompletedEvent(_Event):
    type: Literal["round_completed"]
    data: RoundCompletedData


class TournamentFinishedEvent(_Event):
    type: Literal["tournament_finished"]
    data: TournamentFinishedData


class TournamentCancelledEvent(_Event):
    type: Literal["tournament_cancelled"]
    data: TournamentCancelledData


TournamentEventOut = Annotated[
    EntrantJoinedEvent
    | EntrantLeftEvent
    | TournamentStartedEvent
    | RoundOpenedEvent
    | MatchOpenedEvent
    | MatchDecidedEvent
    | RoundCompletedEvent
    | TournamentFinishedEvent
    | TournamentCancelledEvent,
    Field(discriminator="type"),
]


class TournamentEventsOut(BaseModel):
    events: list[TournamentEventOut]


def _data_models() -> dict[str, type[BaseModel]]:
    union = get_args(get_args(TournamentEventOut)[0])
    return {
        get_args(event.model_fields["type"].annotation)[0]: event.model_fields["data"].annotation
        for event in union
    }


# Each event type's `data` model: service.emit checks every event against it before saving.
EVENT_DATA: dict[str, type[BaseModel]] = _data_models()
