"""Benchmark: the designer's edit loop, `cityrules validate` of one game just after one of its files changed.

For each shipped game (a copy in a temporary folder), a comment is added to one of its rules files,
then the whole process is timed:

- `cityrules validate GAME`: the check, then the trial games (a fixed number, seed 0, shared out
  over the cores): target 1 s wall, goal 0.5 s;
- `cityrules validate --no-play GAME`: the check alone: target 0.3 s;
- `cityrules validate GAME` again, unchanged: the report comes from the cache.

The parse cache and Python's compiled modules are warm, as on a designer's machine. Median of a
few runs (one short run: `--repeats`). Prints figures and asserts nothing. Run: make bench
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench_startup import child_cpu
from checkout import ROOT

COMMAND = [sys.executable, "-m", "interpreter.cli"]  # this checkout's code, wherever it is installed from
GAMES = ("downtown", "london", "city")
TARGETS = {"validate": 1.0, "validate --no-play": 0.3, "validate, unchanged": None}


def edit(folder: Path, count: int) -> None:
    """Change one rules file of the game as a designer's save does (a comment: the rules stay the same)."""
    rules = sorted(folder.glob("*.rules"))[0]
    with rules.open("a", encoding="utf-8") as f:
        f.write(f"# edit {count}\n")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"Edit loop, whole process after one edit (median of {args.repeats} runs; CPU counts every core):")
    with tempfile.TemporaryDirectory() as work, tempfile.TemporaryDirectory() as bytecode:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "CITYRULES_NO_CACHE")}
        env.update(CITYRULES_CACHE_DIR=str(Path(work) / "cache"), PYTHONPYCACHEPREFIX=bytecode, PYTHONPATH=str(ROOT))
        edits = 0
        for name in GAMES:
            folder = Path(work) / name
            shutil.copytree(ROOT / "games" / name, folder)
            child_cpu([*COMMAND, "validate", str(folder)], env)  # warm: parse cache, compiled modules
            for label, target in TARGETS.items():
                argv = [*COMMAND, "validate", *(["--no-play"] if "no-play" in label else []), str(folder)]
                runs = []
                if label == "validate, unchanged":
                    child_cpu(argv, env)  # what the trial games found is kept from this run on
                for _ in range(args.repeats):
                    if label != "validate, unchanged":
                        edits += 1
                        edit(folder, edits)
                    runs.append(child_cpu(argv, env))
                cpu = statistics.median(r[0] for r in runs)
                wall = statistics.median(r[1] for r in runs)
                goal = f"; target {target * 1000:.0f} ms" if target is not None else ""
                print(f"  {name:<9} {label:<22} {wall * 1000:5.0f} ms wall ({cpu * 1000:5.0f} ms CPU{goal})")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
