"""Tests for interpreter.load.schema_check and the game/board schemas."""

from __future__ import annotations

import pytest

from interpreter.load.schema_check import SchemaName, check_schema, load_schema
from interpreter.load.yamlsource import PositionMap, load_yaml_text
from ruledsl.diagnostics import Diagnostic
from ruledsl.types import TypeSyntaxError, parse_type

GAME = """\
name: downtown
title: Downtown
seats: {min: 3, max: 6}
rules: [round.rules]
start: game
state:
  seat:
    money: {type: int, initial: 10}
"""

FULL_GAME = """\
name: downtown-2
title: Downtown
credits: "Someone, 1990"
seats: {min: 3, max: 6}
currency: money
board: board.yaml
rules: [round.rules, scoring.rules]
start: game
options:
  short-game:
    description: Play six rounds
    values: {rounds: 6}
state:
  seat:
    money: {type: int, initial: 10, visible: owner, ledger: true}
    hand: {type: "list[str]", initial: [], visible: nobody, description: Cards}
  global:
    round: {type: int, initial: 1}
    scores: {type: "map[int, list[seat?]]", initial: {}}
  node:
    owner: {type: "seat?", initial: null}
tables:
  payout: {3: 3, 4: 3}
  names: [a, b]
"""

BOARD = """\
reconstructed: true
note: from a photo
directed: false
nodes:
  - {id: 1, shape: rect, side: west, cells: [[0, 0], [1, 0]]}
  - {id: b, tags: [corner, [x, 2]]}
edges:
  - [1, b]
  - {from: b, to: 1, cost: 2}
"""


def check(text: str, schema: SchemaName = "game") -> list[Diagnostic]:
    data, positions, diagnostics = load_yaml_text(text, f"{schema}.yaml")
    assert diagnostics == []
    return check_schema(data, positions, schema, f"{schema}.yaml")


def summary(diagnostics: list[Diagnostic]) -> list[tuple[int, int, str]]:
    assert all(d.code == "schema" and d.severity == "error" for d in diagnostics)
    return [(d.span.line, d.span.column, d.message) for d in diagnostics]


@pytest.mark.parametrize(("text", "schema"), [(GAME, "game"), (FULL_GAME, "game"), (BOARD, "board")])
def test_valid_files_pass(text: str, schema: SchemaName) -> None:
    assert check(text, schema) == []


def test_minimal_board_passes() -> None:
    assert check("nodes: [{id: 1}]\n", "board") == []


