"""Benchmark: do two profiles of one game play differently (issue 25, "profiles still steer")?

Plays the same seeds twice with `simulate`, every seat `bot:PROFILE_A` then every seat
`bot:PROFILE_B`, and compares how often each option family was chosen per game. A family's counts
are compared as rates per game (a two-sample test on Poisson counts: z = difference of the rates
over its standard error); the families with the largest |z| are printed, and whether any differs
significantly at the 1 % level after a Bonferroni correction over the families. Asserts nothing.
Run: make bench, or

    python benchmarks/bench_profiles.py --game examples/harbour --profiles builder,trader --games 100
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from statistics import NormalDist
from typing import Any

from checkout import child_env


def simulate(game: str, profile: str, games: int) -> dict[str, Any]:
    """`simulate --json` with every seat played by `bot:profile`."""
    # The command runs this checkout's code, as every benchmark does (checkout.py), not the installed one.
    out = subprocess.run([sys.executable, "-m", "interpreter.cli", "simulate", game, "-n", str(games),
                          "--bots", f"bot:{profile}", "--jobs", "2", "--json"],
                         check=True, capture_output=True, text=True, env=child_env()).stdout
    data: dict[str, Any] = json.loads(out)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="examples/harbour")
    parser.add_argument("--profiles", default="builder,trader")
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    first, second = args.profiles.split(",")
    a, b = simulate(args.game, first, args.games), simulate(args.game, second, args.games)
    counts_a = {o["id"]: o["chosen"] for o in a["options"]}
    counts_b = {o["id"]: o["chosen"] for o in b["options"]}
    rows = []
    for family in sorted(set(counts_a) | set(counts_b)):
        ca, cb = counts_a.get(family, 0), counts_b.get(family, 0)
        if ca + cb == 0:
            continue
        z = (ca - cb) / math.sqrt(ca + cb)     # same number of games: rates differ as counts do
        rows.append((abs(z), family, ca / args.games, cb / args.games, z))
    rows.sort(reverse=True)
    level = 0.01 / max(1, len(rows))
    critical = NormalDist().inv_cdf(1 - level / 2)
    print(f"{args.game}: bot:{first} vs bot:{second}, {args.games} games each on the same seeds; "
          f"option families chosen per game (|z| > {critical:.2f} is significant at 1 %, Bonferroni over "
          f"{len(rows)} families):")
    for _, family, ra, rb, z in rows[:8]:
        print(f"  {family:<28} {ra:6.2f} vs {rb:6.2f} per game   z = {z:+.1f}{'  significant' if abs(z) > critical else ''}")
    differs = any(abs(z) > critical for *_, z in rows)
    print(f"  the two profiles {'play measurably differently' if differs else 'do NOT play measurably differently'}")


if __name__ == "__main__":
    main()
