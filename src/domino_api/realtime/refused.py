"""A socket refused after its accept: a close code of 4000 + the HTTP status and the problem
code as reason (browsers cannot read a refused handshake). The match socket and the lobby
socket share it."""

from __future__ import annotations

from domino_api.web.problem_docs import problem_of


class Refused(Exception):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def refusal(exc: Exception) -> Refused:
    """The refusal of a service's or the engine's error, as its problem document has it."""
    body = problem_of(exc)
    return Refused(4000 + body.status, body.code)
