"""HTTP routes for matches: parse, call one service function, return."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request

from domino_api import engine
from domino_api.engine.event_types import MessageEvent
from domino_api.engine.move_types import MoveBody
from domino_api.engine.shapes import LedgerOut
from domino_api.engine.view_types import ViewOut
from domino_api.matches import creation, hosting, service
from domino_api.matches.answers import EventsOut, MoveOut
from domino_api.matches.ledger_models import VerifyBody, VerifyOut
from domino_api.matches.rated import RatedQuery
from domino_api.matches.ruleset_models import RulesetsOut
from domino_api.matches.schemas import (
    JoinBody,
    MatchCreate,
    MessageBody,
    NextHandBody,
    SeatBody,
    StartBody,
)
from domino_api.matches.service import core_of
from domino_api.web.deps import (
    NO_STRAY_BODY,
    CurrentPlayer,
    IdempotencyKey,
    client_address,
    limits_of,
    settings_of,
)
from domino_api.web.problems import AUTH, BODY, MATCH, NUMBERED, SEAT, problems
from domino_api.web.responses import FastJSONResponse, struct_answer
from domino_api.web.struct_bodies import reader, request_body

router = APIRouter(prefix="/v1", tags=["matches"], dependencies=NO_STRAY_BODY)

MatchId = Annotated[str, Path(max_length=36, description="The match id")]
SeatQuery = Annotated[int | None, Query(ge=0, le=7, description="Which of your seats to see from")]


@router.get(
    "/rulesets",
    summary="Every preset with its parameters and allowed overrides",
    responses=struct_answer(RulesetsOut) | problems(*AUTH),
)
async def rulesets(_: CurrentPlayer) -> FastJSONResponse:
    """Every preset with all its parameters and its `overrides`: each overridable parameter with the
    values it allows (docs/RULES.md section 3).
    """
    return FastJSONResponse(RulesetsOut(tuple(engine.ruleset_catalog())))


@router.post(
    "/matches",
    status_code=201,
    summary="Create a match",
    openapi_extra=request_body("MatchCreate"),
    responses=struct_answer(ViewOut, 201)
    | problems(*BODY, *AUTH, "bad_options", "unknown_ruleset", "option_not_allowed", *NUMBERED),
)
async def create_match(
    body: Annotated[MatchCreate, Depends(reader(MatchCreate))],
    request: Request,
    player: CurrentPlayer,
    rated: RatedQuery = None,
) -> FastJSONResponse:
    """Create a match; the caller is the host at seat 0. `seats` lists every seat: an open human
    seat, a seat the host also holds (hot-seat play), or a computer. The answer is the host's
    view with the game number (`code`) others join by and the deal's `commitment`."""
    address, caps = client_address(request), hosting.caps_of(settings_of(request))
    await limits_of(request).hit_from("create_match", address, f"player:{player.id}")
    made = await creation.create_match(core_of(request), player, body, caps, address, rated)
    return FastJSONResponse(made, status_code=201)


@router.post(
    "/matches/join",
    summary="Join a match by its game number",
    openapi_extra=request_body("JoinBody"),
    responses=struct_answer(ViewOut)
    | problems(
        *BODY,
        *AUTH,
        "code_not_found",
        "blocked",
        "match_full",
        "seat_in_use",
        "match_in_progress",
        "rate_limited",
    ),
)
async def join(
    body: Annotated[JoinBody, Depends(reader(JoinBody))],
    request: Request,
    player: CurrentPlayer,
) -> FastJSONResponse:
    """Take a seat by the match's game number. Joining again returns the same seat; a caller with
    the name of a seat's holder takes that seat over when the holder has not been seen for 30 s.
    Rate-limited per client address, its network and the player; wrong guesses are budgeted per
    number, a rejoin under a seat's own name is not, and a player's join at a table where it
    holds a seat (signed in on a new device) spends no budget at all.
    """
    limits = limits_of(request)
    address = client_address(request)
    joined = await creation.join_by_number(
        core_of(request), limits, player, body.code, body.name, address
    )
    return FastJSONResponse(joined)


@router.post(
    "/matches/{match_id}/start",
    summary="Host: cut and deal hand 1",
    openapi_extra=request_body("StartBody", required=False),
    responses=struct_answer(ViewOut)
    | problems(
        *BODY,
        *MATCH,
        "not_seated",
        "not_host",
        "match_in_progress",
        "match_over",
        "seats_empty",
        "bad_cut",
    ),
)
async def start(
    match_id: MatchId,
    player: CurrentPlayer,
    request: Request,
    body: Annotated[StartBody | None, Depends(reader(StartBody, optional=True))],
) -> FastJSONResponse:
    """Host only: fix the cut and deal hand 1. With `fill_with_bots`, open human seats become
    `planner` seats; otherwise an open seat is `409 seats_empty`."""
    body = body or StartBody()
    return FastJSONResponse(
        await service.start(core_of(request), player, match_id, body.cut, body.fill_with_bots)
    )


@router.get(
    "/matches/{match_id}",
    summary="Your view of a match",
    responses=struct_answer(ViewOut) | problems(*MATCH, "not_seated", "not_your_seat"),
)
async def get_match(
    match_id: MatchId, player: CurrentPlayer, request: Request, seat: SeatQuery = None
) -> FastJSONResponse:
    """The caller's view of the match: its own tiles, the public table, its legal actions. `seat`
    picks which of the caller's seats to see from (default: the lowest)."""
    view = await service.get_view(core_of(request), player, match_id, seat)
    return FastJSONResponse(hosting.shown_to(view))


@router.post(
    "/matches/{match_id}/moves",
    summary="Play, draw or pass",
    openapi_extra=request_body("MoveBody"),
    responses=struct_answer(MoveOut)
    | problems(
        *BODY,
        *MATCH,
        "not_seated",
        "not_your_seat",
        "seat_forfeited",
        "stale_seq",
        "not_your_turn",
        "illegal_move",
        "match_over",
        "match_not_started",
        "idempotency_key_reused",
    ),
)
async def move(
    match_id: MatchId,
    body: Annotated[MoveBody, Depends(reader(MoveBody, name="MoveBody"))],
    player: CurrentPlayer,
    request: Request,
    idempotency_key: IdempotencyKey,
) -> FastJSONResponse:
    """Play, draw or pass: one of the view's `legal` options sent back as it is, with the `seq`
    the client last saw. The answer is the mover's view and
    every event the move caused (the computers' replies included), as the mover's seat may see
    them. An `Idempotency-Key` of a move made, sent again with the same move, returns the first
    answer; with another move it is `422 idempotency_key_reused` and nothing is done."""
    # The hottest route: its answer is sent as built (see FastJSONResponse).
    return FastJSONResponse(
        await service.move(core_of(request), player, match_id, body, idempotency_key)
    )


@router.post(
    "/matches/{match_id}/hands",
    summary="Start the next hand",
    openapi_extra=request_body("NextHandBody", required=False),
    responses=struct_answer(ViewOut)
    | problems(*BODY, *MATCH, "not_seated", "not_your_seat", "match_not_started", "match_over"),
)
async def next_hand(
    match_id: MatchId,
    player: CurrentPlayer,
    request: Request,
    body: Annotated[NextHandBody | None, Depends(reader(NextHandBody, optional=True))],
) -> FastJSONResponse:
    """Any seated player starts the next hand once a hand is over; if it has already started, the
    answer is the view as it is.
    """
    seat = body.seat if body else None
    return FastJSONResponse(await service.next_hand(core_of(request), player, match_id, seat))


@router.put(
    "/matches/{match_id}/seats/{seat}/autopilot",
    summary="Host: let the computer play a seat",
    responses=struct_answer(ViewOut)
    | problems(*MATCH, "not_seated", "not_host", "match_over", *SEAT, "seat_in_use"),
)
async def autopilot_on(
    match_id: MatchId,
    seat: Annotated[int, Path(ge=0, le=7)],
    player: CurrentPlayer,
    request: Request,
) -> FastJSONResponse:
    """Host only: the computer plays for a human seat until its holder takes it back."""
    return FastJSONResponse(
        await service.set_autopilot(core_of(request), player, match_id, seat, True)
    )


@router.delete(
    "/matches/{match_id}/seats/{seat}/autopilot",
    summary="Take a seat back from the computer",
    responses=struct_answer(ViewOut)
    | problems(*MATCH, "not_seated", "not_your_seat", "match_over", "seat_forfeited", *SEAT),
)
async def autopilot_off(
    match_id: MatchId,
    seat: Annotated[int, Path(ge=0, le=7)],
    player: CurrentPlayer,
    request: Request,
) -> FastJSONResponse:
    """The seat's holder (or the host) takes the seat back from the computer; a forfeited seat stays
    with it.
    """
    return FastJSONResponse(
        await service.set_autopilot(core_of(request), player, match_id, seat, False)
    )


@router.post(
    "/matches/{match_id}/messages",
    status_code=201,
    summary="Table talk",
    openapi_extra=request_body("MessageBody"),
    responses=struct_answer(MessageEvent, 201)
    | problems(*BODY, *MATCH, "not_seated", "not_your_seat", "talk_off", "talk_etiquette")
    | problems("rate_limited"),
)
async def post_message(
    match_id: MatchId,
    body: Annotated[MessageBody, Depends(reader(MessageBody))],
    request: Request,
    player: CurrentPlayer,
) -> FastJSONResponse:
    """Table talk (1-500 characters), sent to every seat as a `message` event; it never makes a move
    stale.
    """
    await limits_of(request).hit("chat", f"{match_id}:{player.id}")
    event = await service.message(core_of(request), player, match_id, body.text, body.seat)
    return FastJSONResponse(event, status_code=201)


@router.post(
    "/matches/{match_id}/resign",
    summary="Resign your seat",
    openapi_extra=request_body("SeatBody", required=False),
    responses=struct_answer(ViewOut)
    | problems(*BODY, *MATCH, "not_seated", "not_your_seat", "match_over", "seat_forfeited"),
)
async def resign(
    match_id: MatchId,
    player: CurrentPlayer,
    request: Request,
    body: Annotated[SeatBody | None, Depends(reader(SeatBody, optional=True))],
) -> FastJSONResponse:
    """The caller's seat forfeits (docs/RULES.md section 9). At a two-seat table the other seat
    wins, a computer too; at three or four seats the computer takes the seat, and when it was the
    last human seat in play the match is abandoned.
    """
    seat = body.seat if body else None
    return FastJSONResponse(await service.resign(core_of(request), player, match_id, seat))


@router.post(
    "/matches/{match_id}/ready",
    summary="Tournament check-in",
    openapi_extra=request_body("SeatBody", required=False),
    responses=struct_answer(ViewOut)
    | problems(*BODY, *MATCH, "not_seated", "not_your_seat", "match_in_progress"),
)
async def ready(
    match_id: MatchId,
    player: CurrentPlayer,
    request: Request,
    body: Annotated[SeatBody | None, Depends(reader(SeatBody, optional=True))],
) -> FastJSONResponse:
    """Tournament check-in: the match starts by itself once both seats are ready."""
    seat = body.seat if body else None
    return FastJSONResponse(await service.ready(core_of(request), player, match_id, seat))


@router.post(
    "/matches/{match_id}/rematch",
    summary="Opt in to a rematch",
    openapi_extra=request_body("SeatBody", required=False),
    responses=struct_answer(ViewOut)
    | problems(*BODY, *MATCH, "not_seated", "not_your_seat", "match_in_progress", *NUMBERED),
)
async def rematch(
    match_id: MatchId,
    player: CurrentPlayer,
    request: Request,
    body: Annotated[SeatBody | None, Depends(reader(SeatBody, optional=True))],
) -> FastJSONResponse:
    """Opt in to a rematch once the match is over; when every human seat has, a new match with the
    same seats and ruleset is created and announced (`rematch_created`). A rematch with a game
    number counts against its host's and address's open numbered tables (429 past them). Each
    offer spends the new-match budgets, as creating a match does.
    """
    seat = body.seat if body else None
    address = client_address(request)
    await limits_of(request).hit_from("create_match", address, f"player:{player.id}")
    caps = hosting.caps_of(settings_of(request))
    return FastJSONResponse(await creation.rematch(core_of(request), player, match_id, seat, caps))


@router.get(
    "/matches/{match_id}/events",
    summary="Events after a seq, as you may see them",
    responses=struct_answer(EventsOut) | problems(*MATCH, "not_seated", "not_your_seat"),
)
async def list_events(
    match_id: MatchId,
    player: CurrentPlayer,
    request: Request,
    after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
    seat: SeatQuery = None,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> FastJSONResponse:
    """The events after `after`, in `seq` order, each as the caller's seat may see it (the events
    list of docs/API.md; `data`'s shape is chosen by `type`).
    """
    rows = await service.events(core_of(request), player, match_id, after, seat, limit)
    # Typed events, encoded once here (tests/api/test_event_schemas.py holds them to the
    # published schemas).
    return FastJSONResponse({"events": rows})


@router.get(
    "/matches/{match_id}/ledger",
    summary="The full record of a finished match",
    responses=struct_answer(LedgerOut) | problems(*MATCH, "ledger_sealed"),
)
async def get_ledger(
    match_id: MatchId, player: CurrentPlayer, request: Request
) -> FastJSONResponse:
    """The full record of a finished, abandoned or cancelled match: every deal, secret and move, to
    check the sealed deal and the scores (`domino-api verify-ledger`).
    """
    return FastJSONResponse(await service.ledger(core_of(request), player, match_id))


@router.post(
    "/deals/verify",
    summary="Recompute a sealed deal from its secret and cut",
    openapi_extra=request_body("VerifyBody"),
    responses=struct_answer(VerifyOut) | problems(*BODY, *AUTH),
)
async def verify_deal(
    body: Annotated[VerifyBody, Depends(reader(VerifyBody))], _: CurrentPlayer
) -> FastJSONResponse:
    """Recompute a sealed deal from its secret and cut (docs/RULES.md section 11), and check the
    secret against the commitment.
    """
    secret = bytes.fromhex(body.secret)
    dealt = engine.deal(
        secret, body.cut, body.hand_number, body.attempt, body.max_pip, body.players, body.hand_size
    )
    verified = VerifyOut(
        commitment_ok=engine.commitment(secret) == body.commitment.lower(),
        hands=[list(hand) for hand in dealt.hands],
        stock=list(dealt.stock),
    )
    return FastJSONResponse(verified)
