"""The pure, immutable rules engine: `apply(state, seat, action) -> Transition(state, events)`.

Nothing here does I/O or knows about the web, the database or asyncio (docs/ARCHITECTURE.md,
"Layers").
"""

from domino_api.engine.actions import (
    Abandon,
    Action,
    Draw,
    Forfeit,
    NextHand,
    Pass,
    Play,
    Start,
    action_from_json,
    action_to_json,
    with_reason,
)
from domino_api.engine.board import Board
from domino_api.engine.deal import ALGORITHM, Deal, commitment, deal
from domino_api.engine.errors import (
    BadCut,
    BadOptions,
    EngineError,
    HandInProgress,
    IllegalMove,
    LedgerSealed,
    MatchInProgress,
    MatchNotStarted,
    MatchOver,
    NotYourTurn,
    SeatForfeited,
    UnknownRuleset,
)
from domino_api.engine.events import NON_GAME_EVENTS, SERVICE_EVENTS, Event, Transition
from domino_api.engine.ledger import ledger, verify_ledger
from domino_api.engine.move_record import Move
from domino_api.engine.rules import apply, is_stale, legal_actions, record
from domino_api.engine.rulesets import (
    PRESETS,
    Ruleset,
    TurnClock,
    make_ruleset,
    ruleset_catalog,
)
from domino_api.engine.serialize import from_json, to_json
from domino_api.engine.state import (
    HandResult,
    HandState,
    LegalAction,
    MatchResult,
    MatchState,
    new_match,
)
from domino_api.engine.tiles import Tile, canonical, full_set
from domino_api.engine.view import HistoryEntry, SeatView, seat_view, view

__all__ = [
    "ALGORITHM",
    "NON_GAME_EVENTS",
    "PRESETS",
    "SERVICE_EVENTS",
    "Abandon",
    "Action",
    "BadCut",
    "BadOptions",
    "Board",
    "Deal",
    "Draw",
    "EngineError",
    "Event",
    "Forfeit",
    "HandInProgress",
    "HandResult",
    "HandState",
    "HistoryEntry",
    "IllegalMove",
    "LedgerSealed",
    "LegalAction",
    "MatchInProgress",
    "MatchNotStarted",
    "MatchOver",
    "MatchResult",
    "MatchState",
    "Move",
    "NextHand",
    "NotYourTurn",
    "Pass",
    "Play",
    "Ruleset",
    "SeatForfeited",
    "SeatView",
    "Start",
    "Tile",
    "Transition",
    "TurnClock",
    "UnknownRuleset",
    "action_from_json",
    "action_to_json",
    "apply",
    "canonical",
    "commitment",
    "deal",
    "from_json",
    "full_set",
    "is_stale",
    "ledger",
    "legal_actions",
    "make_ruleset",
    "new_match",
    "record",
    "ruleset_catalog",
    "seat_view",
    "to_json",
    "verify_ledger",
    "view",
    "with_reason",
]
