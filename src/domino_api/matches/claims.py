"""Who may take which seat: joins by game number and name, autopilot on another's seat, and
what a seat that has left the game may still see (issue 16, attacks 1, 5 and 8).

Rejoining by number and name from a new device stays (product 001), made safe:
- a seat is claimable by name only once its holder has been gone (no socket, no request) for
  the presence lease (`DOMINO_PRESENCE_LEASE_S`), counting only time the service could see
  (engine/table/witness.py: an outage never ages it); a present holder keeps it;
- a claim records `seat_joined` with `claimed: true`, which every seat sees; the old holder's
  sockets close on it with 4409 `seat_claimed` (realtime/socket.py);
- no refusal names a holder, and to a caller not seated there a started table it cannot
  claim answers exactly as an unknown number does, with the lease as `Retry-After` (what a
  rejoin from a new device needs to know, and the same for every number);
- a caller not seated at the table spends, on each refusal, its own budgets of failures (by
  token and by address, `DOMINO_CLAIM_FAILURES_PER_CALLER`, and by network, an IPv4 /24 or an
  IPv6 /64, `DOMINO_CLAIM_FAILURES_PER_NETWORK` an hour); a wrong guess (a name that is no
  seat's, an unknown number) also spends the number's budget, all callers together
  (`DOMINO_CLAIM_FAILURES_PER_CODE` an hour), and marks the caller there. Once that budget is
  spent, a marked caller is refused at once while the others are still answered: a right name
  is not a guess, so strangers never lock the real player out of a rejoin from a new device,
  and a number's name is guessed at most the budget's times plus once per caller that had not
  guessed there, every such caller bounded by its network's budget (issue 41);
  a seated caller's join spends none;
- host rights go with seat 0: whoever claims it is the host from then on;
- a holder's own join moves the row's version, so a claim decided on an older read cannot
  commit after that join has answered with the seat;
- the host may lock the table (`PUT /v1/matches/{id}/lock`): then no claim by name works, and
  a seat changes hands only through its own token or by the host releasing it
  (`DELETE /v1/matches/{id}/seats/{seat}/holder`), which frees it for the next join by number.

The rules are the table reducer's (engine/table/seats.py and engine/table/seating.py); what
is here is the service's part: the budgets a refused join spends.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from domino_api.errors import RateLimited
from domino_api.web.ratelimit import Limits, network_key

Key = tuple[str, str]  # (budget, key)


@dataclass
class Outcome:
    """What a join's step found before it answered: whether the name it was made under is
    the name of a seat at the table (a rejoin, never a guess)."""

    right_name: bool = False


@dataclass(frozen=True)
class Guess:
    """The budgets a join by a caller not seated at the table answers to (issue 41)."""

    caller: list[Key]  # spent by every refusal: the token's, the address's, the network's
    number: Key  # the number's, spent by wrong guesses only
    marks: list[Key] = field(default_factory=list)  # the caller's marks of a wrong guess there


def guess_budgets(code: str, player_id: str, address: str) -> Guess:
    return Guess(
        caller=[
            ("caller_claim_failures", f"player:{player_id}"),
            ("caller_claim_failures", address),
            ("network_claim_failures", network_key(address)),
        ],
        number=("claim_failures", code),
        marks=[
            ("number_guessed", f"{code}:player:{player_id}"),
            ("number_guessed", f"{code}:{address}"),
        ],
    )


async def check(limits: Limits, guess: Guess) -> None:
    """Refuse at once (429) a caller whose own budget is spent, or, once the number's budget
    of wrong guesses is spent, a caller that guessed wrong at it: a caller that has not, the
    real player on a new device, is still answered."""
    for name, key in guess.caller:
        if await limits.exhausted(name, key):
            await limits.refuse(name, key)
    if not await limits.exhausted(*guess.number):
        return
    for name, key in guess.marks:
        if await limits.exhausted(name, key):
            await limits.refuse(*guess.number)


async def spend(limits: Limits, guess: Guess, outcome: Outcome) -> None:
    """A refused join spends the caller's budgets; a wrong guess the number's too, and marks
    the caller there. A refusal under a seat's own name (its holder still present, or the
    table locked) is no guess: strangers' guesses and a rejoin too early never add up to a
    lockout of the real player."""
    spent = guess.caller if outcome.right_name else [*guess.caller, guess.number, *guess.marks]
    for name, key in spent:
        with contextlib.suppress(RateLimited):  # this answer is the refusal; 429 comes next
            await limits.hit(name, key)
