"""One schema language for every shape that crosses a boundary (issue 47): the packages
converted to msgspec Structs declare no pydantic model again, neither a `BaseModel` nor a
`Strict` body (web/inputs.py), nor import one."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "domino_api"
CONVERTED = ("accounts", "players", "push", "turns", "social", "lobby")
# The pydantic model bases, and where they come from.
MODELS = {"BaseModel", "RootModel", "Strict"}
SOURCES = ("pydantic", "domino_api.web.inputs")


def offences(source: str) -> list[str]:
    """Each pydantic model a module imports or declares, as `line: what`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(SOURCES):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names if a.name in MODELS]
        elif isinstance(node, ast.ClassDef):
            bases = {_name(base) for base in node.bases}
            found += [f"{node.lineno}: {node.name} is a {base}" for base in bases & MODELS]
    return found


def _name(base: ast.expr) -> str:
    if isinstance(base, ast.Subscript):  # RootModel[int]
        base = base.value
    if isinstance(base, ast.Attribute):  # pydantic.BaseModel
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def test_the_converted_packages_declare_no_pydantic_model() -> None:
    modules = [path for package in CONVERTED for path in sorted((SRC / package).rglob("*.py"))]
    assert len(modules) > 20  # the packages are where this test looks
    found = {
        str(path.relative_to(SRC)): offence
        for path in modules
        if (offence := offences(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_scan_sees_each_kind_of_model() -> None:
    source = """
from pydantic import BaseModel, Field
from domino_api.web.inputs import Strict, whole_numbers
import pydantic

class A(BaseModel):
    x: int = Field(ge=0)

class B(Strict):
    y: str

class C(pydantic.RootModel[int]):
    pass

class D(msgspec.Struct):
    z: int
"""
    assert offences(source) == [
        "2: imports BaseModel",
        "3: imports Strict",
        "6: A is a BaseModel",
        "9: B is a Strict",
        "12: C is a RootModel",
    ]
