"""Pure tournament standings and their tiebreaks (seed 004, "Match formats").

Only matches count: byes and rests are not matches, so they add no win, no hands and no points.
Each ``MatchRecord`` is one finished match; a record whose ``winner`` is ``None`` (a match that
ended without a result) adds its hands and points but no win.

For each entrant: ``match_wins`` is the number of matches won, ``hand_diff`` the hands it won
minus the hands its opponents won, ``point_diff`` the points it scored minus the points scored
against it, summed over all its matches.

Ranking, highest first:

1. match wins;
2. among the entrants tied on match wins (a *tie group*), head-to-head wins: the wins each scored
   in the matches played between two members of that same group, ignoring matches against
   anyone outside it (for a two-way tie that is simply who beat whom);
3. hand difference;
4. point difference;
5. the seeded order (a lower ``order`` ranks higher), so ranks are always distinct, 1..n.

Head-to-head is applied once per tie group and is not re-applied: when it splits a group of
three or more into smaller still-tied subgroups, those subgroups go straight on to hand
difference, point difference and order (the head-to-head count is not recomputed inside the
subgroup). Equivalently, within a tie group entrants sort by the key
``(-h2h wins in the group, -hand_diff, -point_diff, order)``. A three-way cycle (A beats B,
B beats C, C beats A) thus leaves everyone on one head-to-head win and falls to hand difference.

Single elimination ranks by the round reached instead (``elimination_standings``): the champion
first, then the final's loser, then the semi-finals' losers, and so on (a bye counts as reaching
the next round); entrants out in the same round are ordered by hand difference, point
difference and the seeded order. By match wins alone a first-round loser could rank above a
second-round loser who had a bye (a bye is no match, so no win); the round reached decides.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from domino_api.tournaments.pairing import Bracket

__all__ = ["MatchRecord", "Standing", "elimination_standings", "rounds_reached", "standings"]


@dataclass(frozen=True)
class MatchRecord:
    """A finished match: the two players, its winner, hands won and points scored per player."""

    players: tuple[str, str]
    winner: str | None
    hands: tuple[int, int]
    points: tuple[int, int]

    def __post_init__(self) -> None:
        if self.players[0] == self.players[1]:
            raise ValueError("a match needs two different players")
        if self.winner is not None and self.winner not in self.players:
            raise ValueError(f"winner {self.winner!r} did not play in this match")
        if min(*self.hands, *self.points) < 0:
            raise ValueError("hands and points cannot be negative")


@dataclass(frozen=True)
class Standing:
    player_id: str
    rank: int
    match_wins: int
    hand_diff: int
    point_diff: int
    round_reached: int | None = None  # single elimination: the last round played in, +1 to win


def rounds_reached(bracket: Bracket) -> dict[str, int]:
    """Each entrant's deepest round in ``bracket`` (a bye or a win takes it to the next round;
    the champion's is one past the final)."""
    reached: dict[str, int] = {}
    for number, row in enumerate(bracket.rounds, start=1):
        for slot in row:
            for player in slot.players:
                if player is not None:
                    reached[player] = max(reached.get(player, 0), number)
    if bracket.champion is not None:
        reached[bracket.champion] = len(bracket.rounds) + 1
    return reached


def elimination_standings(
    order: Sequence[str], records: Sequence[MatchRecord], reached: dict[str, int]
) -> list[Standing]:
    """Rank a single-elimination field by round reached, then hand and point difference, then
    the seeded order; the totals are those of ``standings``."""
    totals = {s.player_id: s for s in standings(order, records)}
    position = {player: i for i, player in enumerate(order)}

    def key(player: str) -> tuple[int, int, int, int]:
        total = totals[player]
        return (-reached.get(player, 1), -total.hand_diff, -total.point_diff, position[player])

    return [
        Standing(
            player_id=player,
            rank=rank,
            match_wins=totals[player].match_wins,
            hand_diff=totals[player].hand_diff,
            point_diff=totals[player].point_diff,
            round_reached=reached.get(player, 1),
        )
        for rank, player in enumerate(sorted(order, key=key), start=1)
    ]


def standings(order: Sequence[str], records: Sequence[MatchRecord]) -> list[Standing]:
    """Rank every entrant of ``order`` (seeded order, index = ``order``) from ``records``."""
    position = {player: i for i, player in enumerate(order)}
    if len(position) != len(order):
        raise ValueError("entrant ids must be unique")
    wins = dict.fromkeys(order, 0)
    hand_diff = dict.fromkeys(order, 0)
    point_diff = dict.fromkeys(order, 0)
    for record in records:
        a, b = record.players
        for player in (a, b):
            if player not in position:
                raise ValueError(f"{player!r} is not an entrant")
        if record.winner is not None:
            wins[record.winner] += 1
        hands = record.hands[0] - record.hands[1]
        points = record.points[0] - record.points[1]
        hand_diff[a] += hands
        hand_diff[b] -= hands
        point_diff[a] += points
        point_diff[b] -= points

    groups: dict[int, list[str]] = defaultdict(list)
    for player in order:
        groups[wins[player]].append(player)

    ranked: list[str] = []
    for match_wins in sorted(groups, reverse=True):
        group = groups[match_wins]
        members = set(group)
        head_to_head = dict.fromkeys(group, 0)
        for record in records:
            if record.winner is not None and members.issuperset(record.players):
                head_to_head[record.winner] += 1
        group.sort(key=lambda p: (-head_to_head[p], -hand_diff[p], -point_diff[p], position[p]))
        ranked.extend(group)

    return [
        Standing(
            player_id=player,
            rank=rank,
            match_wins=wins[player],
            hand_diff=hand_diff[player],
            point_diff=point_diff[player],
        )
        for rank, player in enumerate(ranked, start=1)
    ]
