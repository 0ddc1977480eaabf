"""A thousand random matches per preset finish, and every ledger verifies.

`make test` plays the first tenth of each preset's matches (the same seeded sequence);
`make test-full` (`--full`) plays them all."""

from __future__ import annotations

import random

import pytest

from domino_api.engine import PRESETS, ledger, verify_ledger
from tests.engine.helpers import random_match, ruleset

# (ruleset, matches): a thousand per preset; the extra seat counts of house nines add fewer.
SAMPLE_SHARE = 10  # without --full: the first tenth
CONFIGS = {
    **{name: (rules, 1000) for name, rules in PRESETS.items()},
    "house-nines-2": (ruleset(PRESETS["house-nines"], players=2), 200),
    "house-nines-3": (ruleset(PRESETS["house-nines"], players=3), 200),
    # Mexican Train's 13 rounds are as long as a dozen other matches: one round each here.
    "mexican-train": (ruleset(PRESETS["mexican-train"], rounds=1), 200),
    "mexican-train-8": (ruleset(PRESETS["mexican-train"], players=8, hand_size=10, rounds=1), 100),
}


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_thousand_matches_finish_and_verify(name: str, full_run: bool) -> None:
    rules, matches = CONFIGS[name]
    matches = matches if full_run else matches // SAMPLE_SHARE
    rng = random.Random(name)
    reasons: set[str] = set()
    for index in range(matches):
        state, _ = random_match(rules, rng, cut=f"bulk {index}")
        assert state.status == "finished" and state.result is not None
        reasons |= {h.result.reason for h in (*state.history, state.hand) if h and h.result}
        problems = verify_ledger(ledger(state))
        assert problems == [], (index, problems)
    assert "domino" in reasons
