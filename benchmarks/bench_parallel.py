"""Benchmark: batch throughput at --jobs 1 and --jobs 2, and per-game costs for the scale estimate.

Prints figures; asserts nothing (the machine is shared and noisy). The two worker counts are run
interleaved, several times, and the medians compared. Run: make bench, or
    .venv/bin/python benchmarks/bench_parallel.py --game downtown --games 2000 --rounds 3
    .venv/bin/python benchmarks/bench_parallel.py --game london --games 200 --cost-only
docs/balance.md turns the per-game costs into the estimate of a one-million-game study.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from dataclasses import replace

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.analysis.batch import BatchSpec, engine_for, play_game
from interpreter.analysis.parallel import run_batch
from interpreter.load.games import resolve_game


def spec_for(game: str, games: int, bots: str) -> BatchSpec:
    """A batch of the game at 4 seats with one kind of bot."""
    return BatchSpec(str(resolve_game(game).resolve()), None, 4, (bots,) * 4, 0, games)


def children_cpu() -> float:
    """CPU seconds used by this process's finished children (the workers, once joined)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wall_rate(spec: BatchSpec, jobs: int) -> tuple[float, float]:
    """Games per second of wall time for the whole batch (worker start-up included), and the
    games per second it would reach if each process had a core of its own: the batch's CPU time
    in the busiest process (the parent, or the workers' total shared by their number)."""
    start, parent, children = time.perf_counter(), time.process_time(), children_cpu()
    result = run_batch(spec, jobs)
    wall = time.perf_counter() - start
    parent_cpu = time.process_time() - parent
    workers_cpu = children_cpu() - children
    busiest = parent_cpu if jobs == 1 else max(parent_cpu, workers_cpu / jobs)
    return result.tally.games / wall, result.tally.games / busiest


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
    cpu_rates: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(args.rounds):
        for jobs in (1, 2):
            wall, cpu = wall_rate(spec, jobs)
            rates[jobs].append(wall)
            cpu_rates[jobs].append(cpu)
            print(f"  --jobs {jobs}: {wall:.0f} games/s wall, {cpu:.0f} games/s with a core per process "
                  f"({args.games} games)")
    one, two = statistics.median(rates[1]), statistics.median(rates[2])
    c1, c2 = statistics.median(cpu_rates[1]), statistics.median(cpu_rates[2])
    print(f"{args.game}: median {one:.0f} games/s at --jobs 1, {two:.0f} at --jobs 2: wall speed-up {two / one:.2f}x "
          f"(goal 1.7x on 2 cores; load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"{args.game}: by CPU time, {c1:.0f} games/s at --jobs 1, {c2:.0f} at --jobs 2: "
          f"{c2 / c1:.2f}x when each process has a core of its own")


if __name__ == "__main__":
    main()
