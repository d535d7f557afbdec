# rttool: the two commands are `make run` and `make test`; everything else is a helper.
PYTHON ?= python3
# Compiled bytecode (and pytest's rewritten test modules) may be cached: parallel workers
# and repeated runs start much faster than with PYTHONDONTWRITEBYTECODE set.
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
EXTRAS := dev,langgraph,pydantic-ai,adk,smolagents,llamaindex,autogen
JS_HARNESS := harnesses/js/openai-agents
JS_STAMP := $(JS_HARNESS)/node_modules/.installed
# Two workers: the tests are independent, and this machine class has two cores.
PYTEST := $(BIN)/python -m pytest -q -n 2


.PHONY: run reports test lint typecheck unit slow slow-and-typecheck selftest bench golden mutation clean

# The harness extras are installed too: their slow tests run the suite against each one.
# Each step says what it does first: the installs take minutes and pip is kept quiet.
$(STAMP): pyproject.toml
	@echo "setup: making the virtual environment $(VENV) (once; later runs reuse it)"
	$(PYTHON) -m venv $(VENV)
	@echo "setup: upgrading pip"
	$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "setup: installing rttool and its test tools (ruff, mypy), with the harness extras"
	@echo "setup: (LangGraph, PydanticAI, Google ADK, smolagents, LlamaIndex, AutoGen): a few"
	@echo "setup: minutes on a fresh clone"
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)
	@echo "setup: done"

# The JavaScript harness's packages, from its lock file; skipped (its tests and its
# standing then say so) where node and npm are not installed.
$(JS_STAMP): $(JS_HARNESS)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		echo "setup: installing the JavaScript harness's packages with npm ci (once)"; \
		npm ci --prefix $(JS_HARNESS) --no-audit --no-fund --loglevel=error && touch $(JS_STAMP); \
	else \
		echo "setup: npm is not installed: the JavaScript harness is left out"; \
	fi

## run: run the suite against the bundled reference runtime and write reports/reference/
## (its committed standing.json and STANDING.md change only when a standing does)
run: $(STAMP)
	$(BIN)/rttool rules lint
	$(BIN)/rttool rules list
	$(BIN)/rttool publish reference

## reports: regenerate every committed standing in reports/ and the matrix reports/README.md
reports: $(STAMP) $(JS_STAMP)
	$(BIN)/rttool publish

## test: the project's own gates: lint, fast tests, slow tests with the type check beside
## them, the mutant selftest
test: $(STAMP) $(JS_STAMP) lint unit slow-and-typecheck selftest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/rttool rules lint

typecheck: $(STAMP)
	$(BIN)/mypy

## unit: the fast tests: about two minutes on two idle cores, none over seconds (a test
## that needs a server, the browser, a whole-suite run or the self-test is marked slow,
## and refused here if it is not: tests/_tiers.py)
unit: $(STAMP)
	$(PYTEST) -m "not slow"

## slow: crash loops, real servers, the browser, agent frameworks, end-to-end runs, the
## hunt against mutants, the committed standings run afresh
slow: $(STAMP)
	$(PYTEST) -m slow --dist loadgroup

## slow-and-typecheck: the slow tier, with mypy beside it on the core the tier leaves idle
## while its last long tests finish (the type check alone on one core cost `make test` half
## a minute); mypy's verdict is printed once the tier ends, and either failing fails this
slow-and-typecheck: $(STAMP)
	@report=$$(mktemp); \
	echo "typecheck: mypy runs beside the slow tests; its verdict follows theirs"; \
	$(BIN)/mypy > "$$report" 2>&1 & types=$$!; \
	$(PYTEST) -m slow --dist loadgroup; slow=$$?; \
	wait $$types; typed=$$?; \
	echo "typecheck:"; cat "$$report"; rm -f "$$report"; \
	[ $$slow -eq 0 ] && [ $$typed -eq 0 ]

## selftest: every mutant of the reference runtime must be caught by its own clauses' checks
## (restricted mode: each mutant against the cases of the rules it breaks; see docs/mutants.md)
selftest: $(STAMP)
	$(BIN)/rttool selftest

## bench: benchmarks; they print figures and assert nothing (docs/benchmarks.md)
bench: $(STAMP)
	$(BIN)/python -m bench

## mutation: machine-made mutants of the reference runtime scored against the suite (long;
## not part of test). SAMPLE=N SEED=S for a quick estimate, ONLY=FILE to re-run listed
## mutants (build/mutation/survivors.txt), JOBS=N, TIMEOUT=S, HUNT_EXAMPLES=N, NO_HUNT=1,
## ALL_FAILURES=1 (every case of each mutant, not only up to its first failure); see docs/mutants.md
mutation: $(STAMP)
	$(BIN)/python -m mutation $(if $(SAMPLE),--sample $(SAMPLE)) $(if $(SEED),--seed $(SEED)) \
		$(if $(ONLY),--only $(ONLY)) $(if $(JOBS),--jobs $(JOBS)) $(if $(TIMEOUT),--timeout $(TIMEOUT)) \
		$(if $(RESUME),--resume) $(if $(HUNT_EXAMPLES),--hunt-examples $(HUNT_EXAMPLES)) \
		$(if $(NO_HUNT),--no-hunt) $(if $(SPAWN),--spawn) $(if $(REACH),--reach) \
		$(if $(ALL_FAILURES),--all-failures)

## golden: regenerate the report formats' golden files after an intended change
golden: $(STAMP)
	$(BIN)/python -m tests.report.regenerate_golden

clean:
	rm -rf $(VENV) build *.egg-info
