"""A seat's legal actions on the trains (RULES, "Mexican Train"): engine/legal.py's generator,
cut to what a trains board needs, as it runs once for every move of a round up to 8 seats long.

The same plays in the same order as the generic loop: tile by tile in the order the seat
holds them, and for each tile train by train in `Board.ends` order. A trains board always
has its hub, no play scores, and a double waits on the one train it was played on."""

from __future__ import annotations

from domino_api.engine.board import Board
from domino_api.engine.state import ONLY_DRAW, ONLY_PASS, HandDeal, LegalAction, MustCover
from domino_api.engine.tiles import Tile
from domino_api.engine.trains.layout import TRAIN_INDEX, picker

Onto = dict[Tile, LegalAction]  # the plays onto one train, by tile (`Rules.plain_plays`)


def train_legal(
    deal: HandDeal, held: int, board: Board, must_cover: MustCover | None, seat: int, stock: int
) -> tuple[LegalAction, ...]:
    """`seat`'s legal actions holding the bit set `held`, `stock` tiles left to draw: its
    plays, else a draw, else a pass."""
    plays = train_plays(deal, held, board, must_cover, seat)
    if plays:
        return tuple(plays)
    return ONLY_DRAW if stock > 0 and deal.rules.may_draw else ONLY_PASS


def train_plays(
    deal: HandDeal, held: int, board: Board, must_cover: MustCover | None, seat: int
) -> list[LegalAction]:
    """`seat`'s plays holding the bit set `held`: empty when no tile fits an open train."""
    plain = deal.rules.plain_plays
    ends = board.ends
    if must_cover is None:  # `open_ends(board, seat)`, its getter called here
        ends = picker(len(ends), board.markers | 1 << seat)(ends)
    elif len(must_cover.ends) == 1:  # the train the double lies on: only it may be played on
        end = ends[TRAIN_INDEX[must_cover.ends[0]]]
        return _all_onto(held & deal.suits[end.pip], deal.order, plain[end.name])
    else:
        ends = tuple(end for end in ends if end.name in must_cover.ends)
    suits = deal.suits
    playable = 0
    fitting: list[tuple[int, Onto]] = []  # the trains some held tile fits, with those tiles
    for end in ends:
        tiles = held & suits[end.pip]
        if tiles:
            playable |= tiles
            fitting.append((tiles, plain[end.name]))
    if len(fitting) < 2:  # every playable tile fits the one train, or there is none
        return _all_onto(playable, deal.order, fitting[0][1]) if fitting else []
    order = deal.order
    plays = []
    while playable:  # lowest tile number (the seat's order) first
        lowest = playable & -playable
        playable ^= lowest
        tile = order[lowest.bit_length() - 1]
        for tiles, onto in fitting:
            if tiles & lowest:
                plays.append(onto[tile])
    return plays


def _all_onto(playable: int, order: tuple[Tile, ...], onto: Onto) -> list[LegalAction]:
    plays = []
    while playable:
        lowest = playable & -playable
        playable ^= lowest
        plays.append(onto[order[lowest.bit_length() - 1]])
    return plays
