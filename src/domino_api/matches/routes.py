"""HTTP routes for matches: parse, call one service function, return."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Header, Path, Query, Request

from domino_api import engine
from domino_api.deps import CoreDep, CurrentPlayer, SettingsDep, client_address, limits_of
from domino_api.errors import PROBLEM_RESPONSES, ServiceError, ValidationFailed
from domino_api.matches import creation, hosting, locking, pacing, service
from domino_api.matches.schemas import (
    EventOut,
    EventsOut,
    JoinBody,
    LedgerOut,
    MatchCreate,
    MessageBody,
    MoveBody,
    MoveOut,
    NextHandBody,
    RulesetsOut,
    SeatBody,
    StartBody,
    VerifyBody,
    VerifyOut,
    ViewOut,
)
from domino_api.responses import FastJSONResponse

router = APIRouter(prefix="/v1", tags=["matches"], responses=PROBLEM_RESPONSES)

MatchId = Annotated[str, Path(max_length=36, description="The match id")]
SeatQuery = Annotated[int | None, Query(ge=0, le=3, description="Which of your seats to see from")]
IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=200)]

PROBLEMS = PROBLEM_RESPONSES
# Every refused join answers this long after it arrived (see `join`).
JOIN_REFUSAL_S = 0.05


@router.get("/rulesets", summary="Every preset with its parameters and allowed overrides")
async def rulesets(_: CurrentPlayer) -> RulesetsOut:
    return RulesetsOut.model_validate({"rulesets": engine.ruleset_catalog()})


@router.post("/matches", status_code=201, summary="Create a match", responses=PROBLEMS)
async def create_match(
    body: MatchCreate,
    request: Request,
    player: CurrentPlayer,
    core: CoreDep,
    settings: SettingsDep,
) -> ViewOut:
    await limits_of(request).hit("create_match", f"player:{player.id}", client_address(request))
    cap = settings.open_tables_per_player
    return ViewOut(**await creation.create_match(core, player, body, open_tables_cap=cap))


@router.post("/matches/join", summary="Join a match by its 4-digit code", responses=PROBLEMS)
async def join(
    body: JoinBody,
    request: Request,
    player: CurrentPlayer,
    core: CoreDep,
    settings: SettingsDep,
) -> ViewOut:
    limits = limits_of(request)
    await limits.hit("join", client_address(request), f"player:{player.id}")
    # Refused joins and claims count against the number itself, whoever sends them.
    if await limits.exhausted("claim_failures", body.code):
        await limits.refuse("claim_failures", body.code)
    started = time.perf_counter()
    try:
        view = await creation.join(core, player, body.code, settings.presence_lease_s)
    except ServiceError:
        await limits.hit("claim_failures", body.code)
        # An unknown number is refused after one lookup, a started table after reading it:
        # every refusal answers at the same moment, so timing does not tell them apart.
        await pacing.until(started + JOIN_REFUSAL_S)
        raise
    return ViewOut(**view)


@router.post("/matches/{match_id}/start", summary="Host: cut and deal hand 1", responses=PROBLEMS)
async def start(
    match_id: MatchId, player: CurrentPlayer, core: CoreDep, body: StartBody | None = None
) -> ViewOut:
    body = body or StartBody()
    return ViewOut(**await service.start(core, player, match_id, body.cut, body.fill_with_bots))


@router.get("/matches/{match_id}", summary="Your view of a match", responses=PROBLEMS)
async def get_match(
    match_id: MatchId, player: CurrentPlayer, core: CoreDep, seat: SeatQuery = None
) -> ViewOut:
    view = await service.get_view(core, player, match_id, seat)
    return ViewOut(**hosting.shown_to(view))


@router.post(
    "/matches/{match_id}/moves",
    summary="Play, draw or pass",
    responses=PROBLEMS,
    response_model=MoveOut,
)
async def move(
    match_id: MatchId,
    body: MoveBody,
    player: CurrentPlayer,
    core: CoreDep,
    idempotency_key: IdemKey = None,
) -> FastJSONResponse:
    # The hottest route: its answer is sent as built (see FastJSONResponse).
    return FastJSONResponse(await service.move(core, player, match_id, body, idempotency_key))


@router.post("/matches/{match_id}/hands", summary="Start the next hand", responses=PROBLEMS)
async def next_hand(
    match_id: MatchId, player: CurrentPlayer, core: CoreDep, body: NextHandBody | None = None
) -> ViewOut:
    seat = body.seat if body else None
    return ViewOut(**await service.next_hand(core, player, match_id, seat))


@router.put(
    "/matches/{match_id}/seats/{seat}/autopilot",
    summary="Host: let the computer play a seat",
    responses=PROBLEMS,
)
async def autopilot_on(
    match_id: MatchId,
    seat: Annotated[int, Path(ge=0, le=3)],
    player: CurrentPlayer,
    core: CoreDep,
) -> ViewOut:
    return ViewOut(**await service.set_autopilot(core, player, match_id, seat, True))


@router.delete(
    "/matches/{match_id}/seats/{seat}/autopilot",
    summary="Take a seat back from the computer",
    responses=PROBLEMS,
)
async def autopilot_off(
    match_id: MatchId,
    seat: Annotated[int, Path(ge=0, le=3)],
    player: CurrentPlayer,
    core: CoreDep,
) -> ViewOut:
    return ViewOut(**await service.set_autopilot(core, player, match_id, seat, False))


@router.put(
    "/matches/{match_id}/lock",
    summary="Host: lock the table (no seat is taken by number and name)",
    responses=PROBLEMS,
)
async def lock(match_id: MatchId, player: CurrentPlayer, core: CoreDep) -> ViewOut:
    return ViewOut(**await locking.set_lock(core, player, match_id, True))


@router.delete("/matches/{match_id}/lock", summary="Host: unlock the table", responses=PROBLEMS)
async def unlock(match_id: MatchId, player: CurrentPlayer, core: CoreDep) -> ViewOut:
    return ViewOut(**await locking.set_lock(core, player, match_id, False))


@router.delete(
    "/matches/{match_id}/seats/{seat}/holder",
    summary="Host: release another's seat for the next join by number",
    responses=PROBLEMS,
)
async def release_seat(
    match_id: MatchId,
    seat: Annotated[int, Path(ge=0, le=3)],
    player: CurrentPlayer,
    core: CoreDep,
) -> ViewOut:
    return ViewOut(**await locking.release(core, player, match_id, seat))


@router.post(
    "/matches/{match_id}/messages", status_code=201, summary="Table talk", responses=PROBLEMS
)
async def post_message(
    match_id: MatchId, body: MessageBody, request: Request, player: CurrentPlayer, core: CoreDep
) -> EventOut:
    await limits_of(request).hit("chat", f"{match_id}:{player.id}")
    return EventOut(**await service.message(core, player, match_id, body.text, body.seat))


@router.post("/matches/{match_id}/resign", summary="Resign your seat", responses=PROBLEMS)
async def resign(
    match_id: MatchId, player: CurrentPlayer, core: CoreDep, body: SeatBody | None = None
) -> ViewOut:
    seat = body.seat if body else None
    return ViewOut(**await service.resign(core, player, match_id, seat))


@router.post("/matches/{match_id}/ready", summary="Tournament check-in", responses=PROBLEMS)
async def ready(
    match_id: MatchId, player: CurrentPlayer, core: CoreDep, body: SeatBody | None = None
) -> ViewOut:
    seat = body.seat if body else None
    return ViewOut(**await service.ready(core, player, match_id, seat))


@router.post("/matches/{match_id}/rematch", summary="Opt in to a rematch", responses=PROBLEMS)
async def rematch(
    match_id: MatchId, player: CurrentPlayer, core: CoreDep, body: SeatBody | None = None
) -> ViewOut:
    seat = body.seat if body else None
    return ViewOut(**await creation.rematch(core, player, match_id, seat))


@router.get("/matches/{match_id}/events", summary="Events after a seq, as you may see them")
async def list_events(
    match_id: MatchId,
    player: CurrentPlayer,
    core: CoreDep,
    after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
    seat: SeatQuery = None,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> EventsOut:
    rows = await service.events(core, player, match_id, after, seat, limit)
    return EventsOut.model_validate({"events": rows})


@router.get(
    "/matches/{match_id}/ledger",
    summary="The full record of a finished match",
    responses=PROBLEMS,
)
async def get_ledger(match_id: MatchId, player: CurrentPlayer, core: CoreDep) -> LedgerOut:
    return LedgerOut.model_validate(await service.ledger(core, player, match_id))


@router.post("/deals/verify", summary="Recompute a sealed deal from its secret and cut")
async def verify_deal(body: VerifyBody, _: CurrentPlayer) -> VerifyOut:
    size = (body.max_pip + 1) * (body.max_pip + 2) // 2
    if body.players * body.hand_size > size:
        raise ValidationFailed(
            f"{body.players} x {body.hand_size} tiles exceed the {size}-tile set."
        )
    secret = bytes.fromhex(body.secret)
    dealt = engine.deal(
        secret, body.cut, body.hand_number, body.attempt, body.max_pip, body.players, body.hand_size
    )
    return VerifyOut(
        commitment_ok=engine.commitment(secret) == body.commitment.lower(),
        hands=[list(hand) for hand in dealt.hands],
        stock=list(dealt.stock),
    )
