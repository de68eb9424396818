"""State fields whose initial value names a table: the game starts from the table's value, the
variant's when one is played, and a wrong name or value is reported where it is written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from interpreter.core.engine import Engine
from interpreter.load.loader import check_game
from lang_helpers import errors, write_game

RULES = "phase main:\n    end winners seats\n"


def _game(folder: Path, seat: dict[str, Any], tables: dict[str, Any], options: dict[str, Any] | None = None) -> Path:
    write_game(folder, RULES, seat=seat, global_={"pile": ("list[int]", "opening")}, tables=tables)
    if options:
        data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
        data["options"] = options
        (folder / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return folder


def _start(folder: Path, variant: str | None = None) -> dict[str, Any]:
    game, diags, _ = check_game(folder, variant)
    assert errors(diags) == [] and game is not None, diags
    state: dict[str, Any] = Engine(game).new_game(2, 1)
    return state


TABLES = {"start_money": 30, "opening": [3, 1, 2]}


def test_a_field_starts_with_the_table_its_initial_value_names(tmp_path: Path) -> None:
    state = _start(_game(tmp_path, {"money": ("int", "start_money")}, TABLES))
    assert state["seat"]["money"] == [30, 30]
    assert state["global"]["pile"] == [3, 1, 2]


def test_a_variant_that_changes_the_table_changes_where_the_game_starts(tmp_path: Path) -> None:
    folder = _game(tmp_path, {"money": ("int", "start_money")}, TABLES,
                   {"rich": {"values": {"start_money": 50, "opening": [9]}}})
    assert _start(folder)["seat"]["money"] == [30, 30]
    rich = _start(folder, "rich")
    assert rich["seat"]["money"] == [50, 50] and rich["global"]["pile"] == [9]


def test_a_misspelt_table_name_is_reported_at_the_initial_value_with_the_name_meant(tmp_path: Path) -> None:
    folder = _game(tmp_path, {"money": ("int", "start_mony")}, TABLES)
    _, diags, _ = check_game(folder)
    [d] = errors(diags)
    assert "'start_mony' is not an int, nor a table's name" in d.message and d.hint == "did you mean 'start_money'?"
    line = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    assert "start_mony" in line


def test_a_table_of_the_wrong_type_is_reported_at_the_field_that_names_it(tmp_path: Path) -> None:
    folder = _game(tmp_path, {"money": ("int", "opening")}, TABLES)
    _, diags, _ = check_game(folder)
    [d] = errors(diags)
    assert d.code == "type" and "is not an int" in d.message
    line = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    assert "opening" in line and "(a table holding [3, 1, 2])" in d.message


def test_a_text_field_keeps_a_word_as_its_value_even_when_a_table_has_that_name(tmp_path: Path) -> None:
    state = _start(_game(tmp_path, {"money": ("int", 0), "motto": ("str", "start_money")}, TABLES))
    assert state["seat"]["motto"] == ["start_money", "start_money"]
