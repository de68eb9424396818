"""Components: kinds of game pieces (cards, tiles...) listed in their own file, each a type."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from interpreter.core.engine import Engine
from interpreter.core.state import from_json, to_json
from interpreter.core.view import HIDDEN, view
from interpreter.load.loader import check_game
from interpreter.play.frame import as_text
from interpreter.play.info import info
from interpreter.play.screen import Screens

GAME = """\
name: cards
title: Cards
seats: {min: 2, max: 3}
rules: [main.rules]
start: main
components:
  card: {file: cards.yaml, collection: all_cards}
state:
  seat:
    hand: {type: "list[card]", initial: [], visible: owner}
  global:
    deck: {type: "list[card]", initial: []}
    shown: {type: "card?", initial: crown}
  card:
    face_up: {type: bool, initial: true}
"""
CARDS = """\
items:
  - {id: coin, copies: 5, colour: brown, value: 2}
  - {id: crown, colour: blue, value: 5}
"""
RULES = """\
phase main:
    deck = [c for c in all_cards if c != shown]
    shuffle deck
    for s in seats:
        draw c from deck
        add c to s.hand
    # allow: empty-options. Six cards, one shown, at most three drawn: two are always left.
    choose pick from deck by seats[0] "Take which card?"
    pick.face_up = false
    log took(card=pick, cards=deck) "took {pick} ({pick.colour}, worth {pick.value})"
    end winners seats
"""


def make(folder: Path, rules: str = RULES, game: str = GAME, cards: str = CARDS) -> tuple[Any, list[Any]]:
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    (folder / "cards.yaml").write_text(cards, encoding="utf-8")
    (folder / "main.rules").write_text(textwrap.dedent(rules), encoding="utf-8")
    game_obj, diags, _ = check_game(folder)
    return game_obj, diags


def test_copies_become_separate_items_with_their_attributes(tmp_path: Path) -> None:
    game, diags = make(tmp_path)
    assert diags == [] and game is not None
    card = game.world.components["card"]
    assert card.ids == ("coin-1", "coin-2", "coin-3", "coin-4", "coin-5", "crown")
    assert card.attr_values["value"] == (2, 2, 2, 2, 2, 5)
    assert card.collection == "all_cards"


def test_choices_logs_and_views_speak_in_ids_and_hide_hands(tmp_path: Path) -> None:
    game, _ = make(tmp_path)
    engine = Engine(game)
    state = engine.new_game(2, seed=3)
    assert state["global"]["shown"] == 5  # the crown, by index
    d = engine.pending(state)
    ids = [o.id for o in d.options(0)]  # type: ignore[union-attr]
    assert ids and all(i.startswith("pick:coin-") for i in ids)
    other = view(engine, state, 1)["seats"]["hand"]
    assert other[0] == HIDDEN and other[1] != HIDDEN
    state = engine.apply(state, ids[0], 0)
    event = state["log"][-1]
    assert event["data"]["card"] == ids[0][5:] and event["text"].startswith(f"took {ids[0][5:]} (brown, worth 2)")
    assert state["components"]["card"]["face_up"].count(False) == 1
    assert from_json(to_json(state)) == state


@pytest.mark.parametrize("line,needle", [
    ("    all_cards[0].value = 3", "an attribute of every card, fixed in its file"),
    ("    all_cards = []", "fixed by the game"),
    ("    let v = all_cards[0].valeu", "did you mean 'value'?"),
])
def test_attributes_are_read_only_and_misspellings_are_caught(tmp_path: Path, line: str, needle: str) -> None:
    rules = f"phase main:\n{line}\n    end winners seats\n"
    game, diags = make(tmp_path, rules)
    errors = [d for d in diags if d.severity == "error"]
    assert game is None and len(errors) == 1
    text = errors[0].message + " " + (errors[0].hint or "")
    assert needle in text and errors[0].span.line == 2


def test_an_initial_value_must_name_an_existing_item(tmp_path: Path) -> None:
    game, diags = make(tmp_path, game=GAME.replace("initial: crown", "initial: sceptre"))
    assert game is None
    assert any("no card has this id" in d.message for d in diags)


def test_a_component_kind_cannot_take_a_built_in_type_name(tmp_path: Path) -> None:
    game, diags = make(tmp_path, game=GAME.replace("  card: {file", "  node: {file"))
    assert game is None
    assert any(d.code == "reserved-word" for d in diags)


def test_repeated_ids_are_reported_in_the_component_file(tmp_path: Path) -> None:
    game, diags = make(tmp_path, cards=CARDS + "  - {id: crown, colour: red, value: 1}\n")
    assert game is None
    (err,) = [d for d in diags if d.code == "duplicate"]
    assert err.span.file.endswith("cards.yaml") and err.span.line == 4 and "'crown' is used twice" in err.message


ABILITY_GAME = """\
name: abil
title: Abilities
seats: {min: 2, max: 2}
rules: [main.rules]
start: main
components:
  card:
    file: cards.yaml
    collection: all_cards
    abilities: {on_play: "you: seat"}
