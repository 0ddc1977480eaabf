"""README.md is what a newcomer reads in two minutes: at most 10 KB, the two commands (`make
run`, `make test`) on lines of their own, and an example whose every route is in the contract.
The operator's manual is docs/OPERATING.md."""

from __future__ import annotations

import json
import re

from tests.support.servers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
LIMIT_BYTES = 10_000


def test_the_readme_is_short() -> None:
    assert len(README.encode()) <= LIMIT_BYTES


def test_the_two_commands_are_shown() -> None:
    lines = README.splitlines()
    assert any(line.startswith("make run") for line in lines)
    assert any(line.startswith("make test") for line in lines)


def test_the_example_uses_routes_of_the_contract() -> None:
    paths = json.loads((ROOT / "openapi" / "openapi.json").read_text())["paths"]
    example = README.split("## One game from a shell", 1)[1].split("\n## ", 1)[0]
    called = re.findall(r"\$API(/v1/\S*?)(?=[\s'\"])", example)
    assert len(called) == 4
    for route in called:
        template = route.replace("$MATCH", "{match_id}")
        assert "post" in paths[template], route  # curl -d posts


def test_the_operators_manual_is_linked() -> None:
    assert "docs/OPERATING.md" in README and (ROOT / "docs/OPERATING.md").is_file()
