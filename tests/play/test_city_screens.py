"""City as a new player reads it: pieces with what they are worth, `info` in words, placement as two
short choices, a board that says how its cells are named."""

from __future__ import annotations

from typing import Any

from interpreter.core.decision import Decision
from interpreter.core.engine import Engine
from interpreter.core.view import view
from interpreter.play.info import info
from interpreter.play.menu import Menu
from interpreter.play.screen import Screens
from play_screens_helpers import engine_of, screen_text


def _decision(engine: Engine, state: dict[str, Any], name: str) -> Decision:
    d = engine.pending(state)
    assert isinstance(d, Decision) and d.name == name, d
    return d


def _info(engine: Engine, state: dict[str, Any], name: str, seat: int = 0) -> str:
    """What `info NAME` prints, its lines joined (wrapping aside)."""
    return " ".join(" ".join(line.plain.split()) for line in info(Screens(engine, strict=True),
                                                                  view(engine, state, seat), name))


def test_each_piece_says_what_it_is_worth_on_the_choice() -> None:
    engine = engine_of("city")
    state = engine.new_game(3, seed=5)
    labels = {o.id: o.label for o in _decision(engine, state, "piece").options(0)}
    assert labels["piece:black"] == "black (3 per token)"
    assert labels["piece:brown_2"] == "brown_2 (1 per token)"
    assert labels["piece:thief"] == "thief (robs 2 per token)"


def test_placing_a_piece_is_a_cell_then_a_facing_each_a_short_list() -> None:
    engine = engine_of("city")
    state = engine.new_game(3, seed=5)
    state = engine.apply(state, "piece:black", 0)
    cells = _decision(engine, state, "cell").options(0)
    menu = Menu.of(tuple(cells))
    # 38 cells in columns: the list takes a dozen lines at 80 columns, not 80.
    assert len(menu.lines(80)) <= 12
    assert {o.label for o in cells} >= {"r0c0 store", "r0c1 shop"}
    typed = menu.parse("r0c3")
    assert typed is not None and typed.id == "cell:r0c3"
    state = engine.apply(state, "cell:r0c3", 0)
    ways = _decision(engine, state, "way").options(0)
    assert [(o.label, o.detail) for o in ways] == [("west <", "moves on towards r0c2"),
                                                   ("east >", "moves on towards r0c4"),
                                                   ("south v", "moves on towards r1c3")]
    state = engine.apply(state, "way:south", 0)
    assert engine.game.node_ids[state["global"]["at"]["black"]] == "r0c3"
    assert state["global"]["facing"]["black"] == "south"


def test_info_says_in_words_what_a_piece_a_cell_a_shop_and_a_table_are() -> None:
    engine = engine_of("city")
    state = engine.new_game(2, seed=5)
    for answer in ("piece:thief", "cell:r0c1", "way:east"):
        state = engine.apply(state, answer, engine.first_open_seat(state))
    thief = _info(engine, state, "thief")
    assert "The thief piece, on r0c1, facing east" in thief
    assert "robs the shop's owner of 2 points per token" in thief
    assert "The black piece, not placed yet" in _info(engine, state, "Black")
    crossing = _info(engine, state, "r4c3")
    assert "A crossing, where a moving piece may turn, with no shop in front" in crossing
    assert "None" not in crossing and "store:" not in crossing
    assert "the thief piece stands here, facing east" in _info(engine, state, "r0c1")
    assert "a free store (price 5 points)" in _info(engine, state, "r0c3")
    assert _info(engine, state, "shop-r0c1").endswith("a free shop (price 3 points), in front of the street cell r0c1.")
    value = _info(engine, state, "value")
    assert "black 3 per token" in value and "thief robs 2 per token" in value and "{" not in value
    assert "faces: 1, 2, 3, 4, 5, a face on which the mover picks 1, 2, 3." in _info(engine, state, "die")
    # A name the game does not put in words is still found the usual way.
    assert "(a seat)" in _info(engine, state, "Ben")


def test_an_owned_shop_is_described_with_its_owner_and_tokens() -> None:
    engine = engine_of("city")
    state = engine.new_game(2, seed=5)
    shop = engine.game.node_index("shop-r0c1")
    state["node"]["owner"][shop] = 1
    state["node"]["tokens"][shop] = 3
    assert "in front of Ben's shop with 3 token(s)" in _info(engine, state, "r0c1")


def test_the_board_numbers_its_rows_and_columns_and_the_legend_says_how_cells_are_named() -> None:
    engine = engine_of("city")
    state = engine.new_game(3, seed=5)
    for answer in ("piece:thief", "cell:r4c0", "way:north"):
        state = engine.apply(state, answer, engine.first_open_seat(state))
    for width in (80, 120):
        lines = screen_text(engine, state, 1, width)
        assert lines[1].split() == [str(c) for c in range(7)]          # the columns, above the board
        row4 = next(line for line in lines if "thief^" in line)         # the cell the thief hides ...
        assert row4.startswith("4 |  thief^  |")                        # ... is in row 4, column 0
        assert lines[1].index("0") == row4.index("thief^") + 2
        assert max(len(line) for line in lines) <= width
    text = " ".join(" ".join(screen_text(engine, state, 1, 80)).split())
    assert "A cell is named by its row and column, numbered around the board: r4c0 is row 4, column 0" in text
    # A game that does not ask for it keeps its board unnumbered.
    downtown = engine_of("downtown")
    assert screen_text(downtown, downtown.new_game(3, seed=5), 0, 80)[1].startswith("+---")
