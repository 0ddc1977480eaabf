"""What docs/ARCHITECTURE.md claims of the code's shape, held where a test can hold it:

- only `store/` and `realtime/` speak of `pg_notify`, call `.commit(` or hold a literal
  `BEGIN` (the unit of work, a request's or job's transaction, commits; services never do, and
  announcements go through the Announcer after the commit);
- only `store/` runs SQL: no statement built with SQLAlchemy (`select(`, `insert(`,
  `update(`, `delete(`, `text(`), no statement run (`.execute(`, `.executemany(`, `.fetch*(`,
  `.scalar(s)(`), no SQL text.

Every package is checked. `NOT_YET` names the files of `matches/` (being rewritten apart)
that still break a rule: a new offender anywhere fails, and so does a listed file that no
longer offends, so the list stays exact until it is empty.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import domino_api

PACKAGE = Path(domino_api.__file__).parent

# Known exceptions, to be emptied once matches/ holds the rules too.
NOT_YET: set[str] = set()

MAY_COMMIT_OR_NOTIFY = ("store/", "realtime/")
MAY_RUN_SQL = ("store/",)
BUILDERS = {"select", "insert", "update", "delete", "text"}
RUNNERS = {"execute", "executemany", "fetch", "fetchval", "fetchrow", "scalar", "scalars"}
# The opening of a statement, not of prose ("LISTEN connection lost" is a log line).
SQL_TEXT = re.compile(
    r"^\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|WITH\s+\w+\s+AS\b"
    r"|TRUNCATE\s|LOCK\s+TABLE\s|SET\s+(LOCAL\s+)?\w+\s*(=|TO\s)"
    r"|(BEGIN|COMMIT|ROLLBACK)\s*;?\s*$|(LISTEN|NOTIFY)\s+\w+\s*;?\s*$)"
)
COMMIT_OR_NOTIFY = re.compile(r"pg_notify|\.commit\(|\bBEGIN\b")


def sql_offences(source: str) -> list[str]:
    """Where the source builds, runs or spells SQL, one line each."""
    tree = ast.parse(source)
    builders, docstrings = _builders_imported(tree), _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found += _call_offence(node, builders)
        elif isinstance(node, ast.Constant) and id(node) not in docstrings:
            found += _text_offence(node)
    return found


def _call_offence(call: ast.Call, builders: set[str]) -> list[str]:
    name = _called_name(call)
    if name in builders:
        return [f"line {call.lineno}: builds a statement with {name}("]
    if isinstance(call.func, ast.Attribute) and call.func.attr in RUNNERS:
        return [f"line {call.lineno}: runs a statement with .{call.func.attr}("]
    return []


def _text_offence(constant: ast.Constant) -> list[str]:
    if isinstance(constant.value, str) and SQL_TEXT.match(constant.value):
        return [f"line {constant.lineno}: SQL text {constant.value[:30]!r}"]
    return []


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the module's, classes' and functions' docstrings (prose, not SQL)."""
    found = set()
    for node in ast.walk(tree):
        kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(node, kinds) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _builders_imported(tree: ast.Module) -> set[str]:
    """The local names of SQLAlchemy's statement builders (`select`, or `sa.select` as
    `sa.select`)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
            names |= {alias.asname or alias.name for alias in node.names if alias.name in BUILDERS}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("sqlalchemy"):
                    local = alias.asname or alias.name
                    names |= {f"{local}.{builder}" for builder in BUILDERS}
    return names


def _called_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def commit_or_notify_offences(source: str) -> list[str]:
    return [
        f"line {number}: {match.group(0)}"
        for number, line in enumerate(source.splitlines(), 1)
        for match in COMMIT_OR_NOTIFY.finditer(line)
    ]


def offences(relative: str, source: str) -> list[str]:
    found = []
    if not relative.startswith(MAY_COMMIT_OR_NOTIFY):
        found += commit_or_notify_offences(source)
    if not relative.startswith(MAY_RUN_SQL):
        found += sql_offences(source)
    return found


def offenders() -> dict[str, list[str]]:
    """Every module of the package that breaks a rule, with where."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        found = offences(relative, path.read_text())
        if found:
            out[relative] = found
    return out


def test_only_store_runs_sql_and_only_store_and_realtime_commit_or_notify() -> None:
    found = offenders()
    new = {path: where for path, where in found.items() if path not in NOT_YET}
    assert new == {}, "SQL, a commit or a NOTIFY outside store/ (docs/ARCHITECTURE.md)"
    mended = NOT_YET - set(found)
    assert mended == set(), "these hold the rules now: take them out of NOT_YET"


def test_the_known_exceptions_are_only_in_matches() -> None:
    assert all(path.startswith("matches/") for path in NOT_YET)


def test_the_rules_see_each_kind_of_offence() -> None:
    """The checks themselves: each kind of offence is found, and clean code passes."""
    built = "from sqlalchemy import select\nasync def f(s):\n    return select(X)\n"
    assert sql_offences(built) == ["line 3: builds a statement with select("]
    aliased = "import sqlalchemy as sa\nq = sa.update(X)\n"
    assert sql_offences(aliased) == ["line 2: builds a statement with sa.update("]
    ran = "async def f(connection):\n    await connection.fetchval(QUERY, 1)\n"
    assert sql_offences(ran) == ["line 2: runs a statement with .fetchval("]
    spelled = 'LOCK = "SELECT pg_advisory_xact_lock(hashtext($1))"\n'
    assert sql_offences(spelled) == ["line 1: SQL text 'SELECT pg_advisory_xact_lock(h'"]
    committed = "async def f(session):\n    await session.commit()\n"
    assert offences("tournaments/service.py", committed) == ["line 2: .commit("]
    assert offences("store/db.py", committed) == []
    notified = "SEND = \"SELECT pg_notify('c', 'x')\"\n"
    (sent,) = offences("realtime/announce.py", notified)  # realtime may notify, but not in SQL
    assert sent.startswith("line 1: SQL text")
    assert len(offences("players/service.py", notified)) == 2  # its SQL text, and its pg_notify
    clean = (
        '"""SELECT what a seat holds (a docstring is prose)."""\n'
        "from sqlalchemy.ext.asyncio import AsyncSession\n"
        'log.warning("LISTEN connection lost (%s)", exc)\n'
    )
    assert offences("players/service.py", clean) == []
