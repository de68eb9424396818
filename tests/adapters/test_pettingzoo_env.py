"""The PettingZoo environments: PettingZoo's own API tests on every game, observations from the seat's view only."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from adapter_helpers import GAMES, SECRET_GAMES, hidden_twin, positions, secret_twins
from interpreter.adapters.common import ActionSpaceTooSmall
from interpreter.adapters.pettingzoo import CityrulesParallelEnv, env, parallel_env
from interpreter.core.state import copy_state
from interpreter.core.view import view


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoos_api_test_passes(game: str) -> None:
    api_test(env(game, seed=3), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoos_api_test_passes_with_dict_observations(game: str) -> None:
    e = env(game, seed=3, observation="dict")
    api_test(e, num_cycles=100)
    obs, *_ = e.last()
    assert set(obs) == {"observation", "action_mask"} and obs["observation"].dtype == np.float32


@pytest.mark.parametrize("game", GAMES)
def test_observations_are_float_tensors_in_their_box(game: str) -> None:
    e = env(game, seed=6)
    space = e.observation_space(e.agent_selection)
    assert space.shape == (e.encoder.size,) == (len(e.encoder.names),)
    for _, agent in zip(range(40), e.agent_iter()):
        obs, _, terminated, truncated, info = e.last()
        assert obs.dtype == np.float32 and space.contains(obs)
        if terminated or truncated:
            e.step(None)
            continue
        assert np.array_equal(info["action_mask"], e.action_mask(agent))
        e.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_the_bounds_do_not_depend_on_the_seed() -> None:
    first, second = env("downtown", seed=1), env("downtown", seed=2)
    assert (first.max_decisions, first.max_actions) == (second.max_decisions, second.max_actions)
    assert first.encoder.size == second.encoder.size


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_through_the_env_ends_with_the_winners_rewarded(game: str) -> None:
    e = env(game, seed=5)
    total = {a: 0.0 for a in e.possible_agents}
    rng = np.random.default_rng(5)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert info["action_mask"].sum() == len(info["options"]) >= 1
        e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    winners = e.engine.result(e.state_).winners if e.state_["result"] else ()
    assert e.state_["result"] is not None, "the game should end within the surveyed length"
    assert total == {a: (1.0 if s in winners else 0.0) for s, a in enumerate(e.possible_agents)}


def test_the_same_seed_and_actions_give_the_same_observations() -> None:
    runs = []
    for _ in range(2):
        e = env("downtown", seed=11)
        seen = []
        for _, agent in zip(range(60), e.agent_iter()):
            obs, *_, info = e.last()
            seen.append(obs.copy())
            e.step(int(np.flatnonzero(info["action_mask"])[-1]))
        runs.append(seen)
    assert all(np.array_equal(a, b) for a, b in zip(*runs))


@pytest.mark.parametrize("game", GAMES)
def test_an_observation_never_holds_what_the_seat_may_not_see(game: str) -> None:
    e = env(game, seed=2)
    engine = e.engine
    checked = 0
    for state in positions(engine, e.players, seed=2, every=7):
        for seat in range(e.players):
            twin, changed = hidden_twin(engine, state, seat, seed=seat)
            assert changed and twin != state
            agent = e.possible_agents[seat]
            e.state_ = state
            real = e.observe(agent), e.action_mask(agent)
            e.state_ = twin
            other = e.observe(agent), e.action_mask(agent)
            assert view(engine, twin, seat) == view(engine, state, seat)
            assert np.array_equal(real[0], other[0])
            assert np.array_equal(real[1], other[1])
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("game", SECRET_GAMES)
def test_an_observation_never_holds_another_seats_secret_answer(game: str) -> None:
    # Positions where other seats have answered a secret choice (still open, or held by the rules
    # until they reveal it): changing only those answers changes nothing the seat is given.
    e = env(game, seed=1)
    twins = secret_twins(e.engine, e.players, seed=1, limit=150)
    assert len(twins) >= 5
    for state, seat, twin in twins:
        assert twin != state
        agent = e.possible_agents[seat]
        given = []
        for now in (state, twin):
            e.state_ = now
            given.append((e.observe(agent).tolist(), e.action_mask(agent).tolist(), e.view(agent)))
        assert given[0] == given[1]


def test_what_a_seat_may_see_does_change_its_observation() -> None:
    # The leak test's control: a visible change shows, so equal observations above mean something.
    e = env("downtown", seed=1)
    agent = e.agent_selection
    before = e.observe(agent)
    changed = copy_state(e.state_)
    changed["seat"]["money"][1] += 5
    e.state_ = changed
    assert not np.array_equal(before, e.observe(agent))


def test_secret_simultaneous_answers_are_asked_one_seat_after_another_unseen() -> None:
    e = env("downtown", seed=4)
    engine = e.engine
    steps = 0
    while True:   # first options up to a secret choice asked of every seat at once
        p = e.state_["pending"]
        if engine.program.chooses[p["spec"]].secret and len(engine.open_seats(e.state_)) >= 3:
            break
        e.step(0)
        steps += 1
    first, second = e.agent_selection, f"seat_{engine.open_seats(e.state_)[1]}"
    seen = []
    for action in (0, 1):   # the first seat answers differently; the second seat sees the same
        e.reset(seed=4)
        for _ in range(steps):
            e.step(0)
        assert e.agent_selection == first
        e.step(action)
        assert e.agent_selection == second
        assert e.view(second)["pending"]["answered"] == [int(first.split("_")[1])]
        seen.append(e.observe(second))
    assert np.array_equal(*seen)


def test_a_decision_larger_than_the_action_space_says_what_to_pass() -> None:
    e = env("downtown", seed=1, max_actions=2)
    with pytest.raises(ActionSpaceTooSmall, match="max_actions="):
        for _ in range(200):
            e.last()
            e.step(0)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoos_parallel_api_test_passes(game: str) -> None:
    parallel_api_test(parallel_env(game, seed=3, observation="dict"), num_cycles=300)


def _to_vote(e: CityrulesParallelEnv) -> None:
    """Step with each asked seat's first option until a choice asks several seats at once."""
    while len(e.asked()) < 2:
        e.step({a: 0 for a in e.asked()})


