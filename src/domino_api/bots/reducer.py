"""The client's reducer: a seat's view JSON moved on by one of its event copies.

`apply_event(view, event)` is what a client that took one view (a snapshot, a REST read or a
move's answer) does with each later event its seat receives, in `seq` order, instead of fetching
the view again: the events carry everything the view shows that changes. It is the Python twin
of /play's `play/reducer.js`, one case per event type of docs/API.md, and
tests/clients/test_reducer_property.py holds both to the server's own next view.

What no event carries is kept as it was: `now`, and each seat's `away_deadline` and
`away_since`, which move with every sighting of a holder (docs/API.md, "The away rule"); a
client that shows them reads the view again after a presence event.

Pure: `view` is not changed, nothing is fetched. The caller applies only the event whose `seq`
follows the view's; a gap means events were missed, and then only a fresh view helps.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import msgspec

from domino_api.engine import Ruleset
from domino_api.engine.layout import Board, place
from domino_api.engine.view import board_out

Json = dict[str, Any]

# RULES section 10 / docs/API.md: a clocked match deals the next hand this long after one ends.
NEXT_HAND_DELAY = timedelta(seconds=30)
OVER = ("finished", "abandoned", "cancelled")


class Gap(ValueError):
    """The event does not follow the view: events were missed (fetch the view again)."""


def follows(view: Mapping[str, Any], event: Mapping[str, Any]) -> bool:
    """Whether `event` is the next one for `view` (else it is old, or there is a gap)."""
    return int(event["seq"]) == int(view["seq"]) + 1


def can_apply(view: Mapping[str, Any], event: Mapping[str, Any]) -> bool:
    """Whether the view after `event` follows from the two: the event is the next one, and it
    is not the end of a match in which the viewer's seat may have forfeited (the end shows a
    forfeited seat's holder its seats again, which a view without `you` cannot know)."""
    if not follows(view, event):
        return False
    forfeits = any(seat["forfeited"] for seat in view["seats"])
    return not (event["type"] == "match_ended" and view.get("you") is None and forfeits)


def apply_event(view: Mapping[str, Any], event: Mapping[str, Any]) -> Json:
    """The view after `event` (a new dict). Raises `Gap` unless `can_apply`: the view must
    be read again."""
    if not can_apply(view, event):
        raise Gap(f"event {event['seq']} ({event['type']}) calls for the view at seq {view['seq']}")
    out = copy.deepcopy(dict(view))
    out["seq"] = int(event["seq"])
    data = event.get("data") or {}
    handler = _HANDLERS.get(str(event["type"]))
    if handler is not None:
        handler(out, data, event)
    return out


def _option(option: Mapping[str, Any]) -> Json:
    """An option as a view lists it: an event's short form (`{"action": "draw"}`) with every
    field of the view's LegalAction, null where a draw, a pass or the next hand has none."""
    return {key: option.get(key) for key in ("action", "tile", "end", "points")}


def _me(view: Json) -> int | None:
    you = view.get("you")
    return None if you is None else int(you["seat"])


def _seat(view: Json, data: Mapping[str, Any]) -> Json:
    seat: Json = view["seats"][int(data["seat"])]
    return seat


