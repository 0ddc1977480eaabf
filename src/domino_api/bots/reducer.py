"""The client's reducer: a seat's view moved on by one of its event copies, typed by the contract.

`apply_event(view, event)` is what a client that took one view (a snapshot, a REST read or a
move's answer) does with each later event its seat receives, in `seq` order, instead of fetching
the view again: the events carry everything the view shows that changes. A client decodes what
it receives straight into the contract's types (`msgspec.json.decode(text, type=ViewOut)`, and
`AnyEvent` for an event). It is the Python twin of the browser's reducer at /play, one case per
event type of docs/API.md, and tests/clients/test_reducer_property.py holds both to the server's own
next view.

What no event carries is kept as it was: `now`, and a connected seat's `away_deadline`, which
moves with every sighting of its holder (docs/API.md, "The away rule"). A seat that goes away
gets both `away_since` and `away_deadline` from its `seat_disconnected`, and the deadline moves
after that only by `deadline_moved`: a client shows an away seat's countdown from the events.

Pure: views are frozen values; nothing is fetched. The caller applies only the event whose `seq`
follows the view's; a gap means events were missed, and then only a fresh view helps.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from msgspec import UnsetType
from msgspec.structs import replace

from domino_api.engine.board import Board
from domino_api.engine.clock_text import iso
from domino_api.engine.event_types import (
    AnyEvent,
    AutopilotOffEvent,
    AutopilotOnEvent,
    AwayData,
    DeadlineMovedData,
    DeadlineMovedEvent,
    ForfeitEvent,
    HandEndedData,
    HandEndedEvent,
    HandStartedData,
    HandStartedEvent,
    MatchEndedData,
    MatchEndedEvent,
    MatchStartedEvent,
    PassedEvent,
    ReadyEvent,
    RematchCreatedEvent,
    ScoredEvent,
    SeatConnectedEvent,
    SeatDisconnectedEvent,
    SeatJoinedEvent,
    TalkChangedEvent,
    TileBackChangedEvent,
    TileDrawnData,
    TileDrawnEvent,
    TilePlayedData,
    TilePlayedEvent,
    TurnData,
    TurnEvent,
)
from domino_api.engine.layout import EMPTY_BOARD, place
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.state import HandResult, MatchResult, MustCover
from domino_api.engine.teams import team_counts, team_of, team_seats
from domino_api.engine.trains.layout import TRAINS, engine_pip, hub, marked, played
from domino_api.engine.view import BoardOut, TurnOut, board_out
from domino_api.engine.view_types import SeatOut, ViewOut

# RULES section 10 / docs/API.md: a clocked match deals the next hand this long after one ends.
NEXT_HAND_DELAY = timedelta(seconds=30)
EMPTY = board_out(EMPTY_BOARD)


class Gap(ValueError):
    """The event does not follow the view: events were missed (fetch the view again)."""


def follows(view: ViewOut, event: AnyEvent) -> bool:
    """Whether `event` is the next one for `view` (else it is old, or there is a gap)."""
    return event.seq == view.seq + 1


def can_apply(view: ViewOut, event: AnyEvent) -> bool:
    """Whether the view after `event` follows from the two: the event is the next one, and it
    is not the end of a match in which the viewer's seat may have forfeited (the end shows a
    forfeited seat's holder its seats again, which a view without `you` cannot know)."""
    if not follows(view, event):
        return False
    forfeits = any(seat.forfeited for seat in view.seats)
    return not (isinstance(event, MatchEndedEvent) and view.you is None and forfeits)


def apply_event(view: ViewOut, event: AnyEvent) -> ViewOut:
    """The view after `event`. Raises `Gap` unless `can_apply`: the view must be read again."""
    if not can_apply(view, event):
        kind = event.__struct_config__.tag
        raise Gap(f"event {event.seq} ({kind}) calls for the view at seq {view.seq}")
    return _moved(replace(view, seq=event.seq), event)


