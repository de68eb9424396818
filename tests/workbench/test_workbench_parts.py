"""The parts of the scenario workbench: names and values, pieces kept in one place, fixed chance,
the events window, `auto`; and the engine's chance hook, which changes nothing else."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
from interpreter.load.yamlsource import load_yaml_text
from interpreter.workbench.chance import ForcedChance
from interpreter.workbench.events import EventMatcher
from interpreter.workbench.names import Names
from interpreter.workbench.places import Placer, PlacingStep
from interpreter.workbench.runner import Run
from interpreter.workbench.scenario import parse
from interpreter.workbench.where import Problem, Y
from workbench_helpers import HARBOUR


def y(text: str) -> Y:
    """A YAML value with positions, as a scenario file gives it."""
    data, pos, diags = load_yaml_text(textwrap.dedent(text), "s.yaml")
    assert not diags
    return Y(data, (), pos)


@pytest.fixture(scope="module")
def harbour() -> Any:
    return load_game(str(HARBOUR))


@pytest.fixture(scope="module")
def london() -> Any:
    return load_game("london")


# ------------------------------------------------------------------------- names and values

def test_field_paths_name_global_seat_node_and_item_fields(harbour: Any, london: Any) -> None:
    n = Names(harbour, ["Ana", "Ben"])
    [t] = n.targets(y("Ben.coins"))
    assert (t.owner, t.field, t.index, t.keys, str(t.type)) == ("seat", "coins", 1, (), "int")
    [t] = n.targets(y("q3.owner"))
    assert (t.owner, t.index, str(t.type)) == ("node", 2, "seat?")
    assert [t.text for t in n.targets(y("nodes.owner"))][:2] == ["q1.owner", "q2.owner"]
    assert len(n.targets(y("seats.hold"))) == 2
    [t] = n.targets(y("docked"))
    assert (t.owner, str(t.type)) == ("global", "ship?")
    m = Names(london, ["Ana", "Ben"])
    [t] = m.targets(y("hospital-b.face_up"))
    assert (t.owner, t.field, str(t.type)) == ("card", "face_up", "bool")
    assert len(m.targets(y("city_cards.placed_turn"))) == 101
    [t] = m.targets(y("Ana.piles.0.1"))
    assert (t.keys, str(t.type)) == ((0, 1), "card")


@pytest.mark.parametrize("path, code, message", [
    ("Anna.coins", "unknown-name", "'Anna' is not a field, a seat, a node or an item (did you mean 'Ana'?)"),
    ("Ben.coin", "unknown-field", "seats have no field 'coin' (did you mean 'coins'?)"),
    ("rounds", "unknown-field", "no global field 'rounds' (did you mean 'round'?)"),
    ("q1.zone", "unknown-field", "nodes have no field 'zone'"),
    ("Ana.coins.2", "type", "'2': coins is an int, which has no parts"),
    ("Ana.hold.first", "type", "'first': a list[ship] is read by position, a number from 0"),
])
def test_wrong_paths_say_why(harbour: Any, path: str, code: str, message: str) -> None:
    with pytest.raises(Problem) as err:
        Names(harbour, ["Ana", "Ben"]).targets(y(path))
    d = err.value.diagnostic
    assert d.code == code
    assert (d.message + (f" ({d.hint})" if d.hint else "")).startswith(message)


def test_values_are_written_as_in_the_yaml_files_and_shown_back_so(harbour: Any) -> None:
    n = Names(harbour, ["Ana", "Ben"])
    [hold] = n.targets(y("Ana.hold"))
    assert n.value(y("[fish-1, spice-2]"), hold.type) == [0, 8]
    assert n.show([0, 8], hold.type) == "[fish-1, spice-2]"
    [owner] = n.targets(y("q1.owner"))
    assert n.value(y("Ben"), owner.type) == 1 and n.value(y("1"), owner.type) == 1
    assert n.value(y("null"), owner.type) is None and n.show(None, owner.type) == "null"
    with pytest.raises(Problem, match="no ship has the id fish-9"):
        n.value(y("[fish-9]"), hold.type)
    with pytest.raises(Problem, match="no seat called Cy"):
        n.value(y("Cy"), owner.type)
    [coins] = n.targets(y("Ana.coins"))
    with pytest.raises(Problem, match=r"this must be an int, not a text \(three\)"):
        n.value(y("three"), coins.type)
    with pytest.raises(Problem, match="not null"):
        n.value(y("null"), coins.type)


# ------------------------------------------------------------------------------ pieces

def test_putting_pieces_somewhere_takes_them_from_where_they_were(london: Any) -> None:
    state = Engine(london).new_game(2, seed=1)
    n = Names(london, ["Ana", "Ben"])
    placer = Placer(london, n)
    card = n.ids["card"]
    old_hand = list(state["seat"]["hand"][0])
    ben_card = state["seat"]["hand"][1][0]
    step = PlacingStep()
    [hand] = n.targets(y("Ana.hand"))
    placer.assign(state, hand, [card["hospital-b"], ben_card], y("x"), step)
    placer.finish(state, step)
    assert state["seat"]["hand"][0] == [card["hospital-b"], ben_card]
    assert ben_card not in state["seat"]["hand"][1]
    assert card["hospital-b"] not in state["global"]["deck"]
    assert state["global"]["deck"][-len(old_hand):] == old_hand      # the old hand: bottom of the deck
    assert placer.misplaced(state) == []
    # The same card twice in one step is a mistake of the scenario.
    again = PlacingStep()
    placer.assign(state, hand, [card["grocers-a"]], y("x"), again)
    [ben] = n.targets(y("Ben.hand"))
    with pytest.raises(Problem, match="grocers-a is put in two places by this step"):
        placer.assign(state, ben, [card["grocers-a"]], y("x"), again)


def test_emptied_places_send_their_pieces_to_the_first_place_not_emptied(london: Any) -> None:
    state = Engine(london).new_game(2, seed=1)
    n = Names(london, ["Ana", "Ben"])
    placer = Placer(london, n)
    step = PlacingStep()
    for path in ("deck", "top_row", "bottom_row"):
        [t] = n.targets(y(path))
        placer.assign(state, t, [], y("x"), step)
    placer.finish(state, step)
    assert state["global"]["deck"] == [] and len(state["global"]["removed"]) == 101 - 12
    assert placer.misplaced(state) == []


def test_taking_the_last_card_of_a_pile_removes_the_pile(london: Any) -> None:
    state = Engine(london).new_game(2, seed=1)
    n = Names(london, ["Ana", "Ben"])
    placer = Placer(london, n)
    card = n.ids["card"]
    step = PlacingStep()
    [piles] = n.targets(y("Ben.piles"))
    placer.assign(state, piles, [[card["lords-b"]], [card["hospital-b"], card["grocers-a"]]], y("x"), step)
    [hand] = n.targets(y("Ana.hand"))
    placer.assign(state, hand, [card["lords-b"]], y("x"), PlacingStep())
    assert state["seat"]["piles"][1] == [[card["hospital-b"], card["grocers-a"]]]


# ---------------------------------------------------------------------------- fixed chance

DICE_GAME = {
    "game.yaml": """\
        name: dice
        title: Dice
        seats: {min: 2, max: 2}
        rules: [dice.rules]
        start: game
        state:
          global:
            deck: {type: "list[int]", initial: [1, 2, 3, 4, 5, 6, 7, 8]}
            rolled: {type: "list[int]", initial: []}
            faces: {type: "list[list[int]]", initial: []}
        tables:
          die: [1, 2, 3, 4, 5, 6]
          special: [[1], [2], [1, 2, 3]]
        """,
    "dice.rules": """\
        phase game:
            roll a from die
            shuffle deck
            roll b from die
            roll c from special
            rolled = [a, b]
            add c to faces
            choose go from [1, 2] by seats[0]
            end winners seats
        """,
}


@pytest.fixture(scope="module")
def dice(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("dice")
    for name, text in DICE_GAME.items():
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return load_game(str(folder))


@pytest.mark.parametrize("seed", range(5))
def test_a_fixed_roll_changes_that_roll_and_nothing_else(dice: Any, seed: int) -> None:
    free = Engine(dice).new_game(2, seed=seed)
    engine = Engine(dice)
    engine.chance = chance = ForcedChance(Names(dice, ["Ana", "Ben"]))
    face = 6 if free["global"]["rolled"][0] != 6 else 5
    chance.add_rolls((y(str(face)),))
    forced = engine.new_game(2, seed=seed)
    assert forced["global"]["rolled"] == [face, free["global"]["rolled"][1]]
    assert forced["global"]["deck"] == free["global"]["deck"]
    assert forced["rng"] == free["rng"]
    assert chance.unused() == [] and chance.problems == []


def test_a_fixed_shuffle_puts_the_elements_first_and_keeps_the_rest_in_the_seeded_order(dice: Any) -> None:
    free = Engine(dice).new_game(2, seed=3)
    engine = Engine(dice)
    engine.chance = chance = ForcedChance(Names(dice, ["Ana", "Ben"]))
    chance.add_shuffle(y("deck"), y("[8, 7]"))
    chance.add_rolls((y("1+2+3"),))   # a face that is a list is written joined by +
    chance.add_rolls((y("4"),))
    chance.add_rolls((y("[[1, 2, 3]]").at(0),))
    state = engine.new_game(2, seed=3)
    assert state["global"]["deck"] == [8, 7] + [v for v in free["global"]["deck"] if v not in (7, 8)]
    # The rolls are used in order: a, b, c. "1+2+3" is not a face of the plain die.
    assert [p.message for p in chance.problems] == ["the rules roll from 1, 2, 3, 4, 5, 6: 1+2+3 is not one of them"]
    assert state["global"]["rolled"][1] == 4
    assert state["global"]["faces"] == [[1, 2, 3]]


def test_without_a_hook_the_engine_plays_as_it_always_did(dice: Any) -> None:
    assert Engine(dice).chance is None
    assert Engine(dice).new_game(2, seed=9) == Engine(dice).new_game(2, seed=9)


# --------------------------------------------------------------------------- events

def test_expected_events_are_a_subsequence_and_seats_may_be_named(harbour: Any) -> None:
    log = [{"kind": "offer", "data": {"seat": 0, "coins": 1}, "seats": [0]},
           {"kind": "offer", "data": {"seat": 1, "coins": 3}, "seats": [1]},
           {"kind": "buy", "data": {"seat": 1, "ship": "fish-1", "coins": 3}, "seats": [1]}]
    events = EventMatcher(Names(harbour, ["Ana", "Ben"]), log)
    assert events.match(y("[{offer: {seat: Ben}}, buy]")) == []
    assert events.absent(y("[buy]")) == []                         # the buy was expected
    [extra] = events.absent(y("[offer]"))                          # Ana's offer was not
    assert extra.diagnostic.message == "1 'offer' event(s) happened since the last check besides those expected"
    assert extra.details == ("offer {seat: 0, coins: 1}",)
    fresh = EventMatcher(Names(harbour, ["Ana", "Ben"]), log)
    [missing] = fresh.match(y("[buy, {offer: {seat: 1}}]"))         # order matters
    assert missing.diagnostic.message.startswith("no event offer {seat: 1}")
    # A number that is not a seat of the event is not matched by a seat's name.
    assert EventMatcher(Names(harbour, ["Ana", "Ben"]), log).match(y("[{buy: {coins: Ben}}]")) != []


# ----------------------------------------------------------------------------- auto

def test_auto_counts_each_decision_once_however_many_seats_answer_it(harbour: Any) -> None:
    scenarios, problems = parse(*_data("""\
        scenarios:
          - name: two rounds of offers
            seats: 3
            steps:
              - auto: {until: offer, count: 2}
              - expect: {fields: {round: 2}, decision: offer, asks: [Ana, Ben, Chloé]}
        """))
    assert not problems
    assert Run(harbour, scenarios[0]).play() == []


def _data(text: str) -> tuple[Any, Any]:
    data, pos, diags = load_yaml_text(textwrap.dedent(text), "s.yaml")
    assert not diags
    return data, pos


def test_shape_problems_of_a_scenario_file(tmp_path: Path) -> None:
    _, problems = parse(*_data("""\
        scenarios:
          - name: a
          - name: a
          - name: b
            steps: [{play: x:1, expect: {}}]
          - name: c
            steps: [{expectt: {}}]
          - {name: d, seats: two}
        """))
    assert [(d.span.line, d.code, d.message) for d in problems] == [
        (3, "duplicate", "two scenarios are called 'a' (the first at line 2)"),
        (5, "schema", "a step is an option to play, or a mapping with one key: play, set, roll, shuffle, auto, expect"),
        (7, "schema", "unknown step 'expectt'"),
        (8, "schema", "this must be a whole number, not a text"),
    ]
