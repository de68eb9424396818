"""Benchmark: random play through the research interfaces against the engine's own, per game.

- engine: the engine answering each decision with a seeded random option index (`apply_index`);
- PettingZoo: the AEC loop of the README (`last()` builds the acting seat's Box observation, a random
  legal action from `info["action_mask"]`, `step`); the same loop with `last(observe=False)`, which
  builds no observation (what the adapter costs besides the tensor); and the parallel API (every
  asked seat at once, each seat's observation every step);
- OpenSpiel: `legal_actions`/`apply_action` through pyspiel, chance nodes included; and OpenSpiel's
  RL environment, which builds every seat's information state tensor at every step.
Decisions per CPU second, the median of interleaved rounds, and each interface's share of the
engine's rate (the goal: at least 1/2). Prints figures and asserts nothing. Run: make bench
"""

from __future__ import annotations

import argparse
import random
from typing import Any, Callable

import numpy as np

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from common import GAMES, engine, interleaved, median
from interpreter.adapters.openspiel import load
from interpreter.adapters.pettingzoo import env, parallel_env
from interpreter.core.engine import Engine


def engine_games(eng: Engine, seats: int, seeds: range) -> int:
    """Random games played by the engine alone; the number of decisions."""
    decisions = 0
    for seed in seeds:
        pick = random.Random(seed)
        state = eng.new_game(seats, seed)
        while state["result"] is None:
            seat = eng.first_open_seat(state)
            eng.apply_index(state, seat, pick.randrange(eng.option_count(state, seat)))
        decisions += state["decisions"]
    return decisions


def aec_games(aec: Any, seeds: range, observe: bool = True) -> int:
    """Random games through the PettingZoo AEC API (with or without observations); the number of decisions."""
    decisions = 0
    for seed in seeds:
        pick = random.Random(seed)
        aec.reset(seed=seed)
        for _ in aec.agent_iter():
            _, _, terminated, truncated, info = aec.last(observe)
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(info["action_mask"])
            aec.step(int(legal[pick.randrange(len(legal))]))
        decisions += aec.state_["decisions"]
    return decisions


def parallel_games(par: Any, seeds: range) -> int:
    """Random games through the PettingZoo parallel API; the number of decisions."""
    decisions = 0
    for seed in seeds:
        pick = random.Random(seed)
        _, infos = par.reset(seed=seed)
        while par.agents:
            actions = {}
            for agent in par.asked():
                legal = np.flatnonzero(infos[agent]["action_mask"])
                actions[agent] = int(legal[pick.randrange(len(legal))])
            _, _, _, _, infos = par.step(actions)
        decisions += par.table.state["decisions"]
    return decisions


def openspiel_games(game: Any, seeds: range) -> int:
    """Random games through pyspiel's state API, chance included; the number of decisions."""
    decisions = 0
    for seed in seeds:
        pick = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(pick.randrange(len(state.chance_outcomes())))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
                decisions += 1
    return decisions


def rl_environment_games(game: Any, seeds: range) -> int:
    """Random games through OpenSpiel's RL environment (every seat's tensor each step); the decisions."""
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment(game)
    decisions = 0
    for seed in seeds:
        pick = random.Random(seed)
        environment.seed(seed)
        time_step = environment.reset()
        while not time_step.last():
            legal = time_step.observations["legal_actions"][time_step.observations["current_player"]]
            time_step = environment.step([legal[pick.randrange(len(legal))]])
            decisions += 1
    return decisions


def main() -> None:
    """Print each game's rates."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=6, help="random games per contender and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="one game's label (e.g. Downtown)")
    args = parser.parse_args()
    print(f"Random play through the research interfaces (CPU time, median of {args.rounds} interleaved rounds, "
          f"{args.games} games each):")
    for label, name, variant, seats in GAMES:
        if args.only and args.only.lower() != label.lower():
            continue
        seeds = range(args.games)
        eng = engine(name, variant)
        cap = 100_000   # no game is cut short: every contender plays the same whole games
        aec = env(name, players=seats, variant=variant, max_decisions=cap)
        par = parallel_env(name, players=seats, variant=variant, max_decisions=cap)
        spiel = load(name, players=seats, variant=variant, max_decisions=cap)
        counts: dict[str, int] = {}

        def counted(key: str, work: Callable[[], int]) -> Callable[[], None]:
            def run() -> None:
                counts[key] = work()
            return run

        contenders = {
            "engine": counted("engine", lambda: engine_games(eng, seats, seeds)),
            "PettingZoo AEC": counted("PettingZoo AEC", lambda: aec_games(aec, seeds)),
            "AEC, last(observe=False)": counted("AEC, last(observe=False)", lambda: aec_games(aec, seeds, False)),
            "PettingZoo parallel": counted("PettingZoo parallel", lambda: parallel_games(par, seeds)),
            "OpenSpiel": counted("OpenSpiel", lambda: openspiel_games(spiel, seeds)),
            "OpenSpiel rl_environment": counted("OpenSpiel rl_environment", lambda: rl_environment_games(spiel, seeds)),
        }
        times = interleaved(contenders, args.rounds)
        rate = {key: counts[key] / median(times[key]) for key in contenders}
        shown = ", ".join(f"{key} {rate[key] / 1000:.1f} k/s ({rate[key] / rate['engine']:.2f})"
                          for key in contenders if key != "engine")
        print(f"  {label:<14} {seats} seats: engine {rate['engine'] / 1000:.1f} k decisions/s; {shown}")
    print("  (in brackets: the share of the engine's decisions/s; the goal is at least 0.5)")


if __name__ == "__main__":
    main()
