"""Request and response bodies of friends and challenges (social/routes.py). A challenge's
answer is the socket's `ChallengeShown` (social/events.py) as it is, with what only its
reader is told: the invitation link (its maker's) and the reader's seat."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue, model_validator
from pydantic.json_schema import WithJsonSchema

from domino_api.lobby.models import PRESET_SCHEMA
from domino_api.matches.schemas import MatchOptions, as_overrides
from domino_api.social.events import ChallengeStatus
from domino_api.web.inputs import Strict
from domino_api.web.names import NAME_FORMAT, PlayerName

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


class PlayerOut(BaseModel):
    id: str
    name: str


class FriendOut(BaseModel):
    """A friend and whether it is online (a socket of theirs is open: docs/API.md, "Friends and
    challenges")."""

    id: str
    name: str
    online: bool
    since: datetime = Field(description="When you asked (or accepted) to be friends")


class FriendsOut(BaseModel):
    friends: list[FriendOut] = Field(description="Online friends first, then by name")
    incoming: list[PlayerOut] = Field(description="Players who asked you: add one back to accept")
    outgoing: list[PlayerOut] = Field(description="Players you asked, who have not added you")


class FriendAnswer(BaseModel):
    status: Literal["friends", "requested"] = Field(
        description="`friends`: the player had asked you too (or you were friends already);"
        " `requested`: the player is asked, and becomes your friend by adding you back"
    )
    player: PlayerOut


class ChallengeCreate(Strict):
    """A challenge of a named player (`to`), or, with no `to`, an invitation link anyone
    signed in may take. `options` are a new match's (`GET /v1/rulesets`, else `422
    bad_options`)."""

    to: Named | None = Field(default=None, description="The player challenged; none: a link")
    ruleset: str = Field(max_length=32, examples=["all-fives"], json_schema_extra=PRESET_SCHEMA)
    if TYPE_CHECKING:
        options: dict[str, JsonValue]
    else:
        options: Annotated[MatchOptions, AfterValidator(as_overrides)] = Field(
            default_factory=dict,
            examples=[{"target": 100}],
            description="The preset's overrides, as a new match takes them (target, clock...)",
        )
    rated: bool = Field(default=False, description="Whether the match moves both ratings")


class ChallengeOut(BaseModel):
    id: str
    challenger: PlayerOut
    challenged: PlayerOut | None = Field(description="None: an invitation link")
    ruleset: str
    options: MatchOptions
    rated: bool
    status: ChallengeStatus = Field(
        description="`open` until accepted, declined, cancelled or `expired` (`expires_at`)"
    )
    match: str | None = Field(description="The new match (already started), once accepted")
    created_at: datetime
    expires_at: datetime
    seat: int | None = Field(description="Your seat at `match`, if you play it")
    invite: str | None = Field(
        description="The invitation link's path (`/play/#invite/<token>`), shown to the"
        " challenger alone; open it to see and take the challenge"
    )


class ChallengesOut(BaseModel):
    incoming: list[ChallengeOut] = Field(description="Open challenges of you, newest first")
    outgoing: list[ChallengeOut] = Field(description="Open challenges you made, newest first")