def _moved(view: ViewOut, event: AnyEvent) -> ViewOut:
    match event:
        case SeatJoinedEvent(data=d):
            return _seat(view, d.seat, name=d.name, type=d.type, strategy=d.strategy)
        case SeatConnectedEvent(data=d):
            return _seat(view, d.seat, connected=True, away_since=None)
        case SeatDisconnectedEvent(data=d):
            return _seat(view, d.seat, connected=False, **_away(d))
        case MatchStartedEvent():
            return replace(view, status="playing", check_in_deadline=None)
        case HandStartedEvent(data=d):
            return _hand_started(view, d)
        case TurnEvent(data=d):
            return _turn(view, d)
        case TilePlayedEvent(data=d):
            return _tile_played(view, d)
        case TileDrawnEvent(data=d):
            return _tile_drawn(view, d)
        case PassedEvent(data=d):
            return replace(_stuck(view, d.seat), turn=None, legal=())
        case ScoredEvent(data=d):
            return _team(view, d.seat, score=d.score)
        case HandEndedEvent(data=d):
            return _hand_ended(view, d, event.at)
        case MatchEndedEvent(data=d):
            return _match_ended(view, d)
        case ForfeitEvent(data=d):
            return _forfeit(view, d.seat)
        case AutopilotOnEvent(data=d) | AutopilotOffEvent(data=d):
            return _seat(view, d.seat, autopilot=isinstance(event, AutopilotOnEvent))
        case ReadyEvent(data=d):
            return _seat(view, d.seat, ready=True)
        case RematchCreatedEvent(data=d):
            return replace(view, rematch_match_id=d.match_id)
        case TileBackChangedEvent(data=d):
            return _seat(view, d.seat, tile_back=d.tile_back)
        case DeadlineMovedEvent(data=d):
            return _deadline_moved(view, d)
        case TalkChangedEvent(data=d):
            return replace(view, talk_off=d.off)
    # `message` and `rematch_offered` change nothing the view shows.
    return view


def _away(data: AwayData) -> dict[str, str | None]:
    """What a seat_disconnected carries of the away rule (nothing, from before it did)."""
    changes: dict[str, str | None] = {}
    if not isinstance(data.away_since, UnsetType):
        changes["away_since"] = data.away_since
    if not isinstance(data.away_deadline, UnsetType):
        changes["away_deadline"] = data.away_deadline
    return changes


def _seat(view: ViewOut, seat: int, **changes: object) -> ViewOut:
    seats = list(view.seats)
    seats[seat] = replace(seats[seat], **changes)
    return replace(view, seats=tuple(seats))


def _team(view: ViewOut, seat: int, **changes: int) -> ViewOut:
    """`seat`'s score or hands won changed: in partnership its partner's too, and the teams'
    (docs/RULES.md 13), as the engine's view shows them."""
    if not view.ruleset.partnership:
        return _seat(view, seat, **changes)
    for mate in team_seats(team_of(seat), view.ruleset.players):
        view = _seat(view, mate, **changes)
    return _with_teams(view, None)


def _with_teams(view: ViewOut, winner: int | None) -> ViewOut:
    seats = view.seats
    scores = [s.score for s in seats]
    won = [s.hands_won for s in seats]
    return replace(view, teams=team_counts(view.ruleset, scores, won, winner))


def _mine(view: ViewOut, seat: int) -> bool:
    return view.you is not None and view.you.seat == seat


def _hand_started(view: ViewOut, data: HandStartedData) -> ViewOut:
    seats = tuple(replace(s, tiles=n) for s, n in zip(view.seats, data.tiles, strict=True))
    you = view.you
    if you is not None and isinstance(data.hand, tuple):
        you = replace(you, hand=data.hand)
    return replace(
        view,
        status="playing",
        hand_number=data.hand_number,
        next_hand_at=None,
        seats=seats,
        stock=data.stock,
        board=_start(view.ruleset, data.hand_number),
        turn=None,
        legal=(),
        you=you,
    )


def _turn(view: ViewOut, data: TurnData) -> ViewOut:
    cover = data.must_cover
    must_cover = None if cover is None else MustCover(tile=cover.tile, ends=cover.ends)
    if view.turn is not None and view.turn.seat != data.seat:
        view = _stuck(view, view.turn.seat)  # it drew a tile that did not fit: the turn moved on
    turn = TurnOut(seat=data.seat, deadline=data.deadline, must_cover=must_cover)
    legal = data.legal if _mine(view, data.seat) and isinstance(data.legal, tuple) else ()
    return replace(view, turn=turn, legal=legal)


def _tile_played(view: ViewOut, data: TilePlayedData) -> ViewOut:
    view = _seat(view, data.seat, tiles=view.seats[data.seat].tiles - 1)
    you = view.you
    if you is not None and _mine(view, data.seat):
        you = replace(you, hand=tuple(t for t in you.hand if t != data.tile))
    board = board_of(view.ruleset, view.board)
    board = place(board, data.tile, data.end, view.ruleset.layout)
    if view.ruleset.layout == TRAINS:
        board = played(board, data.seat, data.end)
    return replace(view, you=you, board=board_out(board), turn=None, legal=())


