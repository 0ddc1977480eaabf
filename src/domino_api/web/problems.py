"""Every problem `code` the API answers with: its status and its meaning, in one list.

The problem document's `code` is documented as this enum in openapi.json; each route lists only
the codes it can answer (`problems(...)`), grouped by status; docs/API.md's catalogue is written
from this list by `domino-api openapi`. tests/api/test_openapi_contract.py checks that every error
class of errors.py and engine/errors.py is here with the same status.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta, Struct
from pydantic import JsonValue

# code -> (statuses, meaning). A code with two statuses means the same thing in two contexts.
CATALOGUE: dict[str, tuple[tuple[int, ...], str]] = {
    "bad_request": (
        (400, 405),
        "The body is not valid JSON or the request is not HTTP the server can read (400), or"
        " the method is not allowed (405, with Allow).",
    ),
    "unauthenticated": ((401,), "No `Authorization: Bearer <token>`, or the token is not valid."),
    "not_seated": (
        (403,),
        "The caller holds no seat at this match (and is not one of its spectators).",
    ),
    "not_host": ((403,), "Only the host (of the match or tournament) may do this."),
    "not_your_seat": ((403,), "The `seat` named is not one of the caller's seats."),
    "not_found": ((404,), "No such route."),
    "match_not_found": ((404,), "No match has this id."),
    "tournament_not_found": ((404,), "No tournament has this id."),
    "player_not_found": ((404,), "No player has this id."),
    "code_not_found": (
        (404,),
        "No match that is not over has this game number with a seat for the caller (a"
        " started table, or a seat still held on another device, answers the same);"
        " `Retry-After` is the presence lease, after which a seat of one's own is free to claim.",
    ),
    "seat_not_found": ((404,), "The match has no seat with this number."),
    "seek_not_found": ((404,), "The caller has no seek with this id (another player's neither)."),
    "subscription_not_found": (
        (404,),
        "The caller has no push subscription with this id (another player's neither).",
    ),
    "table_not_listed": (
        (404,),
        "No public table with this id is open in the lobby (unlisted, full, started or over).",
    ),
    "stale_seq": (
        (409,),
        "A game event came after the `seq` sent (or it is ahead of the match);"
        " the problem's `seq` is the current one.",
    ),
    "not_your_turn": ((409,), "It is another seat's turn, or nobody's (the hand is over)."),
    "illegal_move": ((409,), "The move is not among the seat's legal actions; `detail` says why."),
    "match_over": (
        (409,),
        "The match is finished, abandoned or cancelled (a late move after a timeout that"
        " ended it too).",
    ),
    "match_not_started": ((409,), "The match has not started yet."),
    "match_in_progress": (
        (409,),
        "The match has already started (start, join, check-in), or is not over yet (rematch).",
    ),
    "hand_in_progress": ((409,), "The current hand is still being played."),
    "seats_empty": ((409,), "A human seat is still open; start with `fill_with_bots` or wait."),
    "match_full": (
        (409,),
        "No free human seat (a join), or every game number is in use (a new table or rematch"
        " that needs one; `Retry-After`).",
    ),
    "seat_in_use": (
        (409,),
        "That seat's holder (same name) was seen in the last 30 s; `Retry-After` says when a"
        " seat of one's own is free to claim.",
    ),
    "seat_forfeited": ((409,), "The seat has forfeited; it stays with the computer."),
    "seat_unavailable": (
        (409,),
        "Autopilot is for human seats; release needs a seat with another human holder.",
    ),
    "ledger_sealed": ((409,), "The ledger opens once the match is over."),
    "talk_off": ((409,), "The host has turned table talk off at this table."),
    "talk_etiquette": (
        (409,),
        'A partnership table of `options.talk: "etiquette"`: no table talk while a hand is'
        " in play (docs/RULES.md 14).",
    ),
    "message_not_found": ((404,), "The match has no message (table talk) with this `seq`."),
    "blocked": (
        (403,),
        "The table's host has blocked the caller from their tables; no seat is taken. Between"
        " two players one of whom blocked the other: no friend request, no challenge.",
    ),
    "yourself": ((409,), "A player cannot befriend, challenge or accept a challenge of itself."),
    "name_ambiguous": (
        (409,),
        "More than one player goes by this name: name the player by its id instead.",
    ),
    "challenge_not_found": (
        (404,),
        "No challenge has this id (or invitation this token), or it is not the caller's to see.",
    ),
    "not_challenged": (
        (403,),
        "The challenge names another player: only that player may accept or decline it.",
    ),
    "challenge_answered": (
        (409,),
        "The challenge was accepted, declined or cancelled already; nothing changed.",
    ),
    "challenge_expired": ((410,), "The challenge expired unanswered; nothing changed."),
    "own_seat": ((409,), "A player cannot mute, block or report a seat of its own."),
    "entrant_limit": (
        (403, 409),
        "The tournament is full (409), or `max_entrants` is above the host's plan (403).",
    ),
    "partner_refused": (
        (409,),
        "The tournament refuses this entry's partner: a classic tournament takes none, a"
        " tournament of pairs needs one other than the caller, one not entered naming someone"
        " else, and a new partner only after leaving; nothing changed.",
    ),
    "not_enough_entrants": ((409,), "A tournament starts with at least 2 entrants."),
    "tournament_started": (
        (409,),
        "The tournament has started: entries, leaving and start are closed.",
    ),
    "passkey_rejected": (
        (403,),
        "The passkey's answer did not verify (a forged or replayed signature, another"
        " challenge, origin or site, or a passkey this service does not hold); nothing changed.",
    ),
    "ceremony_not_found": (
        (404,),
        "No passkey ceremony of the caller's has this `ceremony` id: never given, answered"
        " already, or expired (`DOMINO_WEBAUTHN_TIMEOUT_S`).",
    ),
    "link_code_not_found": (
        (404,),
        "No live link code is this one: never shown, used already, replaced by a newer one or"
        " expired (`DOMINO_LINK_CODE_TTL_S`).",
    ),
    "session_required": (
        (403,),
        "An API key cannot manage the account (passkeys, sessions, keys, link codes): use a"
        " device's session.",
    ),
    "passkey_not_found": ((404,), "The caller has no passkey with this id."),
    "session_not_found": ((404,), "The caller has no session with this id."),
    "api_key_not_found": ((404,), "The caller has no API key with this id."),
    "passkey_registered": ((409,), "This passkey is registered already."),
    "last_way_in": (
        (409,),
        'The change would leave the player no way back in (docs/API.md, "Accounts");'
        " register a passkey or link another device first.",
    ),
    "validation_error": (
        (422,),
        "A field has the wrong type, is unknown or out of range; `detail` names it.",
    ),
    "bad_options": ((422,), "The match options are not allowed for this preset."),
    "bad_cut": ((422,), "The cut is not valid."),
    "option_not_allowed": (
        (422,),
        "An option this table never applies, such as a clock for a table with no human opponent.",
    ),
    "idempotency_key_reused": (
        (422,),
        "This `Idempotency-Key` made another move on this match; nothing was done (a new"
        " move needs a new key).",
    ),
    "unknown_ruleset": ((422,), "No preset has this name (see GET /v1/rulesets)."),
    "unknown_tile_back": ((422,), "No tile back in the catalogue has this id."),
    "payload_too_large": ((413,), "The request body is larger than the server reads."),
    "rate_limited": ((429,), "Too many requests from this client; wait `Retry-After` seconds."),
    "internal_error": ((500,), "A fault on the server's side (never an answer to bad input)."),
    "match_busy": (
        (503,),
        "The match kept changing under this request (many at once); nothing was done: retry.",
    ),
    "service_busy": (
        (503,),
        "The database is unreachable for a moment (a restart, a failover), refused a"
        " connection, or none was free in time: retry after `Retry-After` seconds. Nothing was"
        " done, unless the database went away during the request's commit: a retry with the"
        " same `Idempotency-Key`, or a move with the same `seq`, tells which.",
    ),
}

CODES = tuple(CATALOGUE)


class Problem(Struct, kw_only=True):
    """An RFC 9457 problem document as this API sends it; `code` is stable (web/problems.py)."""

    type: Annotated[str, Meta(description="https://domino-api.dev/problems/<code>")]
    title: str
    status: int
    detail: Annotated[str, Meta(description="What went wrong, for a person to read")]
    # Documented as the closed enum; not enforced here, so a new code never turns into a 500.
    code: Annotated[
        str,
        Meta(
            description="The stable machine-readable cause (docs/API.md, Problem codes)",
            extra_json_schema={"enum": list(CODES)},
        ),
    ]


PROBLEM_EXAMPLE: dict[str, JsonValue] = {
    "type": "https://domino-api.dev/problems/stale_seq",
    "title": "The match has moved on",
    "status": 409,
    "detail": "seq 41 is stale; the match is at 45.",
    "code": "stale_seq",
    "seq": 45,
}


def problem_schema(ref_template: str) -> dict[str, JsonValue]:
    """`Problem` as both documents publish it: open to a code's own members (`seq`, `cap`,
    ...), with its example."""
    _, components = msgspec.json.schema_components([Problem], ref_template=ref_template)
    schema = dict(components["Problem"])
    schema["additionalProperties"] = True
    schema["examples"] = [PROBLEM_EXAMPLE]
    return schema


# Codes most routes share: a bearer token (looked up in the database, which may be out of
# connections), then input (path, query, body) to validate.
AUTH = ("unauthenticated", "service_busy")
INPUT = ("validation_error",)
BODY = ("bad_request", "validation_error", "payload_too_large")
MATCH = (*AUTH, "validation_error", "match_not_found", "match_busy")
TOURNAMENT = (*AUTH, "validation_error", "tournament_not_found")
# What a route about one seat of the match answers when that seat is not one it acts on.
SEAT = ("seat_not_found", "seat_unavailable")
# What a new table taking a game number may answer: past a cap, or no number left
# (matches/hosting.py).
NUMBERED = ("rate_limited", "match_full")


# FastAPI's `responses=` (an OpenAPI response object per status).
RouteResponse = dict[str, str | dict[str, JsonValue]]


def problems(*codes: str) -> dict[int | str, RouteResponse]:
    """The `responses=` of a route that answers these codes: one entry per status."""
    by_status: dict[int, list[str]] = {}
    for entry in dict.fromkeys(codes):
        # "code@status" names one of a code's statuses (entrant_limit is 403 or 409).
        code, _, only = entry.partition("@")
        statuses = CATALOGUE[code][0]  # a KeyError here is a code missing from the catalogue
        for status in (int(only),) if only else statuses:
            if status != 405:
                by_status.setdefault(status, []).append(code)
    return {status: _response(by_status[status], status) for status in sorted(by_status)}


def _response(codes: list[str], status: int) -> RouteResponse:
    lines = [f"`{code}`: {CATALOGUE[code][1]}" for code in codes]
    schema: dict[str, JsonValue] = {"$ref": "#/components/schemas/Problem"}
    # Under `application/json` too, as the document always said: generated clients read an
    # error's body by it (openapi-python-client, openapi-fetch's `error`).
    content: dict[str, JsonValue] = {
        "application/json": {"schema": schema},
        "application/problem+json": {"schema": schema},
    }
    return {"description": "\n\n".join(lines), "content": content}


def catalogue_markdown() -> str:
    """The catalogue as a Markdown table (docs/API.md carries it)."""
    rows = ["| code | status | meaning |", "|---|---|---|"]
    for code, (statuses, meaning) in CATALOGUE.items():
        rows.append(f"| `{code}` | {', '.join(map(str, statuses))} | {meaning} |")
    return "\n".join(rows)
