"""The encoder keeps what it encoded (shared by the seats where they see the same, per seat where not) and
encodes again only what changed: its tensors are the ones encoded whole, for every seat, whatever the order
the seats look in and the states they look at, so no seat's tensor holds what another seat was shown."""

from __future__ import annotations

import random

import numpy as np
import pytest

from adapter_helpers import GAMES, hidden_twin, positions
from interpreter.adapters.common import engine_of
from interpreter.adapters.encoding import TensorEncoder
from interpreter.adapters.openspiel import load
from interpreter.adapters.pettingzoo import env, parallel_env
from interpreter.core.engine import Engine
from interpreter.core.view import (
    field_readers,
    own_entries_reader,
    own_entry_readers,
    public_reader,
    spectator_readers,
    visible_fields,
)


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


@pytest.mark.parametrize("game", GAMES)
def test_parallel_tensors_are_those_encoded_whole(game: str) -> None:
    # Every seat's tensor at every step of the parallel API (each seat's kept from the last step and brought
    # up to date) is the one a fresh encoder gives.
    e = parallel_env(game, seed=4)
    table = e.table
    whole = TensorEncoder(table.engine, table.players, table.max_actions, table.encoder.texts)
    pick = random.Random(4)
    observations, infos = e.reset(seed=4)
    steps = 0
    while e.agents and steps < 120:
        state = table.state
        for s, agent in enumerate(e.possible_agents):
            whole.forget()
            again = whole.encode(state, s, state["decisions"], state["result"] is not None, table.pending(),
                                 table.own_options(s))
            assert observations[agent].tobytes() == again.tobytes()
        _alike_where_seen_alike(table.encoder, [observations[a] for a in e.possible_agents])
        actions = {a: pick.choice(list(np.flatnonzero(infos[a]["action_mask"]))) for a in e.asked()}
        observations, _, _, _, infos = e.step(actions)
        steps += 1
    assert steps >= 20


@pytest.mark.parametrize("game", GAMES)
def test_field_readers_give_what_visible_fields_gives(game: str) -> None:
    # Read again and again, at positions of a game and at hidden twins of them in turn (a reader may keep
    # what it made last), every reader gives what `visible_fields` gives, and so do the readers of
    # several fields at once.
    engine = engine_of(game, None)
    seats = engine.game.min_seats
    readers = field_readers(engine)
    own = own_entry_readers(engine)
    spectators = spectator_readers(engine)
    public = {key for key in readers if _visible(engine, key) == "all"}
    places: dict[str, list[str]] = {}
    for key in sorted(public):
        places.setdefault(key.rsplit(".", 1)[0], []).append(key)
    together = [(public_reader(engine, keys), keys) for keys in places.values()]
    owned = [key for key in own if _visible(engine, key) in ("all", "owner")]
    pick = random.Random(5)
    checked = 0
    for state in positions(engine, seats, seed=5, every=3, limit=240):
        for now in (state, hidden_twin(engine, state, pick.randrange(seats), seed=checked)[0], state):
            shown_to_none = visible_fields(engine, now, None)
            for seat in [None, *range(seats)]:
                shown = visible_fields(engine, now, seat)
                for key, read in readers.items():
                    where, name = key.split(".", 1)
                    if where == "item":
                        kind, name = name.split(".")
                        expected = shown[3][kind][name]
                    else:
                        expected = shown[("seat", "global", "node").index(where)][name]
                    assert read(now, seat) == expected, (key, seat)
                for read_all, keys in together:
                    assert read_all(now, seat) == tuple(readers[key](now, seat) for key in keys)
                for key, read in spectators.items():
                    assert read(now, seat) == shown_to_none[0][key.split(".", 1)[1]]
                if seat is not None:
                    for k in range(1, len(owned) + 1):
                        keys = owned[:k]
                        assert own_entries_reader(engine, keys)(now, seat) == tuple(own[key](now, seat) for key in keys)
            checked += 1
    assert checked >= 10


def _alike_where_seen_alike(encoder: TensorEncoder, tensors: list[np.ndarray]) -> None:
    """The seats' tensors hold the same slots where they see the same: a part every seat sees alike in
    the same place, a seat's entry of a seat field (as every seat but its owner sees it) wherever it is."""
    n = len(tensors)
    shared, turned, own = encoder.parts
    for _, _, _, start, width in shared:
        for tensor in tensors[1:]:
            assert tensor[start:start + width].tobytes() == tensors[0][start:start + width].tobytes()
    for _, _, _, start, width in turned:
        entry = width // n
        owned = any(o_start < start + entry and start < o_start + o_width for _, _, _, o_start, o_width in own)
        by_seat: dict[int, bytes] = {}
        for s, tensor in enumerate(tensors):
            for k in range(1 if owned else 0, n):   # the k-th after the observer: seat s + k
                block = tensor[start + k * entry:start + (k + 1) * entry].tobytes()
                assert by_seat.setdefault((s + k) % n, block) == block


def _visible(engine: Engine, key: str) -> str:
    where, name = key.split(".", 1)
    g = engine.game
    if where == "item":
        kind, name = name.split(".")
        fields = g.component_fields[kind]
    else:
        fields = {"seat": g.seat_fields, "global": g.global_fields, "node": g.node_fields}[where]
    return next(f.visible for f in fields if f.name == name)
