"""The hand reducer: one seat action turns a hand into the next hand (RULES sections 5, 6, 8).

It knows nothing of seq numbers beyond the one it is given, of match scores or of events: the
match reducer (`rules.apply`) wraps it, and the computer players' playouts call it directly,
so both play by the same rules. A hand that ends comes back closed, with its result.
"""

from __future__ import annotations

from msgspec import UNSET
from msgspec.structs import replace

from domino_api.engine.board import Board
from domino_api.engine.kinds import EndName, HandReason
from domino_api.engine.layout import EMPTY_BOARD, place
from domino_api.engine.legal import cover_after, legal_plays
from domino_api.engine.move_record import Move, MoveChain
from domino_api.engine.scoring import blocked_outcome, domino_points, hand_pips
from domino_api.engine.state import (
    HandDeal,
    HandResult,
    HandState,
    LegalAction,
    MustCover,
    Rules,
    with_seat,
)
from domino_api.engine.tiles import Tile
from domino_api.engine.trains import layout as trains
from domino_api.engine.trains.layout import TRAINS, engine_pip, hub
from domino_api.engine.trains.legal import train_legal


def deal_hand(
    rules: Rules,
    number: int,
    attempt: int,
    opener: int,
    dealt: tuple[tuple[Tile, ...], ...],
    stock: tuple[Tile, ...],
    opening_tile: Tile | None,
) -> HandState:
    """A hand as dealt: the opener to play, with `opening_tile` if the opener rule names one."""
    deal = HandDeal.of(rules, number, attempt, opener, dealt, stock, opening_tile)
    board = EMPTY_BOARD
    if rules.layout == TRAINS:  # the round's engine double lies in the hub before any play
        board = hub(engine_pip(rules.ruleset.max_pip, number), rules.players)
    return _from_deal(deal, board, opener, None)


def _from_deal(deal: HandDeal, board: Board, turn: int, must_cover: MustCover | None) -> HandState:
    """The hand before anyone has drawn: each seat holds what `deal` gave it, `turn` to act."""
    held = deal.dealt_sets()
    stock_left = len(deal.stock)
    legal = legal_plays(
        deal.rules, deal, held[turn], board, must_cover, deal.opening_tile, stock_left, turn
    )
    return HandState(
        deal=deal,
        held=held,
        drawn=0,
        board=board,
        turn=turn,
        must_cover=must_cover,
        passes=0,
        log=(),
        legal=legal,
        result=None,
    )


def act(
    hand: HandState,
    seat: int,
    option: LegalAction,
    seq: int,
    reason: str | None,
    needs: int,
    record: bool = True,
) -> HandState:
    """The hand after `seat` takes `option`, one of `hand.legal`.

    `seq` numbers the move for the ledger; `needs` is what `seat` still needs to win the match
    inside the hand (read only with `end_mid_hand`). A playout passes `record=False`: its
    imagined moves are not kept in `moves`, which nothing in the rules reads."""
    action = option.action
    if action == "draw":
        return _draw(hand, seat, seq, reason, record)
    assert action != "next_hand", "a hand's own options are plays, a draw or a pass"
    moves = hand.log
    if record:  # a play or a pass as taken (a draw records the tile it drew)
        said = UNSET if reason is None else reason
        if action == "play":
            assert option.tile is not None and option.points is not None
            # A play's points are 0 when it scores nothing.
            move = Move(
                seq=seq,
                seat=seat,
                action=action,
                tile=option.tile,
                end=option.end,
                points=option.points,
                reason=said,
            )
        else:
            move = Move(seq=seq, seat=seat, action=action, reason=said)
        moves = (moves, move, moves[2] + 1 if moves else 1)  # a cell of `MoveChain`
    if action == "play":
        rules = hand.deal.rules
        if rules.layout == TRAINS and not rules.scores_plays:  # as Mexican Train is played
            assert option.tile is not None and option.end is not None
            return _play_train(hand, seat, option.tile, option.end, moves)
        return _play(hand, seat, option, moves, needs)
    return _pass(hand, seat, moves)


