"""A seeded mutation fuzz of the shipped games: 300 mutants, each validated and, when clean, played.

Every mutant must be answered (diagnostics that render, or a trial game that ends or reports a
positioned problem): no traceback, no worker killed by a signal or by the memory limit, no mutant
without an answer within its time limit. `python benchmarks/bench_fuzz.py` runs 10,000 (make fuzz).
"""

from __future__ import annotations

from fuzz_helpers import mutant, run_mutants

MUTANTS = 300


def test_every_mutant_of_the_shipped_games_is_answered() -> None:
    summary = run_mutants(list(range(MUTANTS)), workers=2, timeout=60)
    assert summary.failures == 0, summary.describe()
    assert sum(summary.answers.values()) == MUTANTS
    # The fuzz reaches past the checks: some mutants validate clean and are played.
    assert summary.answers["errors"] < MUTANTS and summary.answers["clean"] > 0, summary.answers


def test_a_seed_always_makes_the_same_mutant() -> None:
    assert mutant(41) == mutant(41) and mutant(41) != mutant(42)
