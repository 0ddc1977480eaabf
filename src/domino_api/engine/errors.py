"""Engine errors: one class per cause, each with the stable `code` clients see in problem documents.

The engine knows nothing of the web: the API layer maps codes to HTTP statuses
(`domino_api.errors.ENGINE_STATUS`)."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every refusal the engine makes; nothing changes when one is raised."""

    code = "engine_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotYourTurn(EngineError):
    code = "not_your_turn"


class IllegalMove(EngineError):
    code = "illegal_move"


class MatchOver(EngineError):
    code = "match_over"


class MatchNotStarted(EngineError):
    code = "match_not_started"


class MatchInProgress(EngineError):
    code = "match_in_progress"


class HandInProgress(EngineError):
    code = "hand_in_progress"


class SeatForfeited(EngineError):
    code = "seat_forfeited"


class LedgerSealed(EngineError):
    code = "ledger_sealed"


class BadCut(EngineError):
    code = "bad_cut"


class BadOptions(EngineError):
    code = "bad_options"


class UnknownRuleset(EngineError):
    code = "unknown_ruleset"
