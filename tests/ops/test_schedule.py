"""The suite's schedule names only files that exist: a renamed long file would quietly lose its
early start (tests/conftest.py LONGEST_FILES)."""

from __future__ import annotations

from tests.conftest import LONGEST_FILES, ROOT


def test_every_longest_file_exists_once() -> None:
    assert len(set(LONGEST_FILES)) == len(LONGEST_FILES)
    assert [path for path in LONGEST_FILES if not (ROOT / path).is_file()] == []


def test_no_browser_file_is_moved_before_the_asyncio_tests() -> None:
    assert [path for path in LONGEST_FILES if path.startswith("tests/web/")] == []
