"""HTTP routes of friends and challenges (docs/API.md, "Friends and challenges")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response

from domino_api.lobby.runtime import LobbyDep
from domino_api.social import challenges, friends
from domino_api.social.models import (
    ChallengeCreate,
    ChallengeOut,
    ChallengesOut,
    FriendAnswer,
    FriendsOut,
    Named,
)
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer, client_address, limits_of, settings_of
from domino_api.web.problems import AUTH, BODY, INPUT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer
from domino_api.web.struct_bodies import reader, request_body

router = APIRouter(prefix="/v1", tags=["friends"], dependencies=NO_STRAY_BODY)

PlayerId = Annotated[str, Path(max_length=36, description="The player's id")]
ChallengeId = Annotated[str, Path(max_length=36, description="The challenge's id")]
Token = Annotated[str, Path(max_length=32, description="The invitation link's token")]
PAIR = ("player_not_found", "name_ambiguous", "yourself", "blocked")
FOUND = (*AUTH, *INPUT, "challenge_not_found")
OPEN = ("challenge_answered", "challenge_expired")
REFUSED = ("yourself", "not_challenged", "blocked", "rate_limited", "match_full", "match_busy")
ACCEPT = (*FOUND, *OPEN, *REFUSED)


@router.get(
    "/friends",
    summary="Your friends, who is online, and requests",
    responses=struct_answer(FriendsOut) | problems(*AUTH),
)
async def list_friends(lobby: LobbyDep, player: CurrentPlayer) -> FastJSONResponse:
    """Your friends (online first: a socket of theirs is open, `friend_online` and
    `friend_offline` on your lobby socket follow it), the requests you were sent and those you
    sent. A player one of you blocked is left out."""
    return FastJSONResponse(await friends.listing(lobby.core, player))


@router.post(
    "/friends",
    summary="Ask to be friends, or accept",
    openapi_extra=request_body("Named"),
    responses=struct_answer(FriendAnswer) | problems(*BODY, *AUTH, *PAIR, "rate_limited"),
)
async def add_friend(
    body: Annotated[Named, Depends(reader(Named))],
    request: Request,
    lobby: LobbyDep,
    player: CurrentPlayer,
) -> FastJSONResponse:
    """Ask a player (by `id` or `name`) to be friends (`requested`: it is told by
    `friend_request`), or accept its request by asking back (`friends`: both are told by
    `friend_added`). Asking again changes nothing. A player's requests are budgeted
    (`DOMINO_FRIEND_RATE_LIMIT` a window: `429 rate_limited`)."""
    await limits_of(request).hit("friend", f"player:{player.id}")
    return FastJSONResponse(await friends.add(lobby.core, lobby.publish, player, body))


@router.delete(
    "/friends/{player_id}",
    status_code=204,
    summary="Remove a friend, or a request",
    responses=problems(*AUTH, *INPUT, "player_not_found"),
)
async def remove_friend(player_id: PlayerId, lobby: LobbyDep, player: CurrentPlayer) -> Response:
    """End the friendship for both, withdraw your request, or decline the player's."""
    await friends.remove(lobby.core, player, player_id)
    return Response(status_code=204)


@router.post(
    "/challenges",
    status_code=201,
    summary="Challenge a player, or make an invitation link",
    openapi_extra=request_body("ChallengeCreate"),
    responses=struct_answer(ChallengeOut, 201)
    | problems(
        *BODY, *AUTH, *PAIR, "unknown_ruleset", "bad_options", "option_not_allowed", "rate_limited"
    ),
)
async def create_challenge(
    body: Annotated[ChallengeCreate, Depends(reader(ChallengeCreate))],
    request: Request,
    lobby: LobbyDep,
    player: CurrentPlayer,
) -> FastJSONResponse:
    """Challenge `to` (by id or name: told by `challenge_received`) to a two-player match of
    `ruleset` with `options` (`rated` or not), or, with no `to`, make an invitation link
    (`invite`) anyone signed in may open and take. It expires unanswered after
    `DOMINO_CHALLENGE_TTL_S` (`expires_at`)."""
    await limits_of(request).hit_from(
        "create_match", client_address(request), f"player:{player.id}"
    )
    ttl_s = settings_of(request).challenge_ttl_s
    made = await challenges.create(lobby.core, lobby.publish, player, body, ttl_s)
    return FastJSONResponse(made, status_code=201)


