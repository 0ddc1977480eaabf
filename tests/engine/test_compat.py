"""The engine replays f5d0777's matches byte for byte: ledgers, snapshots, events, views, deals."""

from __future__ import annotations

import json

import pytest

from tests.engine import compat


@pytest.mark.parametrize(
    ("stem", "preset", "options"), compat.VARIANTS, ids=[v[0] for v in compat.VARIANTS]
)
def test_matches_replay_byte_identical(stem: str, preset: str, options: dict[str, object]) -> None:
    kept = json.loads(compat.stored(stem))
    assert kept["preset"] == preset and kept["options"] == options
    count = compat.MATCHES + compat.PLAIN_MATCHES
    assert len(kept["digests"]) == len(kept["ledgers"]) == count
    for index in range(count):
        digest, ledger = compat.play(stem, preset, options, index)
        assert compat._dump(ledger) == compat._dump(kept["ledgers"][index]), f"{stem} #{index}"
        assert digest == kept["digests"][index], f"{stem} #{index}: a step differs"


def test_deal_vectors_byte_identical() -> None:
    assert compat._dump(compat.deal_vectors()) == compat.stored("deal-vectors")
