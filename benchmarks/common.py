"""Timing helpers shared by the benchmarks: CPU time, interleaved rounds, medians.

The machine is shared and noisy, so every figure is CPU time (not wall time) and every comparison
runs its contenders in turn, round after round, and reports the median of the rounds.
"""

from __future__ import annotations

import statistics
import time
from typing import Any, Callable

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game

# The games measured: (label, game, variant, seats).
GAMES = (("Downtown", "downtown", None, 4), ("London", "london", None, 3), ("City", "city", None, 4),
         ("City advanced", "city", "advanced", 4))


def engine(name: str, variant: str | None = None) -> Engine:
    """An engine for a shipped game."""
    return Engine(load_game(name, variant))


def cpu(work: Callable[[], Any]) -> float:
    """CPU seconds one call of `work` takes."""
    start = time.process_time()
    work()
    return time.process_time() - start


def interleaved(contenders: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    """CPU seconds of each contender in each round; the contenders take turns within a round."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for work in contenders.values():  # warm up: caches, first-call costs
        work()
    for _ in range(rounds):
        for name, work in contenders.items():
            times[name].append(cpu(work))
    return times


def median_ratio(a: list[float], b: list[float]) -> float:
    """The median over rounds of a[i] / b[i]."""
    return statistics.median(x / y for x, y in zip(a, b))


def median(values: list[float]) -> float:
    """The median."""
    return statistics.median(values)
