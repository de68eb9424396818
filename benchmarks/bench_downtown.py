"""Benchmark: the interpreter's Downtown against the same game written by hand in plain Python.

`cityrules simulate downtown` (the interpreter's simulation path) and benchmarks/handwritten_downtown.py
play the same seeded games with the same bots (tests/benchmarks/test_yardstick.py checks it). Both
run in this process, in turn, round after round, in CPU time; the figure is the median over the
rounds of interpreter time / hand-written time, in steady state (after a warm-up batch).
Target: at most 1.5x. Prints figures and asserts nothing. Run: make bench
"""

from __future__ import annotations

import argparse

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
import handwritten_downtown as hand
from common import engine, interleaved, median, median_ratio
from interpreter.analysis.batch import BatchSpec, engine_for, play_game
from interpreter.analysis.simulate import simulate
from interpreter.load.games import resolve_game


def main() -> None:
    """Print games/s of both and their ratio, per seat count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per batch")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (the median is reported)")
    parser.add_argument("--seats", type=int, nargs="*", default=[3, 4, 5, 6])
    args = parser.parse_args()
    eng = engine("downtown")
    board = hand.Board()
    n = args.games
    print(f"Downtown, interpreter (random bots on the agent path) / hand-written Python: CPU time, {n} games a batch, "
          f"median of {args.rounds} interleaved rounds (target <= 1.5x)")
    folder = str(resolve_game("downtown").resolve())
    batch_engine, ledger = engine_for(folder, None)
    for seats in args.seats:
        def interpreter(seats: int = seats) -> None:
            simulate(eng, n, seats, seed=1000)

        spec = BatchSpec(folder, None, seats, ("random",) * seats, 1000, n)

        def with_figures(spec: BatchSpec = spec) -> None:
            # What `cityrules simulate` does in each worker: the same games, observed for the figures.
            for seed in spec.seeds:
                play_game(batch_engine, ledger, spec, seed)

        def handwritten(seats: int = seats) -> None:
            for seed in range(1000, 1000 + n):
                hand.play(board, seats, seed)

        times = interleaved({"interpreter": interpreter, "figures": with_figures, "hand": handwritten}, args.rounds)
        print(f"  {seats} seats: interpreter {n / median(times['interpreter']):6.0f} games/s, "
              f"hand-written {n / median(times['hand']):6.0f} games/s, "
              f"ratio {median_ratio(times['interpreter'], times['hand']):.2f}x; "
              f"with every balance figure {n / median(times['figures']):6.0f} games/s, "
              f"ratio {median_ratio(times['figures'], times['hand']):.2f}x")


if __name__ == "__main__":
    main()
