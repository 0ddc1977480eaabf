"""bench/profiles.py's reading of py-spy's stacks: what bench/capacity.py's tables of CPU per
move by layer and by purpose are computed from."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def profiles() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_profiles", BENCH / "profiles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ROOT = "<module> (<string>:8);Runner.run (asyncio/runners.py:118)"
REQUEST = f"{ROOT};run_asgi (uvicorn/protocols/http/httptools_impl.py:420)"
SITE = "/venv/lib/python3.11/site-packages"


def frame(function: str, path: str) -> str:
    return f"{function} ({path}:1)"


def raw(tmp_path: Path, lines: list[tuple[str, int]]) -> Path:
    out = tmp_path / "profile.raw"
    out.write_text("".join(f"{stack} {count}\n" for stack, count in lines))
    return out


def test_each_sample_counts_for_what_its_request_was_for(
    profiles: ModuleType, tmp_path: Path
) -> None:
    move = f"{REQUEST};{frame('move', '/w/src/domino_api/matches/routes.py')}"
    reply = f"{move};{frame('reply', '/w/src/domino_api/matches/unit.py')}"
    create = f"{REQUEST};{frame('create_match', '/w/src/domino_api/matches/routes.py')}"
    send = f"{REQUEST};{frame('RequestResponseCycle.send', f'{SITE}/uvicorn/x.py')}"
    waiting = "Thread._bootstrap (threading.py:1002);_worker (concurrent/futures/thread.py:81)"
    path = raw(
        tmp_path,
        [
            (f"{reply};{frame('Deciders.decide', '/w/src/domino_api/bots/processes.py')}", 2),
            (f"{move};{frame('save', '/w/src/domino_api/store/matches_repo.py')}", 3),
            (f"{create};{frame('insert', '/w/src/domino_api/store/matches_repo.py')}", 1),
            (send, 4),
            (waiting, 10),  # a thread waiting for work: not work
        ],
    )
    shares = profiles.by_purpose(path)
    assert shares == {
        "computers' replies": 20.0,  # inside the move's route, but for the computer
        "the move's route": 30.0,
        "new matches, starts, next hands": 10.0,
        profiles.OUTSIDE: 40.0,
    }


def test_layers_are_read_from_the_leaf(profiles: ModuleType, tmp_path: Path) -> None:
    move = f"{REQUEST};{frame('move', '/w/src/domino_api/matches/routes.py')}"
    fetch = frame("Connection.fetch", f"{SITE}/asyncpg/connection.py")
    path = raw(tmp_path, [(f"{move};{fetch}", 3), (move, 1)])
    assert profiles.grouped(path) == {"asyncpg": 75.0, "service (domino_api)": 25.0}
