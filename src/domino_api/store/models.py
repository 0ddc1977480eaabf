"""SQLAlchemy models: the tables that hold every player, match, seat, event and record."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import (
    BigInteger,
    Boolean,
    Computed,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import JSON, JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from domino_api.engine.kinds import OVER
from domino_api.store.json_types import JSONObject

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

OVER_SQL = ", ".join(f"'{status}'" for status in OVER)  # 'finished', 'abandoned', 'cancelled'
# How a tournament match was decided (its row's `reason`, the `match_decided` event's).
DecidedBy = Literal["played", "forfeit", "no_show"]
NUMBERED = f"code IS NOT NULL AND status NOT IN ({OVER_SQL})"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {JSONObject: JSONB, datetime: DateTime(timezone=True)}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(32), index=True)
    tile_back: Mapped[str] = mapped_column(String(32), default="moon")
    plan: Mapped[str] = mapped_column(String(16), default="free")
    settings: Mapped[JSONObject] = mapped_column(default=dict)
    created_at: Mapped[datetime]


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    code: Mapped[str | None] = mapped_column(String(6))
    status: Mapped[str] = mapped_column(String(16), index=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    host_player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    # The budget key of the address that created the table (ratelimit.address_key: an IPv4
    # address or an IPv6 /64): live numbered tables are capped per address (migration 0011).
    host_address: Mapped[str | None] = mapped_column(String(64))
    tournament_id: Mapped[str | None] = mapped_column(String(36), index=True)
    # The engine state as JSON: a cache of the event log (replaying the events gives it).
    # Plain json, not jsonb: it is only ever read and written whole (migration 0006).
    # The engine's Snapshot (engine/shapes.py); store/matches_repo.py reads it as one.
    snapshot: Mapped[JSONObject] = mapped_column(JSON)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    game_seq: Mapped[int] = mapped_column(Integer, default=0)
    secret: Mapped[bytes] = mapped_column(LargeBinary)
    commitment: Mapped[str] = mapped_column(String(64))
    cut: Mapped[str | None] = mapped_column(String(64))
    solo: Mapped[bool] = mapped_column(Boolean, default=False)
    # The creator's options.spectators: players without a seat may watch (docs/API.md).
    spectators: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # When something becomes due for this match (turn deadline, next hand, check-in,
    # abandonment): the cheap "timeouts first" check and the sweeper's index.
    turn_deadline: Mapped[datetime | None]
    next_hand_at: Mapped[datetime | None]
    check_in_deadline: Mapped[datetime | None]
    due_at: Mapped[datetime | None] = mapped_column(index=True)
    # Away forfeits wait at least until this moment: set when an away deadline fell inside a
    # service outage (jobs/liveness.py), so nobody forfeits for time the service was down.
    outage_grace_until: Mapped[datetime | None]
    rematch_match_id: Mapped[str | None] = mapped_column(String(36))
    # The host's lock on claims by name (engine/table/seating.py, migration 0008).
    claims_locked: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=text("false")
    )
    # The host turned table talk off (engine/table/seating.py, migration 0013).
    talk_off: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # options.talk "etiquette": no table talk while a hand is in play (docs/RULES.md 14).
    talk_etiquette: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=text("false")
    )
    # Whether its finish moves its players' ratings (ratings/rules.py, migration 0017).
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # A correspondence table's seconds per move (engine/table/clocks.py, migration 0023).
    per_move_s: Mapped[int | None] = mapped_column(Integer)
    started_at: Mapped[datetime | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    finished_at: Mapped[datetime | None]

    __table_args__ = (
        # Look-ups by game number; its uniqueness among live matches is `MatchCode`'s.
        Index(
            "ix_matches_live_code",
            "code",
            postgresql_where=text(f"status NOT IN ({OVER_SQL})"),
        ),
        # The caps on live numbered tables count these (matches/hosting.py).
        Index(
            "ix_matches_numbered_host",
            "host_player_id",
            postgresql_where=text(NUMBERED),
        ),
        Index(
            "ix_matches_numbered_address",
            "host_address",
            postgresql_where=text(NUMBERED),
        ),
    )


class MatchCode(Base):
    """A game number and the match that took it last: taken while that match is not over
    (seed 001's game numbers; migration 0010). Not a unique index on `matches`, which a table
    distributed by match id could not keep (docs/ARCHITECTURE.md, "Sharding")."""

    __tablename__ = "match_codes"

    code: Mapped[str] = mapped_column(String(6), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(36))


class Seat(Base):
    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(8))
    strategy: Mapped[str | None] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    # The name this seat goes by at this table (given at join, or a hot-seat seat's); None: the
    # holder's profile name.
    name: Mapped[str | None] = mapped_column(String(32))
    autopilot: Mapped[bool] = mapped_column(Boolean, default=False)
    forfeited: Mapped[bool] = mapped_column(Boolean, default=False)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    rematch: Mapped[bool] = mapped_column(Boolean, default=False)
    # The holder made a move of its own (a rated match needs every human's: ratings/rules.py).
    moved: Mapped[bool] = mapped_column(Boolean, default=False, server_default=text("false"))
    # Presence lease: the seat is connected while now < connected_until (refreshed by sockets).
    connected_until: Mapped[datetime | None]
    connected: Mapped[bool] = mapped_column(Boolean, default=False)
    # Last authenticated request or socket sighting; away_since starts when the lease lapses.
    last_seen_at: Mapped[datetime | None]
    away_since: Mapped[datetime | None]


class MatchEvent(Base):
    __tablename__ = "match_events"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime]
    data: Mapped[JSONObject]
    # Per-seat private parts, keyed by seat number as a string; merged only for that seat.
    private: Mapped[dict[str, JSONObject]] = mapped_column(JSONB, default=dict)
    # The engine action (or recorded note) that produced this event, on the first event of
    # each transition: replaying these rebuilds the snapshot.
    action: Mapped[JSONObject | None]


class IdempotentAnswer(Base):
    __tablename__ = "idempotency_keys"

    # Scoped per player and match (migration 0007): one key on two matches is two keys.
    player_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    status_code: Mapped[int] = mapped_column(Integer)
    body: Mapped[JSONObject]
    created_at: Mapped[datetime]
    # SHA-256 of the request the key came with (migration 0012; null for keys stored before).
    request_hash: Mapped[str | None] = mapped_column(String(64))


class Record(Base):
    __tablename__ = "records"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32), primary_key=True)
    opponent: Mapped[str] = mapped_column(String(16), primary_key=True)
    best_score: Mapped[int] = mapped_column(Integer)
    best_score_at: Mapped[datetime]
    best_score_match_id: Mapped[str] = mapped_column(String(36))
    best_margin: Mapped[int | None] = mapped_column(Integer)
    best_margin_at: Mapped[datetime | None]
    leaderboard_eligible: Mapped[bool] = mapped_column(Boolean, default=True)


class Rating(Base):
    """A player's rating at one preset (ratings/model.py): OpenSkill's mean and uncertainty."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer)
    # What the leaderboard orders by, kept by PostgreSQL beside the two it is made of.
    ordinal: Mapped[float] = mapped_column(Double, Computed("mu - 3 * sigma", persisted=True))
    updated_at: Mapped[datetime]

    __table_args__ = (Index("ix_ratings_board", "preset", "ordinal", "player_id"),)


class RatingPoint(Base):
    """A player's rating at a preset right after one rated match moved it: a point of the
    profile's history (players/profile.py, migration 0022)."""

    __tablename__ = "rating_points"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    match_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    preset: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime]

    __table_args__ = (Index("ix_rating_points_history", "player_id", "preset", "games"),)


