"""No module of src/ keeps state of its own at run time (issue 47): the app's parts are built at
start-up from Settings and handed in (app/api.py, app/wiring.py).

Read from the source's syntax trees: no `global` statement anywhere; the environment
(`os.environ`, `os.getenv`, `os.putenv`) touched only by config.py, the one place settings come
from; no function cached for the process's life (`functools.cache`, `lru_cache`) that reads the
environment or settings, so nothing read once can go stale or leak between apps."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "domino_api"
CONFIG = SRC / "config.py"
ENVIRONMENT = {"environ", "getenv", "putenv", "unsetenv", "environb", "getenvb"}
CACHES = {"cache", "lru_cache", "cached_property"}
SETTINGS_NAMES = {"environ", "getenv", "get_settings", "Settings"}


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(SRC.rglob("*.py")):
        yield path, ast.parse(path.read_text(), filename=str(path))


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(SRC.parent)}:{getattr(node, 'lineno', 0)}"


def globals_in(path: Path, tree: ast.Module) -> list[str]:
    return [
        f"{where(path, node)} global {', '.join(node.names)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Global)
    ]


def environment_in(path: Path, tree: ast.Module) -> list[str]:
    """`os.environ`, `os.getenv(...)` and the like, or those names imported from os."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ENVIRONMENT:
            found.append(f"{where(path, node)} .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            names = {alias.name for alias in node.names} & ENVIRONMENT
            found += [f"{where(path, node)} from os import {name}" for name in sorted(names)]
    return found


def decorator_name(decorator: ast.expr) -> str:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def cached_readers_in(path: Path, tree: ast.Module) -> list[str]:
    """Functions cached for the process's life whose body names the environment or settings."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not any(decorator_name(d) in CACHES for d in node.decorator_list):
            continue
        named = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        named |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
        if named & SETTINGS_NAMES:
            found.append(f"{where(path, node)} cached {node.name} reads settings")
    return found


def test_no_module_assigns_a_global_at_run_time() -> None:
    found = [line for path, tree in modules() for line in globals_in(path, tree)]
    assert found == []


def test_only_config_reads_the_environment() -> None:
    found = [
        line for path, tree in modules() if path != CONFIG for line in environment_in(path, tree)
    ]
    assert found == []


def test_no_cached_function_reads_the_environment_or_settings() -> None:
    found = [line for path, tree in modules() for line in cached_readers_in(path, tree)]
    assert found == []


def test_the_checks_see_what_they_look_for() -> None:
    """Each check finds its kind in a module written to have it (so an empty answer above
    means there is none, not that nothing was looked at)."""
    bad = ast.parse(
        "import os\nfrom functools import lru_cache\nfrom os import getenv\n"
        "_n = 0\n"
        "def bump():\n    global _n\n    _n += 1\n"
        "@lru_cache(maxsize=1)\ndef url():\n    return os.environ['X']\n"
    )
    path = SRC / "example.py"
    assert len(globals_in(path, bad)) == 1
    assert len(environment_in(path, bad)) == 2  # os.environ, from os import getenv
    assert len(cached_readers_in(path, bad)) == 1
    assert environment_in(CONFIG, ast.parse(CONFIG.read_text())), "config.py reads it"
