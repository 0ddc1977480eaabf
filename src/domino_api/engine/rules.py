"""The reducer: `apply(state, seat, action)` returns the next state and its events (RULES 4-9).

The play/draw/pass path runs once per move in every playout, so it builds states directly
(no dataclasses.replace) and reuses per-ruleset tables; the rarer paths favour plain code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from domino_api.engine.actions import (
    ABANDON_REASONS,
    END_NAMES,
    FORFEIT_CAUSES,
    Abandon,
    Action,
    Draw,
    Forfeit,
    NextHand,
    Pass,
    Play,
    Start,
)
from domino_api.engine.deal import check_cut
from domino_api.engine.errors import (
    HandInProgress,
    IllegalMove,
    MatchInProgress,
    MatchNotStarted,
    MatchOver,
    NotYourTurn,
    SeatForfeited,
)
from domino_api.engine.events import (
    NON_GAME_EVENTS,
    SERVICE_EVENTS,
    Event,
    Transition,
    TransitionDraft,
    lazy_transition,
    new_event,
)
from domino_api.engine.layout import EMPTY_BOARD, Board, OpenEnd, fives_points, place
from domino_api.engine.openers import open_hand
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.scoring import blocked_outcome, domino_points, hand_pips, match_winner
from domino_api.engine.state import (
    DRAW_ACTION,
    PASS_ACTION,
    HandResult,
    HandState,
    LegalAction,
    MatchResult,
    MatchState,
    Move,
    MustCover,
)
from domino_api.engine.tiles import Tile, full_set, tile_problem

_new = tuple.__new__
SPINNER_FIRST = "spinner_first_double"
# Legal lists with nothing to play: shared, like the zero-point plays.
_DRAW_ONLY = (DRAW_ACTION,)
_PASS, _DRAW = Pass(), Draw()  # an offered pass or draw, as the action it names
_PASS_ONLY = (PASS_ACTION,)

OVER = frozenset({"finished", "abandoned", "cancelled"})


@dataclass(frozen=True, slots=True)
class RuleData:
    """What the hot path needs from a ruleset, computed once per ruleset."""

    players: int
    layout: str
    fives: bool
    cover: bool
    may_draw: bool
    draw_one: bool
    end_mid_hand: bool
    target: int
    # play actions worth 0 points, by end then tile, so legal lists share them
    plays: Mapping[str | None, Mapping[Tile, LegalAction]]
    # two open ends -> tile -> its plays there; filled as lines come up
    lines: dict[tuple[OpenEnd, ...], dict[Tile, tuple[LegalAction, ...]]]
    following: tuple[int, ...]  # the seat after each seat
    # Plays never score and a double never has to be covered: on a line (no spinner yet) a
    # move's legal list then depends only on the two exposed pips and the tiles held.
    plain: bool
    spinner_first: bool
    # [left pip][right pip] -> a tile's plays on that line (left first), built on first use
    line: list[list[Callable[[Tile], tuple[LegalAction, ...]] | None]]


def rule_data(ruleset: Ruleset) -> RuleData:
    """The ruleset's tables; playouts reuse one ruleset, so the last one is checked first by
    identity (hashing a 17-field ruleset on every move would cost more than the move)."""
    global _recent
    recent = _recent
    if recent is not None and recent[0] is ruleset:
        return recent[1]
    data = _rule_data(ruleset)
    _recent = (ruleset, data)
    return data


_recent: tuple[Ruleset, RuleData] | None = None


@cache
def _rule_data(ruleset: Ruleset) -> RuleData:
    tiles = full_set(ruleset.max_pip)
    plays = {end: {t: LegalAction("play", t, end, 0) for t in tiles} for end in (None, *END_NAMES)}
    return RuleData(
        players=ruleset.players,
        layout=ruleset.layout,
        fives=ruleset.play_scoring == "fives",
        cover=ruleset.cover_doubles,
        may_draw=ruleset.draw != "none",
        draw_one=ruleset.draw == "one",
        end_mid_hand=ruleset.end_mid_hand and ruleset.best_of is None,
        target=ruleset.target,
        plays=plays,
        lines={},
        following=(*range(1, ruleset.players), 0),
        plain=ruleset.play_scoring != "fives" and not ruleset.cover_doubles,
        spinner_first=ruleset.layout == SPINNER_FIRST,
        line=[[None] * (ruleset.max_pip + 1) for _ in range(ruleset.max_pip + 1)],
    )


# -- legal actions ------------------------------------------------------------------------


def compute_legal(
    rd: RuleData,
    board: Board,
    tiles: tuple[Tile, ...],
    must_cover: MustCover | None,
    opening_tile: Tile | None,
    stock_left: int,
) -> tuple[LegalAction, ...]:
    """Every legal action of the seat holding `tiles` (RULES 5): plays, else draw, else pass."""
    if not board.tiles:
        openers = tiles if opening_tile is None else (opening_tile,)
        if not rd.fives:
            return tuple(map(rd.plays[None].__getitem__, openers))
        return tuple([_play_option(rd, board, t, None) for t in openers])
    ends = board.ends
    if must_cover is not None:
        cover_ends = must_cover[1]
        ends = tuple(e for e in ends if e[0] in cover_ends)
    options: list[LegalAction] = []
    if rd.fives:
        for t in tiles:
            a, b = t
            for name, pip, _ in ends:
                if a == pip or b == pip:
                    options.append(_play_option(rd, board, t, name))
    elif len(ends) == 2:
        # A line, the common case: a table per pair of open ends gives each tile's plays.
        table = rd.lines.get(ends)
        if table is None:
            table = _line_table(rd, ends)
        for t in tiles:
            fits = table[t]
            if fits:
                options += fits
        if options:
            return tuple(options)
    else:
        plays = rd.plays
        for t in tiles:
            a, b = t
            for name, pip, _ in ends:
                if a == pip or b == pip:
                    options.append(plays[name][t])
    if options:
        return tuple(options)
    if rd.may_draw and stock_left > 0:
        return _DRAW_ONLY
    return _PASS_ONLY


def _line_table(rd: RuleData, ends: tuple[OpenEnd, ...]) -> dict[Tile, tuple[LegalAction, ...]]:
    """Each tile's plays (left end first) when the two open ends are `ends`; cached per ruleset."""
    (left, left_pip, _), (right, right_pip, _) = ends
    table = _fits(rd, left, left_pip, right, right_pip)
    rd.lines[ends] = table
    return table