def test_schemas_are_package_data() -> None:
    assert load_schema("game")["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert load_schema("board")["additionalProperties"] is False


def test_wrong_type_points_at_the_value() -> None:
    text = GAME.replace("{min: 3, max: 6}", "{min: four, max: 6}")
    assert summary(check(text)) == [(3, 14, "'seats.min' must be a whole number, got \"four\"")]


def test_unknown_key_points_at_the_key_with_suggestion() -> None:
    (diag,) = check(GAME.replace("title:", "titel:") + "title: Downtown\n")
    assert (diag.span.line, diag.span.column, diag.span.end_column) == (2, 1, 5)
    assert diag.message == "unknown key 'titel'"
    assert diag.hint == "did you mean 'title'?"


def test_unknown_nested_key() -> None:
    (diag,) = check(GAME.replace("seats: {min: 3, max: 6}", "seats: {min: 3, mx: 6, max: 6}"))
    assert (diag.span.line, diag.span.column) == (3, 17)
    assert diag.message == "unknown key 'mx' in 'seats'"
    assert diag.hint == "did you mean 'max'?"


def test_missing_required_key_points_at_the_mapping() -> None:
    text = GAME.replace("rules: [round.rules]\n", "")
    assert summary(check(text)) == [(1, 1, "missing required key 'rules'")]
    nested = GAME.replace("money: {type: int, initial: 10}", "money: {type: int}")
    assert summary(check(nested)) == [(8, 12, "missing required key 'initial' in 'state.seat.money'")]


def test_every_error_is_reported_in_position_order() -> None:
    text = """\
name: Downtown
title: 7
seats: {min: 0, max: 13}
rules: [round.txt]
start: game
state:
  seat:
    Money: {type: integer, initial: 1, visible: public}
  global:
    round: {type: int, initial: 1, ledger: true}
"""
    got = summary(check(text))
    assert got == [
        (
            1,
            7,
            "'name' must be a lowercase name (letters a-z, digits, _ and -, starting with a letter), got \"Downtown\"",
        ),
        (2, 8, "'title' must be text, got 7"),
        (3, 14, "'seats.min' must be at least 1, got 0"),
        (3, 22, "'seats.max' must be at most 12, got 13"),
        (4, 9, "'rules[0]' must be a file name in the game folder ending in .rules, got \"round.txt\""),
        (
            8,
            5,
            "'Money' is not a valid name in 'state.seat': it must be a lowercase name "
            "(letters a-z, digits and _, not starting with a digit)",
        ),
        # Type names are checked by the loader, which knows the game's component kinds.
        (8, 49, "'state.seat.Money.visible' must be one of all, owner, nobody, got \"public\""),
        (10, 44, "'state.global.round.ledger' is not allowed: only seat fields can have a ledger"),
    ]


def test_enum_hint_and_owner_only_for_seats() -> None:
    text = GAME + "  global:\n    round: {type: int, initial: 1, visible: owner}\n"
    text += "    top: {type: int, initial: 1, visible: nobdy}\n"
    owner, typo = check(text)
    assert owner.hint == "'owner' only makes sense for seat fields"
    assert typo.hint == "did you mean 'nobody'?"


def test_empty_rules_and_bool_title() -> None:
    text = GAME.replace("rules: [round.rules]", "rules: []").replace("title: Downtown", "title: yes")
    title, rules = check(text)
    assert (title.span.line, title.span.column, title.message) == (2, 8, "'title' must be text, got true")
    assert title.hint is not None and "quotes" in title.hint
    assert (rules.span.line, rules.message) == (4, "'rules' must not be empty")


@pytest.mark.parametrize("type_string", ["int", "bool?", "list[node]", "map[str, int]", "map[int, list[seat?]]?"])
def test_type_strings_accepted(type_string: str) -> None:
    assert check(GAME.replace("type: int", f'type: "{type_string}"')) == []


@pytest.mark.parametrize("type_string", ["integer", "list[int", "map[node, int]", "int??", "list[]"])
def test_type_strings_rejected(type_string: str) -> None:
    # The schema only checks the characters; the loader parses the type with the game's own
    # component kinds and reports it at the field (see test_load_checks).
    with pytest.raises(TypeSyntaxError):
        parse_type(type_string)


def test_type_strings_with_strange_characters_are_rejected_by_the_schema() -> None:
    (diag,) = check(GAME.replace("type: int", 'type: "int; drop"'))
    assert diag.span.line == 8 and "must be a type such as" in diag.message


def test_non_string_table_name() -> None:
    (diag,) = check(GAME + "tables:\n  3: x\n")
    assert (diag.span.line, diag.span.column) == (10, 3)
    assert diag.message.startswith("3 is not a valid name in 'tables'")


def test_whole_file_of_the_wrong_kind() -> None:
    assert summary(check("- 1\n")) == [(1, 1, "the file must be a mapping (key: value pairs), got [1]")]
    assert summary(check("")) == [(1, 1, "the file must be a mapping (key: value pairs), got nothing")]


def test_board_errors_pick_the_relevant_branch() -> None:
    text = """\
nodes:
  - {id: 1, cells: [[0, 0], [1]]}
  - {id: [2], shape: {a: 1}}
  - {shape: rect}
edges:
  - [1]
  - {from: 1, to: [2]}
  - {from: 1}
  - 7
"""
    assert summary(check(text, "board")) == [
        (2, 29, "'nodes[0].cells[1]' must be a [row, column] pair of whole numbers from 0 to 99, got [1]"),
        (3, 10, "'nodes[1].id' must be a node id (a whole number or a name), got [2]"),
        (3, 22, "'nodes[1].shape' must be a single value or a list of values, got {\"a\": 1}"),
        (4, 5, "missing required key 'id' in 'nodes[2]'"),
        (6, 5, "'edges[0]' must be an edge: [a, b] or {from: a, to: b}, got [1]"),
        (7, 19, "'edges[1].to' must be a node id (a whole number or a name), got [2]"),
        (8, 5, "missing required key 'to' in 'edges[2]'"),
        (9, 5, "'edges[3]' must be an edge: [a, b] or {from: a, to: b}, got 7"),
    ]


def test_board_top_level_typo_and_empty_nodes() -> None:
    got = check("nodes: []\ndirectd: true\n", "board")
    assert summary(got) == [(1, 8, "'nodes' must not be empty"), (2, 1, "unknown key 'directd'")]
    assert got[1].hint == "did you mean 'directed'?"


def test_data_without_positions_still_gets_diagnostics() -> None:
    (diag,) = check_schema({"nodes": "x"}, PositionMap("board.yaml"), "board", "board.yaml")
    assert (diag.span.file, diag.span.line, diag.span.column) == ("board.yaml", 1, 1)
    assert diag.message == "'nodes' must be a list, got \"x\""
