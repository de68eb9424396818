"""Benchmark: decisions per second, playouts per second, and a playout from a mid-game copy, per game.

- decisions/s: `cityrules simulate GAME` (random bots, no event log), CPU time;
- playouts/s: whole random games from a new state;
- copy + playout: the cost a search bot pays per simulation: copy a mid-game state, then play it
  out with random bots (a determinizing bot adds its sampling to the copy: see `copy_and_playout`);
- the work budget's cost: the same simulations with the rules compiled without counting their work
  (ruledsl/budget/cost.py), which nothing but this benchmark ever does.
Each figure is the median of interleaved rounds. Prints figures and asserts nothing. Run: make bench
"""

from __future__ import annotations

import argparse
from typing import Any, Callable

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from common import GAMES, engine, interleaved, median, median_ratio
from interpreter.agents import RandomAgent, bot_seed
from interpreter.analysis.simulate import play_bots, simulate
from interpreter.core.engine import Engine
from interpreter.core.state import copy_state
from ruledsl.runtime_support import STEP_BUDGET


def midgame_states(eng: Engine, seats: int, count: int) -> list[dict[str, Any]]:
    """States half-way through seeded random games (by number of decisions)."""
    states = []
    for seed in range(count):
        _, record = play_bots(eng, seats, seed)
        state = eng.new_game(seats, seed)
        bots = [RandomAgent(bot_seed(seed, s)) for s in range(seats)]
        while state["decisions"] < record.decisions // 2:
            seat = eng.first_open_seat(state)
            eng.apply_index(state, seat, bots[seat].pick(eng, state, seat))
        states.append(state)
    return states


def playout(eng: Engine, state: dict[str, Any], seed: int) -> None:
    """Play a state to the end, in place, with random bots seeded from `seed` (no event log)."""
    bots = [RandomAgent(bot_seed(seed, s)) for s in range(state["seats"])]
    eng.playout(state, [b.picker for b in bots], log=False)


def copy_and_playout(eng: Engine, states: list[dict[str, Any]],
                     prepare: Callable[[dict[str, Any]], dict[str, Any]] = copy_state) -> None:
    """One search simulation per state: `prepare` (a copy; a determinization for a bot that samples
    hidden information) then a random playout to the end."""
    for i, state in enumerate(states):
        playout(eng, prepare(state), 10_000 + i)


def budget_cost(games: int, rounds: int) -> None:
    """Print how much slower simulations are for counting the rules' work."""
    import ruledsl.budget.cost as cost

    engines = {}
    for counting in (True, False):
        cost.COUNT_WORK = counting
        for label, name, variant, seats in GAMES:
            engines[(label, counting)] = engine(name, variant)
    cost.COUNT_WORK = True
    work: dict[str, Callable[[], Any]] = {}
    for label, name, _, seats in GAMES:
        n = games * (5 if name == "downtown" else 1)
        for counting in (True, False):
            eng = engines[(label, counting)]
            work[f"{label}:{counting}"] = lambda eng=eng, n=n, seats=seats: simulate(eng, n, seats, seed=700)
    times = interleaved(work, rounds)
    shown = ", ".join(f"{label} {median_ratio(times[f'{label}:True'], times[f'{label}:False']) * 100 - 100:+.1f} %"
                      for label, *_ in GAMES)
    print(f"  the work budget (counting every step against {STEP_BUDGET:,} per decision) costs: {shown}")


def main() -> None:
    """Print the figures of each game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40, help="games per batch (Downtown: 5x more)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"Per game (CPU time, median of {args.rounds} interleaved rounds; random bots):")
    work: dict[str, Callable[[], Any]] = {}
    sizes: dict[str, tuple[int, int]] = {}
    for label, name, variant, seats in GAMES:
        eng = engine(name, variant)
        n = args.games * (5 if name == "downtown" else 1)
        decisions = simulate(eng, n, seats, seed=500).decisions_sum
        states = midgame_states(eng, seats, n)
        sizes[label] = (n, decisions)
        work[f"{label}:simulate"] = lambda eng=eng, n=n, seats=seats: simulate(eng, n, seats, seed=500)
        work[f"{label}:copy"] = lambda eng=eng, states=states: copy_and_playout(eng, states)
    times = interleaved(work, args.rounds)
    for label, _, _, seats in GAMES:
        n, decisions = sizes[label]
        t = median(times[f"{label}:simulate"])
        copy = median(times[f"{label}:copy"])
        print(f"  {label:<14} {seats} seats: {decisions / t / 1000:6.1f} k decisions/s "
              f"({t / decisions * 1e6:5.1f} us each), {n / t:7.1f} playouts/s, "
              f"copy + playout from mid-game {copy / n * 1000:6.2f} ms")
    per = {label: median(times[f"{label}:simulate"]) / sizes[label][1] for label, *_ in GAMES}
    print(f"  City per decision: {per['City'] / per['Downtown']:.1f}x Downtown's "
          f"(advanced rules {per['City advanced'] / per['Downtown']:.1f}x; target <= 2x)")
    budget_cost(args.games, args.rounds)


if __name__ == "__main__":
    main()
