"""The OpenSpiel game: pyspiel's own random simulation test on every game, chance nodes, IS-MCTS, tensors,
OpenSpiel's RL environment and a learning agent, no leaks."""

from __future__ import annotations

import os

import numpy as np
import pyspiel
import pytest

from adapter_helpers import GAMES, HARBOUR, SECRET_GAMES, hidden_twin, positions, secret_twins
from interpreter.adapters.openspiel import CityrulesState, load

# London's random games are long (hundreds of decisions, a 100-card shuffle replayed step by step).
SIMS = {"london": 1}


@pytest.mark.parametrize("game", GAMES)
def test_pyspiels_random_simulation_test_passes(game: str) -> None:
    loaded = load(game)
    pyspiel.random_sim_test(loaded, num_sims=SIMS.get(game, 3), serialize=False, verbose=False)


def test_a_game_serialized_by_its_history_comes_back_the_same() -> None:
    loaded = load(HARBOUR)
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)


def test_shuffles_and_dice_are_chance_nodes_with_uniform_outcomes() -> None:
    downtown = load("downtown").new_initial_state()
    assert downtown.is_chance_node()              # the setup shuffles the planning piles
    sizes = []
    while downtown.is_chance_node():
        outcomes = downtown.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        sizes.append(len(outcomes))
        downtown.apply_action(outcomes[-1][0])
    assert sizes == sorted(sizes, reverse=True) or len(set(sizes)) > 1   # Fisher-Yates steps: n, n-1, ...
    city = load("city").new_initial_state()
    rng = np.random.default_rng(0)
    rolls = []
    while not city.is_terminal() and len(rolls) < 3:
        if city.is_chance_node():
            rolls.append(len(city.chance_outcomes()))
            city.apply_action(int(rng.integers(len(city.chance_outcomes()))))
        else:
            city.apply_action(int(rng.choice(city.legal_actions())))
    assert rolls and all(n >= 2 for n in rolls)


def test_chance_outcomes_decide_the_game() -> None:
    # Two different outcomes of the same chance node lead to different positions.
    first = load("downtown").new_initial_state()
    second = first.clone()
    first.apply_action(0)
    second.apply_action(1)
    while first.is_chance_node():
        first.apply_action(0)
        second.apply_action(0)
    assert str(first) != str(second)


@pytest.mark.parametrize("game", GAMES)
def test_an_information_state_never_holds_what_the_seat_may_not_see(game: str) -> None:
    loaded = load(game)
    engine = loaded.engine
    checked = 0
    for state in positions(engine, loaded.num_players(), seed=1, every=4):
        for seat in range(loaded.num_players()):
            twin, changed = hidden_twin(engine, state, seat, seed=seat)
            assert changed and twin != state
            strings = []
            for now in (state, twin):
                s: CityrulesState = loaded.new_initial_state()
                s.p.now, s.p.outcomes = now, 0
                strings.append((s.information_state_string(seat), s.observation_string(seat),
                                s.information_state_tensor(seat), s.observation_tensor(seat)))
            assert strings[0] == strings[1]
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("game", SECRET_GAMES)
def test_an_information_state_never_holds_another_seats_secret_answer(game: str) -> None:
    # Other seats' answers to a secret choice, open or held by the rules until they reveal it.
    loaded = load(game)
    twins = secret_twins(loaded.engine, loaded.num_players(), seed=1, limit=150)
    assert len(twins) >= 5
    for state, seat, twin in twins:
        assert twin != state
        strings = []
        for now in (state, twin):
            s: CityrulesState = loaded.new_initial_state()
            s.p.now, s.p.outcomes = now, 0
            strings.append((s.information_state_string(seat), s.observation_string(seat),
                            s.information_state_tensor(seat), s.observation_tensor(seat),
                            [s.action_to_string(seat, a) for a in range(loaded.engine.option_count(now, seat))]
                            if seat in loaded.engine.open_seats(now) else []))
        assert strings[0] == strings[1]


