"""A whole match against the Planner, played with the package openapi-python-client generates
from openapi/openapi.json: every move is an entry of the view's `legal`, sent back as it is with
the view's `seq`. tests/clients/test_generated_clients.py generates the package, checks it and
this file with `mypy --strict` and runs this file with the server's address."""

from __future__ import annotations

import json
import sys

from domino_api_client import AuthenticatedClient, Client
from domino_api_client.api.matches import (
    create_match_v1_matches_post,
    move_v1_matches_match_id_moves_post,
    next_hand_v1_matches_match_id_hands_post,
    start_v1_matches_match_id_start_post,
)
from domino_api_client.api.players import create_player_v1_players_post
from domino_api_client.models import (
    BotSeat,
    BotSeatStrategy,
    DrawMove,
    DrawOption,
    HumanSeat,
    MatchCreate,
    MatchCreateRuleset,
    MatchOptions,
    MoveOut,
    NextHandBody,
    PassMove,
    PassOption,
    PlayerCreate,
    PlayerCreated,
    PlayMove,
    PlayOption,
    StartBody,
    ViewOut,
    ViewOutStatus,
)

PLAYING = (ViewOutStatus.PLAYING, ViewOutStatus.HAND_OVER)


def move_of(
    option: PlayOption | DrawOption | PassOption, seq: int
) -> PlayMove | DrawMove | PassMove:
    """A `legal` entry as the move body it offers, with `seq`."""
    sent = {**option.to_dict(), "seq": seq}
    if isinstance(option, PlayOption):
        return PlayMove.from_dict(sent)
    return DrawMove.from_dict(sent) if isinstance(option, DrawOption) else PassMove.from_dict(sent)


def view_of(answer: object) -> ViewOut:
    if not isinstance(answer, ViewOut):
        raise RuntimeError(f"not a view: {answer!r}")
    return answer


def main(base_url: str) -> None:
    player = create_player_v1_players_post.sync(
        client=Client(base_url=base_url), body=PlayerCreate(name="Ana")
    )
    if not isinstance(player, PlayerCreated):
        raise RuntimeError(f"no player: {player!r}")
    client = AuthenticatedClient(base_url=base_url, token=player.token)
    seats: list[HumanSeat | BotSeat] = [
        HumanSeat(type_="human"),
        BotSeat(type_="bot", strategy=BotSeatStrategy.PLANNER),
    ]
    body = MatchCreate(
        ruleset=MatchCreateRuleset.ALL_FIVES, options=MatchOptions(target=50), seats=seats
    )
    created = view_of(create_match_v1_matches_post.sync(client=client, body=body))
    match_id = created.id
    view = view_of(
        start_v1_matches_match_id_start_post.sync(
            match_id, client=client, body=StartBody(cut="moon")
        )
    )
    moves = 0
    while view.status in PLAYING:
        if view.status == ViewOutStatus.HAND_OVER:
            # A body of its own: the generated call sends an absent optional body as UNSET.
            ended = next_hand_v1_matches_match_id_hands_post.sync(
                match_id, client=client, body=NextHandBody()
            )
            view = view_of(ended)
            continue
        if not view.legal:
            raise RuntimeError(f"nothing to play at seq {view.seq}")
        move = move_of(view.legal[0], view.seq)
        moved = move_v1_matches_match_id_moves_post.sync(match_id, client=client, body=move)
        if not isinstance(moved, MoveOut):
            raise RuntimeError(f"move refused: {moved!r}")
        view = moved.view
        moves += 1
    winner = None if view.result is None else view.result.winner
    print(
        json.dumps(
            {"match": match_id, "status": str(view.status), "moves": moves, "winner": winner}
        )
    )


if __name__ == "__main__":
    main(sys.argv[1])