def _fits(
    rd: RuleData, left: str, left_pip: int, right: str, right_pip: int
) -> dict[Tile, tuple[LegalAction, ...]]:
    table: dict[Tile, tuple[LegalAction, ...]] = {}
    for t, on_left in rd.plays[left].items():
        options = []
        if left_pip in t:
            options.append(on_left)
        if right_pip in t:
            options.append(rd.plays[right][t])
        table[t] = tuple(options)
    return table


def _line_by_pips(rd: RuleData, left: int, right: int) -> Callable[[Tile], tuple[LegalAction, ...]]:
    """`_line_table` for a line whose ends are left and right (every board without a spinner),
    indexed by the two pips, so the hot path neither builds nor hashes the ends; kept as the
    table's bound `__getitem__`, ready for `map`."""
    fits = rd.line[left][right] = _fits(rd, "left", left, "right", right).__getitem__
    return fits


def _play_option(rd: RuleData, board: Board, tile: Tile, end: str | None) -> LegalAction:
    if not rd.fives:
        return rd.plays[end][tile]
    points = fives_points(place(board, tile, end, rd.layout).total)
    return rd.plays[end][tile] if points == 0 else LegalAction("play", tile, end, points)


def legal_actions(state: MatchState, seat: int | None) -> tuple[LegalAction, ...]:
    """The legal actions of `seat` now; empty unless it is that seat's turn."""
    hand = state.hand
    if state.status != "playing" or hand is None or seat is None or hand.turn != seat:
        return ()
    return hand.legal


# -- apply --------------------------------------------------------------------------------


