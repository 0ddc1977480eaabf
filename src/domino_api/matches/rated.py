"""Which tables are rated (docs/API.md, "Ratings"), decided once at creation: as Lichess
decides, a table is rated when its creator asks (`POST /v1/matches?rated=true`); without
asking, a table of humans only is rated and one with a computer is not. A table where one
player holds several seats (hot-seat play) is never rated, and asking for it is refused.
How a rated match moves its players' ratings is ratings/ (an end hook)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from fastapi import Query

from domino_api.engine.table.new import NewSeat
from domino_api.errors import OptionNotAllowed

# POST /v1/matches's `rated` (matches/routes.py).
RatedQuery = Annotated[
    bool | None,
    Query(
        description="Whether the match moves its players' ratings (docs/API.md, Ratings): by"
        " default a table of humans only is rated, one with a computer is not; a hot-seat"
        " table never is (`true` for one is `422 option_not_allowed`)"
    ),
]


HOT_SEAT = (
    "rated: a table where one player holds several seats (hot-seat play) is never rated;"
    " leave `rated` out or seat other players."
)


def at_creation(asked: bool | None, seats: Sequence[NewSeat]) -> bool:
    """Whether a new table is rated: `asked` if given, else whether only humans sit at it."""
    held = sum(1 for seat in seats if seat.type == "human" and seat.player_id)
    if held > 1:
        if asked:
            raise OptionNotAllowed(HOT_SEAT)
        return False
    if asked is None:
        return all(seat.type == "human" for seat in seats)
    return asked
