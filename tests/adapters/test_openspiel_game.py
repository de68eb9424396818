"""The OpenSpiel game: pyspiel's own random simulation test on every game, chance nodes, IS-MCTS, no leaks."""

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
                strings.append((s.information_state_string(seat), s.observation_string(seat)))
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