def apply(state: MatchState, seat: int | None, action: Action | LegalAction) -> Transition:
    """The state after `action` and the events it caused; raises an EngineError if refused.

    An option of `legal_actions` is itself an action: a seat that picks one plays it as it is,
    with no Play to build (the option is checked like any other action, so a stale or forged
    one is refused, and a play's points are always the engine's own)."""
    tile: Tile | None
    if type(action) is Play:
        tile, end, reason = action.tile, action.end, action.reason
        offered = None
    elif type(action) is LegalAction:
        verb, tile, end, _ = action
        if verb != "play":
            return _offered_other(state, seat, verb)
        offered, reason = action, None
    elif type(action) is Pass:  # the next most common
        return _pass(state, seat, action)
    else:
        return _apply_other(state, seat, action)  # type: ignore[arg-type]
    # A play, the most common action by far: its path is written out here, which saves a
    # call per move over dispatching to a helper as the other actions do.
    # Unpacking a NamedTuple reads every field in one go; each `.field` or `[i]` on one is a
    # generic lookup (the interpreter only specialises exact tuples), so the hot path unpacks.
    ruleset, secret, status, seq, _, cut, number, scores, won, forfeited, hand, history, _ = state
    if status != "playing" or hand is None:
        hand = _acting_hand(state, seat)  # raises
    h_number, attempt, opener, dealt, stock, drawn, hands, board, turn, _, _, _, moves, legal, _ = (
        hand
    )
    if seat is None or seat != turn:
        hand = _acting_hand(state, seat)  # raises
    assert seat is not None
    recent = _recent
    rd = recent[1] if recent is not None and recent[0] is ruleset else rule_data(ruleset)
    if offered is None:
        # Plays worth 0 points are shared objects, so the common case is one lookup and an
        # identity match; a JSON list, a scoring play (fives) or a refused one takes the loop.
        try:
            option = rd.plays[end][tile]  # type: ignore[index]
        except (KeyError, TypeError):  # no such end or tile, or an unhashable one
            option = None
        if option is not None and option not in legal:
            option = None
    else:
        try:  # the engine's own option: equal is not enough, (0.0, 4.0) == (0, 4)
            option = legal[legal.index(offered)]
        except ValueError:
            option = None
    if option is None:
        # A forged option may name no tile: the refusal below says so.
        named = Play(tile, end, reason)  # type: ignore[arg-type]
        option = _matching_play(state, hand, seat, named, legal)  # raises if refused
    tile = option.tile
    assert tile is not None
    a, b = tile
    tiles, ends, _, spinner, _ = board
    if not rd.plain or spinner is not None or (a == b and rd.spinner_first):
        return _play_general(state, hand, seat, rd, option, reason)
    # The most common move of all: a tile joins a line (or opens one), no points, no double
    # to cover. layout.place's line branches and compute_legal's, inlined; every tuple built
    # once.
    if end is not None:
        left, right = ends
        if end == "left":
            outer = b if a == left[1] else a
            left = (end, outer, 2 * outer if a == b else outer)
        else:
            outer = b if a == right[1] else a
            right = (end, outer, 2 * outer if a == b else outer)
        # `+` rather than `(*t, x)` here and below: a concatenation is one allocation, while
        # unpacking goes through a list.
        tiles = tiles + ((tile, end, outer, False),)  # noqa: RUF005
        total = left[2] + right[2]
    elif a != b or rd.layout == "line":  # the hand's first tile: layout.open_board's line
        weight = 2 if a == b else 1
        left = ("left", a, weight * a)
        right = ("right", b, weight * b)
        tiles = ((tile, None, None, False),)
        total = a + b
    else:  # an opening double that becomes the spinner
        return _play_general(state, hand, seat, rd, option, reason)
    board = _new(Board, (tiles, (left, right), total, None, ()))
    held = hands[seat]
    at = held.index(tile)
    remaining = held[:at] + held[at + 1 :]
    changed = list(hands)
    changed[seat] = remaining
    hands = tuple(changed)
    seq += 1
    moves = moves + (_new(Move, (seq, seat, "play", tile, end, 0, reason)),)  # noqa: RUF005
    if not remaining:
        before = _lazy_play_events(seq, seat, tile, end, board, 0, scores)
        pips = hand_pips(hands)
        points = domino_points(ruleset, seat, pips)
        played = (hands, board, moves, 0)
        return _end_hand(state, hand, played, seq, before, scores, "domino", seat, points, pips)
    turn = rd.following[seat]
    fits = rd.line[left[1]][right[1]] or _line_by_pips(rd, left[1], right[1])
    # Each tile's plays in hand order; `sum` concatenates them in C (most are empty, and
    # adding an empty tuple copies nothing).
    legal = sum(map(fits, hands[turn]), ())
    if not legal:
        legal = _DRAW_ONLY if rd.may_draw and len(stock) > drawn else _PASS_ONLY
    hand = _new(
        HandState,
        (
            h_number,
            attempt,
            opener,
            dealt,
            stock,
            drawn,
            hands,
            board,
            turn,
            None,
            None,
            0,
            moves,
            legal,
            None,
        ),
    )
    return _going_on(state, hand, seq + 1, _played_events)


def _going_on(
    state: MatchState, hand: HandState, seq: int, build: Callable[[MatchState], tuple[Event, ...]]
) -> Transition:
    """The transition of a play or pass after which the hand goes on: the match state around
    the new hand, its events built from it when first read (lazy_transition, inlined: see
    events.TransitionDraft)."""
    ruleset, secret, status, _, _, cut, number, scores, won, forfeited, _, history, _ = state
    state = _new(
        MatchState,
        (
            ruleset,
            secret,
            status,
            seq,
            seq,
            cut,
            number,
            scores,
            won,
            forfeited,
            hand,
            history,
            None,
        ),
    )
    transition = TransitionDraft()
    transition.state = state
    transition._events = build
    transition.__class__ = Transition  # type: ignore[assignment]
    return transition  # type: ignore[return-value]


def _offered_other(state: MatchState, seat: int | None, verb: str) -> Transition:
    if verb == "pass":
        return _pass(state, seat, _PASS)
    if verb == "draw":
        return _draw(state, seat, _DRAW)
    raise IllegalMove(f"unknown action {verb!r}")


def _apply_other(state: MatchState, seat: int | None, action: Action) -> Transition:
    kind = type(action)
    if kind is Draw:
        return _draw(state, seat, action)  # type: ignore[arg-type]
    if kind is Start:
        return _start(state, action)  # type: ignore[arg-type]
    if kind is NextHand:
        return _next_hand(state)
    if kind is Forfeit:
        return _forfeit(state, action)  # type: ignore[arg-type]
    if kind is Abandon:
        return _abandon(state, action)  # type: ignore[arg-type]
    raise IllegalMove(f"unknown action {action!r}")


