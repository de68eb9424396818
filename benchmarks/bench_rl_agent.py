"""Benchmark: OpenSpiel's PyTorch DQN learning Downtown through `rl_environment` (issue 28).

One DQN agent (`open_spiel.python.pytorch.dqn`, reading its seat's information state tensor, the
environment's default) trains against three random seats for a budget of CPU seconds, its seat
turning every game: the tensor is laid out from the observing seat, so one network plays any seat.
Then the trained network's greedy policy plays N games against three random seats, its seat turning
every game, and so does the same network untrained (the same seed, the same deals and random
draws), for comparison. Prints the win rates with 95 % Wilson intervals (a win shared by k seats
counts 1/k), the fair share, the training's CPU time, its games and steps per CPU second. Asserts
nothing. Run: make bench, or

    python benchmarks/bench_rl_agent.py --train-seconds 180 --games 200
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import dqn

import checkout  # noqa: F401  (this checkout's interpreter, not the installed one)
from interpreter.adapters.openspiel import load
from matches import wilson

SEATS = 4


def make_agent(env: Any, seed: int) -> dqn.DQN:
    """A DQN agent for any seat of the environment's game (the settings first tried, not tuned)."""
    return dqn.DQN(0, env.observation_spec()["info_state"][0], env.action_spec()["num_actions"],
                   hidden_layers_sizes=[128, 128], replay_buffer_capacity=50_000, batch_size=64,
                   learning_rate=5e-4, optimizer_str="adam", learn_every=4, min_buffer_size_to_learn=1000,
                   update_target_network_every=1000, weight_update_coeff=0.5, epsilon_start=1.0,
                   epsilon_end=0.05, epsilon_decay_duration=20_000, epsilon_decay_schedule_str="linear",
                   discount_factor=1.0, seed=seed)


def play(env: Any, agent: dqn.DQN, seat: int, rng: np.random.Generator, learn: bool) -> tuple[float, int]:
    """One game of the agent at `seat` against random seats: the agent's share of the win and the
    environment's steps. Learning, the agent explores and learns; otherwise it plays greedily."""
    agent.player_id = seat      # read at each step only: a game's end resets what the agent keeps of it
    time_step = env.reset()
    steps = 0
    while not time_step.last():
        player = time_step.observations["current_player"]
        if player == seat:
            action = agent.step(time_step, is_evaluation=not learn).action
        else:
            action = int(rng.choice(time_step.observations["legal_actions"][player]))
        time_step = env.step([action])
        steps += 1
    if learn:
        agent.step(time_step)
    rewards = time_step.rewards
    return (rewards[seat] / sum(rewards) if sum(rewards) else 0.0), steps


def evaluate(env: Any, agent: dqn.DQN, games: int, seed: int) -> float:
    """The agent's greedy wins (shares) in `games` games against random seats, from a fixed seed."""
    env.seed(seed)
    rng = np.random.default_rng(seed)
    return sum(play(env, agent, g % SEATS, rng, learn=False)[0] for g in range(games))


def report(label: str, wins: float, games: int) -> None:
    """One line: wins, rate and Wilson interval."""
    low, high = wilson(wins, games)
    print(f"  {label:<24} wins {wins:g} of {games} = {100 * wins / games:.1f} % "
          f"(95 % Wilson {100 * low:.1f}–{100 * high:.1f} %)")


def main() -> None:
    """Train, evaluate and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--train-seconds", type=float, default=180.0, help="CPU seconds of training")
    parser.add_argument("--games", type=int, default=200, help="evaluation games of each network")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # A network this small gains nothing from a second thread, and on a busy 2-core machine two threads
    # waiting on each other made training ten times slower.
    torch.set_num_threads(1)
    env = rl_environment.Environment(load("downtown", players=SEATS))
    agent = make_agent(env, args.seed)
    eval_seed = args.seed + 1000
    untrained = evaluate(env, agent, args.games, eval_seed)

    env.seed(args.seed)
    rng = np.random.default_rng(args.seed)
    games = steps = 0
    start = time.process_time()
    while time.process_time() - start < args.train_seconds:
        steps += play(env, agent, games % SEATS, rng, learn=True)[1]
        games += 1
    seconds = time.process_time() - start
    trained = evaluate(env, agent, args.games, eval_seed)

    print(f"OpenSpiel's PyTorch DQN on Downtown ({SEATS} seats, through rl_environment, info state "
          f"tensor of {env.observation_spec()['info_state'][0]}; CPU time):")
    print(f"  training against 3 random seats: {games:,} games, {steps:,} environment steps "
          f"({agent.step_counter:,} the agent's) in {seconds:.0f} s CPU: {steps / seconds:,.0f} steps/s, "
          f"{games / seconds:.1f} games/s; last loss {agent.loss:.4f}")
    report("greedy DQN, trained:", trained, args.games)
    report("greedy DQN, untrained:", untrained, args.games)
    print(f"  fair share against 3 random seats: {100 / SEATS:.1f} % (the DQN's seat turns every game)")


if __name__ == "__main__":
    main()
