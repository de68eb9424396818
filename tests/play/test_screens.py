"""Screens: built from one seat's view, fitted to the width, showing what each game declares, and
nothing the seat may not see."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.core.decision import Decision
from interpreter.core.state import copy_state
from interpreter.core.view import masked_from_view, masked_state, view
from interpreter.play.menu import Menu
from interpreter.play.palette import seat_tags
from interpreter.play.screen import Screens
from interpreter.play.terminal import Output, terminal_console
from lang_helpers import engine as lang_engine
from play_screens_helpers import GAMES, engine_of, positions, screen_text, widest
from twin_helpers import swap_alike


@pytest.mark.parametrize("game", GAMES)
def test_a_view_alone_rebuilds_the_masked_state_the_screens_run_on(game: str) -> None:
    engine = engine_of(game)
    checked = 0
    for state in positions(engine, 3, 4, every=9):
        for seat in (0, 2, None):
            a, b = masked_state(engine, state, seat), masked_from_view(engine, view(engine, state, seat))
            assert all(a[key] == b[key] for key in ("seat", "global", "node", "components", "names"))
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("width", [80, 200])
def test_every_screen_and_option_list_fits_the_width(game: str, width: int) -> None:
    engine = engine_of(game)
    before = None
    for state in positions(engine, 4, 7, every=5):
        lines = screen_text(engine, state, 0, width, before)
        assert widest(lines) <= width, "\n".join(line for line in lines if len(line) > width)
        decision = engine.pending(state) if state["result"] is None else None
        if isinstance(decision, Decision):
            seat = decision.seats[0]
            menu = Menu.of(decision.options(seat)).lines(width)
            assert widest(menu) <= width, "\n".join(menu)
        before = view(engine, state, 0)


def test_at_80_columns_the_downtown_board_keeps_its_counts_and_the_city_board_its_owners() -> None:
    engine = engine_of("downtown")
    state = next(s for s in positions(engine, 4, 2) if sum(len(m) for m in s["node"]["markers"]) >= 6)
    lines = screen_text(engine, state, 0, 80)
    board = [line for line in lines if line.startswith(("|", "+"))]
    assert len(board) == 13 and widest(board) <= 80
    # Each lot's parcels by owner's tag, '.' for the unsold ones: four characters for four parcels.
    parcels = re.findall(r"\b([ABCD]+\.*)\s*\|", "\n".join(board))
    assert parcels and all(len(p) == 4 for p in parcels)
    city = engine_of("city")
    state = next(s for s in positions(city, 3, 5) if s["global"]["round"] > 2)
    # (City's board has its rows numbered on the left)
    board = [line for line in screen_text(city, state, 0, 80) if line.lstrip(" 0123456789").startswith("|")]
    # An owned shop reads kind, owner's tag and tokens, whole: 's A 2'.
    assert re.search(r"\| +[sS] [ABC] [1-5] +\|", "\n".join(board))


def test_seat_tags_never_collide() -> None:
    assert seat_tags(["Ana", "Ben", "Chloé"]) == ["A", "B", "C"]
    tags = seat_tags(["Ana", "Alex", "Amy", "Al", "A", "a"])
    assert len(set(tags)) == 6 and all(len(t) == 1 for t in tags)
    assert seat_tags(["Ana", "Ana2"]) == ["A", "N"]


def test_london_shows_the_hand_with_costs_and_effects_rows_tops_districts_and_no_internal_fields() -> None:
    engine = engine_of("london")
    state = next(s for s in positions(engine, 3, 11) if s["global"]["turn_number"] > 12
                 and any(None in tops for tops in s["seat"]["tops"]) and s["global"]["top_row"])
    lines = screen_text(engine, state, 0)
    text = "\n".join(lines)
    hand = state["seat"]["hand"][0]
    assert f"Your hand ({len(hand)}):" in text
    start = next(k for k, line in enumerate(lines) if line.startswith("  Your hand ("))
    cards = engine.game.world.components["card"]
    for k, card in enumerate(hand):
        line = lines[start + 1 + k].strip()
        assert line.startswith(str(cards.attr_values["name"][card]) + " (")
        assert cards.attr_values["colour"][card] in line or "poor card" in line
    assert f"cards in the deck: {len(state['global']['deck'])}" in text
    assert "development board, upper row:" in text and "districts for sale:" in text
    assert "face down" in text  # a face-down pile top is said so, not 'none'
    for internal in ("final turns", "hand poverty free", "activated", "swap ready", "turn number", "removed"):
        assert internal not in text
    # The other seats' hands are counts; the screen says nothing of their cards.
    assert "hidden" not in text.split("Your hand")[0] or "cards in the deck" in text
    assert re.search(r"An activation now ends with \+\d+ poverty", text)


def test_screens_show_nothing_hidden_twin_states_give_the_same_screen() -> None:
    engine = engine_of("london")
    state = next(s for s in positions(engine, 3, 6) if s["global"]["turn_number"] > 6)
    twin = copy_state(state)
    # Swap a card of seat 0's hand with the deck's top: only seat 0 may tell the two apart.
    hand, deck = twin["seat"]["hand"][0], twin["global"]["deck"]
    swap_alike(engine, "card", hand, 0, deck, last=False)
    for seat in (1, 2, None):
        assert screen_text(engine, state, seat) == screen_text(engine, twin, seat)
    assert screen_text(engine, state, 0) != screen_text(engine, twin, 0)


def test_a_game_without_a_board_does_not_list_a_long_supply_on_every_screen(tmp_path: Path) -> None:
    engine = lang_engine(tmp_path, "phase main:\n    supply = kinds\n    choose x from [1, 2] by seats[0] \"Pick\"\n"
                         "    end winners seats\n",
                         seat={"coins": ("int", 0)}, tables={"kinds": [f"tile{k}" for k in range(84)]},
                         global_={"supply": ("list[str]", []),
                                  "counter": {"type": "int", "initial": 0, "show": False}}, seats=(2, 2))
    state = engine.new_game(2, 1)
    lines = screen_text(engine, state, 0)
    text = "\n".join(lines)
    assert "supply: 84" in text and "tile50" not in text and "counter" not in text and len(lines) < 10
    everything = "\n".join(screen_text(engine, state, 0, everything=True))
    assert "tile50" in everything and "counter: 0" in everything


def test_downtown_shows_the_supply_and_says_when_the_last_round_has_come() -> None:
    engine = engine_of("downtown")
    first = screen_text(engine, engine.new_game(3, 1), 0)
    assert any(line.startswith("  plaques left (square/rect): park ") for line in first)
    assert not any("Last round" in line for line in first)
    last = next(s for s in positions(engine, 3, 1)
                if all(p is not None or lot in s["global"]["revealed"]
                       for lot, p in enumerate(s["node"]["plaque"])) and s["global"]["revealed"])
    assert any("Last round" in line for line in screen_text(engine, last, 0))


def test_changes_since_the_last_turn_are_marked_on_the_board() -> None:
    engine = engine_of("city")
    screens = Screens(engine, strict=True)
    states = [copy_state(s) for s in positions(engine, 3, 3, every=4)][10:12]
    before, now = view(engine, states[0], 0), view(engine, states[1], 0)
    badges = screens.badges(now, masked_from_view(engine, now))
    lines = screens.board(now, masked_from_view(engine, now), before, 80)
    changed = [line for line in lines if any(span.style == "reverse" for span in line.spans)]
    assert changed and "changed since your last turn" in " ".join(line.plain for line in lines)
    assert badges


def test_colour_on_a_terminal_and_plain_text_with_no_color_or_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = engine_of("downtown")
    state = engine.new_game(3, 2)
    lines = Screens(engine).main(view(engine, state, 0), 0, None, 100)
    coloured = io.StringIO()
    Output(console=Console(file=coloured, force_terminal=True, color_system="truecolor", width=100)).lines(lines)
    assert "\x1b[" in coloured.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    console = terminal_console()
    assert console is not None and console.color_system is None
    monkeypatch.delenv("NO_COLOR")
    console = terminal_console()  # pytest's output is not a terminal
    assert console is not None and console.color_system is None
    plain = io.StringIO()
    Output(console=Console(file=plain, color_system=None, width=100)).lines(lines)
    assert "\x1b" not in plain.getvalue() and "plaques left" in plain.getvalue()
