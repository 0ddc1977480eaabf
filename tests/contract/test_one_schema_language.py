"""Issue 47: the shapes that cross a boundary are msgspec Structs, one schema language. No module
of the service declares a pydantic model (a body, an answer or the problem document) nor
imports one to declare; pydantic stays only for the settings (config.py, limit_settings.py)
and the `JsonValue` type alias, which this test lets through."""

from __future__ import annotations

import ast
from pathlib import Path

import msgspec

from domino_api.matches import civil_models, ledger_models, listing_models
from domino_api.ratings import schemas as ratings
from domino_api.tournaments import listing as tournament_listing
from domino_api.tournaments import schemas as tournaments
from domino_api.web import problems

SRC = Path(__file__).resolve().parents[2] / "src" / "domino_api"
SETTINGS = {"config.py", "limit_settings.py"}
# The pydantic model bases, and where they come from (`Strict` was web/inputs.py's body base).
MODELS = {"BaseModel", "RootModel", "BaseSettings", "Strict"}
SOURCES = ("pydantic", "domino_api.web.inputs")


def offences(source: str) -> list[str]:
    """Each pydantic model a module imports or declares, as `line: what`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(SOURCES):
            found += [f"{node.lineno}: imports {a.name}" for a in node.names if a.name in MODELS]
        elif isinstance(node, ast.ClassDef):
            bases = {_name(base) for base in node.bases}
            found += [f"{node.lineno}: {node.name} is a {base}" for base in sorted(bases & MODELS)]
    return found


def _name(base: ast.expr) -> str:
    if isinstance(base, ast.Subscript):  # RootModel[int]
        base = base.value
    if isinstance(base, ast.Attribute):  # pydantic.BaseModel
        return base.attr
    return base.id if isinstance(base, ast.Name) else ""


def test_no_module_of_the_service_declares_a_pydantic_model() -> None:
    modules = [path for path in sorted(SRC.rglob("*.py")) if path.name not in SETTINGS]
    assert len(modules) > 150  # the whole package is where this test looks
    found = {
        str(path.relative_to(SRC)): offence
        for path in modules
        if (offence := offences(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_settings_are_the_pydantic_models_let_through() -> None:
    """The exemption is still needed: `Settings` (config.py) extends this pydantic model."""
    found = offences((SRC / "limit_settings.py").read_text(encoding="utf-8"))
    assert [line.split(": ", 1)[1] for line in found] == [
        "imports BaseSettings",
        "LimitSettings is a BaseSettings",
    ]


def test_the_finder_sees_each_kind_of_model() -> None:
    """The scan above could not pass by missing a way a model is declared."""
    source = """
from pydantic import BaseModel, Field, JsonValue
from domino_api.web.inputs import Strict, whole_numbers
import pydantic

class A(BaseModel):
    x: int = Field(ge=0)

class B(Strict):
    y: str

class C(pydantic.RootModel[int]):
    pass

class D(msgspec.Struct):
    z: JsonValue
"""
    assert offences(source) == [
        "2: imports BaseModel",
        "3: imports Strict",
        "6: A is a BaseModel",
        "9: B is a Strict",
        "12: C is a RootModel",
    ]


def test_their_answers_and_the_problem_document_are_structs() -> None:
    answers = (
        *tournaments.ANSWERS,
        *tournament_listing.ANSWERS,
        *ratings.ANSWERS,
        *civil_models.ANSWERS,
        *listing_models.ANSWERS,
        ledger_models.VerifyOut,
        problems.Problem,
        tournaments.TournamentCreate,
    )
    assert all(issubclass(kind, msgspec.Struct) for kind in answers)
