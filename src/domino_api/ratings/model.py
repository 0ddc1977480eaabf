"""The rating model: OpenSkill's Plackett-Luce (Weng-Lin), on an Elo-like scale.

Pure: no database, no clock. A rated match is a list of entrants in finishing places (1 is
best, equal places tie); `rate` gives each its next rating. Computers keep theirs: their
ratings were measured once from their own games (`ratings/computers.py`,
`bench/computer_ratings.py`) and only the humans facing them move.
"""

from __future__ import annotations

from collections.abc import Sequence

from msgspec import Struct
from openskill.models import PlackettLuce

# A new player's rating, its uncertainty (sigma) and the model's skill-per-game spread (beta):
# OpenSkill's defaults (25, 25/3, 25/6, tau 25/300) scaled by 60, so ratings read like Elo's.
MU = 1500.0
SIGMA = 500.0
BETA = 250.0
TAU = 5.0  # the uncertainty added before each game, so a rating keeps moving

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


class Rating(Struct, frozen=True):
    """A rating: its mean (`mu`, shown as the rating), its uncertainty (`sigma`, shown as the
    deviation) and how many rated matches made it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


class Entrant(Struct, frozen=True):
    """One seat of a rated match: its rating, its place (1 is best) and whether it is a
    computer's fixed rating."""

    rating: Rating
    place: int
    fixed: bool = False


def rate(entrants: Sequence[Entrant]) -> list[Rating]:
    """Each entrant's rating after the match, in the given order; fixed ones unchanged."""
    teams = [[MODEL.rating(mu=e.rating.mu, sigma=e.rating.sigma)] for e in entrants]
    after = MODEL.rate(teams, ranks=[float(e.place) for e in entrants])
    return [
        e.rating
        if e.fixed
        else Rating(mu=team[0].mu, sigma=team[0].sigma, games=e.rating.games + 1)
        for e, team in zip(entrants, after, strict=True)
    ]


def places(scores: Sequence[int], winner: int | None, losers: Sequence[int] = ()) -> list[int]:
    """Finishing places from a match's result: the winner first, then by final score (equal
    scores share a place), and `losers` (seats that forfeited) last, sharing the last place."""

    def key(seat: int) -> tuple[int, int, int]:
        return (seat in losers, seat != winner, -scores[seat])

    keys = [key(seat) for seat in range(len(scores))]
    return [1 + sum(other < mine for other in keys) for mine in keys]
