"""Engine errors: one class per cause, each with the stable `code` clients see in problem documents.

The engine knows nothing of the web: the API layer maps codes to HTTP statuses
(`domino_api.errors.ENGINE_STATUS`). `extra` carries the fields a problem document adds for
its cause (a stale move's current `seq`, a `retry_after`)."""

from __future__ import annotations

from msgspec import Struct


class Extra(Struct, frozen=True, kw_only=True):
    """What a problem document adds for its cause (None: not said)."""

    seq: int | None = None  # a stale move's match is at this seq
    retry_after: int | None = None  # seconds until trying again may succeed
    cap: int | None = None  # the host's plan's most entrants
    max_entrants: int | None = None  # a full tournament's


class EngineError(Exception):
    """Base of every refusal the engine makes; nothing changes when one is raised."""

    code = "engine_error"
    title = "Refused by the rules"

    def __init__(self, message: str, *, seq: int | None = None, retry_after: int | None = None):
        super().__init__(message)
        self.message = message
        self.extra = Extra(seq=seq, retry_after=retry_after)


# A move or a match step.
class NotYourTurn(EngineError):
    code = "not_your_turn"
    title = "Not your turn"


class IllegalMove(EngineError):
    code = "illegal_move"
    title = "Illegal move"


class StaleSeq(EngineError):
    code = "stale_seq"
    title = "The match has moved on"


class MatchOver(EngineError):
    code = "match_over"
    title = "The match is over"


class MatchNotStarted(EngineError):
    code = "match_not_started"
    title = "The match has not started"


class MatchInProgress(EngineError):
    code = "match_in_progress"
    title = "The match has already started"


class HandInProgress(EngineError):
    code = "hand_in_progress"
    title = "The hand is still being played"


class LedgerSealed(EngineError):
    code = "ledger_sealed"
    title = "The ledger is sealed"


class BadCut(EngineError):
    code = "bad_cut"
    title = "Bad cut"


class BadOptions(EngineError):
    code = "bad_options"
    title = "Bad match options"


class UnknownRuleset(EngineError):
    code = "unknown_ruleset"
    title = "Unknown ruleset"


# Seats: who may take, hand over or act for which seat (engine/table/seats.py).
class NotSeated(EngineError):
    code = "not_seated"
    title = "Not seated at this match"


class NotHost(EngineError):
    code = "not_host"
    title = "Only the host may do this"


class NotYourSeat(EngineError):
    code = "not_your_seat"
    title = "That seat is not yours"


class SeatNotFound(EngineError):
    code = "seat_not_found"
    title = "No such seat"


class SeatsEmpty(EngineError):
    code = "seats_empty"
    title = "Some seats are still empty"


class SeatInUse(EngineError):
    code = "seat_in_use"
    title = "That seat's holder is connected"


class SeatForfeited(EngineError):
    code = "seat_forfeited"
    title = "That seat has forfeited"


class SeatUnavailable(EngineError):
    code = "seat_unavailable"
    title = "Not a seat this acts on"


class MatchFull(EngineError):
    code = "match_full"
    title = "No free seat"


class TalkOff(EngineError):
    code = "talk_off"
    title = "Table talk is off"


class TalkEtiquette(EngineError):
    code = "talk_etiquette"
    title = "No table talk while a hand is in play"


class CodeNotFound(EngineError):
    code = "code_not_found"
    title = "No open match has that code"
