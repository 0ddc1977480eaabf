"""The base of every request body: unknown fields and loose types refused, no NUL characters."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator


class Strict(BaseModel):
    """A request body. PostgreSQL stores no NUL character in text or JSONB, so a string that
    holds one (`\\u0000`) is refused here, as invalid input, before it reaches the database."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @model_validator(mode="after")
    def _no_nul_characters(self) -> Strict:
        for name in type(self).model_fields:
            if _holds_nul(getattr(self, name)):
                raise ValueError(f"{name}: text may not contain the NUL character (\\u0000)")
        return self


def holds_nul(value: Any) -> bool:
    """Whether a parsed JSON value holds the NUL character anywhere (keys included)."""
    return _holds_nul(value)


def _holds_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_holds_nul(item) for item in value)
    return False  # nested Strict models check themselves