def _acting_hand(state: MatchState, seat: int | None) -> HandState:
    """The hand in play, provided `seat` is the one to act."""
    status = state.status
    hand = state.hand
    if status != "playing" or hand is None:
        if status == "waiting":
            raise MatchNotStarted("the match has not started yet")
        if status == "hand_over":
            raise NotYourTurn("the hand is over: nobody moves until the next hand starts")
        raise MatchOver(f"the match is over ({status})")
    if seat is None or seat != hand.turn:
        raise NotYourTurn(f"it is seat {hand.turn}'s turn, not seat {seat}'s")
    return hand


def _turn_event(seq: int, seat: int, must_cover: MustCover | None, legal: object) -> Event:
    cover = None if must_cover is None else {"tile": must_cover[0], "ends": must_cover[1]}
    return new_event(
        seq,
        "turn",
        {"seat": seat, "deadline": None, "must_cover": cover},
        {seat: {"legal": legal}},
    )


def _matching_play(
    state: MatchState,
    hand: HandState,
    seat: int,
    action: Play,
    legal: tuple[LegalAction, ...],
) -> LegalAction:
    """The legal play `action` names, found the long way; an IllegalMove if there is none."""
    tile = action.tile
    if type(tile) is not tuple and tile_problem(tile, state.ruleset.max_pip) is None:
        tile = (tile[0], tile[1])  # a JSON list is as good as a tuple
    end = action.end
    for option in legal:
        if option.tile == tile and option.end == end:
            return option
    raise _explain_play(state, hand, seat, action)


def _play_general(
    state: MatchState,
    hand: HandState,
    seat: int,
    rd: RuleData,
    option: LegalAction,
    reason: str | None,
) -> Transition:
    """A play of any kind: scoring, a double to cover, a spinner, the opening tile."""
    end = option.end
    tile = option.tile
    assert tile is not None
    board = place(hand.board, tile, end, rd.layout)
    held = hand.hands[seat]
    at = held.index(tile)
    remaining = held[:at] + held[at + 1 :]
    hands = (*hand.hands[:seat], remaining, *hand.hands[seat + 1 :])
    points = option.points or 0
    seq = state.seq + 1
    moves = (*hand.moves, _new(Move, (seq, seat, "play", tile, end, points, reason)))
    scores = state.scores
    if points:
        scores = (*scores[:seat], scores[seat] + points, *scores[seat + 1 :])
        if rd.end_mid_hand and scores[seat] >= rd.target:
            before = _lazy_play_events(seq, seat, tile, end, board, points, scores)
            played = (hands, board, moves, 0)
            seq += 1
            pips = hand_pips(hands)
            return _end_hand(state, hand, played, seq, before, scores, "target", seat, 0, pips)
    if not remaining:
        before = _lazy_play_events(seq, seat, tile, end, board, points, scores)
        pips = hand_pips(hands)
        won = domino_points(state.ruleset, seat, pips)
        played = (hands, board, moves, 0)
        seq = seq + 1 if points else seq
        return _end_hand(state, hand, played, seq, before, scores, "domino", seat, won, pips)
    must_cover: MustCover | None = None
    if rd.cover and tile[0] == tile[1]:
        # The double's own ends: all of an opening double's, else the end it joined.
        covers = tuple(e[0] for e in board.ends) if end is None else (end,)
        must_cover = (tile, covers)
        turn = seat
    else:
        turn = rd.following[seat]
    if must_cover is None and board.spinner is None and not rd.fives:
        # compute_legal's line branch, inlined for the most common move of all.
        table = rd.lines.get(board.ends) or _line_table(rd, board.ends)
        options: list[LegalAction] = []
        for t in hands[turn]:
            fits = table[t]
            if fits:
                options += fits
        if options:
            legal = tuple(options)
        elif rd.may_draw and len(hand.stock) > hand.drawn:
            legal = _DRAW_ONLY
        else:
            legal = _PASS_ONLY
    else:
        stock_left = len(hand.stock) - hand.drawn
        legal = compute_legal(rd, board, hands[turn], must_cover, None, stock_left)
    last = seq + 2 if points else seq + 1
    new_hand = _new(
        HandState, (*hand[:6], hands, board, turn, None, must_cover, 0, moves, legal, None)
    )
    return lazy_transition(_continue(state, new_hand, last, scores), _played_events)


def _play_events(
    seq: int,
    seat: int,
    tile: Tile,
    end: str | None,
    board: Board,
    points: int,
    scores: tuple[int, ...],
) -> list[Event]:
    """tile_played (at `seq`), then scored when the play scored."""
    placement = board.tiles[-1]
    data = {
        "seat": seat,
        "tile": tile,
        "end": end,
        "outer": placement[2],
        "spinner": placement[3],
        "points": points,
        "ends_total": board.total,
    }
    events = [new_event(seq, "tile_played", data, {})]
    if points:
        scored = {"seat": seat, "points": points, "score": scores[seat], "cause": "play"}
        events.append(new_event(seq + 1, "scored", scored, {}))
    return events


