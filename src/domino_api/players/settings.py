"""A player's stored settings as defaults for the matches it creates (seed 004).

A setting applies only where the preset takes it: a key the preset does not override, a
value it does not allow, or a value that clashes with the rest (all-fives takes
`alternate_any` only with `first_opener` `seat_zero_any`) is left out, never refused. The
request's own `options` are not touched here: they are validated as given, so a bad
explicit option is still `422 bad_options`.
"""

from __future__ import annotations

from domino_api import engine
from domino_api.engine.kinds import Json
from domino_api.engine.rulesets import Options

SETTING_KEYS = ("target", "draw", "next_opener")


def match_options(settings: Options | None, ruleset: str, options: Options) -> dict[str, Json]:
    """`options` with every stored setting the preset accepts alongside them filled in."""
    merged = dict(options)
    for key in SETTING_KEYS:
        if key in options or key not in (settings or {}):
            continue
        trial = {**merged, key: (settings or {})[key]}
        if _accepted(ruleset, trial):
            merged = trial
    return merged


def _accepted(ruleset: str, options: Options) -> bool:
    try:
        engine.make_ruleset(ruleset, options)
    except (engine.BadOptions, engine.UnknownRuleset):
        return False
    return True
