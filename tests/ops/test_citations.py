"""The project stands alone: every file cited (Markdown, Python, JSON, YAML, JavaScript) under
src/, openapi/, docs/, bench/, migrations/, tests/, in the Makefile and in README.md exists in
the repository, as a path from the repository's root, from the citing file's folder, from src/
or from the package's own folder (`matches/unit.py` in a docstring means
src/domino_api/matches/unit.py)."""

from __future__ import annotations

import re
import subprocess
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


def scanned_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *SCANNED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted({p for p in listed if (ROOT / p).is_file() and p != OWN})


def resolves(citing: str, cited: str) -> bool:
    bases = (ROOT, (ROOT / citing).parent, ROOT / "src", PACKAGE)
    return any(base.joinpath(cited).is_file() for base in bases)


def unresolved() -> dict[str, list[str]]:
    missing: dict[str, list[str]] = {}
    for path in scanned_files():
        text = (ROOT / path).read_text(errors="replace")
        for cited in CITATION.findall(text):
            if not resolves(path, cited):
                missing.setdefault(path, []).append(cited)
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


def test_every_cited_file_exists() -> None:
    assert unresolved() == {}, "cited files that are not in the repository"
