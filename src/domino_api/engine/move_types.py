"""A seat's move, defined once: what `legal` offers (an option), and what a client sends back
(the option with the view's `seq`), both unions tagged by `action`.

An option is a move as the rules offer it (engine/legal.py makes them as `LegalAction`s;
`options` gives them their published form, which the view's `legal`, the `turn` event and the
socket carry). A move body (`MoveBody`) is any option plus `seq` and, for a player holding
several seats, `seat`: a play's `points` is accepted back as sent and never read, since the
server scores the play itself. `to_action` makes the engine's action of a move body, for REST and
the socket alike. openapi.json publishes both unions as `oneOf` with a `discriminator`.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from domino_api.engine.actions import Draw, Pass, Play
from domino_api.engine.kinds import EndName
from domino_api.engine.state import LegalAction
from domino_api.engine.tiles import canonical

SeatNo = Annotated[int, Meta(ge=0, le=7)]  # up to 8 seats (Mexican Train)
Pip = Annotated[int, Meta(ge=0, le=12)]  # up to double-twelve (Mexican Train)
Tile = Annotated[tuple[Pip, Pip], Meta(description="[a, b], a <= b")]
Seq = Annotated[
    int,
    Meta(ge=0, le=2**31 - 1, description="The view's `seq`: the last event the client has seen"),
]
Seat = Annotated[
    SeatNo | None,
    Meta(description="Which of the caller's seats moves (hot-seat play); default: the one to act"),
]


class PlayOption(Struct, frozen=True, kw_only=True, tag_field="action", tag="play"):
    """A play the seat may make, and what it would score."""

    tile: Tile
    end: EndName | None  # None: the hand's first tile
    points: int


class DrawOption(Struct, frozen=True, tag_field="action", tag="draw"):
    """The seat may draw."""


class PassOption(Struct, frozen=True, tag_field="action", tag="pass"):
    """The seat may pass."""


Option = PlayOption | DrawOption | PassOption
_DRAW, _PASS = DrawOption(), PassOption()


def options(legal: tuple[LegalAction, ...]) -> tuple[Option, ...]:
    """The engine's legal actions in their published form (a draw or a pass is its name alone)."""
    return tuple(_option(action) for action in legal)


def legal_of(offered: tuple[Option, ...]) -> tuple[LegalAction, ...]:
    """The inverse of `options`: a view's or an event's options as the engine's legal actions,
    what a computer seat's `SeatView` holds (bot_client.py plays a remote seat with them)."""
    return tuple(
        LegalAction(action="play", tile=o.tile, end=o.end, points=o.points)
        if isinstance(o, PlayOption)
        else LegalAction(
            action="draw" if isinstance(o, DrawOption) else "pass", tile=None, end=None, points=None
        )
        for o in offered
    )


def _option(action: LegalAction) -> Option:
    if action.action == "draw":
        return _DRAW
    if action.action == "pass":
        return _PASS
    assert action.tile is not None and action.points is not None
    return PlayOption(tile=action.tile, end=action.end, points=action.points)


class _Body(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="action"):
    seq: Seq
    seat: Seat = None


class PlayMove(_Body, frozen=True, tag="play"):
    """Play a tile: a `PlayOption` of `legal` with the view's `seq`."""

    tile: Tile
    end: Annotated[
        EndName | None,
        Meta(
            description="Where the tile goes; null: the hand's first tile, or the one end it fits"
        ),
    ] = None
    points: Annotated[
        int | None,
        Meta(description="What the option said the play scores; accepted back and not read"),
    ] = None


class DrawMove(_Body, frozen=True, tag="draw"):
    """Draw from the stock: the `DrawOption` of `legal` with the view's `seq`."""


class PassMove(_Body, frozen=True, tag="pass"):
    """Pass: the `PassOption` of `legal` with the view's `seq`."""


MoveBody = PlayMove | DrawMove | PassMove


def to_action(move: MoveBody) -> Play | Draw | Pass:
    """The engine's action a move asks for (a tile named either way round is one tile)."""
    if isinstance(move, PlayMove):
        return Play(canonical(move.tile), move.end)
    return Draw() if isinstance(move, DrawMove) else Pass()


class MoveRequest(Struct, frozen=True, kw_only=True):
    """A move as an Idempotency-Key's digest reads it: every field but `points` (never read),
    the tile in its canonical form, in this order (stored digests depend on it)."""

    action: str
    tile: tuple[int, int] | None
    end: EndName | None
    seq: int
    seat: int | None


def move_request(move: MoveBody) -> MoveRequest:
    play = move if isinstance(move, PlayMove) else None
    return MoveRequest(
        action=str(type(move).__struct_config__.tag),
        tile=None if play is None else canonical(play.tile),
        end=None if play is None else play.end,
        seq=move.seq,
        seat=move.seat,
    )