def _seat_joined(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    seat = _seat(view, data)
    for key in ("name", "type", "strategy"):
        seat[key] = data.get(key)


def _connected(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    seat = _seat(view, data)
    seat["connected"] = True
    seat["away_since"] = None


def _disconnected(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    _seat(view, data)["connected"] = False


def _match_started(view: Json, _data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    view["status"] = "playing"
    view["check_in_deadline"] = None


def _hand_started(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    view["status"] = "playing"
    view["hand_number"] = int(data["hand_number"])
    view["next_hand_at"] = None
    for seat, count in zip(view["seats"], data["tiles"], strict=True):
        seat["tiles"] = int(count)
    view["stock"] = int(data["stock"])
    view["board"] = {"tiles": [], "ends": [], "ends_total": 0}
    view["turn"], view["legal"] = None, []
    you = view.get("you")
    if you is not None:
        you["hand"] = [list(tile) for tile in data.get("hand") or []]


def _turn(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    seat = int(data["seat"])
    view["turn"] = {"seat": seat, "deadline": data["deadline"], "must_cover": data["must_cover"]}
    mine = seat == _me(view)
    view["legal"] = [_option(option) for option in data.get("legal") or []] if mine else []


def _tile_played(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    seat = _seat(view, data)
    seat["tiles"] = int(seat["tiles"]) - 1
    tile = [int(pip) for pip in data["tile"]]
    you = view.get("you")
    if you is not None and int(data["seat"]) == int(you["seat"]):
        you["hand"] = [t for t in you["hand"] if list(t) != tile]
    layout = Ruleset.from_dict(view["ruleset"]).layout
    board = _board(view["board"]["tiles"], layout)
    board = place(board, (tile[0], tile[1]), data["end"], layout)
    view["board"] = msgspec.json.decode(msgspec.json.encode(board_out(board)))  # as sent
    view["turn"], view["legal"] = None, []


def _board(tiles: list[Json], layout: str) -> Board:
    board = Board(tiles=(), ends=(), total=0, spinner=None, spinner_mains=())
    for item in tiles:
        board = place(board, (int(item["tile"][0]), int(item["tile"][1])), item["end"], layout)
    return board


def _tile_drawn(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    seat = _seat(view, data)
    seat["tiles"] = int(seat["tiles"]) + 1
    view["stock"] = int(data["stock"])
    you = view.get("you")
    if you is not None and data.get("tile") is not None:
        you["hand"] = [*you["hand"], list(data["tile"])]
    # The drawer who keeps the turn gets what it may do now in its own copy (no `turn` event).
    view["legal"] = [_option(option) for option in data.get("legal") or []]


def _passed(view: Json, _data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    view["turn"], view["legal"] = None, []


def _scored(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    _seat(view, data)["score"] = int(data["score"])


def _hand_ended(view: Json, data: Mapping[str, Any], event: Mapping[str, Any]) -> None:
    view["status"] = "hand_over"
    view["turn"] = None
    view["legal"] = [_option({"action": "next_hand"})] if view.get("you") else []
    view["last_hand"] = copy.deepcopy(dict(data))
    winner = data.get("winner")
    if winner is not None and data.get("reason") not in ("forfeit", "abandoned"):
        seat = view["seats"][int(winner)]
        seat["hands_won"] = int(seat["hands_won"]) + 1
    if view["ruleset"].get("turn_clock") is not None:
        view["next_hand_at"] = _later(str(event["at"]), NEXT_HAND_DELAY)


def _later(moment: str, delay: timedelta) -> str:
    later = datetime.fromisoformat(moment.replace("Z", "+00:00")) + delay
    return later.isoformat().replace("+00:00", "Z")


def _match_ended(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    reason = data["reason"]
    view["status"] = reason if reason in ("abandoned", "cancelled") else "finished"
    view["turn"], view["legal"] = None, []
    view["result"] = copy.deepcopy(dict(data))
    view["code"] = None  # nobody joins a table that is over: its number is freed
    view["next_hand_at"] = None
    for seat, score, won in zip(view["seats"], data["scores"], data["hands_won"], strict=True):
        seat["score"], seat["hands_won"] = int(score), int(won)


def _forfeit(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    _seat(view, data)["forfeited"] = True
    if _me(view) == int(data["seat"]):
        # A forfeited seat shows its holder nothing private while the match runs (docs/API.md).
        view["you"], view["legal"] = None, []
    if view.get("code") is not None and not _joinable(view):
        view["code"] = None


def _joinable(view: Json) -> bool:
    """Whether a guest can still join or rejoin by number: a human seat in play that is not
    the host's (the seats a client knows to be the host's: seat 0, and the host's own)."""
    host = view.get("host_seat")
    you = view.get("you")
    hosts = {host} | (set(you["seats"]) if you is not None and host in you["seats"] else set())
    return any(
        s["type"] == "human" and not s["forfeited"] and s["seat"] not in hosts
        for s in view["seats"]
    )


def _flag(key: str, value: bool) -> Any:
    def handler(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
        _seat(view, data)[key] = value

    return handler


def _rematch_created(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    view["rematch_match_id"] = data["match_id"]


def _tile_back_changed(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    _seat(view, data)["tile_back"] = data["tile_back"]


def _deadline_moved(view: Json, data: Mapping[str, Any], _event: Mapping[str, Any]) -> None:
    if data["clock"] == "turn" and view.get("turn") is not None:
        view["turn"]["deadline"] = data["deadline"]
    elif data["clock"] == "away":
        _seat(view, data)["away_deadline"] = data["deadline"]


# `message` and `rematch_offered` change nothing the view shows.
_HANDLERS = {
    "seat_joined": _seat_joined,
    "seat_connected": _connected,
    "seat_disconnected": _disconnected,
    "match_started": _match_started,
    "hand_started": _hand_started,
    "turn": _turn,
    "tile_played": _tile_played,
    "tile_drawn": _tile_drawn,
    "passed": _passed,
    "scored": _scored,
    "hand_ended": _hand_ended,
    "match_ended": _match_ended,
    "forfeit": _forfeit,
    "autopilot_on": _flag("autopilot", True),
    "autopilot_off": _flag("autopilot", False),
    "ready": _flag("ready", True),
    "rematch_created": _rematch_created,
    "tile_back_changed": _tile_back_changed,
    "deadline_moved": _deadline_moved,
}
