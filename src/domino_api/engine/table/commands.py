"""What may be asked of a table: one command per kind of step (`engine.table.step`).

`by` is the asking player's id; `seat` (None: the caller's own, on turn first) names which of its
seats acts. Commands hold only what the caller decided; anything random (a cut, a new match's
id) is chosen before the command is made, so a step is a pure function of its inputs.
"""

from __future__ import annotations

from msgspec import Struct

from domino_api.engine.actions import Action
from domino_api.engine.table.clocks import NoOutages, Outages
from domino_api.engine.table.seats import LEASE_S
from domino_api.engine.table.witness import ALWAYS, Witness


class Start(Struct, frozen=True):
    """The host deals the first hand, handing empty seats to the Planner if asked."""

    by: str
    cut: str
    fill_with_bots: bool = False


class Move(Struct, frozen=True):
    """A seat plays, draws or passes, having seen the match at `seq`."""

    by: str
    action: Action
    seq: int
    seat: int | None = None


class NextHand(Struct, frozen=True):
    by: str
    seat: int | None = None


class Resign(Struct, frozen=True):
    """The seat forfeits; at a tournament's four-seat table in check-in the match may then start
    (`cut` is the server's)."""

    by: str
    seat: int | None = None
    cut: str = ""


class Ready(Struct, frozen=True):
    """A tournament seat checks in; the match starts once both have (`cut` is the server's)."""

    by: str
    cut: str
    seat: int | None = None


class Chat(Struct, frozen=True):
    by: str
    text: str
    seat: int | None = None


class Autopilot(Struct, frozen=True):
    """The host hands a seat to the computer, or the holder (or host) takes it back."""

    by: str
    seat: int
    on: bool
    lease_s: float = LEASE_S
    witness: Witness = ALWAYS  # what the service could see (engine/table/witness.py)


class Join(Struct, frozen=True):
    """Join by game number: a free seat, or by name a seat whose holder has been gone."""

    by: str
    profile_name: str
    tile_back: str
    code: str
    name: str | None = None
    lease_s: float = LEASE_S
    witness: Witness = ALWAYS  # what the service could see (engine/table/witness.py)


class Lock(Struct, frozen=True):
    by: str
    on: bool


class Talk(Struct, frozen=True):
    """The host turns table talk on or off."""

    by: str
    on: bool


class Release(Struct, frozen=True):
    """The host frees another's human seat for the next join by number, once its holder has
    been away for the lease."""

    by: str
    seat: int
    lease_s: float = LEASE_S
    witness: Witness = ALWAYS  # what the service could see (engine/table/witness.py)


class OfferRematch(Struct, frozen=True):
    by: str
    seat: int | None = None


class RematchCreated(Struct, frozen=True):
    match_id: str


class TileBack(Struct, frozen=True):
    """A holder changed the back of its tiles: its seats' tables are told."""

    by: str
    tile_back: str


class Seen(Struct, frozen=True):
    """A request about the match counts as presence for the caller's seats."""

    by: str
    every_s: float = 1.0  # marks closer together than this are not rewritten


class Connect(Struct, frozen=True):
    """Seats with a live socket: their leases run on; the ones not connected are announced.

    `by`: the socket's player; a seat somebody else holds by now (claimed, released) is left
    alone, so a socket's late renewal never keeps its old seat present."""

    seats: tuple[int, ...]
    lease_s: float = LEASE_S
    by: str | None = None


class Lapse(Struct, frozen=True):
    """Seats whose lease may have lapsed: the ones that did are announced gone."""

    seats: tuple[int, ...]
    lease_s: float = LEASE_S
    witness: Witness = ALWAYS  # what the service could see (engine/table/witness.py)


class Tick(Struct, frozen=True):
    """Whatever is due now: forfeits, check-in, the next hand, abandonment (RULES 10); `cut` is
    the server's, for a tournament match of four that check-in's end starts."""

    outages: Outages = NoOutages()
    cut: str = ""


class ComputerMove(Struct, frozen=True):
    """The move a computer seat chose, with its reason for the ledger."""

    seat: int
    action: Action
    reason: str = ""


Command = (
    Start
    | Move
    | NextHand
    | Resign
    | Ready
    | Chat
    | Autopilot
    | Join
    | Lock
    | Talk
    | Release
    | OfferRematch
    | RematchCreated
    | TileBack
    | Seen
    | Connect
    | Lapse
    | Tick
    | ComputerMove
)
