"""The one way a request body is read: a msgspec Struct decoded by a route dependency, with the
problems the API has always answered for these faults (400 `bad_request` for a body that is
not JSON; 422 `validation_error` naming the field; 422 `bad_options` for a fault under a
match's `options`), and the route's `openapi_extra` naming the type's published schema.

Declaring a new body (the whole recipe; tests/api/test_struct_bodies.py holds each rule):

1. Subclass `Body` (unknown fields refused, keyword-only): `class FooBody(Body): ...`. A field's
   bounds are `msgspec.Meta` (`Annotated[int, Meta(ge=0, le=3)]`); a default is a plain default
   (`x: bool = False`); a tagged union member adds `tag_field=`/`tag=` to the class line.
2. A check beyond type and bounds is a `Check(fn)` in the field's `Annotated` (web/names.py's
   `PlayerName`, `CutText`, ... are such types): `fn` returns the value, maybe normalized, or
   raises ValueError whose text the 422 gives after the field's path. A check across fields is
   the body's `check(self)` method, raising ValueError (the problem says `body: ...`).
3. The route reads it with `body: Annotated[FooBody, Depends(reader(FooBody))]` and declares
   `openapi_extra=request_body("FooBody")`; an optional body (none, or an empty one, is None)
   is `reader(FooBody, optional=True)` with `request_body("FooBody", required=False)`.
4. Add the type to `documents/openapi_doc.py`'s `BODIES` (its examples, if any, to `EXAMPLES`),
   then `domino-api openapi`: the schema is generated from the type, strings get the no-NUL
   pattern, defaults are said in words.

Every body is read this way: FastAPI reads none (pydantic still checks query, path and header
parameters; app/api.py answers its errors as 422 `validation_error`).

A whole number written `3.0` is the number 3, a body nested deeper than MAX_DEPTH is
refused, and no string may hold the NUL character (PostgreSQL stores none).
"""

from __future__ import annotations

import typing
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any, TypeVar, overload

import msgspec
from fastapi import Request
from pydantic import JsonValue

from domino_api.errors import BadOptionsInput, BadRequest, ValidationFailed
from domino_api.web.fault_texts import as_pydantic_says
from domino_api.web.inputs import MAX_DEPTH, nul_path, whole_numbers

T = TypeVar("T")
REF = "#/components/schemas/{name}"
# Separates a checked field's name from its check's text inside msgspec's error message (a
# __post_init__ error is reported at its Struct's path, not its field's).
_MARK = "\x1e"
# Faults under these top-level fields are the match options' own problem (`bad_options`).
OPTIONS_FIELDS = ("options",)


class Check:
    """A field's check beyond its type and bounds, declared in its `Annotated` metadata."""

    def __init__(self, fn: Callable[[str], str]) -> None:
        self.fn = fn


class FieldFault(ValueError):
    """A fault found where a body reads a field itself (a `match` that is one of two shapes),
    from msgspec's `message` about the field's value: the problem names the field's path."""

    def __init__(self, field: str, message: str) -> None:
        where, _, what = summary(message).partition(": ")
        path = field if where == "body" else f"{field}.{where}"
        super().__init__(f"{_MARK}{path}{_MARK}{what}")


class Body(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A request body: unknown fields refused; each field's `Check`s, then `check`, run
    whenever one is made (decoded or built in code)."""

    def __post_init__(self) -> None:
        for name, check in _checks(type(self)):
            value = getattr(self, name)
            if isinstance(value, str):
                try:
                    setattr(self, name, check(value))
                except ValueError as error:
                    raise ValueError(f"{_MARK}{name}{_MARK}Value error, {error}") from None
        try:
            self.check()
        except ValueError as error:
            raise ValueError(f"Value error, {error}") from None

    def check(self) -> None:
        """A check across the body's fields (raise ValueError); none by default."""


@cache
def _checks(kind: type) -> tuple[tuple[str, Callable[[str], str]], ...]:
    hints = typing.get_type_hints(kind, include_extras=True)
    found: list[tuple[str, Callable[[str], str]]] = []
    for name in getattr(kind, "__struct_fields__", ()):
        found.extend((name, check.fn) for check in _checks_in(hints[name]))
    return tuple(found)


def _checks_in(hint: Any) -> list[Check]:
    """The `Check`s of a field's type, under `| None` too."""
    if typing.get_origin(hint) is typing.Annotated:
        own = [m for m in hint.__metadata__ if isinstance(m, Check)]
        return own + _checks_in(hint.__origin__)
    return [c for arg in typing.get_args(hint) for c in _checks_in(arg)]


@overload
def reader(kind: type[T], optional: bool = False) -> Callable[[Request], Awaitable[T]]: ...
@overload
def reader(kind: object, optional: bool = False, *, name: str) -> Callable[..., Any]: ...
def reader(kind: Any, optional: bool = False, *, name: str = "") -> Callable[..., Any]:
    """A dependency giving the request's body decoded as `kind` (a Body, or a union of them
    published as the schema `name`); with `optional`, no body (or only whitespace) is None."""

    async def read(request: Request) -> Any:
        raw = await request.body()
        if optional and not raw.strip():
            return None
        return decode(raw, kind)

    read.__name__ = f"read_{name or kind.__name__}"
    return read


def decode(raw: bytes, kind: type[T] | object) -> T:
    """`raw` as `kind`, or the problem a client gets for it."""
    if not raw.strip():
        raise ValidationFailed("body: Field required")
    try:
        value = whole_numbers(msgspec.json.decode(raw))
    except msgspec.DecodeError:
        raise BadRequest("The body is not valid JSON.") from None
    except RecursionError:  # deeper than the parser may go on this stack: deeper than MAX_DEPTH
        raise ValidationFailed(
            f"body: the body is nested more than {MAX_DEPTH} levels deep"
        ) from None
    except ValueError as error:
        raise ValidationFailed(f"body: {error}") from None
    try:
        decoded: T = msgspec.convert(value, kind)
    except msgspec.ValidationError as error:
        _refuse(_nul(value) or summary(str(error)))  # a NUL is named first, wherever it is
    # Then on what was decoded: a member a Struct ignores (WebAuthn's extras) stores nothing.
    if (found := _nul(msgspec.to_builtins(decoded))) is not None:
        _refuse(found)
    return decoded


def _nul(value: object) -> str | None:
    where = nul_path(value)
    return None if where is None else f"{where}: text may not contain the NUL character (\\u0000)"


def _refuse(detail: str) -> typing.NoReturn:
    if detail.split(".", 1)[0].split(":", 1)[0] in OPTIONS_FIELDS:
        raise BadOptionsInput(detail)
    raise ValidationFailed(detail)


def summary(message: str) -> str:
    """msgspec's `what - at `$.tile[1]`` as `tile.1: what`, the form pydantic's errors took,
    in pydantic's words for the faults both name (web/fault_texts.py)."""
    what, _, where = message.partition(" - at `$")
    path = where.rstrip("`").replace("[", ".").replace("]", "").lstrip(".")
    if what.startswith(_MARK):
        field, _, what = what[1:].partition(_MARK)
        path = f"{path}.{field}" if path else field
    path, what = as_pydantic_says(path, what)
    return f"{path or 'body'}: {what}"


def request_body(name: str, required: bool = True) -> dict[str, JsonValue]:
    """A route's `openapi_extra` naming its body's published schema (documents/openapi_doc.py
    adds the schema itself)."""
    schema: dict[str, JsonValue] = {"$ref": REF.format(name=name)}
    content: dict[str, JsonValue] = {"application/json": {"schema": schema}}
    return {"requestBody": {"required": required, "content": content}}
