"""The project stands alone: every file cited (Markdown, Python, JSON, YAML, JavaScript) under
src/, openapi/, docs/, bench/, migrations/, tests/, in the Makefile and in README.md exists in
the repository, as a path from the repository's root, from the citing file's folder, from src/
or from the package's own folder (`matches/unit.py` in a docstring means
src/domino_api/matches/unit.py). A Python file named alone in prose (Markdown, a docstring, a
comment) resolves the same way, and a part of a page cited by name (`docs/ARCHITECTURE.md,
"Connections"`, `RULES.md section 10`) is a heading or a bold lead-in of that page."""

from __future__ import annotations

import ast
import io
import re
import subprocess
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("src/", "openapi/", "docs/", "bench/", "migrations/", "tests/", "README.md", "Makefile")
# This file names missing files on purpose, to show that the check would see them.
OWN = "tests/ops/test_citations.py"
PACKAGE = ROOT / "src" / "domino_api"
# A Markdown file named alone, or any cited file with a folder in its path.
CITATION = re.compile(
    r"(?<![\w./:-])(?:\w[\w.-]*\.md|\w[\w.-]*(?:/[\w.-]+)+\.(?:md|py|json|yaml|js))\b"
)


# A Python file named alone: only in prose, since code names files it makes (`tmp / "x.py"`).
BARE_PY = re.compile(r"(?<![\w./:-])\w[\w-]*\.py\b(?![\w/-])")
_PAGE = r"((?:\w[\w.-]*/)*\w[\w.-]*\.md)`?\)?,?\s+"
# A page's part by its title in quotes, after an optional section number: `X.md, "Title"`,
# `X.md section 10 ("Title")`; or by its number alone: `X.md section 10`.
NAMED_PART = re.compile(_PAGE + r'(?:section\s+\d+,?\s+)?\(?"([^"\n]+)"')
NUMBERED_PART = re.compile(_PAGE + r"section\s+(\d+)\b")


def scanned_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *SCANNED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    # A lock file lists packages' own files, not ours.
    return sorted(
        {p for p in listed if (ROOT / p).is_file() and p != OWN and not p.endswith("-lock.json")}
    )


def resolves(citing: str, cited: str) -> bool:
    bases = (ROOT, (ROOT / citing).parent, ROOT / "src", PACKAGE)
    return any(base.joinpath(cited).is_file() for base in bases)


def prose(path: str, text: str) -> str:
    """What of a file is written to be read: a Python file's docstrings and comments, else all."""
    if not path.endswith(".py"):
        return text
    tree = ast.parse(text)
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    parts = [token.string for token in tokens if token.type == tokenize.COMMENT]
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            parts.append(ast.get_docstring(node, clean=False) or "")
    return "\n".join(parts)


def page_parts(page: Path) -> list[str]:
    """A page's headings (without a section number) and bold lead-ins (`**Presence.**`)."""
    text = page.read_text()
    headings = re.findall(r"^#+\s+(?:\d+\.\s+)?(.+?)\s*$", text, re.M)
    return headings + [lead.rstrip(".:") for lead in re.findall(r"\*\*([^*\n]+)\*\*", text)]


def part_resolves(citing: str, cited: str, part: str) -> bool:
    bases = (ROOT, (ROOT / citing).parent, ROOT / "src", PACKAGE)
    page = next((base / cited for base in bases if (base / cited).is_file()), None)
    if page is None:
        return False  # reported as a missing file
    if part.isdigit():
        return re.search(rf"^#+\s+{part}\.\s", page.read_text(), re.M) is not None
    return any(title.startswith(part) for title in page_parts(page))


def unresolved() -> dict[str, list[str]]:
    missing: dict[str, list[str]] = {}
    for path in scanned_files():
        text = (ROOT / path).read_text(errors="replace")
        readable = prose(path, text)
        cited_files = CITATION.findall(text) + BARE_PY.findall(readable)
        for cited in cited_files:
            if not resolves(path, cited):
                missing.setdefault(path, []).append(cited)
        # Citations run across lines, and in comments each line starts again with `#`.
        joined = re.sub(r"\s*\n\s*(?:#+\s)?", " ", readable)
        for cited, part in NAMED_PART.findall(joined) + NUMBERED_PART.findall(joined):
            if not part_resolves(path, cited, part):
                missing.setdefault(path, []).append(f'{cited}, "{part}"')
    return missing


def test_the_scan_sees_the_files_and_their_citations() -> None:
    files = scanned_files()
    assert "README.md" in files and "openapi/asyncapi.yaml" in files
    assert "src/domino_api/realtime/announce.py" in files
    text = (ROOT / "src/domino_api/realtime/announce.py").read_text()
    assert "docs/ARCHITECTURE.md" in CITATION.findall(text)
    assert not resolves("README.md", "API.md")  # a bare name must be a real path
    assert resolves("README.md", "docs/RULES.md") and resolves("docs/RULES.md", "RULES.md")
    assert "matches/unit.py" in CITATION.findall("the write core (matches/unit.py) saves")
    assert resolves("src/domino_api/jobs/sweeper.py", "matches/unit.py")
    assert not resolves("bench/README.md", "tests/api/no_such_test.py")
    assert BARE_PY.findall("the transport (transport.py) and tmp/x.py") == ["transport.py"]
    code = '"""Writes holder.py."""\nscript = tmp / "made.py"  # runs made.py\n'
    assert sorted(BARE_PY.findall(prose("tests/x.py", code))) == ["holder.py", "made.py"]
    cited = 'see docs/ARCHITECTURE.md,\n# "Connections" and RULES.md section 10 ("Outages")'
    joined = re.sub(r"\s*\n\s*(?:#+\s)?", " ", cited)
    named = [("docs/ARCHITECTURE.md", "Connections"), ("RULES.md", "Outages")]
    assert NAMED_PART.findall(joined) == named
    assert NUMBERED_PART.findall(joined) == [("RULES.md", "10")]
    assert part_resolves("README.md", "docs/RULES.md", "The sealed deal")  # "11. The sealed deal"
    assert part_resolves("README.md", "docs/RULES.md", "Outages")  # a bold lead-in
    assert part_resolves("README.md", "docs/RULES.md", "10")
    assert not part_resolves("README.md", "docs/RULES.md", "No such part")
    assert not part_resolves("README.md", "docs/RULES.md", "99")


def test_every_cited_file_exists() -> None:
    assert unresolved() == {}, "cited files that are not in the repository"