def _lazy_play_events(
    seq: int,
    seat: int,
    tile: Tile,
    end: str | None,
    board: Board,
    points: int,
    scores: tuple[int, ...],
) -> Callable[[], list[Event]]:
    return lambda: _play_events(seq, seat, tile, end, board, points, scores)


def _lazy_passed(seq: int, seat: int) -> Callable[[], list[Event]]:
    return lambda: [new_event(seq, "passed", {"seat": seat}, {})]


def _played_events(state: MatchState) -> tuple[Event, ...]:
    """The events of a play the hand goes on after: tile_played, maybe scored, the next turn.

    The service reads these after every move, so `_play_events` and `_turn_event` are inlined."""
    hand = state.hand
    assert hand is not None
    seq, seat, _, tile, end, points, _ = hand.moves[-1]
    board = hand.board
    placement = board.tiles[-1]
    played = new_event(
        seq,
        "tile_played",
        {
            "seat": seat,
            "tile": tile,
            "end": end,
            "outer": placement[2],
            "spinner": placement[3],
            "points": points,
            "ends_total": board.total,
        },
        {},
    )
    turn = hand.turn
    assert turn is not None
    must_cover = hand.must_cover
    cover = None if must_cover is None else {"tile": must_cover[0], "ends": must_cover[1]}
    turn_event = new_event(
        state.seq,
        "turn",
        {"seat": turn, "deadline": None, "must_cover": cover},
        {turn: {"legal": hand.legal}},
    )
    if points:
        score = state.scores[seat]
        scored = {"seat": seat, "points": points, "score": score, "cause": "play"}
        return (played, new_event(seq + 1, "scored", scored, {}), turn_event)
    return (played, turn_event)


def _draw(state: MatchState, seat: int | None, action: Draw) -> Transition:
    hand = state.hand
    if state.status != "playing" or hand is None or seat is None or seat != hand.turn:
        hand = _acting_hand(state, seat)  # raises
    assert seat is not None
    if hand.legal[0] is not DRAW_ACTION:
        raise _explain_draw_or_pass(state, hand, "draw")
    rd = rule_data(state.ruleset)
    tile = hand.stock[hand.drawn]
    drawn = hand.drawn + 1
    stock_left = len(hand.stock) - drawn
    held = (*hand.hands[seat], tile)
    hands = (*hand.hands[:seat], held, *hand.hands[seat + 1 :])
    seq = state.seq + 1
    moves = (*hand.moves, Move(seq, seat, "draw", tile, None, None, action.reason))
    board = hand.board
    must_cover = hand.must_cover
    legal = compute_legal(rd, board, held, must_cover, None, stock_left)
    turn = seat
    last = seq
    if rd.draw_one and legal[0].action != "play":
        # Draw one: a drawn tile that does not fit is kept and the turn moves on by itself.
        turn = seat + 1 if seat + 1 < rd.players else 0
        legal = compute_legal(rd, board, hands[turn], must_cover, None, stock_left)
        last = seq + 1
    new_hand = _new(
        HandState, (*hand[:5], drawn, hands, board, turn, None, must_cover, 0, moves, legal, None)
    )
    return lazy_transition(_continue(state, new_hand, last, state.scores), _drawn_events)


def _drawn_events(state: MatchState) -> tuple[Event, ...]:
    """tile_drawn, then the next seat's turn when a drawn tile that does not fit moved it on."""
    hand = state.hand
    assert hand is not None
    seq, seat, _, tile, _, _, _ = hand.moves[-1]
    data = {"seat": seat, "stock": hand.stock_left}
    if hand.turn == seat:
        # The drawer keeps the turn: its copy carries its new legal actions, so a client that
        # follows only the stream can act (no second `turn` event: the deadline does not move).
        return (new_event(seq, "tile_drawn", data, {seat: {"tile": tile, "legal": hand.legal}}),)
    drawn = new_event(seq, "tile_drawn", data, {seat: {"tile": tile}})
    assert hand.turn is not None
    return (drawn, _turn_event(seq + 1, hand.turn, hand.must_cover, hand.legal))


