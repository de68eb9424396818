"""A wrong value in the data is reported where it is written.

When the rules use a value with the wrong type and that type comes from the data (a table, a
board attribute, an item attribute) or from a field's declaration, the error at the rules line
carries a related note that points at the data's file, line and column. An attribute whose value
has another kind than the same attribute of the other nodes or items is an error at its own line.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
import yaml

from interpreter.cli import main
from interpreter.load.loader import check_game, games_root
from lang_helpers import LINE_BOARD, errors, write_game
from ruledsl.diagnostics import Diagnostic, Related, render


def the_error(folder: Path) -> tuple[Diagnostic, dict[str, str]]:
    """The one error of a game folder, with the sources read."""
    game, diags, sources = check_game(folder)
    found = errors(diags)
    assert len(found) == 1, found
    assert game is None
    return found[0], sources


def the_note(folder: Path, message: str) -> Related:
    """The note of the one error of a game folder, which has this message and one note."""
    d, _ = the_error(folder)
    assert d.message == message
    [note] = d.related
    return note


def line_of(folder: Path, file: str, span_line: int) -> str:
    return (folder / file).read_text(encoding="utf-8").splitlines()[span_line - 1]


def at(note: Related, folder: Path, file: str, text: str) -> None:
    """The note points at `text` written in `file` (its line, and its column exactly)."""
    assert note.span.file.endswith(file), note
    line = line_of(folder, file, note.span.line)
    assert line[note.span.column - 1:].startswith(text), (line, note)
    assert note.span.end_column - note.span.column + 1 == len(text), note


# ------------------------------------------------------------------------------------ tables

def test_a_table_holding_text_where_a_number_is_used(tmp_path: Path) -> None:
    write_game(tmp_path, "phase main:\n    let n = rounds * 2\n    end winners seats\n",
               tables={"rounds": "four"})
    d, sources = the_error(tmp_path)
    assert (d.code, d.message) == ("type", "the left side of '*' must be int, not str")
    assert d.span.file.endswith("x.rules") and d.span.line == 2
    [note] = d.related
    at(note, tmp_path, "game.yaml", "four")
    assert note.message == f"`rounds` is text because {note.span.file}:{note.span.line}:{note.span.column} holds 'four'"
    # text output: the note and the data line under the error; JSON: a structured related list
    shown = render(d, sources.get(d.span.file), sources)
    assert f"\n  note: {note.message}\n" in shown
    assert shown.endswith("rounds: four\n" + " " * 6 + "| " + " " * (note.span.column - 1) + "^^^^")
    record = d.as_dict()
    assert record["related"] == [{"file": note.span.file, "line": note.span.line, "column": note.span.column,
                                  "end_line": note.span.line, "end_column": note.span.column + 3,
                                  "message": note.message}]


def test_a_part_of_a_table_read_with_a_key_or_a_key_known_at_run_time(tmp_path: Path) -> None:
    rules = """\
        phase main:
            let a = prices.cheap + 1
            let b = prices[keys(prices)[0]] + 1
            end winners seats
        """
    write_game(tmp_path, rules, tables={"prices": {"cheap": "three", "dear": "nine"}})
    _, diags, _ = check_game(tmp_path)
    first, second = errors(diags)
    at(first.related[0], tmp_path, "game.yaml", "three")
    assert first.related[0].message.startswith("`prices.cheap` is text because ")
    at(second.related[0], tmp_path, "game.yaml", "three")
    assert second.related[0].message.startswith("`prices[...]` is text because ")


def test_an_element_inside_a_table(tmp_path: Path) -> None:
    write_game(tmp_path, "phase main:\n    let total = sum(steps)\n    end winners seats\n",
               tables={"steps": ["one", "two"]})
    note = the_note(tmp_path, "the elements summed must be int, not str")
    at(note, tmp_path, "game.yaml", "one")
    assert note.message.startswith("`steps` holds text because ")


def test_a_variable_made_from_a_table_keeps_its_origin(tmp_path: Path) -> None:
    rules = "phase main:\n    let n = rounds\n    let m = n - 1\n    end winners seats\n"
    write_game(tmp_path, rules, tables={"rounds": "four"})
    d, _ = the_error(tmp_path)
    [note] = d.related
    at(note, tmp_path, "game.yaml", "four")
    assert note.message.startswith("`n` is text because ")


def test_a_table_a_variant_replaces_points_into_the_variant(tmp_path: Path) -> None:
    write_game(tmp_path, "phase main:\n    let n = -rounds\n    let m = range(rounds)\n    end winners seats\n",
               tables={"rounds": "four"})
    data = yaml.safe_load((tmp_path / "game.yaml").read_text(encoding="utf-8"))
    data["options"] = {"long": {"values": {"rounds": "eight"}}}
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    _, diags, _ = check_game(tmp_path, "long")
    notes = [n for d in errors(diags) for n in d.related]
    assert notes and all(line_of(tmp_path, "game.yaml", n.span.line).strip() == "rounds: eight" for n in notes)


def test_no_note_when_the_type_does_not_come_from_data(tmp_path: Path) -> None:
    write_game(tmp_path, 'phase main:\n    let n = "four" * 2\n    end winners seats\n')
    d, _ = the_error(tmp_path)
    assert d.related == ()


# ------------------------------------------------------------------------------------ fields

def test_a_field_declared_as_text_points_at_its_declaration(tmp_path: Path) -> None:
    write_game(tmp_path, "phase main:\n    for s in seats:\n        s.coins += 1\n    end winners seats\n",
               seat={"coins": ("str", "0")})
    note = the_note(tmp_path, "the target of '+=' must be int, not str")
    at(note, tmp_path, "game.yaml", "str")
    assert note.message.startswith("`s.coins` is text because ") and note.message.endswith("declares 'coins' as str")


def test_a_field_initial_value_of_the_wrong_type_is_reported_at_the_value(tmp_path: Path) -> None:
    write_game(tmp_path, "phase main:\n    end winners seats\n", seat={"coins": ("int", "four")})
    d, _ = the_error(tmp_path)
    assert d.message == "the initial value 'four' is not an int, nor a table's name"
    assert d.span.file.endswith("game.yaml")
    assert line_of(tmp_path, "game.yaml", d.span.line)[d.span.column - 1:] == "four"


# ------------------------------------------------------------------------------------ board

def test_a_board_attribute_holding_text_where_a_condition_is_needed(tmp_path: Path) -> None:
    rules = "phase main:\n    for n in nodes:\n        if n.colour:\n            pass\n    end winners seats\n"
    write_game(tmp_path, rules, board=LINE_BOARD)
    note = the_note(tmp_path, "a condition must be bool, not str?")
    at(note, tmp_path, "board.yaml", "red")
    assert note.message.startswith("`n.colour` is text because ")


def test_a_board_attribute_of_another_kind_than_the_other_nodes_is_an_error_at_its_line(tmp_path: Path) -> None:
    board = {"nodes": [{"id": 1, "size": 2}, {"id": 2, "size": "big"}, {"id": 3, "size": 3}], "edges": [[1, 2]]}
    write_game(tmp_path, "phase main:\n    end winners seats\n", board=board)
    d, _ = the_error(tmp_path)
    assert d.code == "type" and d.span.file.endswith("board.yaml")
    assert d.message == "node 2: `size` is text ('big'), where the others have a number"
    assert line_of(tmp_path, "board.yaml", d.span.line)[d.span.column - 1:].startswith("big")


# ------------------------------------------------------------------------------------ components

def write_cards(folder: Path, items: str, rules: str = "phase main:\n    end winners seats\n") -> Path:
    (folder / "game.yaml").write_text(textwrap.dedent("""\
        name: cards
        title: Cards
        seats: {min: 2, max: 4}
        rules: [x.rules]
        start: main
        components:
          card: {file: cards.yaml, collection: all_cards}
        state:
          seat:
            money: {type: int, initial: 5}
        """), encoding="utf-8")
    (folder / "cards.yaml").write_text("items:\n" + textwrap.dedent(items), encoding="utf-8")
    (folder / "x.rules").write_text(rules, encoding="utf-8")
    return folder


def test_an_item_attribute_holding_text_where_a_number_is_used(tmp_path: Path) -> None:
    rules = "phase main:\n    for s in seats:\n        s.money += all_cards[0].price\n    end winners seats\n"
    write_cards(tmp_path, """\
        - {id: a, price: "3"}
        - {id: b, price: "5"}
        """, rules)
    note = the_note(tmp_path, "the value of '+=' must be int, not str?")
    at(note, tmp_path, "cards.yaml", '"3"')
    assert note.message.startswith("`all_cards[0].price` is text because ") and note.message.endswith("holds '3'")


def test_an_item_attribute_of_another_kind_than_its_siblings_is_a_validate_error(tmp_path: Path) -> None:
    # Before, `money: Fire` made the attribute's type unknown: validate said nothing and the game
    # stopped with a Python TypeError at its first `gain c.money`.
    rules = "phase main:\n    for s in seats:\n        for c in all_cards:\n            s.money += c.money\n    end winners seats\n"
    write_cards(tmp_path, """\
        - {id: well, money: 2}
        - {id: mill, money: 3, copies: 2}
        - {id: fire, money: Fire, copies: 3}
        - {id: shop, money: 1}
        """, rules)
    d, _ = the_error(tmp_path)
    assert d.code == "type" and d.span.file.endswith("cards.yaml")
    assert d.message == "card 'fire-1': `money` is text ('Fire'), where the others have a number"
    assert line_of(tmp_path, "cards.yaml", d.span.line) == "- {id: fire, money: Fire, copies: 3}"
    assert line_of(tmp_path, "cards.yaml", d.span.line)[d.span.column - 1:].startswith("Fire")


def test_a_missing_attribute_or_a_list_of_another_length_is_no_clash(tmp_path: Path) -> None:
    write_cards(tmp_path, """\
        - {id: a, money: 2, tags: [x, y]}
        - {id: b, tags: []}
        - {id: c, money: 1, tags: [z]}
        """)
    _, diags, _ = check_game(tmp_path)
    assert errors(diags) == []


# ---------------------------------------------------------------- the shipped games, through the CLI

@pytest.mark.parametrize("game, table, line", [("downtown", "setup_cards_per_side", "setup_cards_per_side: four"),
                                               ("city", "shops_at_start", "shops_at_start: four")])
def test_a_word_for_a_number_in_a_shipped_game(game: str, table: str, line: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / game
    shutil.copytree(games_root() / game, folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    value = next(row for row in text.splitlines() if row.strip().startswith(f"{table}:")).split(":")[1].strip()
    (folder / "game.yaml").write_text(text.replace(f"{table}: {value}", f"{table}: four"), encoding="utf-8")
    written = next(i for i, row in enumerate((folder / "game.yaml").read_text().splitlines(), 1) if row.strip() == line)
    column = line_of(folder, "game.yaml", written).index("four") + 1
    monkeypatch.chdir(tmp_path)
    assert main(["validate", game]) == 1
    out = capsys.readouterr().out
    where = f"{game}/game.yaml:{written}:{column}"
    assert f"  note: `{table}` is text because {where} holds 'four'\n" in out
    assert f"{written:>5} |   {line}\n" in out
    assert main(["validate", game, "--format", "json"]) == 1
    [record] = json.loads(capsys.readouterr().out)
    assert record["file"].endswith(".rules")
    assert record["related"] == [{"file": f"{game}/game.yaml", "line": written, "column": column, "end_line": written,
                                  "end_column": column + 3,
                                  "message": f"`{table}` is text because {where} holds 'four'"}]


# ------------------------------------------------------------------------------------ comparisons

def test_comparing_a_number_with_a_text_table_is_an_error_with_a_note_at_the_table(tmp_path: Path) -> None:
    # Before, each side was checked alone (a number or a text may be compared), so `round < last`
    # validated clean and stopped the game with a Python TypeError.
    rules = "phase main:\n    while round < last:\n        round += 1\n    end winners seats\n"
    write_game(tmp_path, rules, global_={"round": ("int", 0)}, tables={"last": "three"})
    d, _ = the_error(tmp_path)
    assert d.message == "'<' compares int with str: compare two numbers or two texts"
    [note] = d.related           # the side from the data, not the declared field
    at(note, tmp_path, "game.yaml", "three")


def test_a_note_quotes_data_without_control_characters(tmp_path: Path) -> None:
    write_game(tmp_path, "phase main:\n    let n = rounds * 2\n    end winners seats\n",
               tables={"rounds": "\x1b[2Jfour"})
    d, sources = the_error(tmp_path)
    [note] = d.related
    assert "\x1b" not in note.message and "\\x1b[2Jfour" in note.message
    assert "\x1b" not in render(d, sources.get(d.span.file), sources)


def test_a_part_of_a_mixed_table_picked_with_written_keys_has_its_own_type(tmp_path: Path) -> None:
    # A map of a number and a text has values of unknown type; `prices.b` is known to be text.
    rules = "phase main:\n    for s in seats:\n        s.coins += prices.a\n        s.coins += prices.b\n    end winners seats\n"
    write_game(tmp_path, rules, seat={"coins": ("int", 0)}, tables={"prices": {"a": 1, "b": "x"}})
    d, _ = the_error(tmp_path)
    assert d.message == "the value of '+=' must be int, not str" and d.span.line == 4
    at(d.related[0], tmp_path, "game.yaml", "x")
