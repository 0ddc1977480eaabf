"""Pure tournament pairing: the seeded order, single-elimination brackets and round-robin.

Everything here is a pure function of its arguments (no I/O, no clock, no randomness besides the
seed), so anyone can recompute a tournament's pairings from its recorded seed (docs/API.md,
"Tournaments").

Seeded order
    ``seeded_order(seed, entrant_ids)`` takes the entrants listed in entry order and
    Fisher-Yates-shuffles them with the 64-bit stream and ``randbelow`` of docs/RULES.md section 11
    (steps 2-3, the tournament's seed bytes in place of the HMAC), via ``engine.rng.shuffle``.
    An entrant's position in the result is its ``order`` (0-based). The shuffle is uniform, so the
    byes handed to the first ``order`` positions fall on each entrant with equal probability.

Single elimination
    ``n >= 2`` entrants, ``P`` the smallest power of two ``>= n`` and ``R = log2(P)`` rounds.
    Every round is a row of *slots*, keyed ``SlotKey(round, index)`` (round from 1, index from 0);
    round ``r`` has ``P / 2**r`` slots and the single round-``R`` slot is the final.

    * Round 1: the first ``P - n`` entrants in order get byes and fill slots ``0 .. P-n-1`` in
      order; the remaining entrants are paired in order (1st with 2nd, ...) into the following
      slots, so round 1 has ``(P - n) + (2n - P) / 2 = P / 2`` slots. A bye slot is decided at
      creation: its entrant advances without a match (and without a win, see ``standings``).
    * Round ``r + 1`` slot ``i`` is fed by round ``r`` slots ``2i`` (its first player) and
      ``2i + 1`` (its second player). As soon as both feeders are decided the slot's match is
      ready ("winners are automatically paired in the next round"); feeders may be byes, so two
      adjacent byes make a round-2 match that is ready the moment the bracket is built.
    * ``advance`` records a winner and returns the matches that became playable; ``cancel``
      records a match that ended without a result (no one checked in; seed 004 cancels the
      tournament then rather than invent a result): nothing downstream of it ever becomes ready,
      the bracket is ``cancelled`` and has no champion.
    * The champion is the winner of the final, the only finalist who never lost.

Round-robin
    The circle method over ``order``: with ``n`` odd a rest placeholder joins as the last entry.
    The first entry stays fixed and the others rotate one step clockwise each round; in every
    round position ``i`` meets position ``m - 1 - i`` (``m`` the padded size), and whoever meets
    the placeholder rests. That gives ``m - 1`` rounds in which every pair meets exactly once,
    nobody plays twice in a round and, with ``n`` odd, every entrant rests exactly once (with
    ``n`` even nobody rests). The order inside a pair carries no meaning: openers follow the
    match's ruleset.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

from domino_api.engine import rng

__all__ = [
    "Advance",
    "Bracket",
    "Round",
    "Slot",
    "SlotKey",
    "SlotStatus",
    "advance",
    "cancel",
    "first_round",
    "round_robin_schedule",
    "seeded_order",
    "single_elimination",
]


def _check_entrants(entrant_ids: Sequence[str], minimum: int) -> None:
    if len(entrant_ids) < minimum:
        raise ValueError(f"need at least {minimum} entrants, got {len(entrant_ids)}")
    if len(set(entrant_ids)) != len(entrant_ids):
        raise ValueError("entrant ids must be unique")


def seeded_order(seed: bytes, entrant_ids: Sequence[str]) -> list[str]:
    """Shuffle the entrants (given in entry order) with the tournament seed; index = ``order``."""
    _check_entrants(entrant_ids, 0)
    return rng.shuffle(seed, entrant_ids)


@dataclass(frozen=True)
class Round:
    """One round's pairings: matches, byes (single elimination) and rests (round-robin)."""

    number: int
    pairs: tuple[tuple[str, str], ...]
    byes: tuple[str, ...] = ()
    rests: tuple[str, ...] = ()


def _bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def first_round(order: Sequence[str]) -> Round:
    """Round 1 of single elimination: the first ``P - n`` entrants get byes, the rest pair up."""
    _check_entrants(order, 2)
    byes = _bracket_size(len(order)) - len(order)
    rest = order[byes:]
    pairs = tuple((rest[i], rest[i + 1]) for i in range(0, len(rest), 2))
    return Round(number=1, pairs=pairs, byes=tuple(order[:byes]))


# --- single elimination -------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class SlotKey:
    """A bracket position: ``round`` counts from 1, ``index`` from 0 within the round."""

    round: int
    index: int


class SlotStatus(enum.Enum):
    BYE = "bye"  # round 1 only: the entrant advances without a match
    WAITING = "waiting"  # at least one feeder is undecided
    READY = "ready"  # both players known, no result yet: the match is playable
    DECIDED = "decided"  # the match has a winner
    CANCELLED = "cancelled"  # the match ended without a result


@dataclass(frozen=True)
class Slot:
    """One bracket position; ``players`` fill in as the feeders are decided.

    A bye slot has ``players == (entrant, None)``, ``bye`` set and the entrant as its winner.
    """

    key: SlotKey
    players: tuple[str | None, str | None] = (None, None)
    winner: str | None = None
    bye: bool = False
    cancelled: bool = False

    @property
    def status(self) -> SlotStatus:
        if self.bye:
            return SlotStatus.BYE
        if self.cancelled:
            return SlotStatus.CANCELLED
        if self.winner is not None:
            return SlotStatus.DECIDED
        if self.players[0] is None or self.players[1] is None:
            return SlotStatus.WAITING
        return SlotStatus.READY

    @property
    def pair(self) -> tuple[str, str] | None:
        """Both players of a match slot once known; ``None`` for byes and waiting slots."""
        first, second = self.players
        if self.bye or first is None or second is None:
            return None
        return (first, second)


