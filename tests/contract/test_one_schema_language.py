"""Issue 47: the shapes that cross a boundary are msgspec Structs, one schema language. No
module of these packages declares a pydantic model (a body, an answer or the problem document);
the packages still on pydantic join the list as they are converted."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType

import msgspec
from pydantic import BaseModel

from domino_api.matches import civil_models, ledger_models, listing_models
from domino_api.ratings import schemas as ratings
from domino_api.tournaments import listing as tournament_listing
from domino_api.tournaments import schemas as tournaments
from domino_api.web import problems

CONVERTED = ("domino_api.tournaments", "domino_api.ratings", "domino_api.matches")
MODULES = ("domino_api.web.problems",)


def _modules() -> list[ModuleType]:
    found = [importlib.import_module(name) for name in MODULES]
    for package_name in CONVERTED:
        package = importlib.import_module(package_name)
        found.append(package)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            found.append(importlib.import_module(info.name))
    return found


def _pydantic_models(module: ModuleType) -> list[str]:
    return [
        f"{module.__name__}.{name}"
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and value.__module__ == module.__name__
        and issubclass(value, BaseModel)
    ]


def test_no_module_of_the_converted_packages_declares_a_pydantic_model() -> None:
    modules = _modules()
    assert len(modules) > 20  # every module of the packages was walked, not none
    assert [model for module in modules for model in _pydantic_models(module)] == []


def test_the_finder_sees_a_pydantic_model_where_one_is_declared() -> None:
    """The check above could not pass by looking in the wrong place."""
    probe = ModuleType("probe")
    probe.Declared = type("Declared", (BaseModel,), {"__module__": "probe"})
    probe.Imported = BaseModel  # declared elsewhere: not this module's
    assert _pydantic_models(probe) == ["probe.Declared"]


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
