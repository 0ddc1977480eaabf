"""Mexican Train against an oracle written from docs/RULES.md ("Mexican Train") alone.

The oracle follows a match move by move with none of the engine's code: the round's engine
double (12-12 down to 0-0), what each seat holds (dealt, then drawn in stock order), the pip at
the end of every train, the markers (on when a seat could not play, off when it plays on its own
train), the double that must be satisfied, whose turn it is, and each seat's total after every
round. Its legal list is a brute force: every held tile against every train open to the seat
(the one holding a double to satisfy, else its own, the Mexican and every marked train); with
none, a draw while the stock lasts, else a pass. Over random matches of 2 to 8 seats the
engine's turn, legal list (in the seat's tile order and train order), board, scores and winner
must be the oracle's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from domino_api.engine import (
    LegalAction,
    MatchState,
    NextHand,
    Start,
    apply,
    make_ruleset,
    new_match,
    view,
)

Tile = tuple[int, int]
DRAW = LegalAction(action="draw", tile=None, end=None, points=None)
PASS = LegalAction(action="pass", tile=None, end=None, points=None)


@dataclass
class Round:
    players: int
    engine: int
    held: list[list[Tile]]
    stock: list[Tile]
    turn: int
    trains: dict[str, int] = field(default_factory=dict)  # train -> pip a tile must match
    markers: set[int] = field(default_factory=set)
    double_on: str | None = None  # the train whose double waits to be satisfied
    passes: int = 0

    def __post_init__(self) -> None:
        names = [f"train{seat}" for seat in range(self.players)] + ["mexican"]
        self.trains = dict.fromkeys(names, self.engine)

    def open_trains(self, seat: int) -> list[str]:
        if self.double_on is not None:
            return [self.double_on]
        return [
            name
            for name in self.trains
            if name in ("mexican", f"train{seat}") or int(name[5:]) in self.markers
        ]

    def legal(self) -> list[LegalAction]:
        seat = self.turn
        plays = [
            LegalAction(action="play", tile=tile, end=name, points=0)
            for tile in self.held[seat]
            for name in self.open_trains(seat)
            if self.trains[name] in tile
        ]
        return plays or [DRAW if self.stock else PASS]

    def act(self, option: LegalAction) -> None:
        seat = self.turn
        nxt = (seat + 1) % self.players
        if option.action == "play":
            tile, name = option.tile, option.end
            assert tile is not None and name is not None
            self.held[seat].remove(tile)
            pip = self.trains[name]
            self.trains[name] = tile[1] if tile[0] == pip else tile[0]
            if name == f"train{seat}":
                self.markers.discard(seat)
            self.double_on = name if tile[0] == tile[1] else None
            self.turn = seat if self.double_on else nxt
            self.passes = 0
        elif option.action == "draw":
            self.held[seat].append(self.stock.pop(0))
            if self.legal()[0].action != "play":  # the drawn tile does not fit: stuck
                self.markers.add(seat)
                self.turn = nxt
            self.passes = 0
        else:
            self.markers.add(seat)
            self.passes += 1
            self.turn = nxt

    def over(self) -> bool:
        return any(not tiles for tiles in self.held) or self.passes == self.players


def check_board(state: MatchState, oracle: Round) -> None:
    board = view(state, None).board
    assert board.tiles[0].tile == (oracle.engine, oracle.engine)
    assert {end.end: end.pips for end in board.ends} == oracle.trains
    assert set(board.markers or ()) == oracle.markers


def play_match(players: int, rounds: int, seed: str) -> int:
    rules = make_ruleset("mexican-train", {"players": players, "rounds": rounds})
    rng = random.Random(seed)
    state = apply(new_match(rules, rng.randbytes(32)), None, Start(seed)).state
    totals = [0] * players
    steps = 0
    for number in range(1, rounds + 1):
        hand = state.hand
        assert hand is not None and hand.number == number
        oracle = Round(
            players=players,
            engine=12 - (number - 1),
            held=[list(tiles) for tiles in hand.dealt],
            stock=list(hand.stock),
            turn=(number - 1) % players,  # the first play passes round the table
        )
        everything = [t for tiles in hand.dealt for t in tiles] + list(hand.stock)
        assert sorted(everything + [(oracle.engine,) * 2]) == sorted(
            (a, b) for a in range(13) for b in range(a, 13)
        )
        assert [len(t) for t in hand.dealt] == [
            {2: 15, 3: 15, 4: 15, 5: 12, 6: 12}.get(players, 10)
        ] * players
        while not oracle.over():
            assert state.status == "playing" and state.turn == oracle.turn
            expected = oracle.legal()
            assert list(state.hand.legal if state.hand else ()) == expected, (seed, state.seq)
            check_board(state, oracle)
            option = rng.choice(expected)
            state = apply(state, oracle.turn, option).state
            if option.action == "draw":
                assert state.hand is not None
                option = LegalAction(
                    action="draw", tile=state.hand.moves[-1].tile, end=None, points=None
                )
            oracle.act(option)
            steps += 1
        for seat, tiles in enumerate(oracle.held):
            totals[seat] += sum(a + b for a, b in tiles)
        assert list(state.scores) == totals
        if number < rounds:
            assert state.status == "hand_over"
            state = apply(state, None, NextHand()).state
    assert state.status == "finished" and state.result is not None
    lowest = [seat for seat, total in enumerate(totals) if total == min(totals)]
    assert state.result.winner == (lowest[0] if len(lowest) == 1 else None)
    assert state.result.reason == "rounds"
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_mexican_train_follows_the_oracle(players: int) -> None:
    steps = sum(play_match(players, 2, f"trains-oracle:{players}:{i}") for i in range(3))
    assert steps > 150