def _pass(state: MatchState, seat: int | None, action: Pass) -> Transition:
    # Unpacked once, as in apply.
    ruleset, secret, status, seq, _, cut, number, scores, won, forfeited, hand, history, _ = state
    if status != "playing" or hand is None:
        hand = _acting_hand(state, seat)  # raises
    (
        h_num,
        att,
        opener,
        dealt,
        stock,
        drawn,
        hands,
        board,
        turn,
        _,
        cover,
        passes,
        moves,
        legal,
        _,
    ) = hand
    if seat is None or seat != turn:
        hand = _acting_hand(state, seat)  # raises
    assert seat is not None
    if legal[0] is not PASS_ACTION:
        raise _explain_draw_or_pass(state, hand, "pass")
    recent = _recent
    rd = recent[1] if recent is not None and recent[0] is ruleset else rule_data(ruleset)
    seq += 1
    move = _new(Move, (seq, seat, "pass", None, None, None, action.reason))
    moves = moves + (move,)  # noqa: RUF005  (one allocation; see apply)
    passes += 1
    if passes >= rd.players:
        before = _lazy_passed(seq, seat)
        pips = hand_pips(hands)
        winner, points = blocked_outcome(ruleset, pips)
        played = (hands, board, moves, passes)
        return _end_hand(state, hand, played, seq, before, scores, "blocked", winner, points, pips)
    turn = rd.following[seat]
    if rd.plain and board.spinner is None and board.tiles:
        # A line, as in apply: the next seat's plays from the table of the two exposed pips.
        left, right = board.ends
        fits = rd.line[left[1]][right[1]] or _line_by_pips(rd, left[1], right[1])
        legal = sum(map(fits, hands[turn]), ())
        if not legal:
            legal = _DRAW_ONLY if rd.may_draw and len(stock) > drawn else _PASS_ONLY
    else:
        legal = compute_legal(rd, board, hands[turn], cover, None, len(stock) - drawn)
    hand = _new(
        HandState,
        (
            h_num,
            att,
            opener,
            dealt,
            stock,
            drawn,
            hands,
            board,
            turn,
            None,
            cover,
            passes,
            moves,
            legal,
            None,
        ),
    )
    return _going_on(state, hand, seq + 1, _passed_events)


def _passed_events(state: MatchState) -> tuple[Event, ...]:
    hand = state.hand
    assert hand is not None and hand.turn is not None
    seq, seat = hand.moves[-1][:2]
    return (
        new_event(seq, "passed", {"seat": seat}, {}),
        _turn_event(seq + 1, hand.turn, hand.must_cover, hand.legal),
    )


def _continue(state: MatchState, hand: HandState, seq: int, scores: tuple[int, ...]) -> MatchState:
    """The match, still playing, with its hand moved on to `hand` after events up to `seq`."""
    ruleset, secret, _, _, _, cut, number, _, hands_won, forfeited, _, history, _ = state
    return _new(
        MatchState,
        (
            ruleset,
            secret,
            "playing",
            seq,
            seq,
            cut,
            number,
            scores,
            hands_won,
            forfeited,
            hand,
            history,
            None,
        ),
    )


def _closed_hand(hand: HandState, played: _Played, result: HandResult) -> HandState:
    """The hand as it ended: nobody's turn, with its result."""
    hands, board, moves, passes = played
    number, attempt, opener, dealt, stock, drawn, _, _, _, opening_tile, _, _, _, _, _ = hand
    return _new(
        HandState,
        (
            number,
            attempt,
            opener,
            dealt,
            stock,
            drawn,
            hands,
            board,
            None,
            opening_tile,
            None,
            passes,
            moves,
            (),
            result,
        ),
    )


# What a hand holds after its last move: (hands, board, moves, passes).
_Played = tuple[tuple[tuple[Tile, ...], ...], Board, tuple[Move, ...], int]


# -- hand and match ends ------------------------------------------------------------------


def _end_hand(
    state: MatchState,
    hand: HandState,
    played: _Played,
    seq: int,
    before: Callable[[], list[Event]],
    scores: tuple[int, ...],
    reason: str,
    winner: int | None,
    points: int,
    pips: tuple[int, ...],
) -> Transition:
    """Close the hand (domino, blocked or target), score it and decide whether the match ends.

    `before` builds the events up to `seq` (the move that ended the hand); all are built lazily.
    `pips` is what each seat still holds (`hand_pips(played[0])`, which the caller has).
    """
    ruleset, secret, _, _, _, cut, number, _, hands_won, forfeited, _, history, _ = state
    tied = reason == "blocked" and winner is None
    result = HandResult(hand.number, reason, winner, tied, pips, points, played[0])
    scored: dict[str, object] | None = None
    if winner is not None:
        hands_won = _bump(hands_won, winner, 1)
        if points:
            scores = _bump(scores, winner, points)
            scored = {"seat": winner, "points": points, "score": scores[winner], "cause": reason}
            seq += 1
    seq += 1
    ended_seq = seq
    closed = _closed_hand(hand, played, result)
    decided = (winner, "target") if reason == "target" else None
    decided = decided or match_winner(ruleset, scores, hands_won)
    match_result = None
    status = "hand_over"
    if decided is not None:
        status = "finished"
        match_result = MatchResult(decided[0], decided[1], scores, hands_won, None)
        seq += 1
    new_state = _new(
        MatchState,
        (
            ruleset,
            secret,
            status,
            seq,
            seq,
            cut,
            number,
            scores,
            hands_won,
            forfeited,
            closed,
            history,
            match_result,
        ),
    )

    def build(_: MatchState) -> tuple[Event, ...]:
        events = before()
        if scored is not None:
            events.append(new_event(ended_seq - 1, "scored", scored, {}))
        events.append(new_event(ended_seq, "hand_ended", _hand_ended_data(result), {}))
        if match_result is not None:
            events.append(new_event(ended_seq + 1, "match_ended", _result_data(match_result), {}))
        return tuple(events)

    return lazy_transition(new_state, build)


