"""What a sweep pass did (or, dry, would do): one `Outcome` per match and the pass's report,
as `domino-api sweep` prints them (lines, or one JSON document)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from msgspec import Struct

from domino_api.engine.clock_text import iso

ACTIONS = {
    "clock": "forfeit",
    "away": "forfeit",
    "away_tie": "abandon",
    "abandon_waiting": "abandon",
    "abandon_absent": "abandon",
    "next_hand": "next_hand",
    "check_in": "check_in",
}


class OutcomeJSON(Struct, frozen=True, kw_only=True):
    """One match in `domino-api sweep --json`."""

    match_id: str
    code: str | None
    ruleset: str
    action: str
    due: str | None
    seat: int | None
    due_at: str | None
    detail: str
    events: int
    status: str


class PassJSON(Struct, frozen=True, kw_only=True):
    """A pass as `domino-api sweep --json` prints it."""

    dry_run: bool
    now: str | None
    held_since: str | None
    matches: list[OutcomeJSON]
    # The counts, the seats whose presence expired (None: not run) and the pass's pace.
    summary: dict[str, int | float | None]


@dataclass
class Outcome:
    """What one pass did (or, dry, would do) to one match."""

    match_id: str
    code: str | None
    ruleset: str
    action: str  # forfeit | abandon | next_hand | check_in | extend | none | error
    detail: str
    due: str | None = None  # the Due kind found first
    seat: int | None = None
    due_at: datetime | None = None  # when it fell due
    events: int = 0
    status: str = ""
    # What the pass ended: ("forfeit", seat, cause) or ("abandoned"|"cancelled", None, cause).
    ends: list[tuple[str, int | None, str]] = field(default_factory=list)

    def line(self) -> str:
        events = f"{self.events} event{'s' if self.events != 1 else ''}"
        tail = f"({events}, now {self.status})" if self.status else ""
        return f"{self.match_id}  {self.code or '----'}  {self.ruleset:<11}  {self.detail}  {tail}"

    def to_json(self) -> OutcomeJSON:
        return OutcomeJSON(
            match_id=self.match_id,
            code=self.code,
            ruleset=self.ruleset,
            action=self.action,
            due=self.due,
            seat=self.seat,
            due_at=iso(self.due_at),
            detail=self.detail,
            events=self.events,
            status=self.status,
        )


@dataclass
class PassReport:
    now: datetime
    dry_run: bool = False
    outcomes: list[Outcome] = field(default_factory=list)
    presence_expired: int = 0
    presence_available: bool = False
    held_since: datetime | None = None
    elapsed_s: float = 0.0
    # A pass that found nothing due (`only_if_due`): the earliest due moment it saw, if any.
    next_due: datetime | None = None

    def counts(self) -> dict[str, int]:
        counted = Counter(o.action for o in self.outcomes)
        causes = Counter(o.due for o in self.outcomes if o.action == "forfeit")
        return {
            "matches": len(self.outcomes),
            "forfeits": counted["forfeit"],
            "clock": causes["clock"],
            "away": causes["away"],
            "abandoned": counted["abandon"],
            "next_hands": counted["next_hand"],
            "check_ins": counted["check_in"],
            "extended": counted["extend"],
            "nothing_due": counted["none"],
            "errors": counted["error"],
            "events": sum(o.events for o in self.outcomes),
        }

    def rate(self) -> float:
        return len(self.outcomes) / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def summary_line(self) -> str:
        if self.held_since is not None:
            return (
                f"sweep held: no API process alive since {iso(self.held_since)}; "
                "deadlines wait for the service to come back"
            )
        c = self.counts()
        verb = "would sweep" if self.dry_run else "swept"
        if self.dry_run:
            presence = "not run (dry run)"
        elif self.presence_available:
            presence = f"{self.presence_expired} seats disconnected"
        else:
            presence = "expiry not available"
        return (
            f"{verb} {c['matches']} matches: {c['forfeits']} forfeits ({c['clock']} clock, "
            f"{c['away']} away), {c['abandoned']} abandoned, {c['next_hands']} next hands, "
            f"{c['check_ins']} check-ins, {c['extended']} extended (outage), "
            f"{c['nothing_due']} nothing due, {c['errors']} errors; presence: {presence}; "
            f"{self.elapsed_s:.2f} s ({self.rate():.0f} matches/s)"
        )

    def to_json(self) -> PassJSON:
        return PassJSON(
            dry_run=self.dry_run,
            now=iso(self.now),
            held_since=iso(self.held_since),
            matches=[o.to_json() for o in self.outcomes],
            summary={
                **self.counts(),
                "presence_expired": self.presence_expired if self.presence_available else None,
                "elapsed_s": round(self.elapsed_s, 4),
                "matches_per_s": round(self.rate(), 1),
            },
        )
