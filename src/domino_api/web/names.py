"""Display names people can tell apart: NFC, no control, format (bidi, zero-width) or invisible
characters, and at least one visible character.

A name is the only thing a table shows of a player, so "Bob", "Bob\u200b" and "\u202ebob"
must not be three players who look alike.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from msgspec import Meta

from domino_api.web.struct_bodies import Check

# Letters that render as nothing (Hangul fillers, braille blank, Mongolian vowel separator).
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
# Cc control, Cf format (bidi overrides and isolates, zero-width joiners, BOM), Cs surrogates,
# Co private use, Cn unassigned, Zl/Zp line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
VISIBLE_CATEGORIES = ("L", "N", "P", "S")


def refused_character(text: str) -> str | None:
    """The first character a name may not hold, as U+XXXX, or None."""
    for char in text:
        if char in INVISIBLE or unicodedata.category(char) in REFUSED_CATEGORIES:
            return _code_point(char)
    return None


def _code_point(char: str) -> str:
    return "U+0000, NUL" if char == "\x00" else f"U+{ord(char):04X}"


def clean_name(value: str, longest: int = 32) -> str:
    name = " ".join(unicodedata.normalize("NFC", value).split())
    bad = refused_character(name)
    if bad is not None:
        raise ValueError(f"a name may not hold control, format or invisible characters ({bad})")
    if not any(unicodedata.category(char).startswith(VISIBLE_CATEGORIES) for char in name):
        raise ValueError("a name needs at least one visible character")
    if len(name) > longest:  # NFC may, rarely, lengthen a string
        raise ValueError(f"a name holds at most {longest} characters")
    return name


def _tournament_name(value: str) -> str:
    return clean_name(value, 64)


# The schema names the rule as a format of its own (docs/API.md, Names): no JSON Schema pattern
# short enough to generate from says "no control, format or invisible character, one visible".
NAME_FORMAT = "display-name"

# Field bounds apply to the raw string first; folding only shortens it (NFC rarely not). `Meta`
# bounds and documents the type, `Check` applies the rule (web/struct_bodies.py).
_NAMED = {"format": NAME_FORMAT}
PlayerName = Annotated[
    str,
    Meta(min_length=1, max_length=32, extra_json_schema=_NAMED),
    Check(clean_name),
]
TournamentName = Annotated[
    str,
    Meta(min_length=1, max_length=64, extra_json_schema=_NAMED),
    Check(_tournament_name),
]


# Table talk and a cut are shown to every seat as sent: no control character (C0, DEL, C1: a
# terminal's escapes, a line break that forges a log line), no bidi control (marks, embeddings,
# overrides, isolates: they reorder what the others read) and no line or paragraph separator.
# Other format characters stay: emoji are joined by U+200D. The schema states it as a pattern.
NOT_SHOWN = (
    "\\u0000-\\u001f\\u007f-\\u009f"  # control characters
    "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069"  # bidi controls
    "\\u2028\\u2029"  # line and paragraph separators
)
SHOWN_TEXT = f"^[^{NOT_SHOWN}]*$"
_not_shown = re.compile(f"[{NOT_SHOWN}]")


def shown_text(value: str) -> str:
    found = _not_shown.search(value)
    if found is not None:
        where = _code_point(found.group())
        raise ValueError(
            f"text shown at the table may not hold a control or bidi character ({where})"
        )
    return value


_SHOWN = {"pattern": SHOWN_TEXT}
# Shown text, its length bounded: msgspec checks `Meta`'s bounds before the `Check`.
CutText = Annotated[
    str,
    Meta(max_length=64, extra_json_schema=_SHOWN),
    Check(shown_text),
]
TalkText = Annotated[
    str,
    Meta(min_length=1, max_length=500, extra_json_schema=_SHOWN),
    Check(shown_text),
]
ReasonText = Annotated[
    str,
    Meta(max_length=500, extra_json_schema=_SHOWN),
    Check(shown_text),
]