state:
  seat:
    money: {type: int, initial: 0, ledger: true}
"""
ABILITY_CARDS = """\
items:
  - {id: coin, copies: 2, on_play: "gain 3 to you.money"}
  - id: bank
    on_play: |
      choose amount from [1, 5] by you "How much from the {this}?"
      gain amount to you.money
  - {id: blank}
"""
ABILITY_RULES = """\
phase main:
    for c in all_cards:
        run on_play of c with seats[0]
    end winners seats
"""


def test_abilities_run_from_the_items_file_and_may_wait_for_a_choice(tmp_path: Path) -> None:
    game, diags = make(tmp_path, ABILITY_RULES, ABILITY_GAME, ABILITY_CARDS)
    assert diags == [] and game is not None
    engine = Engine(game)
    state = engine.new_game(2, seed=1)
    d = engine.pending(state)
    assert d.name == "amount" and d.prompt(0) == "How much from the bank?"  # type: ignore[union-attr]
    state = engine.apply(state, "amount:5", 0)
    # Two coins (3 each) ran before the bank; the blank card has no ability and does nothing.
    assert state["seat"]["money"] == [11, 0] and state["result"] is not None


def test_a_mistake_in_ability_code_points_into_the_items_file(tmp_path: Path) -> None:
    cards = ABILITY_CARDS.replace("gain amount to you.money", "gain amount to you.mony")
    game, diags = make(tmp_path, ABILITY_RULES, ABILITY_GAME, cards)
    (err,) = [d for d in diags if d.severity == "error"]
    assert game is None and err.span.file.endswith("cards.yaml")
    assert (err.span.line, err.span.column) == (6, 26) and err.hint == "did you mean 'money'?"
    assert err.code == "unknown-field"


def test_running_an_ability_a_kind_does_not_have_is_reported(tmp_path: Path) -> None:
    rules = ABILITY_RULES.replace("run on_play of c", "run on_ply of c")
    game, diags = make(tmp_path, rules, ABILITY_GAME, ABILITY_CARDS)
    (err,) = [d for d in diags if d.severity == "error"]
    assert err.code == "unknown-name" and err.span.line == 3 and err.hint == "did you mean 'on_play'?"


def test_log_data_names_items_by_id_inside_tuples_and_nested_lists(tmp_path: Path) -> None:
    rules = ("phase main:\n    let pairs = [(c, 1) for c in all_cards]\n    let groups = [[c] for c in all_cards]\n"
             "    log seen(pairs=pairs, groups=groups) \"seen\"\n    end winners seats\n")
    game, diags = make(tmp_path, rules)
    assert game is not None, diags
    data = Engine(game).new_game(2, seed=1)["log"][0]["data"]
    assert data["pairs"][-1] == ["crown", 1] and data["groups"][0] == ["coin-1"]


def test_a_field_may_not_hide_an_attribute_nor_a_collection_a_field(tmp_path: Path) -> None:
    game, diags = make(tmp_path, game=GAME.replace("face_up: {type: bool, initial: true}",
                                                   "value: {type: int, initial: 0}"))
    assert game is None and any("both a card field and an attribute" in d.message for d in diags)
    game, diags = make(tmp_path, game=GAME.replace("collection: all_cards", "collection: deck"))
    assert game is None and any("collection name 'deck' is already" in d.message for d in diags)


def test_places_must_be_fields_that_can_hold_the_items(tmp_path: Path) -> None:
    game, diags = make(tmp_path, game=GAME.replace("collection: all_cards}", "collection: all_cards, places: [hand, score]}"))
    assert game is None
    assert any("'score' is not a seat or global field" in d.message for d in diags)


@pytest.mark.parametrize("back, needle, hint", [
    ("colr", "card items have no attribute 'colr'", "colour"),
    ("id", "a card's id on its back would show which card it is", "colour, value"),
])
def test_a_back_must_be_one_of_the_items_attributes(tmp_path: Path, back: str, needle: str, hint: str) -> None:
    game, diags = make(tmp_path, game=GAME.replace("collection: all_cards}", f"collection: all_cards, back: {back}}}"))
    assert game is None
    [d] = [d for d in diags if d.severity == "error"]
    assert needle in d.message and hint in (d.hint or "") and (Path(d.span.file).name, d.span.line) == ("game.yaml", 7)


def test_a_back_is_what_every_seat_is_told_of_the_hidden_cards(tmp_path: Path) -> None:
    """`back: colour`: the view and the screen count each colour in a hidden hand or deck whose
    size is public, and nothing of a hand the seat sees."""
    game_text = (GAME.replace("collection: all_cards}", "collection: all_cards, back: colour}")
                 .replace("visible: owner}", "visible: owner, public_size: true}")
                 .replace('deck: {type: "list[card]", initial: []}',
                          'deck: {type: "list[card]", initial: [], visible: nobody, public_size: true}'))
    game, diags = make(tmp_path, game=game_text, cards=CARDS + "  - {id: gem, copies: 3, colour: red, value: 3}\n")
    assert game is not None, diags
    assert game.component_backs == {"card": "colour"}
    engine = Engine(game)
    state = engine.new_game(2, seed=3)
    colour = game.world.components["card"].attr_values["colour"]

    def counted(cards: list[int]) -> list[list[object]]:
        return [[c, sum(colour[x] == c for x in cards)] for c in sorted({colour[x] for x in cards})]

    deck, hands = state["global"]["deck"], state["seat"]["hand"]
    assert len({colour[c] for c in deck}) == 2
    shown = view(engine, state, 0)
    assert shown["global"]["deck"] == [HIDDEN] * len(deck)
    assert shown["backs"] == {"global.deck": counted(deck), "seat.hand": [None, counted(hands[1])]}
    text = as_text(Screens(engine).main(shown, 0))
    deck_backs = f" ({', '.join(f'{c} {n}' for c, n in counted(deck))})"
    assert deck_backs in text
    # `info` says the same of the deck and of the other seat's hand, and nothing of the seat's own.
    said = as_text(info(Screens(engine), shown, "deck"))
    assert f"{len(deck)} hidden{deck_backs}" in said
    other = f" ({', '.join(f'{c} {n}' for c, n in counted(hands[1]))})"
    said = as_text(info(Screens(engine), shown, "hand"))
    own = next(line for line in said.splitlines() if line.strip().startswith("Ana:"))
    assert f"Ben: 1 hidden{other}" in said and "(" not in own
    assert view(engine, state, None)["backs"]["seat.hand"] == [counted(hands[0]), counted(hands[1])]


def test_folded_ability_code_is_refused_where_it_is_written(tmp_path: Path) -> None:
    cards = ABILITY_CARDS.replace("on_play: |", "on_play: >", 1)
    assert cards != ABILITY_CARDS
    game, diags = make(tmp_path, ABILITY_RULES, ABILITY_GAME, cards)
    (err,) = [d for d in diags if d.severity == "error"]
    assert err.span.file.endswith("cards.yaml") and err.code == "syntax"
    line = cards.splitlines()[err.span.line - 1]
    assert line[err.span.column - 1] == ">"
    assert err.hint is not None and "'|'" in err.hint
