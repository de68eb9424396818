"""One suite run over every game in games/ and examples/: the contract every game must keep.

- the files validate without errors or warnings;
- seeded random games end, at every seat count;
- the same seed gives the same journal; a journal replays to the same log and result;
- every state on the way survives a JSON round trip (the game goes on from the restored copy);
- `apply` never changes its input;
- money (the game's ledgered fields) changes only through pay/gain: start − paid + gained = final;
- where a game declares the places of a component kind, every item is in exactly one of them;
- no seat's view shows a field declared hidden from it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from interpreter.agents import RandomAgent, bot_seed
from interpreter.analysis.simulate import play_bots
from interpreter.core.engine import Engine
from interpreter.core.game import Game
from interpreter.core.journal import Journal, replay
from interpreter.core.state import copy_state, from_json, to_json
from interpreter.core.view import HIDDEN, shape, view
from interpreter.load.loader import check_game, games_root, shipped_games

# The shipped games, and the example games: every folder directly under examples/ with a game.yaml
# (examples/broken/ holds deliberately broken games and is left out).
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FOLDERS = {name: games_root() / name for name in shipped_games()}
FOLDERS.update({p.name: p for p in (EXAMPLES.iterdir() if EXAMPLES.is_dir() else [])
                if p.name != "broken" and (p / "game.yaml").is_file()})
GAMES = sorted(FOLDERS)
# Games per seat count for the fast checks; the slow per-state checks use a share of them.
FAST_GAMES = int(os.environ.get("CONFORMANCE_GAMES", "200"))
SLOW_GAMES = int(os.environ.get("CONFORMANCE_SLOW_GAMES", "200"))


def _engine(name: str) -> Engine:
    game, diags, _ = check_game(FOLDERS[name])
    assert game is not None, [d.message for d in diags]
    return Engine(game)


_ENGINES: dict[str, Engine] = {}


def engine_for(name: str) -> Engine:
    if name not in _ENGINES:
        _ENGINES[name] = _engine(name)
    return _ENGINES[name]


def seat_counts(game: Game) -> list[int]:
    return list(range(game.min_seats, game.max_seats + 1))


def cases() -> list[tuple[str, int]]:
    out = []
    for name in GAMES:
        g = engine_for(name).game
        out.extend((name, n) for n in seat_counts(g))
    return out


def test_there_are_games() -> None:
    assert "downtown" in GAMES


@pytest.mark.parametrize("name", GAMES)
def test_files_validate_cleanly(name: str) -> None:
    game, diags, _ = check_game(FOLDERS[name])
    assert game is not None
    assert [f"{d.span.file}:{d.span.line}: {d.message}" for d in diags] == []


def _ledger_ok(engine: Engine, state: dict[str, Any]) -> None:
    for f in engine.game.seat_fields:
        if not f.ledger:
            continue
        paid, gained = state["ledger"].get(f.name, [[0] * state["seats"], [0] * state["seats"]])
        for s in range(state["seats"]):
            assert f.initial - paid[s] + gained[s] == state["seat"][f.name][s], (f.name, s)


@pytest.mark.parametrize("name,seats", cases())
def test_random_games_end_and_keep_the_ledger(name: str, seats: int) -> None:
    engine = engine_for(name)
    for seed in range(FAST_GAMES):
        state, record = play_bots(engine, seats, seed, max_decisions=100_000)
        assert state["result"] is not None, f"seed {seed} did not end"
        assert record.winners, f"seed {seed} ended without winners"
        assert all(0 <= w < seats for w in record.winners)
        _ledger_ok(engine, state)


@pytest.mark.parametrize("name,seats", cases())
def test_same_seed_same_journal_and_replay(name: str, seats: int) -> None:
    engine = engine_for(name)
    for seed in range(0, FAST_GAMES, max(1, FAST_GAMES // 10)):
        first, a = play_bots(engine, seats, seed, keep_journal=True)
        second, b = play_bots(engine, seats, seed, keep_journal=True)
        assert a.journal is not None and b.journal is not None
        assert a.journal.dumps() == b.journal.dumps()
        assert to_json(first) == to_json(second)
        replayed = replay(engine, Journal.load_text(a.journal.dumps()))
        assert replayed["log"] == first["log"]
        assert replayed["result"] == first["result"]


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [x for v in value for x in _flatten(v)]
    return [] if value is None else [value]


def _conserved(engine: Engine, state: dict[str, Any]) -> None:
    """Every item of a kind with declared places is in exactly one of them."""
    g = engine.game
    for kind, places in g.component_places.items():
        found: list[Any] = []
        for name in places:
            column = state["seat"][name] if name in state["seat"] else [state["global"][name]]
            found += _flatten(column)
        count = len(g.world.components[kind].ids)
        assert sorted(found) == list(range(count)), f"{kind}s out of place after {state['decisions']} decisions"


def json_round_trip(state: dict[str, Any], old_events: int) -> dict[str, Any]:
    """The state read back from JSON text.

    The log only ever grows and its events never change, so the events already checked at the
    previous step are carried over and only the new ones go through JSON with the rest.
    """
    rest = {k: v for k, v in state.items() if k != "log"}
    restored = from_json(to_json(rest))
    new_events = from_json(to_json({"log": state["log"][old_events:]}))["log"]
    restored["log"] = state["log"][:old_events] + new_events
    return restored


@pytest.mark.parametrize("name,seats", cases())
def test_every_state_round_trips_and_apply_does_not_mutate(name: str, seats: int) -> None:
    engine = engine_for(name)
    for seed in range(SLOW_GAMES):
        _, reference = play_bots(engine, seats, seed, keep_journal=True)
        assert reference.journal is not None
        state = engine.new_game(seats, seed)
        choices = []
        bots = [RandomAgent(bot_seed(seed, s)) for s in range(seats)]
        while state["result"] is None:
            seat = engine.open_seats(state)[0]
            option = engine.option_id(state, seat, bots[seat].pick(engine, state, seat))
            before = copy_state(state)
            new = engine.apply(state, option, seat)
            assert state == before, "apply changed its input"
            restored = json_round_trip(new, len(state["log"]))
            assert restored == new
            choices.append((seat, option))
            state = restored  # the game goes on from the JSON copy
            _conserved(engine, state)
        assert choices == reference.journal.choices
        assert state["result"] == reference.journal.result


@pytest.mark.parametrize("name", GAMES)
def test_views_hide_what_the_files_hide(name: str) -> None:
    engine = engine_for(name)
    g = engine.game
    seats = g.min_seats
    state, _ = play_bots(engine, seats, 3, max_decisions=40)
    for seat in [None, *range(seats)]:
        v = view(engine, state, seat)
        for f in g.global_fields:
            value = state["global"][f.name]
            expected = value if f.visible == "all" else shape(value) if f.public_size else HIDDEN
            assert v["global"][f.name] == expected
        for f in g.seat_fields:
            for owner in range(seats):
                shown = v["seats"][f.name][owner]
                visible = f.visible == "all" or (f.visible == "owner" and owner == seat)
                value = state["seat"][f.name][owner]
                assert shown == (value if visible else shape(value) if f.public_size else HIDDEN)
        assert "stack" not in v and "rng" not in v
