"""Who may look at a match, and by what name each seat goes (docs/API.md, "Who may look").

A player seated at a match sees it from a seat. A player without a seat (a spectator) may watch
the public view, the public copy of the events and the socket only when the table was created
with `options.spectators: true`, or as the host or an entrant of the match's tournament; anyone
else gets `403 not_seated`, so a match id alone opens nothing.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.engine.errors import NotSeated
from domino_api.engine.kinds import Json
from domino_api.engine.rulesets import Options, Ruleset
from domino_api.engine.table import Table
from domino_api.errors import OptionNotAllowed, ValidationFailed
from domino_api.store import tournaments_repo
from domino_api.store.models import Player

SEATED_ONLY = "You hold no seat at this match, and it is not open to spectators."


def watch_check(table: Table, player: Player) -> str | None:
    """What the table alone decides: pass (None), refuse (NotSeated), or the tournament whose
    host and entrants may watch, for `require_member` to ask the database."""
    if table.seats_of(player.id) or table.match.spectators:
        return None
    if table.match.tournament_id is None:
        raise NotSeated(SEATED_ONLY)
    return str(table.match.tournament_id)


async def require_member(session: AsyncSession, tournament_id: str, player_id: str) -> None:
    if not await tournaments_repo.may_watch(session, tournament_id, player_id):
        raise NotSeated(SEATED_ONLY)


async def require_member_in(
    maker: async_sessionmaker[AsyncSession], tournament_id: str | None, player_id: str
) -> None:
    """`require_member` in a read of its own, when `watch_check` left the question open."""
    if tournament_id is not None:
        async with maker() as session:
            await require_member(session, tournament_id, player_id)


# What a solo table (no human opponent) never runs (seed 004): given for one, it is refused.
SOLO_OFF = ("turn_clock", "away_forfeit_s")


def table_options(options: Options) -> tuple[dict[str, Json], bool]:
    """The preset's overrides, and the table's own option `spectators` taken out of them."""
    given = dict(options)
    spectators = given.pop("spectators", False)
    if not isinstance(spectators, bool):
        raise ValidationFailed("options.spectators: expected true or false.")
    return given, spectators


def take_talk(options: Options) -> tuple[dict[str, Json], bool]:
    """The overrides without the table's own option `talk`, and whether it is `etiquette`."""
    rest = dict(options)
    talk = rest.pop("talk", None)
    if talk not in (None, "free", "etiquette"):
        raise ValidationFailed('options.talk: expected "free" or "etiquette".')
    return rest, talk == "etiquette"


def check_talk(etiquette: bool, ruleset: Ruleset) -> None:
    """Partnership etiquette is for partnership tables (docs/RULES.md 14)."""
    if etiquette and not ruleset.partnership:
        raise ValidationFailed('options.talk: "etiquette" is for partnership tables only.')


def refuse_solo_clocks(options: Options, solo: bool) -> None:
    """A clock the creator sets is honoured, or refused: never silently dropped."""
    named = [key for key in SOLO_OFF if options.get(key) is not None]
    if solo and named:
        raise OptionNotAllowed(
            f"options.{named[0]}: a table without a human opponent runs no clock or away rule"
            " (docs/RULES.md section 3); seat a human opponent or leave it out."
        )
