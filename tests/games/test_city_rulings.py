"""City: the points the rulebook leaves open, as shared/rules/RULINGS.md settles them (setup
placement, the longer games of the advanced rules). Chains: see test_city_examples.py and the
board data tests in test_city_board.py.

Every test drives the game through `engine.pending` / `engine.apply` (tests/city_helpers.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from city_helpers import PIECES, arrange, pending_decision, start, to_last_claim
from interpreter.core.decision import Decision, Result
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game

CENTRAL_CROSSING = "r4c3"


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(load_game("city"))


def option_ids(engine: Engine, state: dict[str, Any], name: str, seat: int) -> list[str]:
    d = pending_decision(engine, state, name)
    assert d.seats == (seat,), f"'{name}' asks {d.seats}, not seat {seat}"
    return [o.id for o in d.options(seat)]


# ================================================================================ setup placement

def test_no_piece_is_ever_placed_on_the_central_crossing(engine: Engine) -> None:
    # "pose l'un des ces pions sur l'une des cases, grises ou rouges": the central crossing is neither.
    state = engine.new_game(3, seed=5)
    placed = 0
    while placed < len(PIECES):
        d = engine.pending(state)
        assert isinstance(d, Decision) and d.name in ("piece", "cell", "way"), d
        ids = [o.id for o in d.options(d.seats[0])]
        if d.name == "cell":
            assert f"cell:{CENTRAL_CROSSING}" not in ids
        if d.name == "way":
            placed += 1
        state = engine.apply(state, ids[0], d.seats[0])
    assert engine.game.node_index(CENTRAL_CROSSING) not in state["global"]["at"].values()


def test_the_placer_chooses_which_piece_to_place(engine: Engine) -> None:
    state = engine.new_game(3, seed=5)
    assert sorted(option_ids(engine, state, "piece", 0)) == sorted(f"piece:{p}" for p in PIECES)
    state = engine.apply(state, "piece:thief", 0)
    state = engine.apply(state, "cell:r0c1", 0)
    state = engine.apply(state, "way:east", 0)
    assert option_ids(engine, state, "piece", 1) == [f"piece:{p}" for p in PIECES if p != "thief"]
    state = engine.apply(state, "piece:brown_2", 1)
    state = engine.apply(state, "cell:r8c1", 1)
    state = engine.apply(state, "way:west", 1)
    at = state["global"]["at"]
    assert at["thief"] == engine.game.node_index("r0c1") and state["global"]["facing"]["thief"] == "east"
    assert at["brown_2"] == engine.game.node_index("r8c1")
    assert at["black"] is None
    left = option_ids(engine, state, "piece", 2)
    assert left == [f"piece:{p}" for p in PIECES if p not in ("thief", "brown_2")]
    log = [e["data"] for e in state["log"] if e["kind"] == "place"]
    assert [(e["seat"], e["piece"]) for e in log] == [(0, "thief"), (1, "brown_2")]


# ================================================================== longer games of the advanced rules

@pytest.mark.parametrize("variant, target", [("advanced", 70), ("advanced-3-laps", 105),
                                             ("advanced-4-laps", 140)])
def test_the_longer_games_are_the_advanced_rules_with_more_laps(variant: str, target: int) -> None:
    # "il est possible de faire le parcours 3 ou 4 fois": the advanced rules, 35 points a lap.
    game = load_game("city", variant)
    tables = {name: value for name, (_, value) in game.world.tables.items()}
    assert tables["target_score"] == target
    assert tables["forced_sales"] is True and tables["chains"] is True
    assert game.variant == variant


def test_a_three_lap_game_goes_on_past_70_and_ends_at_105() -> None:
    engine = Engine(load_game("city", "advanced-3-laps"))
    game = engine.game
    pieces = {"black": ("r1c6", "south"), "blue_1": ("r5c0", "south"), "brown_2": ("r6c0", "south"),
              "brown_3": ("r7c0", "south"), "blue_2": ("r8c2", "west"), "brown_1": ("r8c4", "east"),
              "thief": ("r5c6", "south")}
    for before, over in ((70, False), (101, False), (102, True)):
        state = to_last_claim(engine, 3)
        arrange(game, state, pieces, shops={"shop-r3c6": (1, 1)}, scores={1: before})
        state = start(engine, state, 2)
        state = engine.apply(state, "move:black:r3c6:south", 1)
        outcome = engine.pending(state)
        assert isinstance(outcome, Result) is over, (before, outcome)
        assert state["seat"]["score"][1] == before + 3
