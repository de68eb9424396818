"""Benchmark: load-and-validate time, and random Downtown playouts per second.

Prints figures; asserts nothing (these machines are shared and noisy). Run: make bench
"""

from __future__ import annotations

import argparse
import statistics
import time

from interpreter.core.engine import Engine
from interpreter.load.loader import check_game, resolve_game
from interpreter.analysis.simulate import play_bots


def load_times(repeats: int) -> list[float]:
    """Seconds to load, parse, check and compile the game from its files (cold caches excluded)."""
    folder = resolve_game("downtown")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        game, diags, _ = check_game(folder)
        times.append(time.perf_counter() - start)
        if game is None:
            raise SystemExit(f"downtown does not load: {diags[0].message}")
    return times


def playout_rate(seats: int, games: int) -> tuple[float, float]:
    """Random playouts per second on one core, and decisions per game."""
    engine = Engine(check_game(resolve_game("downtown"))[0])  # type: ignore[arg-type]
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state, record = play_bots(engine, seats, seed)
        decisions += record.decisions
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="repeat the playout run, report each")
    args = parser.parse_args()
    loads = load_times(5)
    print(f"load + validate downtown: median {statistics.median(loads) * 1000:.0f} ms "
          f"(first {loads[0] * 1000:.0f} ms, {len(loads)} runs)")
    for seats in (4,):
        rates = []
        for _ in range(args.rounds):
            rate, per_game = playout_rate(seats, args.games)
            rates.append(rate)
            print(f"{seats} seats: {rate:.0f} random playouts/s ({per_game:.0f} decisions/game, {args.games} games)")
        print(f"{seats} seats: best {max(rates):.0f}, median {statistics.median(rates):.0f} playouts/s "
              f"(reference: a hand-written Python Downtown plays about 1,900/s; one third is ~633)")


if __name__ == "__main__":
    main()
