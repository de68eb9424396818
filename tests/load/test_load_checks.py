"""Load-time and run-time checks for mistakes a designer can make in a game's data and rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.core.errors import RuleError
from lang_helpers import LINE_BOARD, check, engine, errors, warnings


def test_a_seat_name_cannot_be_changed_by_the_rules(tmp_path: Path) -> None:
    _, diags = check(tmp_path, 'phase main:\n    for s in seats:\n        s.name = "X"\n    end winners seats\n')
    (err,) = errors(diags)
    assert err.code == "read-only" and err.span.line == 3 and "given by the players" in err.message


def test_the_start_phase_cannot_take_values(tmp_path: Path) -> None:
    _, diags = check(tmp_path, "phase main(n: int):\n    end winners seats\n")
    (err,) = errors(diags)
    assert err.code == "arity" and err.span.line == 1 and "start phase" in err.message


def test_phases_running_each_other_forever_stop_with_the_run_line(tmp_path: Path) -> None:
    rules = ("phase main:\n    run again\n\n"
             "phase again:\n    choose x from [1, 2] by seats[0]\n    log \"{x}\"\n    run again\n")
    e = engine(tmp_path, rules)
    state = e.new_game(1, seed=1)
    with pytest.raises(RuleError) as info:
        for _ in range(500):
            state = e.apply(state, "x:1", 0)
    assert info.value.span is not None and info.value.span.line == 7
    assert "more than 200 deep" in info.value.message


def test_roll_gives_a_copy_not_the_table_itself(tmp_path: Path) -> None:
    rules = ("phase main:\n    roll face from die\n    add 7 to face\n"
             "    log \"{face} {die}\"\n    end winners seats\n")
    e = engine(tmp_path, rules, tables={"die": [[1], [1]]})
    state = e.new_game(1, seed=3)
    assert state["log"][0]["text"] == "1, 7 [1], [1]"


def test_a_table_and_a_field_cannot_share_a_name(tmp_path: Path) -> None:
    _, diags = check(tmp_path, "phase main:\n    end winners seats\n", global_={"price": ("int", 0)},
                     tables={"price": [1, 2]})
    assert any(d.code == "duplicate" and "both a table and a global field" in d.message for d in errors(diags))


def test_a_seat_initial_value_must_exist(tmp_path: Path) -> None:
    _, diags = check(tmp_path, "phase main:\n    end winners [first]\n", global_={"first": ("seat", 5)},
                     seats=(2, 4))
    assert any("seat 5 does not exist" in d.message for d in errors(diags))


def test_fractions_in_data_are_reported(tmp_path: Path) -> None:
    _, diags = check(tmp_path, "phase main:\n    end winners seats\n", tables={"rate": [1, 2.5]})
    (err,) = errors(diags)
    assert err.code == "type" and "2.5 is not a whole number" in err.message


def test_comparing_a_node_with_a_number_warns_and_seats_with_numbers_do_not(tmp_path: Path) -> None:
    rules = ("phase main:\n    let n = [x for x in nodes if x == 2]\n"
             "    let s = [x for x in seats if x == 0]\n    log \"{n} {s}\"\n    end winners seats\n")
    _, diags = check(tmp_path, rules, board=LINE_BOARD)
    (warn,) = warnings(diags)
    assert warn.span.line == 2 and "a node is not its id" in warn.message and "x.id == 7" in (warn.hint or "")


def test_roll_is_a_reserved_word(tmp_path: Path) -> None:
    _, diags = check(tmp_path, "phase main:\n    let roll = 1\n    log \"{roll}\"\n    end winners seats\n")
    assert any(d.code == "reserved-word" for d in errors(diags))


def test_maps_read_well_in_log_lines(tmp_path: Path) -> None:
    rules = 'phase main:\n    let m = {"a": 1, "b": 2}\n    log "{m}"\n    end winners seats\n'
    e = engine(tmp_path, rules)
    assert e.new_game(1, seed=1)["log"][0]["text"] == "a: 1, b: 2"


def test_a_bad_type_name_is_reported_at_its_field(tmp_path: Path) -> None:
    _, diags = check(tmp_path, "phase main:\n    end winners seats\n", global_={"x": ("integer", 0)})
    (err,) = errors(diags)
    assert err.code == "type" and "unknown type 'integer'" in err.message
    assert err.span.file.endswith("game.yaml")


def test_an_unknown_state_section_is_reported_with_a_suggestion(tmp_path: Path) -> None:
    import yaml

    from lang_helpers import write_game
    write_game(tmp_path, "phase main:\n    end winners seats\n")
    data = yaml.safe_load((tmp_path / "game.yaml").read_text())
    data["state"]["seats"] = {"x": {"type": "int", "initial": 0}}
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(data))
    from interpreter.load.loader import check_game
    _, diags, _ = check_game(tmp_path)
    (err,) = errors(diags)
    assert "state 'seats' is not seat, global, node or a component kind" in err.message
    assert err.hint == "did you mean 'seat'?"
