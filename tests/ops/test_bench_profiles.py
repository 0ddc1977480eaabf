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


LIB = "/usr/lib/python3.11"
SITE = f"{LIB}/site-packages"
ROOT = f"<module> (<string>:8);Runner.run ({LIB}/asyncio/runners.py:118)"
REQUEST = f"{ROOT};run_asgi ({SITE}/uvicorn/protocols/http/httptools_impl.py:420)"
WAITING = (
    f"Thread._bootstrap ({LIB}/threading.py:1002);_worker ({LIB}/concurrent/futures/thread.py:81)"
)


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
    path = raw(
        tmp_path,
        [
            (f"{reply};{frame('Deciders.decide', '/w/src/domino_api/bots/processes.py')}", 2),
            (f"{move};{frame('save', '/w/src/domino_api/store/matches_repo.py')}", 3),
            (f"{create};{frame('insert', '/w/src/domino_api/store/matches_repo.py')}", 1),
            (send, 4),
            (WAITING, 10),  # a thread waiting for work: not work
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
    path = raw(tmp_path, [(f"{move};{fetch}", 3), (move, 1), (WAITING, 4)])
    assert profiles.grouped(path) == {"asyncpg": 75.0, "service (domino_api)": 25.0}


def test_the_move_alone_and_what_the_bare_route_has_no_counterpart_for(
    profiles: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    route, outside = "the move's route", profiles.OUTSIDE
    ms = {
        "HEAD": {route: 1.0, outside: 1.0, "computers' replies": 0.5, "new matches": 0.5},
        "bare": {route: 0.5, outside: 0.5},
    }
    # Half of HEAD's requests are moves; its workers add 0.5 to its 3.0 in the API process.
    profiles.print_the_move_alone(ms, {"HEAD": 0.5, "bare": 1.0}, {"HEAD": 3.5, "bare": 1.0})
    lines = capsys.readouterr().out.splitlines()
    assert "the move alone, HEAD / bare route: 1.50 (moves 50% of requests)" in lines[1]
    # 1.0 (the bare route) + 3.5 - 1.5 (HEAD less its move alone) = 3.0 bare routes
    assert lines[2].strip() == "HEAD with a move as cheap as the bare route's: 3.00"
