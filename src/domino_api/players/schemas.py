"""Request and response bodies for players."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from domino_api.players.tile_backs import IDS as TILE_BACK_IDS
from domino_api.players.tile_backs import TileBack
from domino_api.store.json_types import JSONObject
from domino_api.web.names import PlayerName
from domino_api.web.struct_bodies import Body

# A catalogue id (GET /v1/tile-backs); the schema lists them, so a generated one is a known back.
TileBackId = Annotated[str, Meta(max_length=32, extra_json_schema={"enum": sorted(TILE_BACK_IDS)})]
Opponent = Literal["plain", "planner", "human"]

Name = str


class PlayerCreate(Body):
    name: Annotated[
        PlayerName,
        Meta(
            examples=["Ana"],
            description="1-32 characters after NFC and whitespace folding; no control, bidi, "
            "zero-width or invisible characters.",
        ),
    ]


class PlayerSettings(Body):
    """Defaults for matches the player creates (seed 004); explicit options still win."""

    # UNSET (absent) leaves a saved setting as it is; null clears it (players/service.py).
    target: Annotated[int, Meta(ge=1, le=10_000)] | UnsetType | None = UNSET
    draw: Literal["until_playable", "one"] | UnsetType | None = UNSET
    next_opener: Literal["winner_any", "alternate_any"] | UnsetType | None = UNSET

    def given(self) -> JSONObject:
        """The settings the body names, null (clear) included."""
        named = msgspec.structs.asdict(self).items()
        return {name: value for name, value in named if value is not UNSET}


class PlayerPatch(Body):
    name: PlayerName | None = None
    tile_back: TileBackId | None = None
    settings: PlayerSettings | None = None


class PlayerOut(Struct, frozen=True, kw_only=True):
    """A player's profile: name, tile back, plan and match defaults."""

    id: str
    name: str
    tile_back: str
    plan: Literal["free", "club", "corporate"]
    settings: PlayerSettings


class PlayerCreated(PlayerOut, frozen=True, kw_only=True):
    """The new player, its token shown this once."""

    token: Annotated[str, Meta(description="Shown once; send as 'Authorization: Bearer <token>'.")]


class RecordOut(Struct, frozen=True, kw_only=True):
    """A player's best finish at a preset against one kind of opponent."""

    ruleset: str
    opponent: Opponent
    best_score: int
    best_score_at: str
    best_margin: Annotated[
        int | None,
        Meta(
            description="The widest margin (score minus the best other seat's; negative for a loss)"
        ),
    ]
    best_margin_at: str | None


class LeaderboardRow(Struct, frozen=True, kw_only=True):
    """A place on a leaderboard: a player's best finish."""

    rank: int
    player_id: str
    name: str
    score: int
    margin: int
    finished_at: str
    match_id: str


class LeaderboardOut(Struct, frozen=True, kw_only=True):
    """The top 10 players of a preset against one kind of opponent, by best final score."""

    ruleset: str
    opponent: Annotated[Opponent, Meta(description="The board's opponent kind")]
    entries: list[LeaderboardRow]


ANSWERS = (PlayerOut, PlayerCreated, LeaderboardOut, RecordOut, TileBack)
