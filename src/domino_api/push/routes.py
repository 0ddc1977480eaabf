"""HTTP routes for Web Push: the VAPID public key, and a player's devices' subscriptions."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Request, Response

from domino_api.errors import SubscriptionNotFound
from domino_api.push import subscriptions
from domino_api.push.runtime import Push
from domino_api.push.subscriptions import PushKeyOut, SubscriptionIn, SubscriptionOut
from domino_api.store import push_repo
from domino_api.web.deps import NO_STRAY_BODY, CurrentPlayer
from domino_api.web.problems import AUTH, BODY, INPUT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer
from domino_api.web.struct_bodies import reader, request_body

router = APIRouter(prefix="/v1", tags=["push"], dependencies=NO_STRAY_BODY)

# A player's devices kept at most; a new one beyond replaces its oldest.
MAX_DEVICES = 10
SubscriptionId = Annotated[str, Path(min_length=1, max_length=36)]


def push_of(request: Request) -> Push:
    push: Push = request.app.state.push
    return push


@router.get(
    "/push/key",
    summary="The VAPID public key for Web Push",
    responses=struct_answer(PushKeyOut) | problems(*AUTH),
)
async def push_key(request: Request, player: CurrentPlayer) -> FastJSONResponse:
    """The `applicationServerKey` a browser subscribes with (`PushManager.subscribe`): the same
    for every process of the deployment, and across restarts (docs/OPERATING.md, "Web Push")."""
    keys = await push_of(request).keys.get()
    return FastJSONResponse(PushKeyOut(public_key=keys.public_key))


@router.post(
    "/push/subscriptions",
    status_code=201,
    summary="Send your turns to this device (Web Push)",
    openapi_extra=request_body("SubscriptionIn"),
    responses=struct_answer(SubscriptionOut, 201) | problems(*AUTH, *BODY),
)
async def subscribe(
    body: Annotated[SubscriptionIn, Depends(reader(SubscriptionIn))],
    request: Request,
    player: CurrentPlayer,
) -> FastJSONResponse:
    """Keep a browser's `PushSubscription.toJSON()` for the caller: its turns at correspondence
    tables are pushed to it (payload: `{type: "your_turn", match, seat, title, body, deadline,
    url}`, nothing hidden). The endpoint must be `https` on a public host, `keys.p256dh` a P-256
    public key and `keys.auth` 16 bytes, else `422 validation_error`. An endpoint kept already
    is the caller's from now on, with these keys. A player's 10 newest devices are kept: an
    eleventh replaces the oldest."""
    push = push_of(request)
    subscriptions.check(body, push.settings.push_allow_local)
    async with push.pool.acquire() as connection, connection.transaction():
        found = await push_repo.subscribe(
            connection,
            str(uuid.uuid4()),
            player.id,
            body.endpoint,
            body.keys.p256dh,
            body.keys.auth,
        )
        await push_repo.keep_newest(connection, player.id, MAX_DEVICES)
    return FastJSONResponse(SubscriptionOut(id=found, endpoint=body.endpoint), status_code=201)


@router.delete(
    "/push/subscriptions/{subscription_id}",
    status_code=204,
    summary="Stop sending to this device",
    responses=problems(*AUTH, *INPUT, "subscription_not_found"),
)
async def unsubscribe(
    subscription_id: SubscriptionId, request: Request, player: CurrentPlayer
) -> Response:
    """Forget one of the caller's subscriptions, with the notices not yet sent to it."""
    async with push_of(request).pool.acquire() as connection:
        if not await push_repo.unsubscribe(connection, subscription_id, player.id):
            raise SubscriptionNotFound("You have no push subscription with this id.")
    return Response(status_code=204)
