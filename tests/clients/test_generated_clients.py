"""Clients generated from openapi/openapi.json play a whole match as they come out.

Each test generates a client into a temporary directory with a frontend team's generator at its
default options, checks it and a small program written against it (tests/clients/<name>/) with
the language's strict checker, then runs the program against a real server: it creates a
player, a match against the Planner, starts it and plays to the end by sending `legal` entries
back with `seq`. The generators and checkers run offline (npm and pip installed them).

1. openapi-typescript + openapi-fetch (`tsc --strict`),
2. @hey-api/openapi-ts with its fetch client (`tsc --strict`),
3. openapi-python-client (`mypy --strict` over the package and the program).

The TypeScript programs are compiled to CommonJS and run by node: node 20 runs no TypeScript,
and @hey-api's output imports its modules without an extension, which node's ES modules refuse.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
import pytest_asyncio

from tests.support.servers import ROOT, ServerProcess, serving

HERE = Path(__file__).resolve().parent
NODE_BIN = ROOT / "node_modules" / ".bin"
BIN = Path(sys.executable).parent
DOCUMENT = ROOT / "openapi" / "openapi.json"
# Bounds on a hung step, not speed goals (a type check takes about a minute on 2 loaded cores).
STEP_TIMEOUT_S = 600
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "target": "ES2022",
        "module": "commonjs",
        "moduleResolution": "node10",
        "lib": ["ES2022", "DOM"],
        "types": ["node"],
        "outDir": "out",
        "rootDir": ".",
    },
    "files": ["play.ts"],
}


def run(argv: list[str], cwd: Path, **env: str) -> str:
    """`argv`'s output; its output and status in the failure when it fails."""
    done = subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, (
        f"{argv[0]} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    )
    return done.stdout + done.stderr


def timed(record: Callable[[str, object], None], name: str, argv: list[str], cwd: Path) -> str:
    started = time.perf_counter()
    out = run(argv, cwd)
    record(f"{name}_s", round(time.perf_counter() - started, 2))
    return out


def typescript_project(tmp_path: Path, program: str) -> Path:
    """A directory holding `program` as play.ts, the strict tsconfig and the repo's node_modules."""
    project = tmp_path / "client"
    project.mkdir()
    (project / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    (project / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    shutil.copy(HERE / program / "play.ts", project / "play.ts")
    return project


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ServerProcess]:
    """One real server for the three programs (starting one takes seconds on a loaded
    machine): each plays a match of its own, as a player of its own."""
    name = f"{os.environ.get('DOMINO_TEST_DB', 'domino_test')}_clients_{os.getpid()}"
    async with serving(name, tmp_path_factory.mktemp("clients") / "server.log") as started:
        yield started


def played(server: ServerProcess, argv: list[str], cwd: Path) -> dict[str, object]:
    """The program's last line (its match, as JSON) after it played against the server."""
    out = run([*argv, server.base_url], cwd)
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def assert_finished(result: dict[str, object]) -> None:
    assert result["status"] == "finished", result
    assert isinstance(result["winner"], int), result
    assert isinstance(result["moves"], int) and result["moves"] > 0, result


async def test_openapi_typescript_with_openapi_fetch_plays_a_match(
    tmp_path: Path, server: ServerProcess, record_property: Callable[[str, object], None]
) -> None:
    project = typescript_project(tmp_path, "openapi_fetch")
    generated = run([str(NODE_BIN / "openapi-typescript"), str(DOCUMENT), "-o", "api.ts"], project)
    assert "api.ts" in generated
    timed(record_property, "tsc", [str(NODE_BIN / "tsc"), "-p", "tsconfig.json"], project)
    result = played(server, ["node", str(Path("out", "play.js"))], project)
    assert_finished(result)
    record_property("moves", result["moves"])


async def test_hey_api_openapi_ts_plays_a_match(
    tmp_path: Path, server: ServerProcess, record_property: Callable[[str, object], None]
) -> None:
    project = typescript_project(tmp_path, "hey_api")
    out = run([str(NODE_BIN / "openapi-ts"), "-i", str(DOCUMENT), "-o", "client"], project)
    assert "warn" not in out.lower(), out
    timed(record_property, "tsc", [str(NODE_BIN / "tsc"), "-p", "tsconfig.json"], project)
    result = played(server, ["node", str(Path("out", "play.js"))], project)
    assert_finished(result)
    record_property("moves", result["moves"])


async def test_openapi_python_client_plays_a_match(
    tmp_path: Path, server: ServerProcess, record_property: Callable[[str, object], None]
) -> None:
    project = tmp_path / "client"
    generate = [str(BIN / "openapi-python-client"), "generate", "--path", str(DOCUMENT)]
    # Its post-generation hooks run ruff from PATH: the virtualenv's.
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    out = run([*generate, "--output-path", str(project)], tmp_path, PATH=path)
    # It warns (and leaves out what it could not type) where a schema is beyond it.
    assert "warning" not in out.lower() and "unable" not in out.lower(), out
    shutil.copy(HERE / "python_client" / "play.py", project / "play.py")
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
    timed(record_property, "mypy", [*mypy, "domino_api_client", "play.py"], project)
    result = played(server, [sys.executable, "play.py"], project)
    assert_finished(result)
    record_property("moves", result["moves"])
