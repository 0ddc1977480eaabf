"""Fuzz: schemathesis against the OpenAPI document on a real server, bounded for CI.

Every operation is exercised (examples, coverage, fuzzing and stateful phases) with a real
player's token, and with the path ids bound to a live match and a tournament that player hosts,
so generated requests reach the service instead of stopping at 404. The checks: all of
schemathesis's (`--checks all`): no 5xx, every response, status and header as documented
(`Allow` on a 405 included), schema-valid requests accepted and schema-invalid ones refused.

`DOMINO_FUZZ_EXAMPLES` (default 12) and `DOMINO_FUZZ_SEED` widen or vary a run by hand.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.support.servers import ROOT, serving

CHECKS = os.environ.get("DOMINO_FUZZ_CHECKS", "all")
# A bound on a hung run, not a speed goal: the run takes about a minute on 2 loaded cores.
RUN_TIMEOUT_S = 240


# The seeded run's negative case for this route is an over-long `match_id`, which the fixed
# `path.match_id` (seed_data) replaces with the real id: the request sent is valid, and accepted
# (the report shows the real id), so 200 is among the statuses that check accepts here
# (`--checks all` overrides a check's `enabled`). Every other check holds as for any route.
FIXED_ID_NOT_NEGATIVE = """
[[operations]]
include-name = "DELETE /v1/matches/{match_id}/seats/{seat}/mute"
checks.negative_data_rejection.expected-statuses = [
  "200", "400", "401", "403", "404", "405", "406", "409", "415", "422", "428", "429"
]
"""

# The `cursor` of GET /v1/matches, /v1/ratings/leaderboard, /v1/lobby and /v1/tournaments is
# opaque (docs/API.md): a string of the schema's shape that this server did not give is refused,
# 422, as documented; every other check holds them as any route.
OPAQUE_CURSOR = (
    """
[[operations]]
include-name = "GET /v1/matches"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422"]

[[operations]]
include-name = "GET /v1/ratings/leaderboard"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422"]

[[operations]]
include-name = "GET /v1/lobby"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422"]

[[operations]]
include-name = "GET /v1/tournaments"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422"]
"""
    + FIXED_ID_NOT_NEGATIVE
)


# A new match's body (and a public table's, a seek's, a challenge's) is one flat object that
# every client generator types (issue 47): what each preset allows (its seat counts, seat 0 a
# human, the options it lets a match change) is checked by the server, `422 bad_options` or
# `validation_error` as documented, and listed by GET /v1/rulesets rather than written into the
# schema as per-preset branches; a public table with no free seat (the README's table against
# the computer) is `409 match_full`, and a challenge of oneself `409 yourself`, as documented.
# Every other check holds them as any route.
PER_PRESET = "".join(
    f"""
[[operations]]
include-name = "POST {path}"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", {also}"422"]
"""
    for path, also in (
        ("/v1/matches", ""),
        ("/v1/lobby/tables", '"409", '),
        ("/v1/lobby/seeks", ""),
        ("/v1/challenges", '"409", '),
    )
)


# A push subscription's keys are a P-256 point and a 16-byte secret, and its endpoint an https
# URL on a public host (docs/API.md, "Correspondence tables"): checked by the server, `422
# validation_error` as documented, not written into the schema. Every other check holds it.
PUSH_KEYS = """
[[operations]]
include-name = "POST /v1/push/subscriptions"
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "422"]
"""


def schema_document() -> dict[str, Any]:
    """The committed openapi/openapi.json (`make test` checks it equals the app's)."""
    committed = ROOT / "openapi" / "openapi.json"
    if committed.exists():
        document: dict[str, Any] = json.loads(committed.read_text())
        return document
    from domino_api.cli import openapi_text

    generated: dict[str, Any] = json.loads(openapi_text())
    return generated


async def seed_data(base_url: str) -> tuple[str, dict[str, str]]:
    """A player, a started match against the computer and a tournament: ids to fuzz with."""
    async with httpx.AsyncClient(base_url=base_url, timeout=10) as http:
        created = await http.post("/v1/players", json={"name": "Fuzzer"})
        assert created.status_code == 201, created.text
        token = created.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
        match = await http.post(
            "/v1/matches", json={"ruleset": "all-fives", "seats": seats}, headers=headers
        )
        assert match.status_code == 201, match.text
        match_id = match.json()["id"]
        started = await http.post(f"/v1/matches/{match_id}/start", json={}, headers=headers)
        assert started.status_code == 200, started.text
        params = {"path.match_id": match_id}
        body = {
            "name": "Fuzz cup",
            "format": "round_robin",
            "match": {"target": 100},
            "max_entrants": 4,
        }
        tournament = await http.post("/v1/tournaments", json=body, headers=headers)
        if tournament.status_code == 201:
            params["path.tournament_id"] = tournament.json()["id"]
    return token, params


def summary(stdout: str) -> dict[str, int]:
    generated = re.search(r"(\d+) generated", stdout)
    assert generated, stdout[-3000:]
    failed = re.search(r"(\d+) found \d+ unique failures|(\d+) failed", stdout)
    errored = re.search(r"(\d+) errored", stdout)
    return {
        "generated": int(generated.group(1)),
        "failed": int(next(g for g in failed.groups() if g)) if failed else 0,
        "errored": int(errored.group(1)) if errored else 0,
    }


async def test_fuzz_finds_no_5xx_and_no_schema_violation(tmp_path: Path) -> None:
    async with serving(f"domino_ops_fuzz_{os.getpid()}", tmp_path / "server.log") as server:
        token, params = await seed_data(server.base_url)
        schema_path = tmp_path / "openapi.json"
        schema_path.write_text(json.dumps(schema_document()))
        config = tmp_path / "schemathesis.toml"
        config.write_text(
            "[parameters]\n"
            + "".join(f'"{k}" = "{v}"\n' for k, v in params.items())
            + OPAQUE_CURSOR
            + PER_PRESET
            + PUSH_KEYS
        )
        command = [
            str(Path(sys.executable).parent / "schemathesis"),
            "--config-file", str(config), "--no-color",
            "run", str(schema_path),
            "--url", server.base_url,
            "--header", f"Authorization: Bearer {token}",
            "--checks", CHECKS,
            "--phases", "examples,coverage,fuzzing,stateful",
            "--max-examples", os.environ.get("DOMINO_FUZZ_EXAMPLES", "12"),
            "--seed", os.environ.get("DOMINO_FUZZ_SEED", "20261129"),
            "--generation-database", "none",
            "--request-timeout", "15",
            "--report", "ndjson", "--report-dir", str(tmp_path / "report"),
        ]  # fmt: skip
        # The hooks module teaches schemathesis the contract's `display-name` format.
        env = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.ops.fuzz_hooks", "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            command, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, cwd=tmp_path, env=env
        )
        counts = summary(run.stdout)
        print(run.stdout[-6000:])
        print(f"fuzz: {counts}")
        assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]
        assert counts["failed"] == 0 and counts["errored"] == 0, run.stdout[-8000:]
        assert counts["generated"] > 100