def _play(
    hand: HandState, seat: int, option: LegalAction, moves: MoveChain, needs: int
) -> HandState:
    deal = hand.deal
    rules = deal.rules
    tile = option.tile
    assert tile is not None
    end = option.end
    if rules.layout == TRAINS:  # trains where plays score (`act` hands the rest to `_play_train`)
        assert end is not None, "a round's engine double is laid by the deal, not played"
        board = trains.play_on_train(hand.board, tile, end, seat)
    else:
        board = place(hand.board, tile, end, rules.layout)
    held = with_seat(hand.held, seat, hand.held[seat] & ~deal.bit(tile))
    points = option.points
    if points and rules.end_mid_hand and points >= needs:
        return close(hand, held, board, moves, 0, "target", seat, 0, holdings(deal, held))
    if not held[seat]:
        hands, pips = holdings(deal, held)
        won = domino_points(rules.ruleset, seat, pips)
        return close(hand, held, board, moves, 0, "domino", seat, won, (hands, pips))
    must_cover = cover_after(rules.cover_doubles, board, tile, option.end)
    # A seat that must cover its own double acts again at once.
    turn = seat if must_cover is not None else rules.following[seat]
    return _next_turn(hand, held, hand.drawn, board, turn, must_cover, 0, moves)


def _play_train(
    hand: HandState, seat: int, tile: Tile, end: EndName, moves: MoveChain
) -> HandState:
    """`_play` of a play that scores nothing on the trains, as every move of an up to 8-seat
    round runs it: one board built, a double's cover worked out in place, the next seat's
    options from the trains' own generator."""
    deal = hand.deal
    rules = deal.rules
    board = trains.play_on_train(hand.board, tile, end, seat)
    held_now = [*hand.held]  # `with_seat` and `deal.bit` written out: no call for either
    low, high = tile
    suits = deal.suits
    held_now[seat] &= ~(suits[low] & (deal.doubles if low == high else suits[high]))
    held = tuple(held_now)
    if not held[seat]:
        hands, pips = holdings(deal, held)
        won = domino_points(rules.ruleset, seat, pips)
        return close(hand, held, board, moves, 0, "domino", seat, won, (hands, pips))
    if low == high and rules.cover_doubles:  # `cover_after`: the seat covers its double at once
        must_cover: MustCover | None = MustCover(tile=tile, ends=(end,))
        turn = seat
    else:
        must_cover, turn = None, rules.following[seat]
    stock_left = len(deal.stock) - hand.drawn
    return replace(  # the deal, the draws and the (absent) result stay
        hand,
        held=held,
        board=board,
        turn=turn,
        must_cover=must_cover,
        passes=0,
        log=moves,
        legal=train_legal(deal, held[turn], board, must_cover, turn, stock_left),
    )


def _draw(hand: HandState, seat: int, seq: int, reason: str | None, record: bool) -> HandState:
    deal = hand.deal
    rules = deal.rules
    number = len(deal.order) - len(deal.stock) + hand.drawn  # the stock's first undrawn tile
    held = with_seat(hand.held, seat, hand.held[seat] | 1 << number)
    tile = deal.order[number]
    moves = hand.log
    if record:
        said = UNSET if reason is None else reason
        drew = Move(seq=seq, seat=seat, action="draw", tile=tile, reason=said)
        moves = (moves, drew, moves[2] + 1 if moves else 1)
    drawn = hand.drawn + 1
    stock_left = len(deal.stock) - drawn
    board, must_cover = hand.board, hand.must_cover
    if rules.layout == TRAINS and not rules.scores_plays:
        # The seat drew because no tile it held fitted: only the drawn one may (listed alone).
        legal = train_legal(deal, 1 << number, board, must_cover, seat, stock_left)
    else:
        legal = legal_plays(rules, deal, held[seat], board, must_cover, None, stock_left, seat)
    if rules.draw_one and legal[0].action != "play":
        # Draw one: a drawn tile that does not fit is kept and the turn moves on by itself
        # (the drawing seat's own state never built).
        turn = rules.following[seat]
        return _next_turn(hand, held, drawn, _stuck(rules, board, seat), turn, must_cover, 0, moves)
    return _next_turn(hand, held, drawn, board, seat, must_cover, 0, moves, legal)


