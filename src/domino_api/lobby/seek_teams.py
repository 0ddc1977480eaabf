"""A pair seeking a pair (issue 52): two players who each name the other as `partner` in a seek
of the same partnership preset and options enter quick pairing as one team. Pairing
(lobby/seeks.py) groups teams and single seekers oldest first, four players to a table, and
seats the oldest team as partners at seats 0 and 2; the others, a team or two singles, sit at
1 and 3 in the order they came. A seek whose partner has not sought (or not named it back)
waits: it is never seated without its partner."""

from __future__ import annotations

from collections.abc import Callable

from domino_api.store.lobby_repo import SeekRow

Unit = list[SeekRow]  # one single seeker, or a team of two in the order they came


def units(waiting: list[SeekRow], apart: Callable[[SeekRow, SeekRow], bool]) -> list[Unit]:
    """The waiting seekers as singles and teams, oldest first (a team at its older seek); a
    seek whose partner is not waiting for it, or who blocked it (`apart`), is left out."""
    by_player = {seek.player_id: seek for seek in waiting}
    found: list[Unit] = []
    teamed: set[str] = set()
    for seek in waiting:
        if seek.id in teamed:
            continue
        if seek.partner_id is None:
            found.append([seek])
            continue
        mate = by_player.get(seek.partner_id)
        if mate is None or mate.partner_id != seek.player_id or apart(seek, mate):
            continue  # waits for its partner
        found.append([seek, mate])
        teamed.update((seek.id, mate.id))
    return found


def seating(group: list[Unit]) -> list[SeekRow]:
    """The seeks of a table's group in seat order: with a team among them, the oldest team at
    seats 0 and 2 and the others at 1 and 3; four singles in the order they came."""
    teams = [unit for unit in group if len(unit) == 2]
    if not teams:
        return [seek for unit in group for seek in unit]
    first = teams[0]
    rest = [seek for unit in group if unit is not first for seek in unit]
    return [first[0], rest[0], first[1], rest[1]]
