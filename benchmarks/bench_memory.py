"""Benchmark: peak memory (RSS) of a long London batch stays flat with the number of games.

One fresh process runs `simulate` over 10,000 London games in slices and prints its peak resident
set size after 100, 1,000 and all of them: the figures should stay the same. Prints figures and
asserts nothing. Run: make bench
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from checkout import ROOT

_CHILD = """
import json, resource, sys
from interpreter.analysis.simulate import simulate
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
total, seats = int(sys.argv[1]), int(sys.argv[2])
engine = Engine(load_game("london"))
done, marks = 0, []
for target in (100, 1000, total):
    if target > total or target <= done:
        continue
    simulate(engine, target - done, seats, seed=done)
    done = target
    marks.append((done, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
print(json.dumps(marks))
"""


def main() -> None:
    """Run the batch in a new process and print its peak RSS along the way."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args()
    done = subprocess.run([sys.executable, "-c", _CHILD, str(args.games), str(args.seats)],
                          capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    marks = json.loads(done.stdout.strip().splitlines()[-1])
    shown = ", ".join(f"{n:,} games {kib / 1024:.0f} MiB" for n, kib in marks)
    print(f"London, {args.seats} seats, one process: peak RSS after {shown} (should stay flat)")


if __name__ == "__main__":
    main()
