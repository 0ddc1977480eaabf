"""`domino-api simulate --strategy plain,planner`: one strategy per seat."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from domino_api import cli


def test_simulate_pits_plain_against_planner() -> None:
    simulate = pytest.importorskip("domino_api.simulate")
    simulate.register(cli.app)
    result = CliRunner().invoke(
        cli.app,
        ["simulate", "--ruleset", "draw", "--matches", "2", "--seed", "3",
         "--strategy", "plain,planner"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "plain" in result.output and "planner" in result.output


def test_simulate_refuses_an_unknown_strategy() -> None:
    simulate = pytest.importorskip("domino_api.simulate")
    simulate.register(cli.app)
    result = CliRunner().invoke(
        cli.app, ["simulate", "--ruleset", "draw", "--matches", "1", "--strategy", "plain,oracle"]
    )
    assert result.exit_code != 0
