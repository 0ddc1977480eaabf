"""The packages of src/domino_api stand in layers (docs/ARCHITECTURE.md, "Layers"), and no
module imports from a layer above its own; nor do two packages import each other, however
roundabout the way.

Read from the source's syntax trees: every `import` and `from ... import` of domino_api,
wherever it stands (at the top, in a function, under TYPE_CHECKING), counts. A package is the
first part of a module's path (`matches/unit.py` is `matches`, `config.py` is `config`).
Packages of one layer may import each other; the cycle check still holds them apart.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "domino_api"

# From the top: a package may import its own layer's and those below it. `bots` (strategies and
# their worker processes) stands under `app`, which wires its workers into the write core; the
# write core itself (`matches`) is handed them (matches/ports.py) and imports nothing of bots.
LAYERS = (
    ("cli",),
    ("simulate", "bot_client"),
    ("app",),
    ("bots",),
    ("documents",),
    ("social", "turns"),
    ("lobby",),
    ("ratings", "tournaments", "realtime", "jobs"),
    ("matches", "accounts"),
    ("players", "push"),
    ("web",),
    ("metrics",),
    ("store", "logs"),
    ("errors", "config"),
    ("engine", "jsontext", "clock", "limit_settings"),
)
HEIGHT = {name: -depth for depth, names in enumerate(LAYERS) for name in names}

Edge = tuple[str, str, str]  # (importer's package, imported package, where)


def package_of(relative: Path) -> str:
    return relative.parts[0].removesuffix(".py")


def imported(node: ast.AST) -> list[str]:
    """The domino_api packages an import statement names (none for other imports)."""
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        if node.module == "domino_api":
            return [alias.name for alias in node.names]
        if node.module.startswith("domino_api."):
            return [node.module.split(".")[1]]
    if isinstance(node, ast.Import):
        return [a.name.split(".")[1] for a in node.names if a.name.startswith("domino_api.")]
    return []


def edges_of(relative: Path, source: str) -> Iterator[Edge]:
    """Each import of another package by the module at `relative`."""
    importer = package_of(relative)
    for node in ast.walk(ast.parse(source)):
        for target in imported(node):
            if target != importer:
                yield importer, target, f"{relative.as_posix()}:{getattr(node, 'lineno', 0)}"


def edges() -> list[Edge]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC)
        if relative != Path("__init__.py"):
            found += edges_of(relative, path.read_text())
    return found


def upward(found: list[Edge]) -> list[str]:
    return [f"{where}: {a} imports {b}" for a, b, where in found if HEIGHT[b] > HEIGHT[a]]


def cycles(found: list[Edge]) -> list[list[str]]:
    """The packages that reach each other (strongly connected, more than one), each sorted."""
    graph: dict[str, set[str]] = {}
    for a, b, _ in found:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    reach = {name: _reachable(graph, name) for name in graph}
    groups = {frozenset(b for b in reach[a] if a in reach[b]) | {a} for a in graph}
    return sorted(sorted(group) for group in groups if len(group) > 1)


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_every_package_stands_in_a_layer() -> None:
    packages = {package_of(path.relative_to(SRC)) for path in SRC.rglob("*.py")} - {"__init__"}
    assert packages == set(HEIGHT), "a package missing from LAYERS, or a layer's name left over"


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    assert upward(edges()) == []


def test_no_two_packages_import_each_other() -> None:
    assert cycles(edges()) == []


def test_the_checks_see_an_upward_import_and_a_cycle() -> None:
    """The checks themselves, on made-up modules: each offence is found, lazy imports too."""
    core = "def f():\n    from domino_api.bots.processes import Deciders\n"
    (edge,) = edges_of(Path("matches/unit.py"), core)
    assert edge == ("matches", "bots", "matches/unit.py:2")
    assert upward([edge]) == ["matches/unit.py:2: matches imports bots"]
    down = list(edges_of(Path("app/wiring.py"), "from domino_api import engine, config\n"))
    assert upward(down) == []
    assert list(edges_of(Path("matches/unit.py"), "from domino_api.matches import ports\n")) == []
    ring = [("store", "logs", "s"), ("logs", "errors", "l"), ("errors", "store", "e")]
    assert cycles(ring) == [["errors", "logs", "store"]]
    assert cycles([("store", "logs", "s"), ("players", "logs", "p")]) == []
