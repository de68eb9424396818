"""The `bots:` part of game.yaml: evaluation, profiles and playout, checked with positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bot_helpers import engine as shipped_engine
from interpreter.load.loader import check_game
from lang_helpers import check, errors, warnings, write_game

RULES = """
formula wealth(s: seat) = s.money + 2 * s.points

formula cash(s: seat) = s.money

formula first_name() = "a"

formula fortunes() = [s.money + 2 * s.points for s in seats]

formula labels() = ["a" for s in seats]

phase main:
    end winners seats
"""
SEAT = {"money": ("int", 3), "points": ("int", 0)}


def game_with(folder: Path, bots: Any) -> tuple[Any, list[Any]]:
    write_game(folder, RULES, seat=SEAT)
    data = yaml.safe_load((folder / "game.yaml").read_text(encoding="utf-8"))
    data["bots"] = bots
    (folder / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    game, diags, _ = check_game(folder)
    return game, diags


def test_evaluation_and_weighted_profiles_are_read(tmp_path: Path) -> None:
    game, diags = game_with(tmp_path, {"evaluation": "wealth", "playout": 12,
                                       "profiles": {"miser": {"cash": 2, "wealth": 0.5}}})
    assert errors(diags) == []
    assert game.bots.evaluation == (("wealth", 1.0),)
    assert game.bots.profiles == {"miser": (("cash", 2.0), ("wealth", 0.5))}
    assert game.bots.playout == 12


def test_formulas_named_by_the_bots_are_not_reported_unused(tmp_path: Path) -> None:
    _, diags = game_with(tmp_path, {"evaluation": "wealth", "profiles": {"miser": "cash"}})
    unused = [d.message for d in warnings(diags) if d.code == "unused"]
    assert not any("wealth" in m or "cash" in m for m in unused), unused
    plain = tmp_path / "plain"
    plain.mkdir()
    _, without_bots = check(plain, RULES, seat=SEAT)
    assert any("wealth" in d.message for d in warnings(without_bots) if d.code == "unused")


def test_an_unknown_formula_is_placed_on_its_name(tmp_path: Path) -> None:
    _, diags = game_with(tmp_path, {"evaluation": "welth"})
    (d,) = errors(diags)
    assert d.code == "unknown-name" and "'welth' is not a formula" in d.message
    assert d.hint is not None and "wealth" in d.hint
    assert d.span.file.endswith("game.yaml")
    line = (tmp_path / "game.yaml").read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    assert line[d.span.column - 1:].startswith("welth")


def test_a_profile_weight_names_its_formula_key(tmp_path: Path) -> None:
    _, diags = game_with(tmp_path, {"profiles": {"odd": {"wealth": 1, "nothing": 2}}})
    (d,) = errors(diags)
    assert d.code == "unknown-name" and "'nothing'" in d.message
    line = (tmp_path / "game.yaml").read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    assert line[d.span.column - 1:].startswith("nothing")


def test_a_formula_that_does_not_judge_a_seat_is_a_type_error(tmp_path: Path) -> None:
    _, diags = game_with(tmp_path, {"evaluation": "first_name"})
    (d,) = errors(diags)
    assert d.code == "type" and "one seat giving a number" in d.message and "giving str" in d.message


def test_a_formula_of_no_argument_judges_every_seat_with_a_list_of_numbers(tmp_path: Path) -> None:
    game, diags = game_with(tmp_path, {"evaluation": "fortunes", "profiles": {"miser": {"cash": 1, "fortunes": 1}}})
    assert errors(diags) == []
    assert game.bots.evaluation == (("fortunes", 1.0),)
    other = tmp_path / "labels"
    other.mkdir()
    _, diags = game_with(other, {"evaluation": "labels"})
    (d,) = errors(diags)
    assert d.code == "type" and "of no argument giving a list of numbers" in d.message and "list[str]" in d.message


def test_shapes_are_schema_errors(tmp_path: Path) -> None:
    for bots, words in (({"evaluation": {"wealth": "high"}}, "weight"), ({"playout": -1}, "bots.playout"),
                        ({"training": {"games": 0}}, "bots.training.games"), ({"training": {"game": 9}}, "game"),
                        ({"evalution": "wealth"}, "evalution"), ({"profiles": {"Big Spender": "cash"}}, "Big")):
        folder = tmp_path / str(abs(hash(str(bots))))
        folder.mkdir()
        _, diags = game_with(folder, bots)
        assert [d.code for d in errors(diags)] == ["schema"], (bots, diags)
        assert words in errors(diags)[0].message or words in (errors(diags)[0].hint or ""), errors(diags)[0]


def test_no_network_without_an_evaluation_is_refused_by_validate_on_network(tmp_path: Path) -> None:
    # Without this check the mistake would show only once `cityrules train` had started.
    _, diags = game_with(tmp_path, {"training": {"games": 40, "network": False}})
    (d,) = errors(diags)
    assert d.code == "schema" and "declares no `evaluation`" in d.message and "evaluation:" in (d.hint or "")
    line = (tmp_path / "game.yaml").read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    assert line[d.span.column - 1:].startswith("network")
    with_evaluation = tmp_path / "with"
    with_evaluation.mkdir()
    _, fine = game_with(with_evaluation, {"evaluation": "wealth", "training": {"network": False}})
    assert errors(fine) == []


def test_a_game_s_training_settings_are_train_s_defaults_and_the_command_line_wins(tmp_path: Path) -> None:
    from interpreter.agents.train import TrainSpec
    from interpreter.core.engine import Engine

    game, diags = game_with(tmp_path, {"training": {"games": 40, "budget": 9}})
    assert errors(diags) == [] and game.bots.training == {"games": 40, "budget": 9}
    engine = Engine(game)
    spec = TrainSpec.for_game(str(tmp_path), engine, games=None, rounds=None)
    assert (spec.games, spec.budget, spec.rounds) == (40, 9, TrainSpec.rounds)
    spec = TrainSpec.for_game(str(tmp_path), engine, games=7, rounds=1)
    assert (spec.games, spec.budget, spec.rounds) == (7, 9, 1)
    (tmp_path / "plain").mkdir()
    plain, _ = game_with(tmp_path / "plain", {})
    spec = TrainSpec.for_game(str(tmp_path), Engine(plain))
    assert (spec.games, spec.budget, spec.rounds) == (TrainSpec.games, TrainSpec.budget, TrainSpec.rounds)


def test_every_shipped_game_declares_an_evaluation() -> None:
    for name in ("downtown", "london", "city", "examples/harbour"):
        game = shipped_engine(name).game
        assert game.bots.evaluation, name
