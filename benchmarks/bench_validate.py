"""Benchmark: `cityrules validate games/*` from a fresh process, split into start-up and checking.

The target is under half a second for all the shipped games together. Each run is a new Python
process, as when a designer types the command. Two cases: the parse cache already filled (the
usual case: files unchanged since the last run, or only some of them changed), and an empty
parse cache (the first run on a machine). Prints figures and asserts nothing (these machines
are shared and noisy). Run: make bench
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = Path(__file__).resolve().parent.parent / "games"

# What one run does: import the command's modules, then validate every game as the command does.
_ONE_RUN = """
import gc, json, sys, time
started = time.perf_counter()
from interpreter.cli import main
imported = time.perf_counter()
import contextlib, io
with contextlib.redirect_stdout(io.StringIO()):
    status = main(["validate", "--no-play", *sys.argv[1:]])
done = time.perf_counter()
print(json.dumps({"status": status, "imports": imported - started, "checking": done - imported}))
gc.freeze()  # as the console script does before it exits
"""


def folders() -> list[str]:
    """Every shipped game, as `games/*` names them."""
    return sorted(str(p) for p in GAMES.iterdir() if (p / "game.yaml").is_file())


def one_run(cache: str | None) -> tuple[float, float, float]:
    """(whole, imports, checking) seconds of one `validate games/*` in a new process."""
    env = dict(os.environ)
    if cache is not None:
        env["CITYRULES_CACHE_DIR"] = cache
    started = __import__("time").perf_counter()
    done = subprocess.run([sys.executable, "-c", _ONE_RUN, *folders()], capture_output=True, text=True, env=env)
    whole = __import__("time").perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(done.stdout + done.stderr)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["status"] != 0:
        raise SystemExit("the shipped games do not validate cleanly")
    return whole, figures["imports"], figures["checking"]


def report(label: str, runs: list[tuple[float, float, float]]) -> None:
    whole, imports, checking = (statistics.median(r[i] for r in runs) * 1000 for i in range(3))
    print(f"  {label:<22} whole {whole:4.0f} ms = start-up and imports {imports:3.0f} ms "
          f"+ checking {checking:3.0f} ms (+ interpreter start {whole - imports - checking:3.0f} ms)")


def main() -> None:
    """Print the medians of both cases."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    print(f"cityrules validate {' '.join(Path(f).name for f in folders())}  (medians of {args.repeats}; "
          "target: under 500 ms)")
    with tempfile.TemporaryDirectory() as warm:
        one_run(warm)  # fills the cache
        report("parse cache filled", [one_run(warm) for _ in range(args.repeats)])
    cold = []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as empty:
            cold.append(one_run(empty))
    report("parse cache empty", cold)


if __name__ == "__main__":
    main()
