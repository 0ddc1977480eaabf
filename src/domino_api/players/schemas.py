"""Request and response bodies for players."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta
from pydantic import BaseModel, Field

from domino_api.players.tile_backs import IDS as TILE_BACK_IDS
from domino_api.web.inputs import Strict
from domino_api.web.names import PlayerName
from domino_api.web.struct_bodies import Body

# A catalogue id (GET /v1/tile-backs); the schema lists them, so a generated one is a known back.
TileBackId = Annotated[str, Field(max_length=32, json_schema_extra={"enum": sorted(TILE_BACK_IDS)})]

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


class PlayerSettings(Strict):
    """Defaults for matches the player creates (seed 004); explicit options still win."""

    target: int | None = Field(default=None, ge=1, le=10_000)
    draw: Literal["until_playable", "one"] | None = None
    next_opener: Literal["winner_any", "alternate_any"] | None = None


class PlayerPatch(Strict):
    name: PlayerName | None = None
    tile_back: TileBackId | None = None
    settings: PlayerSettings | None = None


class PlayerOut(BaseModel):
    id: str
    name: str
    tile_back: str
    plan: Literal["free", "club", "corporate"]
    settings: PlayerSettings


class PlayerCreated(PlayerOut):
    token: str = Field(description="Shown once; send as 'Authorization: Bearer <token>'.")


class RecordOut(BaseModel):
    ruleset: str
    opponent: Literal["plain", "planner", "human"]
    best_score: int
    best_score_at: str
    best_margin: int | None = Field(
        description="The widest margin (score minus the best other seat's; negative for a loss)"
    )
    best_margin_at: str | None


class LeaderboardRow(BaseModel):
    rank: int
    player_id: str
    name: str
    score: int
    margin: int
    finished_at: str
    match_id: str


class LeaderboardOut(BaseModel):
    ruleset: str
    opponent: Literal["plain", "planner", "human"] = Field(description="The board's opponent kind")
    entries: list[LeaderboardRow]