def test_a_simultaneous_choice_is_answered_by_every_asked_seat_in_one_step() -> None:
    e = parallel_env("downtown", seed=4)
    observations, infos = e.reset()
    _to_vote(e)
    asked = e.asked()
    assert e.table.engine.program.chooses[e.table.state["pending"]["spec"]].secret
    masks = {a: e.table.mask(int(a[5:])) for a in e.possible_agents}
    assert all(masks[a].sum() >= 1 for a in asked) and all(masks[a].sum() == 0 for a in masks if a not in asked)
    decisions = e.table.state["decisions"]
    e.step({a: 0 for a in e.possible_agents})        # the seats not asked are ignored
    assert e.table.state["decisions"] == decisions + len(asked)   # every asked seat answered, once


def test_a_parallel_step_missing_an_asked_seat_says_so_and_changes_nothing() -> None:
    e = parallel_env("downtown", seed=4)
    e.reset()
    _to_vote(e)
    asked = e.asked()
    before = copy_state(e.table.state)
    with pytest.raises(ValueError, match=f"{asked[-1]} must act"):
        e.step({a: 0 for a in asked[:-1]})
    with pytest.raises(ValueError, match="not legal"):
        e.step({a: 999 for a in asked})
    assert e.table.state == before


@pytest.mark.parametrize("observation", ["box", "dict"])
def test_what_the_parallel_env_gives_is_the_callers_to_change(observation: str) -> None:
    # Observations, masks and option ids (a seat's not asked as well as an asked one's) are the caller's own:
    # writing into them changes nothing the env gives later.
    spoiled, kept = (parallel_env("london", seed=2, observation=observation) for _ in range(2))
    given = [spoiled.reset(), kept.reset()]
    for _ in range(80):
        assert _plain(given[0]) == _plain(given[1])
        actions = {a: int(np.flatnonzero(given[1][1][a]["action_mask"])[-1]) for a in kept.asked()}
        observations, infos = given[0]
        for a in spoiled.possible_agents:
            for array in observations[a].values() if observation == "dict" else (observations[a],):
                array[:] = 1
            infos[a]["action_mask"][:] = 1
            infos[a]["options"].append("spoiled")
        given = [(out[0], out[4]) for out in (spoiled.step(actions), kept.step(actions))]
    assert len(kept.asked()) == 1


@pytest.mark.parametrize("observation", ["box", "dict"])
def test_what_the_aec_env_gives_is_the_callers_to_change(observation: str) -> None:
    spoiled, kept = (env("london", seed=2, observation=observation) for _ in range(2))
    for _ in range(80):
        given = [(e.last(), [e.observe(a) for a in e.possible_agents], [e.action_mask(a) for a in e.possible_agents])
                 for e in (spoiled, kept)]
        assert _plain(given[0]) == _plain(given[1])
        (obs, *_, info), observations, masks = given[0]
        for array in [*masks, info["action_mask"]] + [v for o in observations
                                                       for v in (o.values() if observation == "dict" else [o])]:
            array[:] = 1
        action = int(np.flatnonzero(given[1][0][4]["action_mask"])[-1])
        spoiled.step(action)
        kept.step(action)


def _plain(value: Any) -> Any:
    """A value with its arrays as (dtype, shape, bytes), to compare exactly."""
    if isinstance(value, np.ndarray):
        return str(value.dtype), value.shape, value.tobytes()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def test_a_game_played_through_the_parallel_env_ends_with_the_winners_rewarded() -> None:
    e = parallel_env("downtown", seed=8)
    observations, infos = e.reset()
    rng = np.random.default_rng(8)
    total = dict.fromkeys(e.possible_agents, 0.0)
    while e.agents:
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in e.asked()}
        observations, rewards, terminations, truncations, infos = e.step(actions)
        for a, r in rewards.items():
            total[a] += r
    state = e.table.state
    assert state["result"] is not None
    assert total == {a: (1.0 if s in state["result"]["winners"] else 0.0) for s, a in enumerate(e.possible_agents)}


@pytest.mark.parametrize("game", SECRET_GAMES)
def test_a_parallel_observation_never_holds_what_the_seat_may_not_see(game: str) -> None:
    # Twins that differ only in what a seat may not see (hidden fields, other seats' secret answers):
    # the seat's observation and infos from the parallel env's step are the same.
    e = parallel_env(game, seed=2)
    e.reset()
    engine = e.table.engine
    twins = [(state, seat, hidden_twin(engine, state, seat, seed=seat)[0])
             for state in positions(engine, e.players, seed=2, every=9) for seat in range(e.players)]
    twins += secret_twins(engine, e.players, seed=1, limit=150)
    assert len(twins) >= 10
    for state, seat, twin in twins:
        agent = e.possible_agents[seat]
        given = []
        for now in (state, twin):
            e.table.state = now
            e.table.moves += 1
            given.append((e._observations()[agent].tolist(), e._infos()[agent]["action_mask"].tolist(),
                          e._infos()[agent]["options"]))
        assert given[0] == given[1]


def test_an_unknown_observation_kind_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="observation='tensor': expected one of box, dict"):
        env("downtown", observation="tensor")
