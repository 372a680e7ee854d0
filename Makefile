# The two set-up commands of the README:
#   make serve   install (first time) and run the hub on SQLite
#   make test    install (first time) and run ruff, mypy and the whole test suite
#   make check   the same without the slow tests: the everyday loop
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=
# the tests start many Python processes (xdist workers, hubs, agents): each compiles the
# project's modules again, and pytest rewrites every test module again, unless their bytecode
# is kept (`make check`: 85 s with PYTHONDONTWRITEBYTECODE=1 set, 58 s without it)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: serve demo test check lint typecheck pytest docs openapi dist clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "agenthub needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.serve-installed: pyproject.toml kit/pyproject.toml | $(BIN)/python
	@echo "make: installing the hub and the kit into $(VENV) (the first time: about a minute)"
	$(BIN)/python -m pip install --quiet -e ./kit -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml kit/pyproject.toml | $(BIN)/python
	@echo "make: installing the hub, the kit and the test tools into $(VENV) (the first time: a few minutes)"
	$(BIN)/python -m pip install --quiet -e ./kit -e ".[dev]"
	touch $@ $(VENV)/.serve-installed

# A development hub on loopback that agents can join: with no operator token set (in the
# environment or .env), the token is DEV_TOKEN, and serve says so. On another HOST, or with a
# token of your own, nothing is added.
DEV_TOKEN ?= change-me
serve: $(VENV)/.serve-installed
	@if [ "$(HOST)" = 127.0.0.1 ] && [ -z "$$AGENTHUB_OPERATOR_TOKEN$$AGENTHUB_OPERATOR_TOKEN_FILE" ] \
		&& ! grep -Eiqs '^[[:space:]]*(export[[:space:]]+)?AGENTHUB_OPERATOR_TOKEN' .env; then \
		echo "make serve: a development hub on loopback; agents join with the operator token '$(DEV_TOKEN)' (set AGENTHUB_OPERATOR_TOKEN for another)"; \
		export AGENTHUB_OPERATOR_TOKEN='$(DEV_TOKEN)'; \
	fi; exec $(BIN)/agenthub serve --host $(HOST) --port $(PORT)

demo: $(VENV)/.serve-installed
	$(BIN)/agenthub demo

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check agenthub app tests bench examples migrations/env.py hatch_build.py kit/hatch_build.py \
		openapi/clients/without_streams.py docs/hooks.py
	$(BIN)/ruff format --check agenthub app tests bench examples migrations/env.py hatch_build.py kit/hatch_build.py \
		openapi/clients/without_streams.py docs/hooks.py

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

# the whole suite, slow tests too, on TEST_WORKERS xdist workers; a worker takes whole files
# (their module fixtures build wheels, start nginx...), the longest first (tests/support/schedule.py).
# Many tests wait on servers and processes, so 4 beat 2 and 3 on this project's 2-core machine
# (SQLite + PostgreSQL seconds, two runs each beside another suite's: -n 2 380+438, 504+500;
# -n 3 417+413, 506+769; -n 4 353+314, 280+365)
TEST_WORKERS ?= 4
pytest: $(VENV)/.dev-installed
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

test: lint typecheck pytest

# the everyday loop: everything but the tests marked slow (see pyproject's markers) and the
# files tests/support/schedule.py's EVERYDAY_LEAVES_OUT names, on SQLite, in parallel: many
# tests wait on servers and processes, so 4 workers beat 3 even on 2 cores (make check 54 s
# with -n 4, 69 s with -n 3, on this project's 2-core machine)
CHECK_WORKERS ?= 4
check: lint typecheck
	env -u AGENTHUB_TEST_DATABASE_URL -u AGENTHUB_TEST_REDIS_URL \
		$(BIN)/pytest -m "not slow" -n $(CHECK_WORKERS) $(PYTEST_ARGS)

# the docs site from docs/ (mkdocs.yml) into site/: offline, and --strict (a broken link, a page
# missing from the nav or a generated page that fails stops it); open site/index.html
docs: $(VENV)/.dev-installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

openapi: $(VENV)/.serve-installed
	$(BIN)/agenthub openapi openapi/openapi.json

# both wheels, the kit (agenthub) and the hub (agenthub-hub), into dist/
dist: $(VENV)/.dev-installed
	rm -rf dist
	$(BIN)/python -m build --wheel --outdir dist kit
	$(BIN)/python -m build --wheel --outdir dist .

# everything the build and the tests leave behind (a hub's store and key are not removed)
clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .schemathesis .hypothesis dist build site \
		openapi/clients/typescript/node_modules
	find . -name '*.egg-info' -prune -exec rm -rf {} + -o -name __pycache__ -prune -exec rm -rf {} +
