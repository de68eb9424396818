"""The hand-written Downtown of the benchmarks plays exactly the games the interpreter plays.

It is the yardstick `make bench` divides the interpreter's speed by: a yardstick that played other
rules, or other bots, would measure nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from interpreter.analysis.simulate import play_bots
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import handwritten_downtown as hand


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_same_games_as_the_interpreter(seats: int) -> None:
    engine = Engine(load_game("downtown"))
    board = hand.Board()
    for seed in range(40):
        state, record = play_bots(engine, seats, seed)
        game, winners = hand.play(board, seats, seed)
        assert winners == list(record.winners), seed
        assert game.money == state["seat"]["money"], seed
        assert game.markers == state["seat"]["markers"], seed
        assert game.decisions == state["decisions"], seed
        assert game.round == state["global"]["round"], seed
