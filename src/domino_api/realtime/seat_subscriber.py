"""A match socket's place in the hub (realtime/hub.py), with what its seats' changes mean for
what it may still be sent."""

from __future__ import annotations

import asyncio

from domino_api.engine.event_types import ForfeitEvent, SeatJoinedEvent
from domino_api.realtime.hub import Subscriber
from domino_api.realtime.outbox import Frame


class SeatSubscriber(Subscriber):
    """A socket's subscriber that stops seeing its seat's private data the moment that seat
    forfeits or resigns (the computer plays it from then on; engine/table/seats.py). The hub reads
    `seat` for every event it copies, so the events after the forfeit, in the same delivery,
    are already public copies. When one of its seats is claimed by name or released, what
    came up to that event is written and the rest held until the socket knows the seat is
    still its own (`seat_news`)."""

    def __init__(
        self,
        match_id: str,
        seat: int | None,
        cursor: int,
        queue_size: int,
        player_id: str,
        limit_bytes: int,
        my_seats: list[int],
    ) -> None:
        super().__init__(match_id, seat, cursor, queue_size, player_id, limit_bytes)
        self.my_seats = my_seats
        self.seat_news = asyncio.Event()
        self.questioned = -1  # the seat last claimed or released

    def offer(self, frame: Frame) -> bool:
        queued = super().offer(frame)
        event = frame.event
        if isinstance(event, ForfeitEvent) and event.data.seat == self.seat:
            self.seat = None
        elif (
            isinstance(event, SeatJoinedEvent)
            and (event.data.claimed or event.data.released)
            and event.data.seat in self.my_seats
        ):
            self.flush()
            self.held = True
            self.questioned = event.data.seat
            self.seat_news.set()
        return queued
