"""Schemathesis hooks for tests/ops/test_fuzz.py: how to generate the contract's own formats.

`display-name` (web/names.py, docs/API.md, "Conventions") is a rule no short JSON Schema
pattern states; schema-valid names are those `clean_name` takes.
"""

from __future__ import annotations

import schemathesis
from hypothesis import strategies as st
from schemathesis.specs.openapi import negative

from domino_api.web.names import NAME_FORMAT, clean_name


def _is_name(text: str) -> bool:
    try:
        clean_name(text)
    except ValueError:
        return False
    return True


schemathesis.openapi.format(NAME_FORMAT, st.text(min_size=1, max_size=32).filter(_is_name))

# Negative cases: schemathesis takes every value of a format it does not know as invalid, so it
# would expect "Ana" refused. Its check for such formats becomes the real rule (display-name is
# the document's only format outside the standard ones; a private name, so fail loudly if gone).
assert callable(negative._always_invalid), "schemathesis moved its custom-format check"
negative._always_invalid = _is_name