@router.get(
    "/challenges",
    summary="Your open challenges",
    responses=struct_answer(ChallengesOut) | problems(*AUTH),
)
async def list_challenges(lobby: LobbyDep, player: CurrentPlayer) -> FastJSONResponse:
    """The open, unexpired challenges you were sent and those you made (one between you and a
    player either of you blocked is left out)."""
    return FastJSONResponse(await challenges.listing(lobby.core, player))


@router.get(
    "/challenges/{challenge_id}",
    summary="A challenge",
    responses=struct_answer(ChallengeOut) | problems(*FOUND),
)
async def read_challenge(
    challenge_id: ChallengeId, lobby: LobbyDep, player: CurrentPlayer
) -> FastJSONResponse:
    """A challenge you made, were sent or accepted (another's is `404 challenge_not_found`)."""
    return FastJSONResponse(await challenges.read(lobby.core, player, challenge_id))


@router.post(
    "/challenges/{challenge_id}/accept",
    summary="Accept a challenge: the match starts",
    responses=struct_answer(ChallengeOut) | problems(*ACCEPT),
)
async def accept_challenge(
    challenge_id: ChallengeId, lobby: LobbyDep, player: CurrentPlayer
) -> FastJSONResponse:
    """The challenged player takes seat 1 of a new match its challenger hosts at seat 0; the
    match is dealt at once (`match`, `seat`), and the challenger is told (`challenge_closed`)."""
    return FastJSONResponse(
        await challenges.accept(lobby.core, lobby.publish, lobby.caps, player, challenge_id)
    )


@router.post(
    "/challenges/{challenge_id}/decline",
    summary="Decline a challenge",
    responses=struct_answer(ChallengeOut) | problems(*FOUND, *OPEN, "not_challenged"),
)
async def decline_challenge(
    challenge_id: ChallengeId, lobby: LobbyDep, player: CurrentPlayer
) -> FastJSONResponse:
    """The challenged player says no; the challenger is told (`challenge_closed`)."""
    return FastJSONResponse(
        await challenges.answer(lobby.core, lobby.publish, player, challenge_id, "declined")
    )


@router.delete(
    "/challenges/{challenge_id}",
    summary="Cancel your challenge",
    responses=struct_answer(ChallengeOut) | problems(*FOUND, *OPEN, "not_challenged"),
)
async def cancel_challenge(
    challenge_id: ChallengeId, lobby: LobbyDep, player: CurrentPlayer
) -> FastJSONResponse:
    """Its maker takes it back (the challenged player is told: `challenge_closed`)."""
    return FastJSONResponse(
        await challenges.answer(lobby.core, lobby.publish, player, challenge_id, "cancelled")
    )


@router.get(
    "/invites/{token}",
    summary="An invitation link's challenge",
    responses=struct_answer(ChallengeOut) | problems(*FOUND),
)
async def read_invite(token: Token, lobby: LobbyDep, player: CurrentPlayer) -> FastJSONResponse:
    """The challenge behind an invitation link (`/play/#invite/<token>`), for anyone signed in."""
    return FastJSONResponse(await challenges.read(lobby.core, player, None, token))


@router.post(
    "/invites/{token}/accept",
    summary="Take an invitation's seat",
    responses=struct_answer(ChallengeOut) | problems(*ACCEPT),
)
async def accept_invite(token: Token, lobby: LobbyDep, player: CurrentPlayer) -> FastJSONResponse:
    """As accepting a challenge: anyone signed in takes an invitation's seat (a link that names
    a player takes only that player: `403 not_challenged`)."""
    return FastJSONResponse(
        await challenges.accept(lobby.core, lobby.publish, lobby.caps, player, None, token)
    )
