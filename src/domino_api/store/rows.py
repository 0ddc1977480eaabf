"""Rows of the write core: a match or seat row's columns as attributes, and what changed.

This is the one change tracker of the write path: a `Row` remembers the values it was read (or
last written) with, so a save sends only the columns that changed (store/matches_repo.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

_UNREAD = object()  # a column set on the row that was not read with it (the snapshot)


class Row:
    """A row's columns as attributes, plus the values it was read (or last written) with."""

    __slots__ = ("__dict__", "_written")

    def __init__(self, columns: Mapping[str, Any], *, new: bool = False) -> None:
        self.__dict__.update(columns)
        # A new row (not yet inserted) has nothing written: every column is a change.
        self._written = {} if new else dict(columns)

    if TYPE_CHECKING:  # columns are attributes, whatever the table

        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...

    def columns(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def changes(self) -> dict[str, Any]:
        """The columns set since the row was read or last marked written, with their values."""
        written, changed = self._written, {}
        for name, value in self.__dict__.items():
            old = written.get(name, _UNREAD)
            if old is not value and old != value:
                changed[name] = value
        return changed

    def mark_written(self, names: Iterable[str] | None = None) -> None:
        for name in self.__dict__ if names is None else names:
            self._written[name] = self.__dict__[name]
