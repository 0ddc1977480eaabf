"""Every tournament event type, once: the `data` each `type` carries, and one union tagged by
`type`, as msgspec Structs in the style of engine/event_types.py.

tournaments/service.py and hooks.py build the data where the rule lives and `service.emit` saves
it; `GET /v1/tournaments/{id}/events` answers the events encoded as they are, and openapi.json
publishes their generated schemas (`schemas`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, get_args

import msgspec
from msgspec import Meta, Struct
from pydantic import JsonValue

from domino_api.store.models import DecidedBy

Round = Annotated[int, Meta(ge=1)]
Index = Annotated[int, Meta(ge=0)]


class _Data(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    pass


class EntrantJoinedData(_Data, frozen=True):
    player_id: str
    name: str
    partner: Annotated[
        str | None,
        Meta(description="A tournament of pairs: the partner this player named (null: classic)"),
    ] = None
    paired: Annotated[
        bool,
        Meta(
            description="This entry made the pair whole (the partner had entered naming this"
            " player): from now on the pair goes by `partner`'s id, its lead"
        ),
    ] = False
    pair_name: Annotated[
        str | None,
        Meta(description="Once `paired`: the pair's name, both players (lead first)"),
    ] = None


class EntrantLeftData(_Data, frozen=True):
    player_id: str


class TournamentStartedData(_Data, frozen=True):
    seed: Annotated[str, Meta(description="The seed of the seeded order, as hex")]
    order: Annotated[list[str], Meta(description="Player ids in seeded order")]


class RoundOpenedData(_Data, frozen=True):
    round: Round
    byes: Annotated[list[str], Meta(description="Players who advance without a match this round")]
    rests: Annotated[list[str], Meta(description="Players who sit this round out (round robin)")]


class MatchOpenedData(_Data, frozen=True):
    round: Round
    index: Index
    match_id: str
    players: list[str]
    check_in_deadline: str


class MatchDecidedData(_Data, frozen=True):
    round: Round
    index: Index
    match_id: str | None
    winner: str | None
    reason: DecidedBy | None


class RoundCompletedData(_Data, frozen=True):
    round: Round


class TournamentFinishedData(_Data, frozen=True):
    champion: str


class TournamentCancelledData(_Data, frozen=True):
    pass


class _Event(Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    seq: Annotated[int, Meta(ge=1, description="Rises by one from 1 within the tournament")]
    at: Annotated[datetime, Meta(extra_json_schema={"format": "date-time"})]


# One class per type, its tag the `type` on the wire; the docstring says what happened.
class EntrantJoinedEvent(_Event, tag="entrant_joined", frozen=True):
    """A player entered (in a tournament of pairs naming a partner; `paired` once whole)."""

    data: EntrantJoinedData


class EntrantLeftEvent(_Event, tag="entrant_left", frozen=True):
    """An entrant left before the start."""

    data: EntrantLeftData


class TournamentStartedEvent(_Event, tag="tournament_started", frozen=True):
    """The host started the tournament; the seeded order is fixed."""

    data: TournamentStartedData


class RoundOpenedEvent(_Event, tag="round_opened", frozen=True):
    """A round opened."""

    data: RoundOpenedData


class MatchOpenedEvent(_Event, tag="match_opened", frozen=True):
    """A round's match opened for check-in."""

    data: MatchOpenedData


class MatchDecidedEvent(_Event, tag="match_decided", frozen=True):
    """A match was decided (played, forfeited, or nobody came)."""

    data: MatchDecidedData


class RoundCompletedEvent(_Event, tag="round_completed", frozen=True):
    """Every pairing of a round is decided."""

    data: RoundCompletedData


class TournamentFinishedEvent(_Event, tag="tournament_finished", frozen=True):
    """The tournament has its champion."""

    data: TournamentFinishedData


class TournamentCancelledEvent(_Event, tag="tournament_cancelled", frozen=True):
    """The tournament was cancelled."""

    data: TournamentCancelledData


TournamentEvent = (
    EntrantJoinedEvent
    | EntrantLeftEvent
    | TournamentStartedEvent
    | RoundOpenedEvent
    | MatchOpenedEvent
    | MatchDecidedEvent
    | RoundCompletedEvent
    | TournamentFinishedEvent
    | TournamentCancelledEvent
)
TournamentData = (
    EntrantJoinedData
    | EntrantLeftData
    | TournamentStartedData
    | RoundOpenedData
    | MatchOpenedData
    | MatchDecidedData
    | RoundCompletedData
    | TournamentFinishedData
    | TournamentCancelledData
)
# Each data type's event tag (every type carries data of its own kind).
EVENT_TYPE: dict[type[TournamentData], str] = {
    next(f.type for f in msgspec.structs.fields(cls) if f.name == "data"): str(
        cls.__struct_config__.tag
    )
    for cls in get_args(TournamentEvent)
}


class TournamentEventsOut(Struct, frozen=True):
    """The tournament's events after a seq, in seq order."""

    events: list[TournamentEvent]


def event(seq: int, type_: str, at: datetime, data: JsonValue) -> TournamentEvent:
    """An event of the feed as stored (type, data) read back into its Struct."""
    raw = {"seq": seq, "type": type_, "at": at, "data": data}
    read: TournamentEvent = msgspec.convert(raw, TournamentEvent)
    return read


def schemas(ref_template: str) -> dict[str, JsonValue]:
    """TournamentEventsOut and every schema it names, as openapi.json publishes them."""
    _, components = msgspec.json.schema_components([TournamentEventsOut], ref_template=ref_template)
    return dict(components)
