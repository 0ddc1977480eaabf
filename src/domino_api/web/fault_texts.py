"""A refused body's fault in the words its problem documents used before bodies were msgspec
Structs (pydantic's): clients and tests match on `String should have at most 64 characters`,
`name: Field required`. A fault with no rewrite here keeps msgspec's own words."""

from __future__ import annotations

import re

_FIELD = re.compile(r"^Object (missing required|contains unknown) field `([^`]*)`$")
_BOUND = re.compile(r"^Expected `(str|array|int|float|number)` (of length )?(<=|>=|<|>) (\S+)$")
_WORDS = {
    ("str", "<="): "String should have at most {n} characters",
    ("str", ">="): "String should have at least {n} characters",
    ("array", "<="): "List should have at most {n} items",
    ("array", ">="): "List should have at least {n} items",
    ("int", "<="): "Input should be less than or equal to {n}",
    ("int", ">="): "Input should be greater than or equal to {n}",
    ("int", "<"): "Input should be less than {n}",
    ("int", ">"): "Input should be greater than {n}",
}


def as_pydantic_says(path: str, what: str) -> tuple[str, str]:
    """The (path, text) a fault was reported with: a missing or unknown field is named in
    the path, as pydantic located it."""
    if field := _FIELD.match(what):
        where = f"{path}.{field[2]}" if path else field[2]
        text = (
            "Field required" if field[1] == "missing required" else "Extra inputs are not permitted"
        )
        return where, text
    if bound := _BOUND.match(what):
        kind = "int" if bound[1] in ("float", "number") else bound[1]
        words = _WORDS.get((kind, bound[3]))
        if words is not None:
            text = words.format(n=bound[4])
            # pydantic's singular: `at least 1 character`, `at most 1 item`.
            return path, text.removesuffix("s") if bound[4] == "1" and kind != "int" else text
    if what.startswith("Expected `str` matching regex "):
        return path, "String should match pattern " + what.removeprefix(
            "Expected `str` matching regex "
        )
    return path, what
