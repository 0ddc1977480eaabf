"""Socket clients generated from openapi/asyncapi.yaml play a whole match (issue 47).

modelina (@asyncapi/modelina, npm) generates the frame types from the published document, in
TypeScript and in Python (tests/clients/generate-frames.mjs); a small client in each language
(tests/clients/socket_ts/client.ts, tests/clients/socket_py/client.py), written against those
types alone, opens a table against the Planner on a running server, starts it over the socket
and plays its seat to the end. The match must be finished, as the server itself says.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.servers import ServerProcess, fresh_database_sync

DB = os.environ.get("DOMINO_SOCKET_CLIENTS_DB", f"domino_socket_clients_{os.getpid()}")
ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NODE_BIN = ROOT / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    url = fresh_database_sync(DB)
    process = ServerProcess(url, tmp_path_factory.mktemp(DB) / "server.log")
    process.start()
    try:
        process.wait_ready()
        yield process
    finally:
        process.stop()


def _generate(language: str, out: Path) -> None:
    script = HERE / "generate-frames.mjs"
    subprocess.run(["node", str(script), language, str(out)], cwd=ROOT, check=True, timeout=300)


def _played(server: ServerProcess, argv: list[str], cwd: Path) -> dict[str, object]:
    """Run a client to the match's end; its last line says how it ended."""
    done = subprocess.run(
        [*argv, server.base_url, server.ws_url],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    answer: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        headers = {"Authorization": f"Bearer {answer['token']}"}
        view = http.get(f"/v1/matches/{answer['match']}", headers=headers).json()
    assert answer["status"] == "finished" == view["status"], (answer, view["status"])
    assert view["result"] is not None and isinstance(answer["moves"], int) and answer["moves"] > 0
    return answer


def test_a_generated_typescript_client_plays_a_match_to_the_end(
    server: ServerProcess, tmp_path: Path, record_property: pytest.RecordProperty
) -> None:
    _generate("typescript", tmp_path / "frames.ts")
    shutil.copy(HERE / "socket_ts" / "client.ts", tmp_path / "client.ts")
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    compile_argv = [str(NODE_BIN / "tsc"), "--strict", "--target", "es2022", "--module"]
    compile_argv += ["nodenext", "--moduleResolution", "nodenext", "--lib", "es2022,dom"]
    compile_argv += ["--types", "node", "--typeRoots", str(ROOT / "node_modules" / "@types")]
    compile_argv += ["--skipLibCheck", "client.ts", "frames.ts"]
    compiled = subprocess.run(compile_argv, cwd=tmp_path, capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    # node 20's WebSocket is behind a flag (on by default from node 22).
    answer = _played(server, ["node", "--experimental-websocket", "client.js"], tmp_path)
    record_property("typescript_moves", answer["moves"])


def test_a_generated_python_client_plays_a_match_to_the_end(
    server: ServerProcess, tmp_path: Path, record_property: pytest.RecordProperty
) -> None:
    _generate("python", tmp_path / "generated.py")
    # modelina writes the classes alone: the module's imports are added here.
    header = "from __future__ import annotations\n\nfrom enum import Enum\n"
    header += "from typing import Any, Dict, List, Union\n\n"
    (tmp_path / "frames.py").write_text(header + (tmp_path / "generated.py").read_text())
    shutil.copy(HERE / "socket_py" / "client.py", tmp_path / "client.py")
    answer = _played(server, [sys.executable, "client.py"], tmp_path)
    record_property("python_moves", answer["moves"])
