"""The engine replays f5d0777's matches byte for byte: ledgers, snapshots, events, views, deals.

Every variant (each preset, player count and override) is replayed in every run. Nearly all
the time goes to the few matches digested at every step (compat.FULL_MATCHES random ones and
the Plain ones): `make test` replays every other match of each variant and one of its fully
digested ones, drawn with DOMINO_REPLAY_SEED (default: today's date, so each is walked over the
days and a failure repeats on its day). `make test-full` (`--full`) replays all of them.
"""

from __future__ import annotations

import datetime
import json
import os
import random

import pytest

from tests.engine import compat

VARIANTS = compat.VARIANTS + compat.TRAIN_VARIANTS


def replay_seed() -> str:
    return os.environ.get("DOMINO_REPLAY_SEED") or datetime.date.today().isoformat()


def chosen(stem: str, count: int, full: bool, seed: str) -> list[int]:
    """The indices of `stem`'s matches this run replays."""
    everything = list(range(count))
    if full:
        return everything
    digested = [i for i in everything if i < compat.FULL_MATCHES or i >= compat.MATCHES]
    one = random.Random(f"{seed}:{stem}").choice(digested)
    return [i for i in everything if i not in digested or i == one]


@pytest.mark.parametrize(("stem", "preset", "options"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_matches_replay_byte_identical(
    stem: str, preset: str, options: dict[str, object], full_run: bool
) -> None:
    kept = json.loads(compat.stored(stem))
    assert kept["preset"] == preset and kept["options"] == options
    count = compat.MATCHES + compat.PLAIN_MATCHES
    assert len(kept["digests"]) == len(kept["ledgers"]) == count
    seed = replay_seed()
    for index in chosen(stem, count, full_run, seed):
        digest, ledger = compat.play(stem, preset, options, index)
        where = f"{stem} #{index} (DOMINO_REPLAY_SEED={seed})"
        assert compat._dump(ledger) == compat._dump(kept["ledgers"][index]), where
        assert digest == kept["digests"][index], f"{where}: a step differs"


def test_a_sample_holds_every_quick_match_and_one_digested_at_every_step() -> None:
    count = compat.MATCHES + compat.PLAIN_MATCHES
    quick = set(range(compat.FULL_MATCHES, compat.MATCHES))
    digested_seen = set()
    for seed in map(str, range(40)):
        sample = set(chosen("draw", count, False, seed))
        assert quick <= sample and len(sample - quick) == 1
        digested_seen |= sample - quick
    assert digested_seen == set(range(count)) - quick  # the seeds reach every one of them
    assert chosen("draw", count, True, "a") == list(range(count))


def test_deal_vectors_byte_identical() -> None:
    assert compat._dump(compat.deal_vectors()) == compat.stored("deal-vectors")
