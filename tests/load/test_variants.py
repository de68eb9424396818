"""Variants (game.yaml `options`): each replaces tables by name; `extends` builds one on another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from interpreter.load.loader import check_game
from lang_helpers import errors, write_game

RULES = "phase main:\n    end winners seats\n"
TABLES = {"target": 35, "chains": False, "sales": False}


def with_options(folder: Path, options: dict[str, Any]) -> Path:
    write_game(folder, RULES, tables=TABLES)
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    data["options"] = options
    (folder / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return folder


def tables_of(folder: Path, variant: str | None) -> dict[str, Any]:
    game, diags, _ = check_game(folder, variant)
    assert errors(diags) == [] and game is not None, diags
    return {name: value for name, (_, value) in game.world.tables.items()}


ADVANCED = {
    "advanced": {"values": {"chains": True, "sales": True, "target": 70}},
    "long": {"extends": "advanced", "values": {"target": 105}},
    "longer": {"extends": "long", "description": "a variant of a variant", "values": {"target": 140, "sales": False}},
}


def test_a_variant_plays_the_values_of_the_one_it_extends_then_its_own(tmp_path: Path) -> None:
    folder = with_options(tmp_path, ADVANCED)
    assert tables_of(folder, None) == TABLES
    assert tables_of(folder, "advanced") == {"target": 70, "chains": True, "sales": True}
    assert tables_of(folder, "long") == {"target": 105, "chains": True, "sales": True}
    assert tables_of(folder, "longer") == {"target": 140, "chains": True, "sales": False}


def test_extending_a_variant_that_does_not_exist_is_reported_where_it_is_written(tmp_path: Path) -> None:
    folder = with_options(tmp_path, {"advanced": {"values": {"chains": True}},
                                     "long": {"extends": "advance", "values": {"target": 105}}})
    _, diags, _ = check_game(folder)
    [d] = errors(diags)
    assert d.code == "unknown-name" and d.span.file.endswith("game.yaml")
    assert "'long' extends 'advance', which is not a variant" in d.message and d.hint == "did you mean 'advanced'?"
    line = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    assert line.strip() == "extends: advance"


def test_a_circle_of_variants_is_reported_once(tmp_path: Path) -> None:
    folder = with_options(tmp_path, {"a": {"extends": "b", "values": {"target": 1}},
                                     "b": {"extends": "a", "values": {"target": 2}},
                                     "c": {"extends": "a", "values": {"target": 3}},
                                     "d": {"extends": "d", "values": {"target": 4}}})
    _, diags, _ = check_game(folder)
    found = sorted((d.code, d.message) for d in errors(diags))
    assert found == [("recursion", "variant 'a' extends itself (through b)"),
                     ("recursion", "variant 'd' extends itself")]


def test_extends_must_be_a_variant_name(tmp_path: Path) -> None:
    folder = with_options(tmp_path, {"a": {"extends": ["b"], "values": {"target": 1}}})
    _, diags, _ = check_game(folder)
    assert [d.code for d in errors(diags)] == ["schema"]
