"""`masked_reading`: what formulas and bots read of a state for one seat, blanked as `masked_state`
blanks it, and never a change to the state read."""

from __future__ import annotations

import marshal
import random
import textwrap
from pathlib import Path
from typing import Any, Iterator

import pytest

from interpreter.core.engine import Engine
from interpreter.core.view import masked_reading, masked_state
from interpreter.load.loader import check_game, load_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# Something hidden of every kind a game may hide: a seat's hand (its owner sees it), a deck whose size
# is public, a number on each board place and a flag on each card nobody sees.
GAME = """\
name: hiding
title: Hiding
seats: {min: 2, max: 3}
rules: [main.rules]
start: main
board: board.yaml
components:
  card: {file: cards.yaml, collection: all_cards}
state:
  seat:
    hand: {type: "list[card]", initial: [], visible: owner}
    score: {type: int, initial: 0}
  global:
    deck: {type: "list[card]", initial: [], visible: nobody, public_size: true}
    round: {type: int, initial: 0}
  node:
    buried: {type: int, initial: 0, visible: nobody}
  card:
    marked: {type: bool, initial: false, visible: nobody}
"""
BOARD = """\
nodes: [{id: 1}, {id: 2}, {id: 3}]
edges: [[1, 2], [2, 3]]
"""
CARDS = """\
items:
  - {id: coin, copies: 6, value: 2}
  - {id: crown, value: 5}
"""
RULES = """\
phase main:
    deck = [c for c in all_cards]
    shuffle deck
    for s in seats:
        draw c from deck
        add c to s.hand
        c.marked = true
    for n in nodes:
        n.buried = 3
    # allow: empty-options. Seven cards, at most three drawn: four are always left.
    choose pick from deck by seats[0] "Take which card?"
    round += 1
    end winners seats
"""


def _positions(engine: Engine, seats: int, seed: int, every: int = 5) -> Iterator[dict[str, Any]]:
    """Positions of a game played at random, one every `every` decisions, and the last."""
    state = engine.new_game(seats, seed)
    pick = random.Random(seed)
    while state["result"] is None and state["decisions"] < 400:
        if state["decisions"] % every == 0:
            yield state
        seat = engine.first_open_seat(state)
        engine.apply_index(state, seat, pick.randrange(engine.option_count(state, seat)))
    yield state


def _check(engine: Engine, state: dict[str, Any]) -> None:
    before = marshal.dumps(state)
    for seat in [*range(state["seats"]), None]:
        assert masked_reading(engine, state, seat) == masked_state(engine, state, seat)
    assert marshal.dumps(state) == before, "reading a masked state changed the state"


@pytest.mark.parametrize("game, seats", [("downtown", 4), ("london", 3), ("city", 4), (str(EXAMPLES / "harbour"), 3)])
def test_a_masked_reading_hides_what_a_masked_state_hides(game: str, seats: int) -> None:
    engine = Engine(load_game(game))
    for state in _positions(engine, seats, seed=7):
        _check(engine, state)


def test_a_masked_reading_hides_board_item_seat_and_global_fields(tmp_path: Path) -> None:
    for name, text in {"game.yaml": GAME, "board.yaml": BOARD, "cards.yaml": CARDS, "main.rules": RULES}.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    game, diags, _ = check_game(tmp_path)
    assert game is not None, diags
    engine = Engine(game)
    state = engine.new_game(3, 1)
    _check(engine, state)
    masked = masked_reading(engine, state, 1)
    assert masked["node"]["buried"] == [0, 0, 0] and state["node"]["buried"] == [3, 3, 3]
    assert not any(masked["components"]["card"]["marked"]) and sum(state["components"]["card"]["marked"]) == 3
    assert masked["seat"]["hand"][1] == state["seat"]["hand"][1]
    assert masked["seat"]["hand"][0] != state["seat"]["hand"][0]
    assert len(masked["global"]["deck"]) == len(state["global"]["deck"]) == 4
    assert masked["global"]["deck"] != state["global"]["deck"]