def _pass(hand: HandState, seat: int, moves: MoveChain) -> HandState:
    rules = hand.deal.rules
    passes = hand.passes + 1
    board = _stuck(rules, hand.board, seat)  # the last pass of a blocked round's too
    if passes >= rules.players:
        # Every seat passed in a row: the hand is blocked.
        at_end = holdings(hand.deal, hand.held)
        winner, points = blocked_outcome(rules.ruleset, at_end[1])
        return close(hand, hand.held, board, moves, passes, "blocked", winner, points, at_end)
    turn = rules.following[seat]
    return _next_turn(hand, hand.held, hand.drawn, board, turn, hand.must_cover, passes, moves)


def _stuck(rules: Rules, board: Board, seat: int) -> Board:
    """The board once `seat` could not play: in Mexican Train a marker goes on its train."""
    return trains.marked(board, seat) if rules.layout == TRAINS else board


def _next_turn(
    hand: HandState,
    held: tuple[int, ...],
    drawn: int,
    board: Board,
    turn: int,
    must_cover: MustCover | None,
    passes: int,
    moves: MoveChain,
    legal: tuple[LegalAction, ...] | None = None,
) -> HandState:
    """The hand going on with `turn` to act, its legal actions worked out (unless given)."""
    deal = hand.deal
    if legal is None:
        stock_left = len(deal.stock) - drawn
        legal = legal_plays(deal.rules, deal, held[turn], board, must_cover, None, stock_left, turn)
    return HandState(
        deal=deal,
        held=held,
        drawn=drawn,
        board=board,
        turn=turn,
        must_cover=must_cover,
        passes=passes,
        log=moves,
        legal=legal,
        result=None,
    )


def close(
    hand: HandState,
    held: tuple[int, ...],
    board: Board,
    moves: MoveChain,
    passes: int,
    reason: HandReason,
    winner: int | None,
    points: int,
    held_at_end: tuple[tuple[tuple[Tile, ...], ...], tuple[int, ...]],
) -> HandState:
    """The hand as it ended: nobody's turn, its result recorded (points before match rules);
    `held_at_end` is what `holdings` says of `held`."""
    hands, pips = held_at_end
    result = HandResult(
        number=hand.deal.number,
        reason=reason,
        winner=winner,
        tied=reason == "blocked" and winner is None,
        pips=pips,
        points=points,
        hands=hands,
    )
    return HandState(
        deal=hand.deal,
        held=held,
        drawn=hand.drawn,
        board=board,
        turn=None,
        must_cover=None,
        passes=passes,
        log=moves,
        legal=(),
        result=result,
    )


def cut_short(hand: HandState, reason: HandReason) -> HandState:
    """A hand still in play ended with no winner and no points (forfeit or abandonment)."""
    at_end = holdings(hand.deal, hand.held)
    return close(hand, hand.held, hand.board, hand.log, hand.passes, reason, None, 0, at_end)


def holdings(
    deal: HandDeal, held: tuple[int, ...]
) -> tuple[tuple[tuple[Tile, ...], ...], tuple[int, ...]]:
    """What each seat holds (the bit sets `held` read as tiles) and its pips."""
    hands = tuple(map(deal.tiles_of, held))
    return hands, hand_pips(hands)


def position_hand(
    rules: Rules,
    hands: tuple[tuple[Tile, ...], ...],
    stock: tuple[Tile, ...],
    board: Board,
    turn: int,
    must_cover: MustCover | None,
) -> HandState:
    """A hand in mid-play: seats holding `hands`, `stock` undrawn, `board` already laid, `turn`
    to act. The computer players imagine the hidden tiles this way and play on from there."""
    return _from_deal(HandDeal.of(rules, 0, 0, turn, hands, stock, None), board, turn, must_cover)
