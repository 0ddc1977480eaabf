# The two commands a newcomer types are `make run` and `make test`; everything else is a helper.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install js-install system-deps run test test-full checks suite lint types types-js openapi-check bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The /play client's tools (eslint, prettier, TypeScript, the contract's type generators) come from
# package-lock.json into node_modules; nothing is installed globally.
NODE_BIN := node_modules/.bin
NODE_STAMP := node_modules/.installed
PLAY := src/domino_api/play

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

js-install: $(NODE_STAMP)

HOST ?= 127.0.0.1
PORT ?= 8000

run: install  # make run HOST=0.0.0.0 PORT=8080
	$(BIN)/domino-api serve --host $(HOST) --port $(PORT)

lint: install js-install
	$(BIN)/ruff check src tests bench migrations
	$(BIN)/ruff format --check src tests bench migrations
	$(NODE_BIN)/eslint --max-warnings 0
	$(NODE_BIN)/prettier --check '$(PLAY)/*.{js,css,html}' '*.{js,json}' 'tools/*.mjs'

# /play type-checked (tsconfig.json: checkJs) against the contract's types, which
# tools/contract-types.mjs generates into build/contract/ (gitignored) from openapi/; it also
# fails when openapi.json leaves more than one object untyped.
types-js: js-install
	node tools/contract-types.mjs
	$(NODE_BIN)/tsc -p tsconfig.json
	$(NODE_BIN)/tsc -p tests/contract/tsconfig.json

types: install
	$(BIN)/mypy

openapi-check: install
	$(BIN)/domino-api openapi --check

# What the suite needs from the system (Chromium, PgBouncer, redis-server, PostgreSQL 15, etcd,
# Patroni, node and npm):
# installed when missing as root with apt, else make stops at once naming the command to run.
system-deps:
	@tools/system-deps.sh

# pytest-xdist workers: one more than the cores, at most 4 (the suite waits on servers, clocks
# and browsers more than it computes: two workers kept two cores 40% busy); each worker has its
# own databases, NATS and Redis.
JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); n=$$((n + 1)); [ $$n -gt 4 ] && n=4; echo $$n)
PYTEST := $(BIN)/python -m pytest -n $(JOBS) --dist loadfile --no-loadscope-reorder --durations=25

# The checks run beside the suite, not before it: the suite waits on servers, clocks and browsers
# more than it computes, and the checks (about 3 minutes on 2 loaded cores) fill those waits.
# One check at a time (-j 2: the suite and one check); any failure fails `make test`.
test: system-deps install js-install
	$(MAKE) --no-print-directory -j 2 suite checks

checks: lint types types-js openapi-check

suite: install
	$(PYTEST) $(PYTEST_ARGS)

# The same, with every stored engine replay and every bulk match (tests/engine) played whole.
test-full: system-deps install js-install
	$(MAKE) --no-print-directory -j 2 PYTEST_ARGS=--full suite checks

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) node_modules build .domino .pytest_cache .mypy_cache .ruff_cache
