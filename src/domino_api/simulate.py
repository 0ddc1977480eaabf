"""The `simulate` and `verify-ledger` commands: computer players against each other, offline.

Everything runs on the pure engine, with no database: secrets and cuts derive from the seed and
the match index, so the same seed always gives the same matches, results and ledgers.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, get_args

import msgspec
import typer
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from domino_api.engine import (
    PRESETS,
    EngineError,
    MatchState,
    NextHand,
    Start,
    apply,
    ledger,
    legal_actions,
    make_ruleset,
    new_match,
    seat_view,
    verify_ledger,
    with_reason,
)
from domino_api.engine.event_types import SeatJoinedData
from domino_api.engine.kinds import Json
from domino_api.engine.kinds import Strategy as StrategyName
from domino_api.engine.rulesets import Options

if TYPE_CHECKING:
    from domino_api.bots import Strategy


def load_strategy(name: str) -> Strategy:
    from domino_api.bots import get_strategy

    try:
        return get_strategy(name)
    except KeyError as error:
        raise typer.BadParameter(str(error.args[0])) from None


@dataclass
class Summary:
    ruleset: str
    players: int
    matches: int = 0
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)  # final scores, summed over matches
    hands: int = 0
    blocked: int = 0
    moves: int = 0

    def add(self, state: MatchState) -> None:
        self.matches += 1
        assert state.result is not None
        if state.result.winner is not None:
            self.wins[state.result.winner] += 1
        for seat, score in enumerate(state.scores):
            self.points[seat] += score
        hands = [*state.history, *([state.hand] if state.hand is not None else [])]
        self.hands += len(hands)
        self.blocked += sum(
            1 for h in hands if h.result is not None and h.result.reason == "blocked"
        )
        self.moves += sum(h.move_count for h in hands)


def match_secret(seed: int, index: int) -> bytes:
    return hashlib.sha256(f"domino-api simulate|{seed}|{index}".encode()).digest()


def play_match(
    ruleset_name: str,
    options: Options,
    strategies: Sequence[Strategy],
    seed: int,
    index: int,
) -> MatchState:
    """One whole match between computer players; deterministic in (seed, index)."""
    rules = make_ruleset(ruleset_name, options)
    rng = random.Random(f"{seed}:{index}")
    state = new_match(rules, match_secret(seed, index))
    state = apply(state, None, Start(f"sim-{seed}-{index}")).state
    while state.status in ("playing", "hand_over"):
        if state.status == "hand_over":
            state = apply(state, None, NextHand()).state
            continue
        seat = state.turn
        assert seat is not None
        strategy = strategies[seat]
        if strategy.name == "random":
            # Random reads nothing but the legal list (bots.RandomStrategy picks the same way):
            # no view to build, and its options are played as offered.
            state = apply(state, seat, rng.choice(legal_actions(state, seat))).state
            continue
        action, reason = strategy.choose(seat_view(state, seat), rng)
        state = apply(state, seat, with_reason(action, reason)).state
    return state


STRATEGY_NAMES: tuple[StrategyName, ...] = get_args(StrategyName)


def _strategy_name(name: str) -> StrategyName:
    for known in STRATEGY_NAMES:
        if name == known:
            return known
    raise typer.BadParameter(f"unknown strategy {name!r}; choose from plain, planner, random")


def seat_strategies(spec: str, players: int) -> list[StrategyName]:
    names = [_strategy_name(name.strip()) for name in spec.split(",") if name.strip()]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise typer.BadParameter(f"give one strategy or one per seat ({players})")
    return names


def simulate(
    ruleset_name: str,
    matches: int,
    seed: int,
    players: int | None = None,
    strategy: str = "random",
    ledger_dir: Path | None = None,
    on_match: Callable[[], None] | None = None,
) -> Summary:
    if ruleset_name not in PRESETS:
        raise typer.BadParameter(f"unknown ruleset; choose from {', '.join(PRESETS)}")
    preset = PRESETS[ruleset_name]
    options: dict[str, Json] = {}
    if players is not None and players != preset.players:
        options["players"] = players
    rules = make_ruleset(ruleset_name, options)
    names = seat_strategies(strategy, rules.players)
    strategies = [load_strategy(name) for name in names]
    summary = Summary(ruleset_name, rules.players, wins=[0] * rules.players)
    summary.points = [0] * rules.players
    if ledger_dir is not None:
        ledger_dir.mkdir(parents=True, exist_ok=True)
    seats = [
        SeatJoinedData(
            seat=s,
            name=f"{name.title()} {s}",
            type="bot",
            strategy=None if name == "random" else name,
        )
        for s, name in enumerate(names)
    ]
    for index in range(matches):
        state = play_match(ruleset_name, options, strategies, seed, index)
        summary.add(state)
        if ledger_dir is not None:
            record = ledger(state, seats, match_id=f"sim-{seed}-{index}")
            path = ledger_dir / f"match-{seed}-{index:05d}.json"
            path.write_text(json.dumps(msgspec.to_builtins(record), indent=1) + "\n")
        if on_match is not None:
            on_match()
    return summary


def results_table(summary: Summary, strategies: Sequence[str]) -> Table:
    table = Table(title=f"{summary.matches} matches of {summary.ruleset}")
    for column in ("seat", "strategy", "wins", "win %", "avg points"):
        table.add_column(column, justify="left" if column == "strategy" else "right")
    for seat in range(summary.players):
        share = 100 * summary.wins[seat] / summary.matches if summary.matches else 0.0
        average = summary.points[seat] / summary.matches if summary.matches else 0.0
        table.add_row(
            str(seat), strategies[seat], str(summary.wins[seat]), f"{share:.1f}", f"{average:.1f}"
        )
    blocked = 100 * summary.blocked / summary.hands if summary.hands else 0.0
    per_match = summary.hands / summary.matches if summary.matches else 0.0
    table.caption = f"{summary.hands} hands ({per_match:.1f} per match), {blocked:.1f}% blocked"
    return table


def verify_ledger_file(path: Path) -> list[str]:
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        return [f"cannot read {path}: {error}"]
    if not isinstance(record, dict):
        return [f"{path} does not hold a ledger object"]
    return verify_ledger(record)


def register(app: typer.Typer) -> None:
    """Add `simulate`, `verify-ledger` and `deal-vectors` to the `domino-api` command line."""

    @app.command("deal-vectors")
    def deal_vectors_command(
        out: Path | None = typer.Option(
            None, help="where to write (default: the package's play/deal-vectors.json)"
        ),
    ) -> None:
        """Rewrite the published deal test vectors: the reference ones kept, this project's
        made again."""
        from domino_api.documents import deal_vectors

        written = deal_vectors.rewritten()
        target = out or deal_vectors.PATH
        target.write_text(written, encoding="utf-8")
        typer.echo(f"wrote {len(json.loads(written)['vectors'])} vectors to {target}")

    @app.command("simulate")
    def simulate_command(
        ruleset: str = typer.Option("classic", "--ruleset", help="preset name"),
        matches: int = typer.Option(100, "--matches", min=1),
        seed: int = typer.Option(0, "--seed"),
        players: int | None = typer.Option(None, "--players", min=2, max=8),
        strategy: str = typer.Option(
            "random", "--strategy", help="random|plain|planner, or one per seat: plain,planner"
        ),
        ledger_dir: Path | None = typer.Option(None, "--ledger-dir", file_okay=False),
    ) -> None:
        """Play computer players against each other and print the results."""
        console = Console()
        try:
            with Progress(console=console, transient=True) as progress:
                task = progress.add_task("playing", total=matches)
                summary = simulate(
                    ruleset,
                    matches,
                    seed,
                    players,
                    strategy,
                    ledger_dir,
                    on_match=lambda: progress.advance(task),
                )
        except EngineError as error:
            raise typer.BadParameter(error.message) from None
        console.print(results_table(summary, seat_strategies(strategy, summary.players)))

    @app.command("verify-ledger")
    def verify_ledger_command(
        file: Path = typer.Argument(..., exists=True, dir_okay=False, help="a ledger JSON file"),
    ) -> None:
        """Recompute every deal and every score of a finished match from its ledger."""
        problems = verify_ledger_file(file)
        if not problems:
            typer.echo("ok")
            return
        for problem in problems:
            typer.echo(problem)
        raise typer.Exit(code=1)
