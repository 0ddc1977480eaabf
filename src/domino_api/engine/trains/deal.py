"""A round's deal (RULES 11, "Mexican Train"): the round's engine double is taken out of the
set and lies in the hub; the rest is shuffled and dealt exactly as any other hand's set."""

from __future__ import annotations

from functools import cache

from domino_api.engine.deal import Deal, check_cut, deal_seed, seat_slices
from domino_api.engine.rng import shuffle
from domino_api.engine.tiles import Tile, full_set
from domino_api.engine.trains.layout import engine_pip


def round_deal(
    secret: bytes, cut: str, number: int, max_pip: int, players: int, hand_size: int
) -> Deal:
    """Round `number`'s deal: the set less its engine double, shuffled by the hand's seed
    (attempt 0: a round never reshuffles), `hand_size` tiles per seat, the rest the stock."""
    check_cut(cut)
    order = tuple(shuffle(deal_seed(secret, cut, number, 0), _round_set(max_pip, number)))
    hands = tuple(map(order.__getitem__, seat_slices(players, hand_size)))
    return Deal(hands=hands, stock=order[players * hand_size :])


@cache
def _round_set(max_pip: int, number: int) -> tuple[Tile, ...]:
    """The set less round `number`'s engine double, in the set's order: the same 90 tiles
    for every match's round, so they are listed once."""
    engine = engine_pip(max_pip, number)
    return tuple(tile for tile in full_set(max_pip) if tile != (engine, engine))
