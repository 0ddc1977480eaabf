"""The `simulate` and `verify-ledger` commands, through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from domino_api.simulate import register, simulate

runner = CliRunner()


def make_app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def test_simulate_prints_a_results_table_and_is_repeatable(tmp_path: Path) -> None:
    args = ["simulate", "--ruleset", "draw-50", "--matches", "6", "--seed", "4"]
    first = runner.invoke(make_app(), [*args, "--ledger-dir", str(tmp_path / "a")])
    second = runner.invoke(make_app(), [*args, "--ledger-dir", str(tmp_path / "b")])
    assert first.exit_code == 0, first.output
    assert "6 matches of draw-50" in first.output and "win %" in first.output
    assert first.output == second.output
    files = sorted((tmp_path / "a").iterdir())
    assert len(files) == 6
    assert [f.read_text() for f in files] == [
        f.read_text() for f in sorted((tmp_path / "b").iterdir())
    ]


def test_simulate_summary_adds_up() -> None:
    summary = simulate("house-nines", 4, seed=1, players=3)
    assert summary.players == 3 and summary.matches == 4
    assert sum(summary.wins) == 4 and summary.hands >= 4


def test_simulate_with_computer_strategies() -> None:
    result = runner.invoke(
        make_app(),
        ["simulate", "--ruleset", "classic", "--matches", "2", "--strategy", "plain,planner"],
    )
    assert result.exit_code == 0, result.output
    assert "planner" in result.output


def test_simulate_refuses_bad_options() -> None:
    result = runner.invoke(make_app(), ["simulate", "--ruleset", "draw", "--players", "3"])
    assert result.exit_code != 0
    result = runner.invoke(make_app(), ["simulate", "--ruleset", "nope"])
    assert result.exit_code != 0


def test_verify_ledger_ok_and_tampered(tmp_path: Path) -> None:
    runner.invoke(
        make_app(),
        ["simulate", "--ruleset", "all-fives", "--matches", "1", "--ledger-dir", str(tmp_path)],
    )
    (path,) = tmp_path.iterdir()
    result = runner.invoke(make_app(), ["verify-ledger", str(path)])
    assert result.exit_code == 0 and result.output.strip() == "ok"
    record = json.loads(path.read_text())
    record["hands"][0]["result"]["points"] += 5
    record["deal"]["secret"] = "11" * 32
    path.write_text(json.dumps(record))
    result = runner.invoke(make_app(), ["verify-ledger", str(path)])
    assert result.exit_code == 1
    assert "commitment" in result.output


def test_verify_ledger_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{not json")
    result = runner.invoke(make_app(), ["verify-ledger", str(path)])
    assert result.exit_code == 1 and "cannot read" in result.output
