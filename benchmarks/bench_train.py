"""Benchmark: what training each game's learned value costs (issue 25: at most 10 minutes of CPU).

Trains every shipped game and examples/harbour with `cityrules train`'s defaults in this process
(one job, so the process's CPU time is the training's whole CPU time), into a scratch file, and
prints the CPU time, the games and positions, and whether the result is the shipped file byte for
byte (it is when the game's files have not changed since it was trained). Asserts nothing. Run:
make bench, or

    python benchmarks/bench_train.py --only city
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.agents.train import TrainSpec, train
from interpreter.agents.value import save, value_path
from interpreter.core.engine import Engine
from interpreter.load.games import resolve_game
from interpreter.load.loader import load_game

GAMES = ["downtown", "london", "city", "examples/harbour"]
LIMIT_MINUTES = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", help="a game of the list (repeatable)")
    args = parser.parse_args()
    print("Training with the defaults of `cityrules train`, one process (CPU time):")
    for name in GAMES:
        if args.only and name not in args.only:
            continue
        folder = resolve_game(name).resolve()
        game = load_game(str(folder))
        spec = TrainSpec.for_game(str(folder), Engine(game))     # the game's own numbers, read before the clock
        start = time.process_time()
        training = train(spec, jobs=1)
        cpu = time.process_time() - start
        with tempfile.TemporaryDirectory() as scratch:
            written = save(training.value, Path(scratch) / "value.json").read_bytes()
        shipped = value_path(game)
        same = shipped.is_file() and shipped.read_bytes() == written
        print(f"  {name}: {cpu / 60:.1f} min CPU (target ≤ {LIMIT_MINUTES}), {training.games} games, "
              f"{training.positions} positions, {len(written) / 1000:.0f} kB; "
              f"{'the shipped file, byte for byte' if same else 'differs from the shipped file'}", flush=True)


if __name__ == "__main__":
    main()
