"""The scripted players of the benchmarks play whole, legal games, the same for a seed, and win.

They are the yardsticks the bots are measured against: one that made an illegal choice, stalled a
game or lost to random bots would measure nothing. Each sees only its seat's view, as a custom
player does: the harness below hands it `view(engine, state, seat)` and the option ids with their
labels, and applies the index it returns by option id (so an illegal answer is refused).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Protocol

import pytest

from interpreter.agents import make_agent
from interpreter.agents.seeding import bot_seed
from interpreter.core.engine import Engine
from interpreter.core.view import view
from interpreter.load.loader import load_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from scripted.city import CityPlayer
from scripted.london import LondonPlayer

CAP = 20_000


class Scripted(Protocol):
    def choose(self, view: dict[str, Any], options: list[tuple[str, str]]) -> int: ...


class ViewAgent:
    """A scripted player seated as a bot: it gets the seat's view and options, never the state."""

    def __init__(self, player: Scripted):
        self.player = player

    def pick(self, engine: Engine, state: dict[str, Any], seat: int) -> int:
        shown = view(engine, state, seat)
        options = [(oid, label) for oid, label in shown["pending"]["options"]]
        k = self.player.choose(shown, options)
        assert isinstance(k, int) and 0 <= k < len(options), (k, len(options))
        return k


def play(game: str, seats: int, seed: int, scripted: type, at: int) -> tuple[dict[str, Any], list[str]]:
    """One game: the scripted player at seat `at`, random bots elsewhere; the state and its choices."""
    engine = Engine(load_game(game))
    agents: list[Any] = [make_agent("random", bot_seed(seed, s)) for s in range(seats)]
    agents[at] = ViewAgent(scripted(seed))
    state = engine.new_game(seats, seed)
    chosen: list[str] = []
    while state["result"] is None and state["decisions"] < CAP:
        seat = engine.first_open_seat(state)
        option = engine.option_id(state, seat, agents[seat].pick(engine, state, seat))
        if seat == at:
            chosen.append(option)
        engine.apply_inplace(state, option, seat)
    return state, chosen


PLAYERS = [("london", LondonPlayer, 3), ("london", LondonPlayer, 2), ("london", LondonPlayer, 4),
           ("city", CityPlayer, 4), ("city", CityPlayer, 3)]


@pytest.mark.parametrize(("game", "scripted", "seats"), PLAYERS)
def test_plays_complete_legal_games(game: str, scripted: type, seats: int) -> None:
    for seed in range(2):
        state, chosen = play(game, seats, seed, scripted, at=seed % seats)
        assert state["result"] is not None, f"{game} seed {seed}: not over after {CAP} decisions"
        assert chosen


@pytest.mark.parametrize(("game", "scripted", "seats"), [PLAYERS[0], PLAYERS[3]])
def test_same_seed_same_game(game: str, scripted: type, seats: int) -> None:
    assert play(game, seats, 5, scripted, at=1) == play(game, seats, 5, scripted, at=1)


@pytest.mark.parametrize(("game", "scripted", "seats"), [PLAYERS[0], PLAYERS[3]])
def test_beats_random_bots(game: str, scripted: type, seats: int) -> None:
    games = 6
    wins = sum(seed % seats in play(game, seats, seed, scripted, at=seed % seats)[0]["result"]["winners"]
               for seed in range(10, 10 + games))
    assert wins >= games - 1, f"{wins} wins of {games}"


def test_london_player_keeps_loans_and_poverty_down() -> None:
    # A decent London player ends with hardly an unpaid loan (an opponent's card may force one on
    # it), below the random bots' poverty, and draws three cards only a few times a game.
    unpaid = 0
    for seed in range(3):
        state, chosen = play("london", 3, seed, LondonPlayer, at=seed % 3)
        me = seed % 3
        unpaid += state["seat"]["loans"][me]
        assert state["seat"]["poverty"][me] <= min(p for s, p in enumerate(state["seat"]["poverty"]) if s != me)
        assert chosen.count("action:draw") <= 4
    assert unpaid <= 1