def _bump(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    return (*values[:seat], values[seat] + amount, *values[seat + 1 :])


def _hand_ended_data(result: HandResult) -> dict[str, object]:
    return {
        "number": result.number,
        "reason": result.reason,
        "winner": result.winner,
        "tied": result.tied,
        "pips": result.pips,
        "points": result.points,
        "hands": result.hands,
    }


def _result_data(result: MatchResult) -> dict[str, object]:
    return {
        "winner": result.winner,
        "reason": result.reason,
        "scores": result.scores,
        "hands_won": result.hands_won,
        "forfeited_by": result.forfeited_by,
    }


def _cut_short(state: MatchState, reason: str, seq: int, events: list[Event]) -> HandState | None:
    """End a hand still in play with no winner and no points (forfeit or abandonment)."""
    hand = state.hand
    if state.status != "playing" or hand is None:
        return hand
    result = HandResult(hand.number, reason, None, False, hand_pips(hand.hands), 0, hand.hands)
    events.append(Event(seq, "hand_ended", _hand_ended_data(result)))
    return _closed_hand(hand, (hand.hands, hand.board, hand.moves, hand.passes), result)


# -- system actions -----------------------------------------------------------------------


def _start(state: MatchState, action: Start) -> Transition:
    if state.status != "waiting":
        if state.status in OVER:
            raise MatchOver(f"the match is over ({state.status})")
        raise MatchInProgress("the match has already started")
    cut = check_cut(action.cut)
    return _deal_hand(state, cut, state.seq + 1, True)


def _next_hand(state: MatchState) -> Transition:
    if state.status != "hand_over":
        if state.status == "waiting":
            raise MatchNotStarted("the match has not started yet")
        if state.status == "playing":
            raise HandInProgress("the current hand is still being played")
        raise MatchOver(f"the match is over ({state.status})")
    assert state.cut is not None
    return _deal_hand(state, state.cut, state.seq, False)


def _deal_hand(state: MatchState, cut: str, seq: int, started: bool) -> Transition:
    """Deal the next hand (reshuffling as the opener rule says) and give the opener the turn."""
    number = state.hand_number + 1
    previous = state.hand
    attempt, dealt, opener, opening_tile = open_hand(
        state.ruleset, state.secret, cut, number, previous
    )
    rd = rule_data(state.ruleset)
    legal = compute_legal(
        rd, EMPTY_BOARD, dealt.hands[opener], None, opening_tile, len(dealt.stock)
    )
    hand = _new(
        HandState,
        (
            number,
            attempt,
            opener,
            dealt.hands,
            dealt.stock,
            0,
            dealt.hands,
            EMPTY_BOARD,
            opener,
            opening_tile,
            None,
            0,
            (),
            legal,
            None,
        ),
    )
    history = state.history if previous is None else (*state.history, previous)
    last = seq + 2
    # Ruleset and secret, then scores, hands won and forfeits, as they were. Not `_replace`:
    # its keywords cost ~2 us, and a `block` game is one hand (a few % of the benchmark).
    kept, totals = state[:2], state[7:10]
    fields = (*kept, "playing", last, last, cut, number, *totals, hand, history, None)
    new_state = _new(MatchState, fields)
    return lazy_transition(new_state, _started_events if started else _dealt_events)


def _started_events(state: MatchState) -> tuple[Event, ...]:
    """match_started, then the first deal's events."""
    data = {"cut": state.cut, "seats": state.ruleset.players}
    return (new_event(state.seq - 2, "match_started", data, {}), *_dealt_events(state))


def _dealt_events(state: MatchState) -> tuple[Event, ...]:
    """hand_started and the opener's turn."""
    hand = state.hand
    assert hand is not None
    seq = state.seq - 2
    dealt = hand.dealt
    data = {
        "hand_number": hand.number,
        "attempt": hand.attempt,
        "opener": hand.opener,
        "tiles": tuple(len(tiles) for tiles in dealt),
        "stock": len(hand.stock),
    }
    private = {seat: {"hand": tiles} for seat, tiles in enumerate(dealt)}
    started = new_event(seq + 1, "hand_started", data, private)
    turn = _turn_event(seq + 2, hand.opener, None, hand.legal)
    return (started, turn)


def _forfeit(state: MatchState, action: Forfeit) -> Transition:
    if state.status in OVER:
        raise MatchOver(f"the match is over ({state.status})")
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state.ruleset.players:
        raise IllegalMove(f"there is no seat {seat!r}")
    if action.cause not in FORFEIT_CAUSES:
        raise IllegalMove(f"forfeit cause must be one of {list(FORFEIT_CAUSES)}")
    if state.forfeited[seat]:
        raise SeatForfeited(f"seat {seat} has already forfeited")
    seq = state.seq + 1
    events = [Event(seq, "forfeit", {"seat": seat, "cause": action.cause})]
    forfeited = (*state.forfeited[:seat], True, *state.forfeited[seat + 1 :])
    if state.ruleset.players > 2:
        # The seat goes to the computer for good and the match goes on (RULES section 9).
        new_state = state._replace(seq=seq, game_seq=seq, forfeited=forfeited)
        return Transition(new_state, tuple(events))
    hand = _cut_short(state, "forfeit", seq + 1, events)
    seq = events[-1].seq
    result = MatchResult(1 - seat, "forfeit", state.scores, state.hands_won, seat)
    seq += 1
    events.append(Event(seq, "match_ended", _result_data(result)))
    new_state = state._replace(
        status="finished",
        seq=seq,
        game_seq=seq,
        forfeited=forfeited,
        hand=hand,
        result=result,
    )
    return Transition(new_state, tuple(events))


def _abandon(state: MatchState, action: Abandon) -> Transition:
    if state.status in OVER:
        raise MatchOver(f"the match is over ({state.status})")
    if action.reason not in ABANDON_REASONS:
        raise IllegalMove(f"abandon reason must be one of {list(ABANDON_REASONS)}")
    events: list[Event] = []
    hand = _cut_short(state, "abandoned", state.seq + 1, events)
    seq = events[-1].seq if events else state.seq
    result = MatchResult(None, action.reason, state.scores, state.hands_won, None)
    seq += 1
    events.append(Event(seq, "match_ended", _result_data(result)))
    new_state = state._replace(
        status=action.reason, seq=seq, game_seq=seq, hand=hand, result=result
    )
    return Transition(new_state, tuple(events))


# -- events the service originates --------------------------------------------------------


def record(
    state: MatchState,
    type: str,
    data: Mapping[str, object],
    private: Mapping[int, Mapping[str, object]] | None = None,
) -> Transition:
    """Number an event the service originates (joins, presence, chat, ...) after the last one."""
    if type not in SERVICE_EVENTS:
        raise ValueError(f"{type!r} is not an event the service may record")
    seq = state.seq + 1
    game_seq = state.game_seq if type in NON_GAME_EVENTS else seq
    event = Event(seq, type, dict(data), {} if private is None else dict(private))
    return Transition(state._replace(seq=seq, game_seq=game_seq), (event,))


def is_stale(state: MatchState, seq: int) -> bool:
    """A move made after seeing `seq` is stale once a game event followed it, or from the future."""
    return seq < state.game_seq or seq > state.seq


# -- why a move was refused ---------------------------------------------------------------


def _explain_play(state: MatchState, hand: HandState, seat: int, action: Play) -> IllegalMove:
    tile = action.tile
    end = action.end
    problem = tile_problem(tile, state.ruleset.max_pip)
    if problem is not None:
        return IllegalMove(problem)
    tile = (tile[0], tile[1])
    if end is not None and end not in END_NAMES:
        return IllegalMove(f"end must be one of {', '.join(END_NAMES)} or null, got {end!r}")
    if tile not in hand.hands[seat]:
        return IllegalMove(f"seat {seat} does not hold {list(tile)}")
    board = hand.board
    if not board.tiles:
        if end is not None:
            return IllegalMove("the first tile of a hand is played with end null")
        return IllegalMove(f"this hand must open with {list(hand.opening_tile or tile)}")
    if end is None:
        return IllegalMove("the board is not empty: name the end to play on")
    open_pips = board.pips()
    if end not in open_pips:
        return IllegalMove(f"end {end!r} is not open; open ends: {', '.join(open_pips)}")
    if hand.must_cover is not None and end not in hand.must_cover[1]:
        double, ends = hand.must_cover
        return IllegalMove(
            f"the double {list(double)} must be covered first: play onto {', '.join(ends)}"
        )
    if open_pips[end] not in tile:
        return IllegalMove(f"{list(tile)} does not fit {end} (exposed pip {open_pips[end]})")
    return IllegalMove(f"{list(tile)} on {end} is not a legal play now")


def _explain_draw_or_pass(state: MatchState, hand: HandState, wanted: str) -> IllegalMove:
    first = hand.legal[0]
    if first.action == "play":
        assert first.tile is not None
        where = "to open" if first.end is None else f"on {first.end}"
        return IllegalMove(
            f"you may not {wanted}: you hold a playable tile ({list(first.tile)} {where})"
        )
    if wanted == "pass":
        return IllegalMove(f"you may not pass: draw from the stock ({hand.stock_left} left)")
    if state.ruleset.draw == "none":
        return IllegalMove("this ruleset has no drawing: pass when you cannot play")
    return IllegalMove("the stock is empty: pass")
