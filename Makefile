# rttool: the two commands are `make run` and `make test`; everything else is a helper.
PYTHON ?= python3
# Compiled bytecode (and pytest's rewritten test modules) may be cached: parallel workers
# and repeated runs start much faster than with PYTHONDONTWRITEBYTECODE set.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit selftest bench golden clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## run: run the suite against the bundled reference runtime and write reports/reference/
run: $(STAMP)
	$(BIN)/rttool rules lint
	$(BIN)/rttool rules list
	$(BIN)/rttool run --impl reference --report-dir reports/reference

## test: the project's own gates: lint, types, unit and integration tests
test: $(STAMP) lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest -q

## selftest: every mutant of the reference runtime must be caught by its own clauses' checks
selftest: $(STAMP)
	$(BIN)/rttool selftest

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
