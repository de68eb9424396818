# Everything the project needs is installed here, into .venv: `make play` installs only what playing
# needs (the core dependencies); `make test` and the other targets add the rest (the test tools, Ray,
# OpenSpiel, PyTorch's CPU build, Optuna, PettingZoo, the language server, matplotlib).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_STAMP := $(VENV)/.installed-play
STAMP := $(VENV)/.installed

.PHONY: setup play test quick bench goldens train fuzz typecheck clean

# Times measured on the project's 2-core machine with an empty pip cache (see the README).
$(PLAY_STAMP): pyproject.toml
	@echo "setting up .venv for play (first time, about 20 s: the core packages only)..."
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(STAMP): $(PLAY_STAMP)
	@echo "setting up .venv for the tests (first time, about 4.5 min: test tools, Ray, OpenSpiel, PyTorch,"
	@echo "Optuna, PettingZoo, the language server and matplotlib, some 1.7 GB)..."
	@$(BIN)/python -m pip install --quiet -e '.[dev,report,ray,tune,lsp,rl,rl-deep]'
	@# The report test opens pages in headless Chromium (Debian's package); CI runs as root.
	@command -v chromium >/dev/null || (echo "setting up chromium for the report page test..." && apt-get update -qq \
	  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	  || echo "setup: could not install chromium; the report page test will fail" >&2
	@touch $@

setup: $(STAMP)

# Set up what playing needs and start a game of Downtown: you against three bots.
play: $(PLAY_STAMP)
	$(BIN)/cityrules play downtown --seats human,bot,bot,bot

# Set everything up and run the whole test suite (type check and lint included).
test: $(STAMP)
	$(BIN)/python -m mypy
	$(BIN)/python -m ruff check
	$(BIN)/python -m pytest -n auto

# The same suite with fewer per-state conformance games, for day-to-day work.
quick: $(STAMP)
	CONFORMANCE_SLOW_GAMES=12 $(BIN)/python -m pytest -n auto

# The bots' strength table takes a while (about an hour on two busy cores): BOTS="--scale 0.3"
# plays fewer games, BOTS="--only london" one game's matches.
BOTS ?=
# Games per match against the players scripted from the rulebooks (benchmarks/scripted/).
MATCH_GAMES ?= 100
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_downtown.py
	$(BIN)/python benchmarks/bench_games.py
	$(BIN)/python benchmarks/bench_adapters.py
	$(BIN)/python benchmarks/bench_rl_agent.py
	$(BIN)/python benchmarks/bench_lsp.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_edit_loop.py
	$(BIN)/python benchmarks/bench_memory.py
	$(BIN)/python benchmarks/bench_parallel.py --game downtown --games 2000 --rounds 3
	$(BIN)/python benchmarks/bench_bots.py $(BOTS)
	$(BIN)/python benchmarks/bench_acquire.py
	for g in downtown city; do $(BIN)/python benchmarks/bench_match.py --game $$g --games $(MATCH_GAMES) --jobs 2 || exit 1; done
	$(BIN)/python benchmarks/bench_match.py --game london --players 3 --games $(MATCH_GAMES) --jobs 2
	$(BIN)/python benchmarks/bench_match.py --game london --players 4 --games $(MATCH_GAMES) --jobs 2
	for g in downtown city; do $(BIN)/python benchmarks/bench_match.py --game $$g --bot mcts --games 30 --jobs 2 || exit 1; done
	$(BIN)/python benchmarks/bench_match.py --game london --players 3 --bot mcts --games 30 --jobs 2
	$(BIN)/python benchmarks/bench_train.py

# Rewrite the stored golden journals and event logs (tests/data/golden/), then the screens made from
# them (tests/data/screens/), only when a game's rules or screens changed on purpose: `make goldens`
# for every game, or `.venv/bin/python tests/golden_journals.py city` (golden_screens.py likewise).
goldens: $(STAMP)
	$(BIN)/python tests/golden_journals.py
	$(BIN)/python tests/golden_screens.py

# Train the bots of every shipped game and of examples/harbour again (after their rules changed on
# purpose: the tests check each bots.trained.json against its game's files).
train: $(STAMP)
	for g in downtown london city examples/harbour; do $(BIN)/cityrules train $$g --no-progress || exit 1; done

# 10,000 mutants of the shipped games, validated and played: counts tracebacks, hangs, crashes (minutes).
fuzz: $(STAMP)
	$(BIN)/python benchmarks/bench_fuzz.py

# Strict type check and lint (ruff: the rules are in pyproject.toml).
typecheck: $(STAMP)
	$(BIN)/python -m mypy
	$(BIN)/python -m ruff check

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache
