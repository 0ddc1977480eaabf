"""HTTP routes for matches: parse, call one service function, return."""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Header, Path, Query, Request

from domino_api import engine
from domino_api.deps import (
    ClockDep,
    CurrentPlayer,
    Db,
    SettingsDep,
    client_address,
    driver_pool,
)
from domino_api.errors import PROBLEM_RESPONSES, ValidationFailed
from domino_api.matches import fast, service
from domino_api.matches.event_models import EventsOut, MessageEvent, MoveOut
from domino_api.matches.schemas import (
    JoinBody,
    LedgerOut,
    MatchCreate,
    MessageBody,
    MoveBody,
    NextHandBody,
    RulesetsOut,
    SeatBody,
    StartBody,
    VerifyBody,
    VerifyOut,
    ViewOut,
)
from domino_api.ratelimit import RateLimiter
from domino_api.responses import FastJSONResponse
from domino_api.store.db import transaction

router = APIRouter(prefix="/v1", tags=["matches"], responses=PROBLEM_RESPONSES)

MatchId = Annotated[str, Path(max_length=36, description="The match id")]
SeatQuery = Annotated[int | None, Query(ge=0, le=3, description="Which of your seats to see from")]
IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=200)]

PROBLEMS = PROBLEM_RESPONSES


@router.get("/rulesets", summary="Every preset with its parameters and allowed overrides")
async def rulesets(_: CurrentPlayer) -> RulesetsOut:
    return RulesetsOut.model_validate({"rulesets": engine.ruleset_catalog()})


@router.post("/matches", status_code=201, summary="Create a match", responses=PROBLEMS)
async def create_match(
    body: MatchCreate, player: CurrentPlayer, db: Db, clock: ClockDep
) -> ViewOut:
    async with transaction(db) as session:
        return ViewOut(**await service.create_match(session, clock, player, body))


@router.post("/matches/join", summary="Join a match by its 4-digit code", responses=PROBLEMS)
async def join(
    body: JoinBody,
    request: Request,
    player: CurrentPlayer,
    db: Db,
    clock: ClockDep,
    settings: SettingsDep,
) -> ViewOut:
    limiter: RateLimiter | None = getattr(request.app.state, "join_limiter", None)
    if limiter is None:
        limiter = RateLimiter(settings.join_rate_limit, settings.rate_window_s)
        request.app.state.join_limiter = limiter
    limiter.check(client_address(request), clock.now().timestamp())
    async with transaction(db) as session:
        return ViewOut(**await service.join(session, clock, player, body.code))


@router.post("/matches/{match_id}/start", summary="Host: cut and deal hand 1", responses=PROBLEMS)
async def start(
    match_id: MatchId,
    request: Request,
    player: CurrentPlayer,
    db: Db,
    clock: ClockDep,
    body: StartBody | None = None,
) -> ViewOut:
    body = body or StartBody()
    cut, fill = body.cut, body.fill_with_bots
    step = partial(service.start_on, cut=cut, fill_with_bots=fill)
    answer = await fast.attempt(driver_pool(request), clock, player, match_id, "start", step)
    if answer is not None:
        return ViewOut(**answer)
    async with transaction(db) as session:
        return ViewOut(**await service.start(session, clock, player, match_id, cut, fill))


@router.get("/matches/{match_id}", summary="Your view of a match", responses=PROBLEMS)
async def get_match(
    match_id: MatchId, player: CurrentPlayer, db: Db, clock: ClockDep, seat: SeatQuery = None
) -> ViewOut:
    async with transaction(db) as session:
        return ViewOut(**await service.get_view(session, clock, player, match_id, seat))


@router.post(
    "/matches/{match_id}/moves",
    summary="Play, draw or pass",
    responses=PROBLEMS,
    response_model=MoveOut,
)
async def move(
    match_id: MatchId,
    body: MoveBody,
    request: Request,
    player: CurrentPlayer,
    db: Db,
    clock: ClockDep,
    idempotency_key: IdemKey = None,
) -> FastJSONResponse:
    # The hottest route: its answer is sent as built (see FastJSONResponse).
    if idempotency_key is None:
        step = partial(service.play_move, body=body)
        answer = await fast.attempt(driver_pool(request), clock, player, match_id, "move", step)
        if answer is not None:
            return FastJSONResponse(answer)
    async with transaction(db) as session:
        _, answer = await service.move(session, clock, player, match_id, body, idempotency_key)
    return FastJSONResponse(answer)


@router.post("/matches/{match_id}/hands", summary="Start the next hand", responses=PROBLEMS)
async def next_hand(
    match_id: MatchId,
    request: Request,
    player: CurrentPlayer,
    db: Db,
    clock: ClockDep,
    body: NextHandBody | None = None,
) -> ViewOut:
    seat = body.seat if body else None
    step = partial(service.next_hand_on, seat=seat)
    answer = await fast.attempt(driver_pool(request), clock, player, match_id, "next_hand", step)
    if answer is not None:
        return ViewOut(**answer)
    async with transaction(db) as session:
        return ViewOut(**await service.next_hand(session, clock, player, match_id, seat))


@router.put(
    "/matches/{match_id}/seats/{seat}/autopilot",
    summary="Host: let the computer play a seat",
    responses=PROBLEMS,
)
async def autopilot_on(
    match_id: MatchId,
    seat: Annotated[int, Path(ge=0, le=3)],
    player: CurrentPlayer,
    db: Db,
    clock: ClockDep,
) -> ViewOut:
    async with transaction(db) as session:
        return ViewOut(**await service.set_autopilot(session, clock, player, match_id, seat, True))


@router.delete(
    "/matches/{match_id}/seats/{seat}/autopilot",
    summary="Take a seat back from the computer",
    responses=PROBLEMS,
)
async def autopilot_off(
    match_id: MatchId,
    seat: Annotated[int, Path(ge=0, le=3)],
    player: CurrentPlayer,
    db: Db,
    clock: ClockDep,
) -> ViewOut:
    async with transaction(db) as session:
        return ViewOut(**await service.set_autopilot(session, clock, player, match_id, seat, False))


@router.post(
    "/matches/{match_id}/messages", status_code=201, summary="Table talk", responses=PROBLEMS
)
async def post_message(
    match_id: MatchId, body: MessageBody, player: CurrentPlayer, db: Db, clock: ClockDep
) -> MessageEvent:
    async with transaction(db) as session:
        event = await service.message(session, clock, player, match_id, body.text, body.seat)
        return MessageEvent.model_validate(event)


@router.post("/matches/{match_id}/resign", summary="Resign your seat", responses=PROBLEMS)
async def resign(
    match_id: MatchId, player: CurrentPlayer, db: Db, clock: ClockDep, body: SeatBody | None = None
) -> ViewOut:
    seat = body.seat if body else None
    async with transaction(db) as session:
        return ViewOut(**await service.resign(session, clock, player, match_id, seat))


@router.post("/matches/{match_id}/ready", summary="Tournament check-in", responses=PROBLEMS)
async def ready(
    match_id: MatchId, player: CurrentPlayer, db: Db, clock: ClockDep, body: SeatBody | None = None
) -> ViewOut:
    seat = body.seat if body else None
    async with transaction(db) as session:
        return ViewOut(**await service.ready(session, clock, player, match_id, seat))


@router.post("/matches/{match_id}/rematch", summary="Opt in to a rematch", responses=PROBLEMS)
async def rematch(
    match_id: MatchId, player: CurrentPlayer, db: Db, clock: ClockDep, body: SeatBody | None = None
) -> ViewOut:
    seat = body.seat if body else None
    async with transaction(db) as session:
        return ViewOut(**await service.rematch(session, clock, player, match_id, seat))


@router.get(
    "/matches/{match_id}/events",
    summary="Events after a seq, as you may see them",
    response_model=EventsOut,
)
async def list_events(
    match_id: MatchId,
    player: CurrentPlayer,
    db: Db,
    clock: ClockDep,
    after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
    seat: SeatQuery = None,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> FastJSONResponse:
    async with transaction(db) as session:
        rows = await service.events(session, clock, player, match_id, after, seat, limit)
    # Sent as built, like the move answers: tests/api/test_event_schemas.py holds every event
    # type to its model, so validating each row here again would only cost time.
    return FastJSONResponse({"events": rows})


@router.get(
    "/matches/{match_id}/ledger",
    summary="The full record of a finished match",
    responses=PROBLEMS,
)
async def get_ledger(
    match_id: MatchId, player: CurrentPlayer, db: Db, clock: ClockDep
) -> LedgerOut:
    async with transaction(db) as session:
        return LedgerOut.model_validate(await service.ledger(session, clock, player, match_id))


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
