# Everything the project needs is installed here, into .venv, by `make setup`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup play test quick bench typecheck clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,lsp,rl]'
	touch $(STAMP)

setup: $(STAMP)

# Set everything up and start a game of Downtown: you against three bots.
play: $(STAMP)
	$(BIN)/cityrules play downtown --seats human,bot,bot,bot

# Set everything up and run the whole test suite (type check included).
test: $(STAMP)
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -n auto

# The same suite with fewer per-state conformance games, for day-to-day work.
quick: $(STAMP)
	CONFORMANCE_SLOW_GAMES=12 $(BIN)/python -m pytest -n auto

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_downtown.py
	$(BIN)/python benchmarks/bench_validate.py
	$(BIN)/python benchmarks/bench_lsp.py

typecheck: $(STAMP)
	$(BIN)/python -m mypy

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache
