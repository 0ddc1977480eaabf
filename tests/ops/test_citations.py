"""The project stands alone: every *.md file cited under src/, openapi/, docs/ and in README.md
exists in the repository, as a path from the repository's root or from the citing file."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("src/", "openapi/", "docs/", "README.md")
CITATION = re.compile(r"(?<![\w./-])[\w./-]*\w\.md\b")


def scanned_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *SCANNED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted({p for p in listed if (ROOT / p).is_file()})


def resolves(citing: str, cited: str) -> bool:
    return (ROOT / cited).is_file() or (ROOT / citing).parent.joinpath(cited).is_file()


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


def test_every_cited_markdown_file_exists() -> None:
    assert unresolved() == {}, "cited *.md files that are not in the repository"
