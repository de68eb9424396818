"""`screen: about` (a formula of one text, the name typed after `info`) and `screen: grid` in game.yaml,
checked at load."""

from __future__ import annotations

from pathlib import Path

from lang_helpers import check, errors, warnings

RULES = """
formula about(name: str) = "the mint pays 2" if name == "mint" else ""

formula about_seat(s: seat) = "a seat"

phase main:
    end winners seats
"""


def test_an_about_formula_of_one_text_is_read_and_counts_as_used(tmp_path: Path) -> None:
    game, diags = check(tmp_path, RULES, extra={"screen": {"about": "about"}})
    assert not errors(diags), diags
    assert game.screen.about == "about"
    assert not [d for d in warnings(diags) if d.code == "unused" and "'about'" in d.message]


def test_an_about_formula_of_another_shape_or_name_is_an_error_at_its_key(tmp_path: Path) -> None:
    _, diags = check(tmp_path, RULES, extra={"screen": {"about": "about_seat"}})
    (d,) = errors(diags)
    assert d.code == "type" and "about 'about_seat' must be a formula of one text" in d.message
    assert d.span.file.endswith("game.yaml")


def test_an_unknown_about_formula_gets_a_suggestion(tmp_path: Path) -> None:
    _, diags = check(tmp_path, RULES, extra={"screen": {"about": "abuot"}})
    (d,) = errors(diags)
    assert d.code == "unknown-name" and d.hint is not None and "about" in d.hint


def test_grid_is_read_and_must_be_true_or_false(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    game, diags = check(tmp_path / "a", RULES, extra={"screen": {"grid": True}})
    assert not errors(diags) and game.screen.grid is True
    (tmp_path / "b").mkdir()
    _, diags = check(tmp_path / "b", RULES, extra={"screen": {"grid": "yes"}})
    assert [d.code for d in errors(diags)] == ["schema"]
