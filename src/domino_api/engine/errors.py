"""Engine errors: one class per cause, each with the stable API `code` and its HTTP `status`."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every refusal the engine makes; nothing changes when one is raised."""

    code = "engine_error"
    status = 409

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotYourTurn(EngineError):
    code = "not_your_turn"
    status = 409


class IllegalMove(EngineError):
    code = "illegal_move"
    status = 409


class MatchOver(EngineError):
    code = "match_over"
    status = 409


class MatchNotStarted(EngineError):
    code = "match_not_started"
    status = 409


class MatchInProgress(EngineError):
    code = "match_in_progress"
    status = 409


class HandInProgress(EngineError):
    code = "hand_in_progress"
    status = 409


class SeatForfeited(EngineError):
    code = "seat_forfeited"
    status = 409


class LedgerSealed(EngineError):
    code = "ledger_sealed"
    status = 409


class BadCut(EngineError):
    code = "bad_cut"
    status = 422


class BadOptions(EngineError):
    code = "bad_options"
    status = 422


class UnknownRuleset(EngineError):
    code = "unknown_ruleset"
    status = 422
