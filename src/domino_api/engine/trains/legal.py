"""A seat's plays on the trains (RULES, "Mexican Train"): engine/legal.py's generator, cut to
what a trains board needs, as it runs once for every move of a round up to 8 seats long.

The same plays in the same order as the generic loop: tile by tile in the order the seat
holds them, and for each tile train by train in `Board.ends` order. A trains board always
has its hub, no play scores, and a double waits on the one train it was played on."""

from __future__ import annotations

from domino_api.engine.board import Board
from domino_api.engine.state import HandDeal, LegalAction, MustCover
from domino_api.engine.tiles import Tile
from domino_api.engine.trains.layout import open_ends, train_place


def train_plays(
    deal: HandDeal,
    held: int,
    board: Board,
    must_cover: MustCover | None,
    seat: int,
    plain: dict[str | None, dict[Tile, LegalAction]],
) -> list[LegalAction]:
    """`seat`'s plays holding the bit set `held`: empty when no tile fits an open train."""
    if must_cover is None:
        ends = open_ends(board, seat)
    elif len(must_cover.ends) == 1:  # the train the double lies on: only it may be played on
        ends = (board.ends[train_place(must_cover.ends[0], len(board.ends))],)
    else:
        ends = tuple(end for end in board.ends if end.name in must_cover.ends)
    suits = deal.suits
    order = deal.order
    if len(ends) == 1:  # every playable tile fits the one train
        end = ends[0]
        return _all_onto(held & suits[end.pip], order, plain[end.name])
    fitting = 0
    trains: list[tuple[int, dict[Tile, LegalAction]]] = []
    for end in ends:
        fitting |= suits[end.pip]
        trains.append((end.pip, plain[end.name]))
    playable = held & fitting
    plays = []
    while playable:  # lowest tile number (the seat's order) first
        lowest = playable & -playable
        playable ^= lowest
        tile = order[lowest.bit_length() - 1]
        for pip, onto in trains:
            if pip in tile:
                plays.append(onto[tile])
    return plays


def _all_onto(
    playable: int, order: tuple[Tile, ...], onto: dict[Tile, LegalAction]
) -> list[LegalAction]:
    plays = []
    while playable:
        lowest = playable & -playable
        playable ^= lowest
        plays.append(onto[order[lowest.bit_length() - 1]])
    return plays
