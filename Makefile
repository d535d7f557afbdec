# rttool: the two commands are `make run` and `make test`; everything else is a helper.
PYTHON ?= python3
# Compiled bytecode (and pytest's rewritten test modules) may be cached: parallel workers
# and repeated runs start much faster than with PYTHONDONTWRITEBYTECODE set.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Two workers: the tests are independent, and this machine class has two cores.
PYTEST := $(BIN)/python -m pytest -q -n 2

# The shipped harnesses (harnesses/): report directory name, then the spec that drives it.
HARNESSES := langgraph=python:harnesses.langgraph:create pydantic-ai=python:harnesses.pydanticai:create

.PHONY: run test lint typecheck unit slow selftest bench golden standings clean

# The harness extras are installed too: their slow tests run the suite against each one.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,langgraph,pydantic-ai]'
	touch $(STAMP)

## run: run the suite against the bundled reference runtime and write reports/reference/
run: $(STAMP)
	$(BIN)/rttool rules lint
	$(BIN)/rttool rules list
	$(BIN)/rttool run --impl reference --report-dir reports/reference

## standings: run the suite against each shipped harness and write reports/<name>/
## (a finding, exit 1, is a standing like any other; a harness that cannot be driven fails).
## Without the hunt: against an implementation that breaks its invariants, the hunt's
## time-bounded shrinking finds different counterexamples on a busy machine.
standings: $(STAMP)
	@for pair in $(HARNESSES); do \
	  name=$${pair%%=*}; spec=$${pair#*=}; \
	  echo "rttool run --impl $$spec --report-dir reports/$$name --no-hunt"; \
	  $(BIN)/rttool run --impl "$$spec" --report-dir "reports/$$name" -q --no-hunt; \
	  code=$$?; [ $$code -le 1 ] || exit $$code; \
	done

## test: the project's own gates: lint, types, fast tests, slow tests, the mutant selftest
test: $(STAMP) lint typecheck unit slow selftest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/rttool rules lint

typecheck: $(STAMP)
	$(BIN)/mypy

## unit: the fast tests (seconds)
unit: $(STAMP)
	$(PYTEST) -m "not slow"

## slow: crash loops, real servers, the browser, end-to-end runs, the hunt against mutants
slow: $(STAMP)
	$(PYTEST) -m slow

## selftest: every mutant of the reference runtime must be caught by its own clauses' checks
## (restricted mode: each mutant against the cases of the rules it breaks; see docs/mutants.md)
selftest: $(STAMP)
	$(BIN)/rttool selftest

## bench: benchmarks; they print figures and assert nothing (docs/benchmarks.md)
bench: $(STAMP)
	$(BIN)/python -m bench

## golden: regenerate the report formats' golden files after an intended change
golden: $(STAMP)
	$(BIN)/python -m tests.report.regenerate_golden

clean:
	rm -rf $(VENV) build *.egg-info
