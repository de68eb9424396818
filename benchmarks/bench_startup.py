"""Benchmark: start-up of the `cityrules` command, whole process, as a designer types it.

- `cityrules validate --no-play` of the three shipped games (the checks alone) with a warm cache
  (target 0.3 s: unchanged folders are reported from the cache of their check); after a file of
  each changed (the check runs, the parse cache is warm); with an empty cache (the first run on a
  machine, or after cityrules changed); plain `validate`, which also plays a few seeded games of
  each, for comparison;
- `cityrules --help` (target 0.15 s), and a sub-command's own help;
- where the time of an import goes: the slowest modules `python -X importtime` reports, for what a
  warm `validate` imports and for what a check of a folder imports.
CPU time of the child process (user + system), median of several runs. Prints figures and asserts
nothing. Run: make bench
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from checkout import ROOT

COMMAND = str(Path(sys.executable).with_name("cityrules"))
SHIPPED = [str(ROOT / "games" / name) for name in ("downtown", "london", "city")]


def child_cpu(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of a command in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}{done.stderr}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def measure(label: str, argv: list[str], env: dict[str, str], repeats: int, target: float | None,
            before: Callable[[], None] = lambda: None) -> None:
    """Print the medians of several runs (`before` runs ahead of each, untimed)."""
    child_cpu(argv, env)  # warm: file system caches, the caches of cityrules
    runs = []
    for _ in range(repeats):
        before()
        runs.append(child_cpu(argv, env))
    report(label, runs, target)


def report(label: str, runs: list[tuple[float, float]], target: float | None = None) -> None:
    """One line: the medians of (CPU, wall) times."""
    cpu = statistics.median(r[0] for r in runs)
    wall = statistics.median(r[1] for r in runs)
    goal = f"; target {target * 1000:.0f} ms" if target is not None else ""
    print(f"  {label:<44} {cpu * 1000:5.0f} ms CPU ({wall * 1000:4.0f} ms wall{goal})")


def slowest_imports(module: str, env: dict[str, str], count: int) -> None:
    """The modules whose own import time is largest when `module` is imported."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", f"import {module}"],
                          capture_output=True, text=True, env=env)
    rows = []
    for line in done.stderr.splitlines():
        parts = line.split("|")
        own = parts[0].removeprefix("import time:").strip()
        if len(parts) == 3 and own.isdigit():
            rows.append((int(own), parts[2].strip()))
    total = sum(r[0] for r in rows)
    top = sorted(rows, reverse=True)[:count]
    print(f"  import {module}: {total / 1000:.0f} ms of imports (with -X importtime's own cost); "
          "largest own times: "
          + ", ".join(f"{name} {us / 1000:.0f} ms" for us, name in top))


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    print(f"Start-up, whole process (CPU time, median of {args.repeats} runs):")
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as bytecode:
        # Warm as on a designer's machine: Python's compiled modules kept (in a folder of their own,
        # whatever this shell says), and the parse cache filled by the first run.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(CITYRULES_CACHE_DIR=cache, PYTHONPYCACHEPREFIX=bytecode)
        validate = [COMMAND, "validate", "--no-play", *SHIPPED]
        measure("cityrules validate --no-play (warm)", validate, env, args.repeats, 0.3)
        measure("the same, each game changed since", validate, env, args.repeats, None,
                lambda: forget_checks(Path(cache)))
        measure("cityrules validate, trial games too", [COMMAND, "validate", *SHIPPED], env,
                max(3, args.repeats // 2), None)
        measure("cityrules --help", [COMMAND, "--help"], env, args.repeats, 0.15)
        measure("cityrules validate --help", [COMMAND, "validate", "--help"], env, args.repeats, None)
        slowest_imports("interpreter.cli.validate", env, 6)
        slowest_imports("interpreter.load.loader", env, 6)
        cold = []
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as empty:
                cold.append(child_cpu(validate, dict(env, CITYRULES_CACHE_DIR=empty)))
        report("the same validate, empty cache", cold)


def forget_checks(cache: Path) -> None:
    """Empty the cache of checked folders, keeping the parse cache: as after an edit of each game."""
    for folder in cache.glob("checked-*"):
        shutil.rmtree(folder)

if __name__ == "__main__":
    main()
