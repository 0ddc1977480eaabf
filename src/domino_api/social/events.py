"""The lobby socket's events about a player's friends and challenges: one union tagged by
`type`, as lobby/events.py's are, each sent to one player's lobby sockets alone (a
`lobby_events` row with its `player_id`, realtime/lobby_feed.py).

`friend_request` and `friend_added` follow a friend request and its acceptance;
`friend_online` and `friend_offline` a friend's presence (social/presence.py);
`challenge_received` a challenge of the player; `challenge_closed` the end of a challenge
the player made or was sent (accepted: the player's seat at the new, started match).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from domino_api.engine.event_types import Moment, SeatNo
from domino_api.jsontext import dumps
from domino_api.matches.schemas import MatchOptions

Closed = Literal["accepted", "declined", "cancelled"]
ChallengeStatus = Literal["open", "accepted", "declined", "cancelled", "expired"]


class PlayerRef(Struct, frozen=True, kw_only=True):
    """A player as friends and challenges name it: its id and its profile name."""

    id: str
    name: str


class ChallengeShown(Struct, frozen=True, kw_only=True):
    """A challenge: who made it, whom it names (None: an invitation anyone with its link may
    take), the preset, options and rating asked, and where it stands."""

    id: str
    challenger: PlayerRef
    challenged: PlayerRef | None
    ruleset: str
    options: MatchOptions  # a new match's overrides of the preset, as asked
    rated: bool
    status: ChallengeStatus
    match: str | None  # the new match, once accepted
    created_at: Moment
    expires_at: Moment


class _SocialEvent(Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    pass


class FriendRequest(_SocialEvent, tag="friend_request", frozen=True):
    """A player asked to be friends: adding it back makes you friends."""

    player: PlayerRef


class FriendAdded(_SocialEvent, tag="friend_added", frozen=True):
    """You and this player are friends now (one asked, the other added it back)."""

    player: PlayerRef
    online: bool


class FriendOnline(_SocialEvent, tag="friend_online", frozen=True):
    """A friend came online (a socket of theirs is open)."""

    player: PlayerRef


class FriendOffline(_SocialEvent, tag="friend_offline", frozen=True):
    """A friend went offline (no socket of theirs is open any more)."""

    player: PlayerRef


class ChallengeReceived(_SocialEvent, tag="challenge_received", frozen=True):
    """A player challenged you: accept or decline it before it expires."""

    challenge: ChallengeShown


class ChallengeClosed(_SocialEvent, tag="challenge_closed", frozen=True):
    """A challenge you made or were sent was accepted (your seat at the started match),
    declined or cancelled."""

    id: str
    status: Closed
    match: str | None
    seat: SeatNo | None


SocialEvent = (
    FriendRequest | FriendAdded | FriendOnline | FriendOffline | ChallengeReceived | ChallengeClosed
)


def addressed(player_id: str, event: SocialEvent) -> tuple[str, str]:
    """An event as store/lobby_repo.append_player_events stores it: for this player alone."""
    return player_id, dumps(event)