@dataclass(frozen=True)
class Bracket:
    """An immutable single-elimination bracket; ``rounds[r - 1][i]`` is slot ``(r, i)``."""

    order: tuple[str, ...]
    rounds: tuple[tuple[Slot, ...], ...]

    @property
    def size(self) -> int:
        """``P``, the number of round-1 positions (entrants plus byes)."""
        return 2 * len(self.rounds[0])

    @property
    def byes(self) -> tuple[str, ...]:
        """The entrants with a round-1 bye, in order."""
        return tuple(slot.winner for slot in self.rounds[0] if slot.bye and slot.winner is not None)

    def slot(self, key: SlotKey) -> Slot:
        """The slot at ``key``; ``KeyError`` if the bracket has no such position."""
        if not 1 <= key.round <= len(self.rounds):
            raise KeyError(key)
        if not 0 <= key.index < len(self.rounds[key.round - 1]):
            raise KeyError(key)
        return self.rounds[key.round - 1][key.index]

    def slots(self) -> tuple[Slot, ...]:
        """Every slot, round by round."""
        return tuple(slot for row in self.rounds for slot in row)

    def ready(self) -> tuple[Slot, ...]:
        """The matches playable now (both players known, no result), in key order."""
        return tuple(slot for slot in self.slots() if slot.status is SlotStatus.READY)

    @property
    def champion(self) -> str | None:
        """The winner of the final, once decided."""
        return self.rounds[-1][0].winner

    @property
    def cancelled(self) -> bool:
        """A match ended without a result, so the bracket can never finish."""
        return any(slot.cancelled for slot in self.slots())

    @property
    def finished(self) -> bool:
        return self.champion is not None


@dataclass(frozen=True)
class Advance:
    """The bracket after a result and the matches that result made playable (key order)."""

    bracket: Bracket
    ready: tuple[Slot, ...]


def single_elimination(order: Sequence[str]) -> Bracket:
    """Build the bracket for ``order`` (from ``seeded_order``) with its byes already advanced.

    Matches ready from the start (round 1's pairs and any round-2 match of two bye entrants) are
    ``bracket.ready()``.
    """
    opening = first_round(order)
    row: list[Slot] = [
        Slot(SlotKey(1, i), players=(entrant, None), winner=entrant, bye=True)
        for i, entrant in enumerate(opening.byes)
    ]
    row += [
        Slot(SlotKey(1, len(row) + j), players=(a, b)) for j, (a, b) in enumerate(opening.pairs)
    ]
    rows = [tuple(row)]
    while len(rows[-1]) > 1:
        feeders = rows[-1]
        number = len(rows) + 1
        rows.append(
            tuple(
                Slot(SlotKey(number, i), players=(feeders[2 * i].winner, feeders[2 * i + 1].winner))
                for i in range(len(feeders) // 2)
            )
        )
    return Bracket(order=tuple(order), rounds=tuple(rows))


def _ready_slot(bracket: Bracket, key: SlotKey) -> Slot:
    slot = bracket.slot(key)
    if slot.status is not SlotStatus.READY:
        raise ValueError(f"slot {key} is {slot.status.value}, not ready")
    return slot


def _with_slot(rows: list[list[Slot]], slot: Slot) -> None:
    rows[slot.key.round - 1][slot.key.index] = slot


def advance(bracket: Bracket, key: SlotKey, winner: str) -> Advance:
    """Record ``winner`` of the ready match at ``key``; feed it into the next round's slot."""
    slot = _ready_slot(bracket, key)
    if winner not in slot.players:
        raise ValueError(f"{winner!r} does not play in slot {key}")
    rows = [list(row) for row in bracket.rounds]
    _with_slot(rows, replace(slot, winner=winner))
    newly_ready: tuple[Slot, ...] = ()
    if key.round < len(rows):
        parent = rows[key.round][key.index // 2]
        players = list(parent.players)
        players[key.index % 2] = winner
        parent = replace(parent, players=(players[0], players[1]))
        _with_slot(rows, parent)
        if parent.status is SlotStatus.READY:
            newly_ready = (parent,)
    return Advance(Bracket(bracket.order, tuple(tuple(row) for row in rows)), newly_ready)


def cancel(bracket: Bracket, key: SlotKey) -> Bracket:
    """Record that the ready match at ``key`` ended without a result (nobody checked in)."""
    slot = _ready_slot(bracket, key)
    rows = [list(row) for row in bracket.rounds]
    _with_slot(rows, replace(slot, cancelled=True))
    return Bracket(bracket.order, tuple(tuple(row) for row in rows))


# --- round-robin --------------------------------------------------------------------------


def round_robin_schedule(order: Sequence[str]) -> list[Round]:
    """Circle-method rounds over ``order`` (see the module docstring), numbered from 1."""
    _check_entrants(order, 2)
    circle: list[str | None] = list(order)
    if len(circle) % 2:
        circle.append(None)
    size = len(circle)
    rounds: list[Round] = []
    for number in range(1, size):
        pairs: list[tuple[str, str]] = []
        rests: list[str] = []
        for i in range(size // 2):
            a, b = circle[i], circle[size - 1 - i]
            if a is None or b is None:
                rests.extend(p for p in (a, b) if p is not None)
            else:
                pairs.append((a, b))
        rounds.append(Round(number=number, pairs=tuple(pairs), rests=tuple(rests)))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds
