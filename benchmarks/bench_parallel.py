"""Benchmark: batch throughput at --jobs 1 and --jobs 2, and per-game costs for the scale estimate.

Prints figures; asserts nothing (the machine is shared and noisy). The two worker counts are run
interleaved, several times, and the medians compared. Run: make bench, or
    .venv/bin/python benchmarks/bench_parallel.py --game downtown --games 2000 --rounds 3
    .venv/bin/python benchmarks/bench_parallel.py --game london --games 200 --cost-only
docs/balance.md turns the per-game costs into the estimate of a one-million-game study.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from interpreter.analysis.batch import BatchSpec, engine_for, play_game
from interpreter.analysis.parallel import run_batch
from interpreter.load.games import resolve_game


def spec_for(game: str, games: int, bots: str) -> BatchSpec:
    """A batch of the game at 4 seats with one kind of bot."""
    return BatchSpec(str(resolve_game(game).resolve()), None, 4, (bots,) * 4, 0, games)


def wall_rate(spec: BatchSpec, jobs: int) -> float:
    """Games per second of wall time for the whole batch (worker start-up included)."""
    start = time.perf_counter()
    result = run_batch(spec, jobs)
    return result.tally.games / (time.perf_counter() - start)


def cpu_cost(spec: BatchSpec, games: int) -> tuple[float, float]:
    """CPU seconds per game in this process, and decisions per game."""
    engine, ledger = engine_for(spec.folder, spec.variant)
    decisions = 0
    start = time.process_time()
    for seed in range(games):
        record, _ = play_game(engine, ledger, spec, seed)
        decisions += record.decisions
    return (time.process_time() - start) / games, decisions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="downtown")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--cost-only", action="store_true", help="only the CPU cost per game")
    args = parser.parse_args()
    spec = spec_for(args.game, args.games, args.bots)
    cost, decisions = cpu_cost(replace(spec, games=min(args.games, 200)), min(args.games, 200))
    print(f"{args.game}, {args.bots} bots: {cost * 1000:.1f} ms CPU per game ({decisions:.0f} decisions/game)")
    if args.cost_only:
        return
    rates: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(args.rounds):
        for jobs in (1, 2):
            rates[jobs].append(wall_rate(spec, jobs))
            print(f"  --jobs {jobs}: {rates[jobs][-1]:.0f} games/s ({args.games} games)")
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    print(f"{args.game}: median {one:.0f} games/s at --jobs 1, {two:.0f} at --jobs 2: speed-up {two / one:.2f}x "
          f"(goal 1.7x on 2 cores)")


if __name__ == "__main__":
    main()
