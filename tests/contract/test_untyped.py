"""What src/domino_api leaves untyped, held to a ceiling (issue 47): a map of anything
(`dict[str, object]`, `Mapping[str, Any]`, ...) and pydantic's `JsonValue`. JsonValue stays where
the contract itself is free JSON (the OpenAPI document and its schema fragments and examples,
JSON read before it is known, stored free-form JSON); a shape the code knows has its own type.
A ceiling may fall, never rise: lower it when a use goes."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "domino_api"
UNTYPED_MAP = re.compile(r"(Mapping|dict)\[str, (object|Any)\]")
JSON_VALUE = re.compile(r"\bJsonValue\b")
MAPS_AT_MOST = 0
JSON_VALUES_AT_MOST = 56


def lines_matching(pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{path.relative_to(SRC).as_posix()}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]


def test_no_more_maps_of_anything_than_the_ceiling() -> None:
    found = lines_matching(UNTYPED_MAP)
    assert len(found) <= MAPS_AT_MOST, found


def test_no_more_json_values_than_the_ceiling() -> None:
    found = lines_matching(JSON_VALUE)
    assert len(found) <= JSON_VALUES_AT_MOST, found


def test_the_patterns_find_what_they_count() -> None:
    assert UNTYPED_MAP.search("def f(state: dict[str, object]) -> None:")
    assert UNTYPED_MAP.search("scope: MutableMapping[str, Any]")
    assert not UNTYPED_MAP.search("BODIES: dict[str, type[msgspec.Struct] | UnionType]")
    assert JSON_VALUE.search("def loads(text: str) -> JsonValue:")
    assert not JSON_VALUE.search("MyJsonValues = 1")
