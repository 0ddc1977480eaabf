"""Rows read straight from the asyncpg driver, for the move path that runs without the ORM.

A `DriverRow` has its columns as attributes, as an ORM row has, so the write path's code
(matches/table.py, the views) reads and sets them alike; it remembers what it was loaded with,
so the write can send only the columns that changed (as `_write_match` does with an ORM row's
attribute history).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

_UNREAD = object()  # a column set on the row that was not read with it (the snapshot)


class DriverRow:
    """A row's columns as attributes, plus the values it was read (or last written) with."""

    __slots__ = ("__dict__", "_written")

    def __init__(self, columns: Mapping[str, Any]) -> None:
        self.__dict__.update(columns)
        self._written = dict(columns)

    if TYPE_CHECKING:  # columns are attributes, whatever the table

        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...

    def changes(self) -> dict[str, Any]:
        """The columns set since the row was read or last marked written, with their values."""
        written, changed = self._written, {}
        for name, value in self.__dict__.items():
            old = written.get(name, _UNREAD)
            if old is not value and old != value:
                changed[name] = value
        return changed

    def mark_written(self, names: Iterable[str]) -> None:
        for name in names:
            self._written[name] = self.__dict__[name]
