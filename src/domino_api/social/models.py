"""Request and response bodies of friends and challenges (social/routes.py). A challenge's
answer is the socket's `ChallengeShown` (social/events.py) as it is, with what only its
reader is told: the invitation link (its maker's) and the reader's seat."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType
from pydantic import JsonValue

from domino_api.engine.event_types import Moment
from domino_api.matches.schemas import MatchOptions, Preset
from domino_api.social.events import ChallengeShown, PlayerRef
from domino_api.web.names import PlayerName
from domino_api.web.struct_bodies import Body

PlayerId = Annotated[str, Meta(min_length=1, max_length=36, description="A player's id")]
# What `Named`'s schema adds to its properties (documents/openapi_doc.py): exactly one.
ONE_OF_TWO: dict[str, JsonValue] = {"minProperties": 1, "maxProperties": 1}


# One Struct, not a union of `{id}` and `{name}`: a refusal then names the field at fault alone
# (`name: ... U+202E`), not both shapes' complaints.
class Named(Body):
    """A player named by its `id`, or by its `name` in any case (a name more than one player
    goes by is `409 name_ambiguous`: name it by its id). Exactly one of the two."""

    # Absent, not null: the schema says exactly one property, each a string.
    id: PlayerId | UnsetType = UNSET
    name: (
        Annotated[PlayerName, Meta(description="A player's name, in any case", examples=["Bob"])]
        | UnsetType
    ) = UNSET

    def check(self) -> None:
        if (self.id is UNSET) == (self.name is UNSET):
            raise ValueError("name the player by `id` or by `name`: one of the two")


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
        if self.id is not None:
            return Named(id=self.id)
        assert self.name is not None  # one of the two (check)
        return Named(name=self.name)


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
