"""OpenSpiel's deep learning agents on a cityrules game: a PyTorch DQN agent at every seat of Downtown,
trained through OpenSpiel's `rl_environment` (the `rl-deep` extra installs PyTorch)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import dqn

from interpreter.adapters.openspiel import load

SEATS = 4
GAMES = 24


@dataclass
class Run:
    """What a short training leaves: the agents, each game's rewards and final money, the losses."""

    agents: list[dqn.DQN]
    start: list[list[torch.Tensor]]      # each agent's Q-network parameters before the first game
    decisions: list[int]                 # per seat, over all games
    rewards: list[list[float]]
    money: list[list[int]]
    losses: list[float | None]           # seat 0's last loss after each game


@pytest.fixture(autouse=True)
def one_torch_thread() -> Iterator[None]:
    # A network this small gains nothing from a second thread, and on a busy 2-core machine two threads
    # waiting on each other made training ten times slower.
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def parameters(agent: dqn.DQN) -> list[torch.Tensor]:
    """A copy of the agent's Q-network parameters."""
    return [p.detach().clone() for p in agent._q_network.parameters()]


def train(games: int) -> Run:
    """A DQN agent per seat, learning from `games` games of Downtown played against each other."""
    env = rl_environment.Environment(load("downtown", players=SEATS))
    assert env.observation_spec()["info_state"] == (env.game.information_state_tensor_size(),)
    size, actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    # Small enough to learn from a few games: a step of learning every 4 of the agent's steps once it
    # has seen 64 transitions (a game gives each seat about 40), exploration fading over 10 games.
    agents = [dqn.DQN(seat, size, actions, hidden_layers_sizes=[32], batch_size=16, learning_rate=1e-3,
                      optimizer_str="adam", learn_every=4, min_buffer_size_to_learn=64,
                      replay_buffer_capacity=10_000, update_target_network_every=50,
                      epsilon_decay_duration=400, epsilon_decay_schedule_str="linear", seed=seat)
              for seat in range(SEATS)]
    # Each agent's constructor seeds numpy's and torch's global generators (its exploration draws from
    # numpy's); seeded again once all are made, as the environment's chance is.
    np.random.seed(3)
    torch.manual_seed(3)
    env.seed(3)
    run = Run(agents, [parameters(a) for a in agents], [0] * SEATS, [], [], [])
    for _ in range(games):
        time_step = env.reset()
        while not time_step.last():
            seat = time_step.observations["current_player"]
            action = agents[seat].step(time_step).action
            assert action in time_step.observations["legal_actions"][seat]
            run.decisions[seat] += 1
            time_step = env.step([action])
        for agent in agents:          # every seat learns from the end of the game
            agent.step(time_step)
        final = env.get_state.seen()
        assert final["result"] is not None                # a whole game, not one cut short
        run.rewards.append(list(time_step.rewards))
        run.money.append(list(final["seat"]["money"]))
        run.losses.append(agents[0].loss)
    return run


def test_openspiels_pytorch_dqn_trains_at_every_seat_of_downtown() -> None:
    run = train(GAMES)
    for rewards, money in zip(run.rewards, run.money):
        # Downtown's winners are the seats with the most money; the reward is 1 to each, 0 to the others.
        assert rewards == [1.0 if m == max(money) else 0.0 for m in money]
    for seat, agent in enumerate(run.agents):
        buffer = agent.replay_buffer
        assert len(buffer) == run.decisions[seat] > GAMES * 20    # one transition per decision
        stored = buffer.experience
        final = stored.is_final_step[:len(buffer)]
        assert final.sum() == GAMES                               # each game's last decision is final
        assert not stored.reward[:len(buffer)][~final].any()      # the reward comes at the end only
        assert stored.reward[:len(buffer)].sum() == sum(r[seat] for r in run.rewards)
        assert isinstance(agent.loss, float) and math.isfinite(agent.loss)
        assert any(not torch.equal(a, b) for a, b in zip(run.start[seat], parameters(agent)))


def test_a_trained_dqn_plays_greedy_legal_moves_without_learning() -> None:
    run = train(4)
    env = rl_environment.Environment(load("downtown", players=SEATS))
    env.seed(11)
    before = [(len(a.replay_buffer), parameters(a)) for a in run.agents]
    time_step = env.reset()
    while not time_step.last():
        seat = time_step.observations["current_player"]
        output = run.agents[seat].step(time_step, is_evaluation=True)
        assert output.action in time_step.observations["legal_actions"][seat]
        assert output.probs[output.action] == 1.0                 # greedy: no exploration
        time_step = env.step([output.action])
    assert sum(time_step.rewards) >= 1
    for agent, (stored, params) in zip(run.agents, before):
        assert len(agent.replay_buffer) == stored
        assert all(torch.equal(a, b) for a, b in zip(params, parameters(agent)))


def test_the_same_seeds_train_the_same_networks() -> None:
    first, second = train(6), train(6)
    assert first.losses == second.losses and first.rewards == second.rewards
    assert first.losses[-1] is not None
    for a, b in zip(first.agents, second.agents):
        assert all(torch.equal(x, y) for x, y in zip(parameters(a), parameters(b)))
