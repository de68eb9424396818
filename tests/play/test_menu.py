"""One numbering on the screen, and a typed answer that always means the option the player named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent, bot_seed
from interpreter.core.decision import Decision, Option
from interpreter.core.engine import Engine
from interpreter.load.loader import load_game, shipped_games
from interpreter.play.menu import Menu
from play_helpers import cli

LOTS = tuple(Option(f"target:{n}", str(n)) for n in (1, 3, 9, 12))
PILES = (Option("pile:-1", "new pile"), Option("pile:0", "cover pile 1 (Mercers)"),
         Option("pile:1", "cover pile 2 (Grocers)"))


def test_options_named_by_numbers_are_typed_by_name_and_not_numbered() -> None:
    menu = Menu.of(LOTS)
    assert menu.mode == "names"
    assert menu.parse("9") == LOTS[2]        # the lot called 9, not the 9th option
    assert menu.parse("3") == LOTS[1]        # not the third option (lot 9)
    assert menu.parse("2") is None           # no lot 2 here, whatever the positions
    assert menu.parse("4") is None
    assert menu.parse("target:12") == LOTS[3]
    text = "\n".join(menu.lines())
    assert "1." not in text and "4." not in text  # one numbering: the names, not positions too


def test_options_with_text_labels_are_numbered_and_a_number_is_a_position() -> None:
    menu = Menu.of(PILES)
    assert menu.mode == "numbers"
    assert menu.lines() == ["  1. new pile", "  2. cover pile 1 (Mercers)", "  3. cover pile 2 (Grocers)"]
    assert menu.parse("1") == PILES[0]
    assert menu.parse("2") == PILES[1]
    # The id's own numbers are not what the screen shows: bare, they mean nothing; whole ids work.
    assert menu.parse("0") is None and menu.parse("-1") is None
    assert menu.parse("pile:1") == PILES[2]
    assert menu.parse("new") == PILES[0]
    assert menu.parse("cover") is None       # two labels start so: ambiguous, refused


def test_labels_that_repeat_a_number_are_lettered() -> None:
    options = (Option("x:a", "3"), Option("x:b", "3"), Option("x:c", "stop"))
    menu = Menu.of(options)
    assert menu.mode == "letters"
    assert menu.lines() == ["  a) 3", "  b) 3", "  c) stop"]
    assert menu.parse("b") == options[1]
    assert menu.parse("3") is None
    assert menu.parse("stop") == options[2]


def test_two_options_with_one_label_are_not_guessed() -> None:
    options = (Option("c:school-a", "School"), Option("c:school-b", "School"))
    menu = Menu.of(options)
    assert menu.parse("School") is None
    assert menu.parse("2") == options[1]
    assert menu.parse("c:school-a") == options[0]


@pytest.mark.parametrize("typed", ["١", "٣", "²", "³", "１", "9" * 5000, "-" + "9" * 5000, "1e3", "0x9", " ", "\x1b[2J"])
def test_garbage_is_no_option_and_no_crash(typed: str) -> None:
    assert Menu.of(LOTS).parse(typed) is None
    assert Menu.of(PILES).parse(typed) is None


def _decisions(name: str, games: int = 4, cap: int = 5000) -> list[Decision]:
    """The decisions of a few seeded bot games, each kind once with several options."""
    engine = Engine(load_game(name))
    found: dict[str, Decision] = {}
    for seed in range(games):
        seats = engine.game.min_seats + 1
        state = engine.new_game(seats, seed)
        bots = [RandomAgent(bot_seed(seed, s)) for s in range(seats)]
        while state["result"] is None and state["decisions"] < cap:
            d = engine.pending(state)
            assert isinstance(d, Decision)
            seat = d.seats[0]
            if len(d.options(seat)) > 1 and (d.name not in found or len(d.options(seat)) > 3):
                found[d.name] = Decision(d.name, (seat,), d.secret, d.simultaneous, d.prompts,
                                         {seat: d.options(seat)})
            engine.apply_index(state, seat, bots[seat].pick(engine, state, seat))
    return list(found.values())


@pytest.mark.parametrize("name", shipped_games())
def test_every_option_of_every_shipped_game_is_picked_by_what_the_screen_shows(name: str) -> None:
    named_by_number = 0
    for d in _decisions(name):
        options = d.options(d.seats[0])
        menu = Menu.of(options)
        shown = "\n".join(menu.lines())
        for key, option in zip(menu.keys, options):
            assert key in shown
            assert menu.parse(key) == option, f"{d.name}: typing {key!r} gave another option"
            if option.label.lstrip("-").isdigit():
                named_by_number += 1
                assert menu.parse(option.label) == option, f"{d.name}: the number {option.label} is its name"
    if name in ("downtown", "london"):  # lots and counts in Downtown, card counts in London
        assert named_by_number, "no option named by a number was met: nothing was checked"


def test_a_name_that_fits_several_options_says_which_they_are() -> None:
    cards = (Option("card:poor-law", "Poor Law"), Option("card:poorhouse", "Poorhouse"), Option("card:park", "Park"))
    menu = Menu.of(cards)
    assert menu.parse("Poor") is None
    assert menu.candidates("Poor") == list(cards[:2])
    said = menu.several("Poor", menu.candidates("Poor"))
    assert said == "'Poor' matches 1 and 2 (1. Poor Law; 2. Poorhouse): type its number, or more of its name."
    assert menu.candidates("poorh") == [cards[1]] and menu.candidates("pa") == [cards[2]]
    assert menu.candidates("zoo") == [] and menu.candidates("") == []


def test_a_typed_answer_that_fits_several_options_is_asked_again_with_them_named(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text(
        "name: poor\ntitle: Poor\nseats: {min: 2, max: 2}\nrules: [main.rules]\nstart: main\n"
        "tables:\n  places: [Poor Law, Poorhouse, Park]\n"
        "state:\n  seat:\n    score: {type: int, initial: 0}\n", encoding="utf-8")
    (tmp_path / "main.rules").write_text(
        "phase main:\n"
        "    choose x from places by seats[0] \"Where to?\"\n"
        "    log \"{seats[0]} picks {x}\"\n"
        "    end winners seats\n", encoding="utf-8")
    journal = tmp_path / "j.json"
    run = cli("play", str(tmp_path), "--seats", "human,random", "--journal", str(journal), stdin="Poor\nPoorh\n")
    assert run.returncode == 0, run.stderr
    assert "'Poor' matches 1 and 2 (1. Poor Law; 2. Poorhouse)" in run.stdout
    assert "not one of the options" not in run.stdout
    assert json.loads(journal.read_text())["choices"] == [[0, "x:Poorhouse"]]
