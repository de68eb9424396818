"""A scenario's `setup` works out the first decision's options again with the choice's options
function: for every choice of every shipped game, that function gives the options the rules gave."""

from __future__ import annotations

import random

import pytest

from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
from workbench_helpers import ROOT

GAMES = ["downtown", "city", "london", str(ROOT / "examples" / "harbour")]
DECISIONS = 80


@pytest.mark.parametrize("name", GAMES)
def test_options_functions_agree_with_the_options_asked(name: str) -> None:
    engine = Engine(load_game(name))
    program = engine.program
    chooser = random.Random(7)
    state = engine.new_game(engine.game.min_seats, 7)
    seen: set[int] = set()
    for _ in range(DECISIONS):
        if engine.is_over(state):
            break
        p = state["pending"]
        options_of = program.option_functions[p["spec"]]
        assert options_of is not None, program.chooses[p["spec"]].var
        engine.runtime.bind(state)
        frame = state["stack"][-1][2]
        for i, seat in enumerate(p["seats"]):
            if not p["done"][i]:
                assert list(options_of(engine.runtime, frame, seat)) == list(p["options"][i])
        seen.add(p["spec"])
        seat = engine.first_open_seat(state)
        engine.apply_index(state, seat, chooser.randrange(engine.option_count(state, seat)))
    assert len(seen) >= 2, "the games should reach several different choices"
