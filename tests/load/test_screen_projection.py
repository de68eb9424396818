"""game.yaml's `screen: projection` and `screen: follow` are checked like the other screen keys:
a name that is no formula or field, a formula of the wrong shape and a field `score` could not
show for every seat are errors at their key."""

from __future__ import annotations

from pathlib import Path

from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
from interpreter.play.trial import trial_game
from lang_helpers import check, errors, write_game

RULES = """formula parts(s: seat) = [("coins", s.coins)]
formula text(s: seat) = "x"
phase main:
    choose x from [1, 2] by seats[0] "Pick"
    end winners seats
"""
SEAT = {"coins": ("int", 0), "debt": ("int", 0), "secret": {"type": "int", "initial": 0, "visible": "owner"},
        "name_list": ("list[str]", [])}


def _errors(tmp_path: Path, screen: dict[str, object]) -> list[str]:
    game, diags = check(tmp_path, RULES, seat=SEAT, extra={"screen": screen}, seats=(2, 2))
    found = errors(diags)
    assert (game is None) == bool(found)
    return [f"{d.span.file}:{d.span.line}: {d.message}" for d in found]


def test_a_projection_and_followed_fields_that_fit_load(tmp_path: Path) -> None:
    game, diags = check(tmp_path, RULES, seat=SEAT, extra={"screen": {"projection": "parts", "follow": ["debt"]}},
                        seats=(2, 2))
    assert errors(diags) == [] and game is not None
    assert game.screen.projection == "parts" and game.screen.follow == ("debt",)


def test_a_projection_that_is_no_formula_or_not_of_parts_is_an_error(tmp_path: Path) -> None:
    [missing] = _errors(tmp_path, {"projection": "part"})
    assert "game.yaml" in missing and "projection 'part' is not a formula" in missing
    [shape] = _errors(tmp_path, {"projection": "text"})
    assert "projection 'text' must be a formula of one seat giving a list of (text, points)" in shape


def test_a_followed_field_must_be_a_seat_number_everybody_sees(tmp_path: Path) -> None:
    [unknown] = _errors(tmp_path, {"follow": ["dept"]})
    assert "follow: 'dept' is not a seat field" in unknown
    [hidden] = _errors(tmp_path, {"follow": ["secret"]})
    assert "'secret' must be an int everybody sees (it is int, visible: owner)" in hidden
    [listed] = _errors(tmp_path, {"follow": ["name_list"]})
    assert "'name_list' must be an int everybody sees" in listed


def test_validate_s_trial_games_run_the_projection_and_place_its_failure(tmp_path: Path) -> None:
    rules = ('formula parts(s: seat) = [("coins", 10 // s.coins)]\n\nphase main:\n'
             '    choose x from [1, 2] by seats[0] "Pick"\n    end winners seats\n')
    write_game(tmp_path, rules, seat={"coins": ("int", 0)}, extra={"screen": {"projection": "parts"}}, seats=(2, 2))
    found = trial_game(Engine(load_game(str(tmp_path))), 2, 0, 100)
    assert found is not None and found.code == "screen", found
    assert "screen projection formula 'parts'" in found.message and "division by zero" in found.message
    assert found.span is not None and found.span.line == 1
