"""The encoder keeps what it encoded (shared by the seats where they see the same, per seat where not) and
encodes again only what changed: its tensors are the ones encoded whole, for every seat, whatever the order
the seats look in and the states they look at, so no seat's tensor holds what another seat was shown."""

from __future__ import annotations

import random

import numpy as np
import pytest

from adapter_helpers import GAMES, hidden_twin, positions
from interpreter.adapters.encoding import TensorEncoder
from interpreter.adapters.openspiel import load
from interpreter.adapters.pettingzoo import env


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_tensors_are_those_encoded_whole(game: str) -> None:
    # Seats look in a random order, some not at all, at the game's positions and at hidden twins of
    # them (another seat's hand or deck changed): each tensor is the one a fresh encoder gives.
    e = env(game, seed=3)
    engine, table = e.engine, e.table
    whole = TensorEncoder(engine, e.players, e.max_actions, e.encoder.texts)
    pick = random.Random(3)
    checked = 0
    for state in positions(engine, e.players, seed=3, every=2, limit=200):
        nows = [state, hidden_twin(engine, state, pick.randrange(e.players), seed=checked)[0]]
        for now in nows:
            e.state_ = now
            seats = list(range(e.players))
            pick.shuffle(seats)
            for seat in seats[:pick.randrange(1, e.players + 1)]:
                kept = e.observe(e.possible_agents[seat])
                whole.forget()
                again = whole.encode(now, seat, now["decisions"], now["result"] is not None, table.pending(),
                                     table.own_options(seat))
                assert kept.dtype == again.dtype == np.float32 and kept.shape == again.shape
                assert kept.tobytes() == again.tobytes()
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_tensors_of_states_and_clones_are_those_encoded_whole(game: str) -> None:
    # The game's encoder serves every state of it: a position and its clones, played apart, chance nodes
    # included, looked at in turn.
    loaded = load(game)
    whole = TensorEncoder(loaded.engine, loaded.players, loaded.num_distinct_actions(), loaded.encoder.texts)
    pick = random.Random(4)
    states = [loaded.new_initial_state()]
    checked = 0
    for _ in range(400):
        live = [s for s in states if not s.is_terminal()]
        if not live:   # all over: a new game
            states = live = [loaded.new_initial_state()]
        state = pick.choice(live)
        for player in pick.sample(range(loaded.players), pick.randrange(loaded.players + 1)):
            kept = np.array(state.observation_tensor(player), np.float32)
            whole.forget()
            assert kept.tobytes() == state.tensor_of(player, whole).tobytes()
            checked += 1
        if pick.random() < 0.03 and len(states) < 4:
            states.append(state.clone())
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(pick.choice(actions))
    assert checked >= 50