class Finish(Base):
    """One row per (player, finished match): the leaderboard ranks these."""

    __tablename__ = "finishes"

    match_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    opponent: Mapped[str] = mapped_column(String(16))
    score: Mapped[int] = mapped_column(Integer)
    margin: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    default_target: Mapped[bool] = mapped_column(Boolean)
    finished_at: Mapped[datetime]

    __table_args__ = (Index("ix_finishes_board", "ruleset", "opponent", "default_target"),)


class ServiceStart(Base):
    """When a server process started: lets the sweeper forgive deadlines that fell in an outage."""

    __tablename__ = "service_starts"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    started_at: Mapped[datetime] = mapped_column(index=True)
    last_alive_at: Mapped[datetime]
    note: Mapped[str] = mapped_column(Text, default="")
    # Set by a clean stop (jobs/liveness.py): the process was alive until exactly then.
    stopped_at: Mapped[datetime | None] = mapped_column(default=None)
    # Presence witnessed (jobs/witness.py): its sockets' leases renewed as of `witnessed_at`, in
    # an unbroken run of renewals since `witness_since`.
    witnessed_at: Mapped[datetime | None] = mapped_column(default=None)
    witness_since: Mapped[datetime | None] = mapped_column(default=None)


# --- tournaments (tournaments/service.py) -------------------------------------------------


class Tournament(Base):
    """A tournament: its host's format and match options, the recorded seed once started."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    format: Mapped[str] = mapped_column(String(24))
    status: Mapped[str] = mapped_column(String(16), index=True)  # open|running|finished|cancelled
    host_player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    # {"target": 100} or {"best_of": 3}, plus "next_opener" when the host chose one.
    match_options: Mapped[JSONObject]
    # The ruleset of every match: classic, or a partnership preset whose entrants are pairs.
    preset: Mapped[str] = mapped_column(String(32), default="classic", server_default="classic")
    max_entrants: Mapped[int] = mapped_column(Integer)
    check_in_s: Mapped[int] = mapped_column(Integer, default=300)
    seed: Mapped[bytes | None] = mapped_column(LargeBinary)
    current_round: Mapped[int] = mapped_column(Integer, default=0)
    champion_id: Mapped[str | None] = mapped_column(String(36))
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]


class TournamentEntrant(Base):
    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    # Entry order (rising; gaps after a leave): the seeded shuffle's input order.
    entry_no: Mapped[int] = mapped_column(Integer)
    # The seeded order (docs/API.md, "Tournaments"), set at the start.
    order: Mapped[int | None] = mapped_column(Integer)
    entered_at: Mapped[datetime]
    # A pairs tournament: the partner this player named (the pair is whole once both name
    # each other; tournaments/pairs.py).
    partner_id: Mapped[str | None] = mapped_column(String(36), default=None)


class TournamentMatch(Base):
    """One pairing: bracket slot (round, index) or round-robin (round, index), and its result."""

    __tablename__ = "tournament_matches"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[str] = mapped_column(String(36), unique=True)
    player_a: Mapped[str] = mapped_column(String(36))
    player_b: Mapped[str] = mapped_column(String(36))
    winner: Mapped[str | None] = mapped_column(String(36))
    reason: Mapped[DecidedBy | None] = mapped_column(String(16))
    hands_a: Mapped[int] = mapped_column(Integer, default=0)
    hands_b: Mapped[int] = mapped_column(Integer, default=0)
    points_a: Mapped[int] = mapped_column(Integer, default=0)
    points_b: Mapped[int] = mapped_column(Integer, default=0)
    decided_at: Mapped[datetime | None]


class TournamentEvent(Base):
    """One change to a tournament, numbered from 1 per tournament without gaps (the feed)."""

    __tablename__ = "tournament_events"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime]
    data: Mapped[JSONObject]
