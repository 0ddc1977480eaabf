"""The parts of the docs written from the code: docs/API.md's event types and problem codes,
and docs/OPERATING.md's settings.

`domino-api openapi` rewrites what lies between each pair of markers (and `--check`, run by
`make test`, fails when a committed page differs), so the pages cannot drift from
engine/event_types.py, web/problems.py and config.py; the prose around them is written by hand.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from pathlib import Path
from typing import Literal, get_args, get_origin

import msgspec
from annotated_types import Ge, Le
from pydantic.fields import FieldInfo

from domino_api.config import Settings
from domino_api.engine.event_types import EVENT_TYPES
from domino_api.web.problems import catalogue_markdown

API_MD_PATH = Path("docs/API.md")
OPERATING_MD_PATH = Path("docs/OPERATING.md")


def events_markdown() -> str:
    """One row per event type: its `data` fields (those only one seat's copy holds marked)."""
    rows = ["| type | data | what happened |", "|---|---|---|"]
    for name, event in EVENT_TYPES.items():
        (kind,) = [field.type for field in _fields(event) if field.name == "data"]
        assert isinstance(kind, msgspec.inspect.StructType)
        fields = []
        for field in _fields(kind.cls):
            fields.append(f"`{field.name}`" if field.required else f"`{field.name}`\\*")
        rows.append(f"| `{name}` | {', '.join(fields)} | {event.__doc__} |")
    return "\n".join(rows)


def _fields(struct: type) -> tuple[msgspec.inspect.Field, ...]:
    info = msgspec.inspect.type_info(struct)
    assert isinstance(info, msgspec.inspect.StructType)
    return info.fields


TYPE_NAMES = {str: "text", int: "integer", float: "number", bool: "boolean", Path: "path"}


def _literally(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement that puts `text` in as it is (no backslash escapes read in it)."""
    return lambda _: text


def _type_of(info: FieldInfo) -> str:
    annotation: object = info.annotation
    optional = get_origin(annotation) is types.UnionType and type(None) in get_args(annotation)
    if optional:
        (annotation,) = [arg for arg in get_args(annotation) if arg is not type(None)]
    if get_origin(annotation) is Literal:
        name = " or ".join(f"`{choice}`" for choice in get_args(annotation))
    elif isinstance(annotation, type):
        name = TYPE_NAMES[annotation]
    else:
        raise TypeError(f"a setting of type {annotation!r} has no name here")
    bounds = [f"at least {m.ge}" for m in info.metadata if isinstance(m, Ge)]
    bounds += [f"at most {m.le}" for m in info.metadata if isinstance(m, Le)]
    return ", ".join([name, *bounds]) + (", optional" if optional else "")


def _default_of(value: object) -> str:
    if value is None:
        return "unset"
    if value == "":
        return "empty"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value:g}`" if isinstance(value, float) else f"`{value}`"


def settings_markdown() -> str:
    """One row per field of config.Settings: its variable, type, default and description."""
    prefix = str(Settings.model_config.get("env_prefix", ""))
    rows = ["| variable | type | default | what it does |", "|---|---|---|---|"]
    for name, info in Settings.model_fields.items():
        cells = [f"`{prefix}{name.upper()}`", _type_of(info), _default_of(info.default)]
        cells.append(str(info.description))
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows)


Sections = dict[str, Callable[[], str]]
DOCUMENTS: dict[Path, Sections] = {
    API_MD_PATH: {"events": events_markdown, "problem codes": catalogue_markdown},
    OPERATING_MD_PATH: {"settings": settings_markdown},
}


def render(text: str, sections: Sections, where: Path) -> str:
    """`text` (the page at `where`) with every generated section brought up to date."""
    for name, make in sections.items():
        begin = f"<!-- generated: {name} (domino-api openapi) -->"
        end = f"<!-- end of generated: {name} -->"
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise ValueError(f"{where} has no '{begin}' ... '{end}' section")
        section = f"{begin}\n{make()}\n{end}"
        text = pattern.sub(_literally(section), text)
    return text


def rendered(root: Path = Path()) -> dict[Path, str]:
    """Each page with generated sections (its path as given, below `root`) as it should read."""
    return {
        path: render((root / path).read_text(encoding="utf-8"), sections, path)
        for path, sections in DOCUMENTS.items()
    }
