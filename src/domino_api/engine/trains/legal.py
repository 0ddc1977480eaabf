"""A seat's legal actions on the trains (RULES, "Mexican Train"): engine/legal.py's generator,
cut to what a trains board needs, as it runs once for every move of a round up to 8 seats long.

The same plays in the same order as the generic loop: tile by tile in the order the seat
holds them, and for each tile train by train in `Board.ends` order. A trains board always
has its hub, no play scores, and a double waits on the one train it was played on."""

from __future__ import annotations

from collections.abc import Callable

from domino_api.engine.board import Board, OpenEnd
from domino_api.engine.state import ONLY_DRAW, ONLY_PASS, HandDeal, LegalAction, MustCover
from domino_api.engine.tiles import Tile
from domino_api.engine.trains.layout import TRAIN_INDEX, picker

Onto = dict[Tile, LegalAction]  # the plays onto one train, by tile (`Rules.plain_plays`)
Picker = Callable[[tuple[OpenEnd, ...]], tuple[OpenEnd, ...]]

# `picker`'s getters by one int, the seats' mask above the count of ends (at most 9): a dict
# read for each move where the cached function's key is a tuple built and hashed.
_PICKERS: dict[int, Picker] = {}


def train_legal(
    deal: HandDeal, held: int, board: Board, must_cover: MustCover | None, seat: int, stock: int
) -> tuple[LegalAction, ...]:
    """`seat`'s legal actions holding the bit set `held`, `stock` tiles left to draw: its
    plays, else a draw, else a pass. One function, no call per train or tile: it runs once a
    move."""
    ends = board.ends
    plain = deal.rules.plain_plays
    suits = deal.suits
    if must_cover is None:  # `open_ends(board, seat)`: its getter read from `_PICKERS`
        key = (board.markers | 1 << seat) << 4 | len(ends)
        pick = _PICKERS.get(key) or _picker(key)
        ends = pick(ends)
    elif len(must_cover.ends) == 1:  # the train the double lies on: only it may be played on
        end = ends[TRAIN_INDEX[must_cover.ends[0]]]
        ends = (end,)
    else:
        ends = tuple(end for end in ends if end.name in must_cover.ends)
    playable = 0
    fitting: list[tuple[int, Onto]] = []  # the trains some held tile fits, with those tiles
    for end in ends:
        tiles = held & suits[end.pip]
        if tiles:
            playable |= tiles
            fitting.append((tiles, plain[end.name]))
    if not playable:
        return ONLY_DRAW if stock > 0 and deal.rules.may_draw else ONLY_PASS
    order = deal.order
    plays = []
    if len(fitting) == 1:  # every playable tile fits the one train
        onto = fitting[0][1]
        while playable:  # lowest tile number (the seat's order) first
            lowest = playable & -playable
            playable ^= lowest
            plays.append(onto[order[lowest.bit_length() - 1]])
        return tuple(plays)
    while playable:
        lowest = playable & -playable
        playable ^= lowest
        tile = order[lowest.bit_length() - 1]
        for tiles, onto in fitting:
            if tiles & lowest:
                plays.append(onto[tile])
    return tuple(plays)


def _picker(key: int) -> Picker:
    pick = _PICKERS[key] = picker(key & 15, key >> 4)
    return pick
