"""Benchmark: a seeded mutation fuzz of the shipped games, 10,000 mutants by default.

Each mutant is one shipped game with one to three blind changes to one file (tests/fuzz_helpers.py
says which); it is validated as `cityrules validate` does and, when it validates clean, played by a
trial game that builds every screen. Prints how the mutants were answered and, the figures that
matter, how many gave a traceback, a hang (no answer in 60 s) or a crash (the worker died, e.g.
from a segfault or the 1.5 GiB memory limit); exits 1 if any did. Run: make fuzz
(or `python benchmarks/bench_fuzz.py -n 500 --first 10000`; `--show SEED` prints one mutant).
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests"))  # after the project, so that `ruledsl` is the package

from fuzz_helpers import Summary, game_files, mutant, run_mutants  # noqa: E402


def show(seed: int) -> None:
    """The mutant of a seed, as a diff of the file it changes."""
    m = mutant(seed)
    print(f"seed {seed}: games/{m.game}/{m.file}: {m.change}")
    before = game_files(m.game)[m.file].splitlines(keepends=True)
    sys.stdout.writelines(difflib.unified_diff(before, m.text.splitlines(keepends=True), m.file, m.file + " (mutant)"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=10_000, help="how many mutants (default 10000)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="worker processes")
    parser.add_argument("--show", type=int, metavar="SEED", help="print the mutant of SEED and stop")
    args = parser.parse_args()
    if args.show is not None:
        show(args.show)
        return 0
    step = max(1, args.n // 20)
    shown = [0]

    def progress(done: int, summary: Summary) -> None:
        if done // step > shown[0]:
            shown[0] = done // step
            print(f"  {done:>6} sent, {summary.failures} failure(s)", file=sys.stderr, flush=True)

    summary = run_mutants(list(range(args.first, args.first + args.n)), workers=args.jobs, progress=progress)
    answered = sum(summary.answers.values())
    print(f"mutation fuzz: {args.n} mutants of the shipped games (seeds {args.first}-{args.first + args.n - 1}), "
          f"{args.jobs} worker(s), {summary.seconds:.0f} s")
    for kind in ("errors", "clean", "runtime", "screen", "no-end"):
        print(f"  {kind:<10} {summary.answers[kind]:>6}")
    print(f"  answered   {answered:>6}")
    print(f"  tracebacks {len(summary.tracebacks):>6}")
    print(f"  hangs      {len(summary.hangs):>6}")
    print(f"  crashes    {len(summary.crashes):>6}")
    if summary.failures:
        print(summary.describe(20))
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main())
