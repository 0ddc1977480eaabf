"""Request and response bodies of friends and challenges (social/routes.py). A challenge's
answer is the socket's `ChallengeShown` (social/events.py) as it is, with what only its
reader is told: the invitation link (its maker's) and the reader's seat."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct
from pydantic import ConfigDict, Field, model_validator
from pydantic.json_schema import WithJsonSchema

from domino_api.engine.event_types import Moment
from domino_api.matches.schemas import MatchOptions, Preset
from domino_api.social.events import ChallengeShown, PlayerRef
from domino_api.web.inputs import Strict
from domino_api.web.names import NAME_FORMAT, PlayerName
from domino_api.web.struct_bodies import Body

PlayerId = Annotated[str, Field(min_length=1, max_length=36, description="A player's id")]
# What `Named` publishes for each field: a string, never null (absent instead).
_ID_SCHEMA = {"type": "string", "minLength": 1, "maxLength": 36, "description": "A player's id"}
_NAME_SCHEMA = {
    "type": "string",
    "minLength": 1,
    "maxLength": 32,
    "format": NAME_FORMAT,
    "description": "A player's name, in any case",
    "examples": ["Bob"],
}


# One model, not a union of `{id}` and `{name}`: a refusal then names the field at fault alone
# (`name: ... U+202E`), not both shapes' complaints.
class Named(Strict):
    """A player named by its `id`, or by its `name` in any case (a name more than one player
    goes by is `409 name_ambiguous`: name it by its id). Exactly one of the two."""

    model_config = ConfigDict(
        **Strict.model_config, json_schema_extra={"minProperties": 1, "maxProperties": 1}
    )

    # Absent, not null: the schema says exactly one property, each a string.
    id: Annotated[PlayerId | None, WithJsonSchema(_ID_SCHEMA)] = None
    name: Annotated[PlayerName | None, WithJsonSchema(_NAME_SCHEMA)] = None

    @model_validator(mode="after")
    def _one_of_the_two(self) -> Named:
        if (self.id is None) == (self.name is None):
            raise ValueError("name the player by `id` or by `name`: one of the two")
        return self


class FriendOut(Struct, frozen=True, kw_only=True):
    """A friend and whether it is online (a socket of theirs is open: docs/API.md, "Friends and
    challenges")."""

    id: str
    name: str
    online: bool
    since: Annotated[Moment, Meta(description="When you asked (or accepted) to be friends")]


class FriendsOut(Struct, frozen=True, kw_only=True):
    """Your friends, and the requests not yet answered either way."""

    friends: Annotated[
        tuple[FriendOut, ...], Meta(description="Online friends first, then by name")
    ]
    incoming: Annotated[
        tuple[PlayerRef, ...], Meta(description="Players who asked you: add one back to accept")
    ]
    outgoing: Annotated[
        tuple[PlayerRef, ...], Meta(description="Players you asked, who have not added you")
    ]


class FriendAnswer(Struct, frozen=True, kw_only=True):
    """What a friend request did."""

    status: Annotated[
        Literal["friends", "requested"],
        Meta(
            description="`friends`: the player had asked you too (or you were friends already);"
            " `requested`: the player is asked, and becomes your friend by adding you back"
        ),
    ]
    player: PlayerRef


class Challenged(Body):
    """The player challenged: by `id` or by `name` (in any case; a name more than one player
    goes by is `409 name_ambiguous`), exactly one of the two."""

    id: Annotated[str, Meta(min_length=1, max_length=36)] | None = None
    name: PlayerName | None = None

    def check(self) -> None:
        if (self.id is None) == (self.name is None):
            raise ValueError("name the player by `id` or by `name`: one of the two")

    def named(self) -> Named:
        return Named(id=self.id) if self.id is not None else Named(name=self.name)


class ChallengeCreate(Body):
    """A challenge of a named player (`to`), or, with no `to`, an invitation link anyone
    signed in may take. `options` are a new match's (`GET /v1/rulesets`, else `422
    bad_options`)."""

    ruleset: Preset
    to: Annotated[Challenged | None, Meta(description="The player challenged; none: a link")] = None
    options: Annotated[
        MatchOptions,
        Meta(
            examples=[{"target": 100}],
            description="The preset's overrides, as a new match takes them (target, clock...)",
        ),
    ] = msgspec.field(default_factory=MatchOptions)
    rated: Annotated[bool, Meta(description="Whether the match moves both ratings")] = False


class ChallengeOut(ChallengeShown, frozen=True, kw_only=True):
    """A challenge as its reader is shown it: its seat, and the link if it made it."""

    seat: Annotated[int | None, Meta(description="Your seat at `match`, if you play it")]
    invite: Annotated[
        str | None,
        Meta(
            description="The invitation link's path (`/play/#invite/<token>`), shown to the"
            " challenger alone; open it to see and take the challenge"
        ),
    ]


class ChallengesOut(Struct, frozen=True, kw_only=True):
    """Your open challenges: those you were sent and those you made, newest first."""

    incoming: tuple[ChallengeOut, ...]
    outgoing: tuple[ChallengeOut, ...]


ANSWERS = (ChallengeOut, ChallengesOut, FriendOut, FriendsOut, FriendAnswer)
