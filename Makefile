# The two commands a newcomer types are `make run` and `make test`; everything else is a helper.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint types openapi-check browser-check bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

HOST ?= 127.0.0.1
PORT ?= 8000

run: install  # make run HOST=0.0.0.0 PORT=8080
	$(BIN)/domino-api serve --host $(HOST) --port $(PORT)

lint: install
	$(BIN)/ruff check src tests bench migrations
	$(BIN)/ruff format --check src tests bench migrations

types: install
	$(BIN)/mypy

openapi-check: install
	$(BIN)/domino-api openapi --check

# The browser tests (tests/web) need Chromium; without it they fail, and this says why first.
CHROMIUM ?= $(or $(DOMINO_CHROMIUM),/usr/bin/chromium)

browser-check:
	@test -x "$(CHROMIUM)" || { echo "make test: no Chromium at $(CHROMIUM); the browser tests of /play need it (apt-get install -y chromium, or set DOMINO_CHROMIUM)." >&2; exit 1; }

test: lint types openapi-check browser-check
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .domino .pytest_cache .mypy_cache .ruff_cache
