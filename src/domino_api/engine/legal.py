"""The one legal-move generator (RULES sections 4-6): plays, else a draw, else a pass.

A seat's playable tiles are its bit set intersected with the tiles carrying an open end's pip
(`HandDeal.suits`), so only tiles that fit are ever looked at. Plays are listed tile by tile in
the order the seat holds them, and for each tile end by end (left, right, up, down).
"""

from __future__ import annotations

from domino_api.engine.board import Board, OpenEnd
from domino_api.engine.kinds import EndName
from domino_api.engine.layout import play_points, total_after
from domino_api.engine.state import (
    ONLY_DRAW,
    ONLY_PASS,
    HandDeal,
    LegalAction,
    MatchState,
    MustCover,
    Rules,
)
from domino_api.engine.tiles import Tile
from domino_api.engine.trains.layout import TRAINS
from domino_api.engine.trains.layout import open_ends as trains_open_to
from domino_api.engine.trains.legal import train_legal

__all__ = ["ONLY_DRAW", "ONLY_PASS", "cover_after", "legal_actions", "legal_plays", "open_to"]


def open_to(
    board: Board, must_cover: MustCover | None, layout: str, seat: int
) -> tuple[OpenEnd, ...]:
    """The ends `seat` may play on: only those covering a double waiting to be covered; else
    every open end, or of the trains those open to it (engine/trains/layout.py)."""
    if must_cover is not None:
        return tuple(end for end in board.ends if end.name in must_cover.ends)
    if layout == TRAINS:
        return trains_open_to(board, seat)
    return board.ends


def cover_after(
    cover_doubles: bool, board: Board, tile: Tile, end: EndName | None
) -> MustCover | None:
    """The double a seat must cover after playing `tile` on `end` (RULES section 6): with
    `cover_doubles`, every double; on any of an opening double's ends, else the end it joined
    (which the double now exposes)."""
    if not cover_doubles or tile[0] != tile[1]:
        return None
    ends = tuple(open_end.name for open_end in board.ends) if end is None else (end,)
    return MustCover(tile=tile, ends=ends)


def legal_plays(
    rules: Rules,
    deal: HandDeal,
    held: int,
    board: Board,
    must_cover: MustCover | None,
    opening_tile: Tile | None,
    stock_left: int,
    seat: int,
) -> tuple[LegalAction, ...]:
    """Every legal action of `seat`, holding the bit set `held` (RULES section 5)."""
    ends = board.ends
    if not ends:  # the hand's first tile: the opener acts, holding what it was dealt
        openers = deal.dealt[deal.opener] if opening_tile is None else (opening_tile,)
        opening = rules.plain_plays[None]
        if rules.scores_plays:
            return tuple([_scored(rules, board, tile, None, opening) for tile in openers])
        return tuple([opening[tile] for tile in openers])
    if rules.layout == TRAINS and not rules.scores_plays:
        return train_legal(deal, held, board, must_cover, seat, stock_left)
    if must_cover is not None or rules.layout == TRAINS:
        ends = open_to(board, must_cover, rules.layout, seat)
    suits = deal.suits
    fitting = 0  # the tiles carrying some open end's pip
    for end in ends:
        fitting |= suits[end.pip]
    playable = held & fitting
    if not playable:
        return ONLY_DRAW if rules.may_draw and stock_left > 0 else ONLY_PASS
    plain = rules.plain_plays
    order = deal.order
    scores = rules.scores_plays
    plays = []
    while playable:  # the playable tiles, lowest tile number (the seat's order) first
        lowest = playable & -playable
        playable ^= lowest
        tile = order[lowest.bit_length() - 1]
        for end in ends:
            if end.pip in tile:
                onto = plain[end.name]
                plays.append(_scored(rules, board, tile, end, onto) if scores else onto[tile])
    return tuple(plays)


def _scored(
    rules: Rules, board: Board, tile: Tile, end: OpenEnd | None, onto: dict[Tile, LegalAction]
) -> LegalAction:
    """Where plays score, the play of `tile` on `end` (None: it opens the hand) with its points;
    a play worth none is the ruleset's shared object of `onto`, the plain plays onto that end."""
    points = play_points(rules.ruleset.play_scoring, total_after(board, tile, end, rules.layout))
    if not points:
        return onto[tile]
    return LegalAction(
        action="play", tile=tile, end=None if end is None else end.name, points=points
    )


def legal_actions(state: MatchState, seat: int | None) -> tuple[LegalAction, ...]:
    """The legal actions of `seat` now; empty unless it is that seat's turn.

    >>> from domino_api.engine import PRESETS, Start, apply, new_match
    >>> state = apply(new_match(PRESETS["block"], bytes(32)), None, Start("cut")).state
    >>> [option.tile for option in legal_actions(state, 0)][:3]
    [(0, 0), (1, 4), (5, 6)]
    >>> legal_actions(state, 1)
    ()
    """
    hand = state.hand
    if state.status != "playing" or hand is None or hand.turn != seat:
        return ()  # in play, hand.turn is a seat number: None never matches it
    return hand.legal
