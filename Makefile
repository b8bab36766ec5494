# Set-up is part of every target: a fresh clone needs only `make demo` or `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LAB    := $(VENV)/.installed-lab

.PHONY: demo test test-fast lint bench lab clean docs-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(LAB): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,lab]'
	touch $(LAB)

demo: $(STAMP)
	$(BIN)/balance demo --out results

test: $(STAMP)
	$(BIN)/ruff check balance tests benchmarks
	$(BIN)/python -m pytest -n auto

# The inner loop: everything but the tests marked slow (tests/tiers.py), under 90 s.
test-fast: $(STAMP)
	$(BIN)/ruff check balance tests benchmarks
	$(BIN)/python -m pytest -n auto -m "not slow"

# Every printed example in README.md and docs/, the slow ones too (balance.tools.docnumbers).
docs-check: $(STAMP)
	$(BIN)/python -m balance.tools.docnumbers --slow

lint: $(STAMP)
	$(BIN)/ruff check balance tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_suite.py
	$(BIN)/python benchmarks/bench_ratios.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_duel.py
	$(BIN)/python benchmarks/bench_designer.py
	$(BIN)/python benchmarks/bench_group.py
	$(BIN)/python benchmarks/bench_missile.py
	$(BIN)/python benchmarks/bench_sweep.py

# JupyterLab in the project's environment, opened on the notebooks (paired .py files open
# as notebooks through jupytext).
lab: $(LAB)
	$(BIN)/jupyter lab notebooks/

clean:
	rm -rf $(VENV) build *.egg-info
