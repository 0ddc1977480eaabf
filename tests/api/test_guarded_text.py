"""The guarded save's statement text, kept per shape (store/guarded_save.py)."""

from __future__ import annotations

from domino_api.engine import table as tables
from domino_api.store import matches_repo as repo
from domino_api.store.guarded_save import guarded
from tests.engine.table_helpers import ALL_FIVES, at, first_move, new, started


def test_the_guarded_text_is_built_once_per_shape() -> None:
    """Two moves that change the same columns share one statement text (store/guarded_save.py
    keeps it per shape) with their own values; a change of another shape gets its own text."""
    before = started(new(ALL_FIVES))
    moved = tables.step(before, first_move(before), at(1))
    again = tables.step(moved.table, first_move(moved.table), at(2))
    one = repo.Change(before, moved.table, 7, moved.events, at(1))
    two = repo.Change(moved.table, again.table, 8, again.events, at(2))
    (text_one, values_one), (text_two, values_two) = guarded([one]), guarded([two])
    assert sorted(one.columns()) == sorted(two.columns())
    assert text_one is text_two and values_one != values_two
    assert values_one[0] == [before.match.id] and values_one[1] == [7]
    seen = tables.step(before, tables.Seen("p0", 0.0), at(10)).table
    marks = repo.Change(before, seen, 7, (), at(10))
    assert guarded([marks])[0] != text_one