def board_of(ruleset: Ruleset, shown: BoardOut) -> Board:
    """The board a view shows, laid again tile by tile (Mexican Train's from its hub, with the
    markers the view lists)."""
    board, tiles = EMPTY_BOARD, shown.tiles
    if ruleset.layout == TRAINS and tiles:
        board, tiles = hub(tiles[0].tile[0], ruleset.players), tiles[1:]
        for seat in shown.markers or ():
            board = marked(board, seat)
    for placement in tiles:
        board = place(board, placement.tile, placement.end, ruleset.layout)
    return board


def _start(ruleset: Ruleset, number: int) -> BoardOut:
    """A new hand's board: empty, or Mexican Train's hub with the round's engine."""
    if ruleset.layout != TRAINS:
        return EMPTY
    return board_out(hub(engine_pip(ruleset.max_pip, number), ruleset.players))


def _stuck(view: ViewOut, seat: int) -> ViewOut:
    """Mexican Train: a seat that could not play gets a marker on its train."""
    if view.ruleset.layout != TRAINS:
        return view
    return replace(view, board=board_out(marked(board_of(view.ruleset, view.board), seat)))


def _tile_drawn(view: ViewOut, data: TileDrawnData) -> ViewOut:
    view = _seat(view, data.seat, tiles=view.seats[data.seat].tiles + 1)
    you = view.you
    if you is not None and isinstance(data.tile, tuple):
        you = replace(you, hand=(*you.hand, data.tile))
    # The drawer who keeps the turn gets what it may do now in its own copy (no `turn` event).
    legal = data.legal if isinstance(data.legal, tuple) else ()
    return replace(view, stock=data.stock, you=you, legal=legal)


def _hand_ended(view: ViewOut, data: HandEndedData, at: str) -> ViewOut:
    result = HandResult(
        number=data.number,
        reason=data.reason,
        winner=data.winner,
        tied=data.tied,
        pips=data.pips,
        points=data.points,
        hands=data.hands,
    )
    if data.winner is not None and data.reason not in ("forfeit", "abandoned"):
        view = _team(view, data.winner, hands_won=view.seats[data.winner].hands_won + 1)
    clocked = view.ruleset.turn_clock is not None
    return replace(
        view,
        status="hand_over",
        turn=None,
        legal=(),
        last_hand=result,
        next_hand_at=_later(at, NEXT_HAND_DELAY) if clocked else view.next_hand_at,
    )


def _later(moment: str, delay: timedelta) -> str:
    return iso(datetime.fromisoformat(moment.replace("Z", "+00:00")) + delay)


def _match_ended(view: ViewOut, data: MatchEndedData) -> ViewOut:
    seats = tuple(
        replace(seat, score=score, hands_won=won)
        for seat, score, won in zip(view.seats, data.scores, data.hands_won, strict=True)
    )
    result = MatchResult(
        winner=data.winner,
        reason=data.reason,
        scores=data.scores,
        hands_won=data.hands_won,
        forfeited_by=data.forfeited_by,
        team=None if isinstance(data.team, UnsetType) else data.team,
    )
    view = _with_teams(replace(view, seats=seats), data.winner)
    return replace(
        view,
        status=data.reason if data.reason in ("abandoned", "cancelled") else "finished",
        turn=None,
        legal=(),
        result=result,
        code=None,  # nobody joins a table that is over: its number is freed
        next_hand_at=None,
        seats=seats,
    )


def _forfeit(view: ViewOut, seat: int) -> ViewOut:
    view = _seat(view, seat, forfeited=True)
    if _mine(view, seat):
        # A forfeited seat shows its holder nothing private while the match runs (docs/API.md).
        view = replace(view, you=None, legal=())
    if view.code is not None and not _joinable(view):
        view = replace(view, code=None)
    return view


def _joinable(view: ViewOut) -> bool:
    """Whether a guest can still join or rejoin by number: a human seat in play that is not
    the host's (the seats a client knows to be the host's: seat 0, and the host's own)."""
    host, you = view.host_seat, view.you
    hosts = {host} | (set(you.seats) if you is not None and host in you.seats else set())
    return any(_open_to_guests(s, hosts) for s in view.seats)


def _open_to_guests(seat: SeatOut, hosts: set[int | None]) -> bool:
    return seat.type == "human" and not seat.forfeited and seat.seat not in hosts


def _deadline_moved(view: ViewOut, data: DeadlineMovedData) -> ViewOut:
    if data.clock == "turn" and view.turn is not None:
        return replace(view, turn=replace(view.turn, deadline=data.deadline))
    if data.clock == "away":
        return _seat(view, data.seat, away_deadline=data.deadline)
    return view
