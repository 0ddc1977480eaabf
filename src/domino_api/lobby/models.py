"""Request and response bodies of the lobby's routes (lobby/routes.py); a listing is
lobby/events.py's `LobbyTable`, the one shape of a public table."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

from domino_api.engine.view_types import ViewOut
from domino_api.lobby.events import LobbyTable
from domino_api.matches.schemas import MatchOptions, Preset
from domino_api.web.names import PlayerName
from domino_api.web.struct_bodies import Body

SeekStatus = Literal["open", "paired", "expired"]


class PublicState(Struct, frozen=True, kw_only=True):
    """Whether a table is in the lobby, and its listing while it is."""

    listed: bool
    table: LobbyTable | None


class LobbyPage(Struct, frozen=True, kw_only=True):
    """Open public tables of one preset, newest first."""

    tables: tuple[LobbyTable, ...]
    next_cursor: Annotated[
        str | None,
        Meta(description="Pass as `cursor` for the next (older) page; null on the last page"),
    ]


class PublicTableCreated(Struct, frozen=True, kw_only=True):
    """A new table, listed in the lobby: its listing and the host's view."""

    table: LobbyTable
    view: ViewOut


class PublicJoinBody(Body):
    name: Annotated[
        PlayerName | None,
        Meta(description="The name to sit under at this table (default: the profile's)"),
    ] = None


class SeekCreate(Body):
    """A seek for a match of a preset: two players, or four for a partnership preset.
    `options` are a new match's, checked as at creation against what the preset lets a match
    change (`GET /v1/rulesets`; otherwise `422 bad_options`)."""

    ruleset: Preset
    options: Annotated[
        MatchOptions,
        Meta(
            examples=[{"target": 100}],
            description="The preset's overrides and `talk`, as a new match takes them: only"
            " seekers with the same preset and the same options are paired (`talk: free` is"
            " the same as leaving it out)",
        ),
    ] = msgspec.field(default_factory=MatchOptions)
    rated: Annotated[
        bool,
        Meta(
            description="Ask for a rated game (docs/API.md, Ratings): a pairing is rated when"
            " every seeker asked"
        ),
    ] = True
    partner: Annotated[
        Annotated[str, Meta(min_length=1, max_length=36)] | None,
        Meta(
            description="A pair seeking a pair (partnership presets only): the player id of the"
            " partner you enter with; once the partner's seek names you back (same preset and"
            " options), the two are seated together as partners at seats 0 and 2",
        ),
    ] = None


class SeekOut(Struct, frozen=True, kw_only=True):
    """A seek and where it stands; once `paired`, the caller's seat at the new match."""

    id: str
    status: Annotated[
        SeekStatus,
        Meta(
            description="`open`: waiting (renew it by polling or a lobby socket); `paired`:"
            " seated at `match`, already dealt; `expired`: its lease lapsed (a cancelled seek is"
            " gone: `404 seek_not_found`)"
        ),
    ]
    ruleset: str
    options: Annotated[MatchOptions, Meta(description="The options the seek was made with")]
    rated: Annotated[bool, Meta(description="Whether the seeker asked for a rated game")]
    match: Annotated[str | None, Meta(description="The new match's id, once paired")]
    seat: Annotated[int | None, Meta(description="The caller's seat there, once paired")]
    partner: Annotated[
        str | None, Meta(description="The partner's player id the seek was made with, if any")
    ]
    lease_s: Annotated[
        float, Meta(description="An open seek lapses this long after its last renewal")
    ]


# The lobby's answers typed by Structs, published beside the matches' (documents/openapi_doc.py).
ANSWERS = (PublicState, LobbyPage, PublicTableCreated, SeekOut)
