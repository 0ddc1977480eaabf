"""Who may take which seat: joins by game number and name, autopilot on another's seat, and
what a seat that has left the game may still see (issue 16, attacks 1, 5 and 8).

Rejoining by number and name from a new device stays (product 001), made safe:
- a seat is claimable by name only once its holder has been gone (no socket, no request) for
  the presence lease (`DOMINO_PRESENCE_LEASE_S`); a present holder keeps it;
- a claim records `seat_joined` with `claimed: true`, which every seat sees; the old holder's
  sockets close on it with 4409 `seat_claimed` (realtime/socket.py);
- no refusal names a holder, and to a caller not seated there a started table it cannot
  claim answers exactly as an unknown number does, with the lease as `Retry-After` (what a
  rejoin from a new device needs to know, and the same for every number);
- a caller not seated at the table spends, on each refusal, its own budget of failures (by
  token and by address, `DOMINO_CLAIM_FAILURES_PER_CALLER`) and the game number's, all such
  callers together (`DOMINO_CLAIM_FAILURES_PER_CODE`); a seated caller's join spends none;
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


def failure_budgets(code: str, player_id: str, address: str, seated: bool) -> list[tuple[str, str]]:
    """The budgets a refused join spends (issue 26, item 7): the caller's own, by token and by
    address, and the game number's, shared by every caller not seated at that table. A caller
    seated there has none: its join is its own seat, never a guess, so a flood of strangers'
    guesses at the number never locks out the table's own players."""
    if seated:
        return []
    return [
        ("caller_claim_failures", f"player:{player_id}"),
        ("caller_claim_failures", address),
        ("claim_failures", code),
    ]