def _play(loaded: pyspiel.Game, bots: dict[int, pyspiel.Bot], seed: int) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    state = loaded.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            player = state.current_player()
            bot = bots.get(player)
            state.apply_action(bot.step(state) if bot else int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("game", GAMES)
def test_openspiels_ismcts_bot_plays_a_short_game(game: str) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    short = 30 if os.environ.get("CI") else 40
    loaded = load(game, max_decisions=short) if game != HARBOUR else load(game)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(loaded, evaluator, uct_c=2.0, max_simulations=8,
                           random_state=np.random.RandomState(2))
    end = _play(loaded, {0: bot}, seed=3)
    assert end.is_terminal() and len(end.returns()) == loaded.num_players()


@pytest.mark.parametrize("game", GAMES)
def test_a_resampled_state_is_one_the_seat_cannot_tell_from_the_real_one(game: str) -> None:
    loaded = load(game)
    differed = checked = 0
    for seed in range(2 if game == "london" else 5):   # London's long games: two are plenty
        rng = np.random.default_rng(seed)
        sampler = rng.random   # as OpenSpiel's UniformProbabilitySampler, which IS-MCTS passes, but seeded
        state = loaded.new_initial_state()
        while not state.is_terminal() and state.move_number() < 400:
            if state.is_chance_node():
                state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
                continue
            player = state.current_player()
            for _ in range(3):   # samples differ: each must keep what the seat knows, who answered included
                sample = state.resample_from_infostate(player, sampler)
                assert sample.current_player() == player
                assert sample.information_state_string(player) == state.information_state_string(player)
                assert sample.legal_actions() == state.legal_actions()
                differed += sample.p.now != state.p.now
            checked += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked
    if game in ("london", "downtown", HARBOUR):   # games with hidden hands, decks or piles
        assert differed


@pytest.mark.parametrize("game", GAMES)
def test_tensors_have_the_declared_shapes_at_every_kind_of_node(game: str) -> None:
    loaded = load(game)
    kind = loaded.get_type()
    assert kind.provides_observation_tensor and kind.provides_information_state_tensor
    obs_size, info_size = loaded.observation_tensor_size(), loaded.information_state_tensor_size()
    assert obs_size == loaded.encoder.size and info_size > obs_size
    rng = np.random.default_rng(4)
    state = loaded.new_initial_state()
    kinds = set()
    while not state.is_terminal() and state.move_number() < 300:
        kinds.add("chance" if state.is_chance_node() else "decision")
        for seat in range(loaded.num_players()):
            obs, info = np.array(state.observation_tensor(seat)), np.array(state.information_state_tensor(seat))
            assert obs.shape == (obs_size,) and info.shape == (info_size,) and np.isfinite(info).all()
            assert np.array_equal(info[:obs_size], obs)
        outcomes = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(outcomes)))
    assert kinds == {"chance", "decision"}


def test_a_seats_own_answers_show_in_its_information_state_tensor_only() -> None:
    loaded = load("downtown")
    state = loaded.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    seat = state.current_player()
    before = [np.array(state.information_state_tensor(s)) for s in range(loaded.num_players())]
    state.apply_action(state.legal_actions()[0])
    while state.is_chance_node():
        state.apply_action(0)
    after = [np.array(state.information_state_tensor(s)) for s in range(loaded.num_players())]
    size = loaded.observation_tensor_size()
    assert after[seat][-1] == before[seat][-1] + 1          # one more answer of its own
    assert all(after[s][-1] == 0 for s in range(loaded.num_players()) if s != seat)
    assert not np.array_equal(after[seat][size:], before[seat][size:])


def test_openspiels_rl_environment_trains_a_q_learner_on_downtown() -> None:
    # OpenSpiel's entry to its learning agents, with the one that needs no PyTorch (the rl extra alone);
    # test_openspiel_learning.py trains its PyTorch DQN (the rl-deep extra) on the same time steps.
    from open_spiel.python import rl_environment, rl_tools
    from open_spiel.python.algorithms import tabular_qlearner

    env = rl_environment.Environment(load("downtown"))
    env.seed(5)
    assert env.observation_spec()["info_state"] == (load("downtown").information_state_tensor_size(),)
    actions = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=actions, step_size=0.5,
                                        epsilon_schedule=rl_tools.ConstantSchedule(0.3))
              for p in range(env.num_players)]
    wins = [0.0] * env.num_players
    for _ in range(2):
        time_step = env.reset()
        steps = 0
        while not time_step.last():
            player = time_step.observations["current_player"]
            assert time_step.observations["legal_actions"][player]
            output = agents[player].step(time_step)
            time_step = env.step([output.action])
            steps += 1
        for agent in agents:       # every agent learns from the end of the game
            agent.step(time_step)
        wins = [w + r for w, r in zip(wins, time_step.rewards)]
        assert steps > 50
    assert sum(wins) >= 2          # each game has a winner, rewarded 1
    assert all(len(agent._q_values) > 10 for agent in agents)   # values learnt for the states each met
    assert any(agent.loss not in (None, 0.0) for agent in agents)


@pytest.mark.parametrize("game", ["city", "downtown"])
def test_moves_applied_in_place_leave_clones_alone_and_replay_the_same(game: str) -> None:
    # Moves change the position's own state in place; City rolls dice mid-game, so its runs with
    # chance rebuild the state before the move from the moves since the last chance.
    loaded = load(game)
    rng = np.random.default_rng(7)
    state = loaded.new_initial_state()

    def random_moves(s: pyspiel.State, count: int) -> None:
        for _ in range(count):
            if s.is_terminal():
                return
            actions = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
            s.apply_action(int(rng.choice(actions)))

    random_moves(state, 150)
    before = [state.information_state_string(p) for p in range(loaded.num_players())], str(state)
    clone = state.clone()
    random_moves(clone, 60)
    assert ([state.information_state_string(p) for p in range(loaded.num_players())], str(state)) == before
    again = loaded.new_initial_state()
    for action in clone.history():
        again.apply_action(action)
    assert again.p.now == clone.p.now and again.current_player() == clone.current_player()
    assert [again.information_state_tensor(p) for p in range(loaded.num_players())] == \
           [clone.information_state_tensor(p) for p in range(loaded.num_players())]
