"""The examples in the engine's docstrings (new_match, apply, legal_actions, view, place) run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import domino_api.engine

MODULES = sorted(m.name for m in pkgutil.iter_modules(domino_api.engine.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"domino_api.engine.{name}")
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS, raise_on_error=False)
    assert failed == 0


def test_the_public_api_has_examples() -> None:
    finder = doctest.DocTestFinder()
    with_examples = set()
    for name in MODULES:
        module = importlib.import_module(f"domino_api.engine.{name}")
        with_examples |= {t.name.split(".")[-1] for t in finder.find(module) if t.examples}
    assert {"new_match", "apply", "legal_actions", "view"} <= with_examples
