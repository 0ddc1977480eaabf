"""Correspondence tables (issue 50): hours or days per move, no away rule.

A table created with `options.per_move_s` keeps that time as a table fact (`Info.per_move_s`,
engine/table/clocks.py): each turn of a human seat ends at its start plus `per_move_s`, the
recovery job forfeits a seat whose turn deadline passes (cause `clock`, as for any turn clock),
and nobody forfeits for being away nor is the table abandoned for it. The option is the table's
own, like `spectators`: it is taken out of the preset's overrides here.
"""

from __future__ import annotations

from domino_api.engine.kinds import Json
from domino_api.errors import OptionNotAllowed, ValidationFailed

# Bounds of `options.per_move_s` (matches/schemas.py publishes them): an hour to two weeks.
MIN_PER_MOVE_S = 3_600
MAX_PER_MOVE_S = 14 * 86_400
# A live clock beside a correspondence one would contradict it.
LIVE_CLOCKS = ("turn_clock", "away_forfeit_s")


def take_per_move(given: dict[str, Json], solo: bool) -> tuple[dict[str, Json], int | None]:
    """The overrides without `per_move_s`, and its value (None: a table played live)."""
    rest = dict(given)
    per_move = rest.pop("per_move_s", None)
    if per_move is None:
        return rest, None
    if type(per_move) is not int or not MIN_PER_MOVE_S <= per_move <= MAX_PER_MOVE_S:
        raise ValidationFailed(
            f"options.per_move_s: a whole number of seconds from {MIN_PER_MOVE_S} to"
            f" {MAX_PER_MOVE_S}."
        )
    clocks = [key for key in LIVE_CLOCKS if rest.get(key) is not None]
    if clocks:
        raise OptionNotAllowed(
            f"options.{clocks[0]}: a correspondence table (per_move_s) runs its time per move"
            " and no live clock; leave one of them out."
        )
    if solo:
        raise OptionNotAllowed(
            "options.per_move_s: a table without a human opponent runs no clock"
            " (docs/RULES.md section 3); seat a human opponent or leave it out."
        )
    return rest, per_move
