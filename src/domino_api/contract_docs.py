"""docs/API.md's two lists written from the code: the event types and the problem codes.

`domino-api openapi` rewrites what lies between each pair of markers (and `--check` fails when
the committed page differs), so the page cannot drift from matches/event_models.py and
problems.py; the prose around them is written by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

from domino_api.matches.event_models import EVENT_MODELS
from domino_api.problems import catalogue_markdown

API_MD_PATH = Path("docs/API.md")


def events_markdown() -> str:
    """One row per event type: its `data` fields (those only one seat's copy holds marked)."""
    rows = ["| type | data | what happened |", "|---|---|---|"]
    for name, model in EVENT_MODELS.items():
        data = model.model_fields["data"].annotation
        assert isinstance(data, type)
        fields = []
        for field, info in data.model_fields.items():
            fields.append(f"`{field}`" if info.is_required() else f"`{field}`\\*")
        rows.append(f"| `{name}` | {', '.join(fields)} | {model.__doc__} |")
    return "\n".join(rows)


SECTIONS = {"events": events_markdown, "problem codes": catalogue_markdown}


def render(text: str) -> str:
    """`text` with every generated section brought up to date."""
    for name, make in SECTIONS.items():
        begin = f"<!-- generated: {name} (domino-api openapi) -->"
        end = f"<!-- end of generated: {name} -->"
        pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
        if not pattern.search(text):
            raise ValueError(f"{API_MD_PATH} has no '{begin}' ... '{end}' section")
        section = f"{begin}\n{make()}\n{end}"
        text = pattern.sub(lambda _, section=section: section, text)  # type: ignore[misc]
    return text
