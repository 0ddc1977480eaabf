"""What a seat can infer from its own view: the pips each other seat is known to lack.

Only `SeatView.history` is read: a draw or a pass shows that the seat held no tile with any
pip open to it at that moment (HistoryEntry.pips, which already narrows to the ends of a
double that must be covered).
"""

from __future__ import annotations

from collections.abc import Iterable

from domino_api.engine import HistoryEntry, SeatView, Tile


def known_voids(view: SeatView) -> tuple[frozenset[int], ...]:
    """For every seat, the pips none of its tiles can hold now (empty for this view's own seat).

    A pass adds the open pips to what the seat lacks. A draw does too for the tiles it held,
    but the drawn tile is unknown: when it is kept (the seat did not play it at once) it is only
    known not to fit the same pips, so what every held tile lacks is exactly those pips. The
    inference never excludes a deal the seat could really hold.
    """
    voids: list[set[int]] = [set() for _ in range(view.ruleset.players)]
    history = view.history
    for index, entry in enumerate(history):
        if entry.seat != view.seat:
            learn_void(voids, history, index)
    return tuple(frozenset(v) for v in voids)


def learn_void(voids: list[set[int]], history: tuple[HistoryEntry, ...], index: int) -> None:
    """What the pass or draw at `index` shows its seat lacks, added to `voids` (a play: none)."""
    entry = history[index]
    if entry.kind == "play":
        return
    if entry.kind == "pass" or _played_next(history, index):
        voids[entry.seat].update(entry.pips)
    else:
        voids[entry.seat] = set(entry.pips)


def _played_next(history: tuple[HistoryEntry, ...], index: int) -> bool:
    """Whether the seat that drew at `index` played next (so it played the tile it drew)."""
    if index + 1 >= len(history):
        return False
    following = history[index + 1]
    return following.seat == history[index].seat and following.kind == "play"


def lacks(tile: Tile, void: frozenset[int]) -> bool:
    """Whether `tile` can be held by a seat that lacks the pips `void`."""
    return tile[0] not in void and tile[1] not in void


def pips_text(pips: Iterable[int]) -> str:
    names = [str(p) for p in sorted(set(pips))]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def tile_text(tile: Tile) -> str:
    return f"[{tile[0]},{tile[1]}]"
