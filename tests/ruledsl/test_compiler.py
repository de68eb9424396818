"""Compiler diagnostics: names, fields, calls, types, what may change, definitions, scopes.

Every test builds a tiny game in a temporary folder. Unless a test says otherwise the game has:
  seat fields   money (int, ledger), score (int), nick (str), hand (list[int])
  global fields round (int), deck (list[int])
  node fields   owner (seat?)
  board         three nodes with a fixed `colour` attribute
  tables        prices (list[int]), costs (map[str, int])
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from interpreter.load.loader import check_game
from lang_helpers import LINE_BOARD, RULES_FILE, check, errors, warnings, write_game
from ruledsl.diagnostics import Diagnostic

WORLD: dict[str, Any] = {
    "seat": {"money": {"type": "int", "initial": 10, "ledger": True}, "score": ("int", 0),
             "nick": ("str", ""), "hand": ("list[int]", [])},
    "global_": {"round": ("int", 0), "deck": ("list[int]", [1, 2, 3])},
    "node": {"owner": ("seat?", None)},
    "tables": {"prices": [1, 2, 3], "costs": {"a": 1}},
    "board": LINE_BOARD,
}

END = "    end winners seats\n"


def diagnose(folder: Path, rules: str | dict[str, str], **kw: Any) -> tuple[Any, list[Diagnostic]]:
    game, diags = check(folder, rules, **{**WORLD, **kw})
    # The tiny game's tables are there for the tests that read them; validate's warning that a
    # table is never read (tested in tests/cli/test_conveniences.py) is not what the others test.
    return game, [d for d in diags if not (d.code == "unused" and d.message.startswith("table '"))]


def the_error(folder: Path, rules: str | dict[str, str], code: str, **kw: Any) -> Diagnostic:
    """The only error of a game that must not load."""
    game, diags = diagnose(folder, rules, **kw)
    errs = errors(diags)
    assert game is None
    assert len(errs) == 1, errs
    assert errs[0].code == code, errs[0]
    return errs[0]


def pos(d: Diagnostic) -> tuple[str, int, int]:
    """(file name, line, column) of a diagnostic."""
    return Path(d.span.file).name, d.span.line, d.span.column


def main(body: str) -> str:
    """A start phase `main` with the given (4-space indented) body, ending the game."""
    return "phase main:\n" + body + END


# ------------------------------------------------------------ a valid game


def test_a_valid_tiny_game_compiles_without_diagnostics(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, """\
        formula double(n: int) = n * 2
        phase main:
            for s in seats:
                s.score = double(len(s.hand)) + prices[0] + costs["a"]
            run ask
            end winners seats
        phase ask:
            choose n from [1, 2] by seats[0]
            round = n
        """)
    assert diags == []
    assert game is not None
    phases = game.program.phases
    # `ask` waits for a player, and so does `main`, which runs it.
    assert phases["ask"].resumable and phases["main"].resumable


def test_a_phase_without_choose_compiles_to_a_plain_function(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main("    run tally\n") + "phase tally:\n    round += 1\n")
    assert diags == []
    assert not game.program.phases["tally"].resumable
    assert not game.program.phases["main"].resumable
    assert game.program.phases["tally"].function is not None


def test_diagnostics_name_the_rules_file_of_the_game(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "{roundz}"\n'), "unknown-name")
    assert Path(d.span.file).resolve() == (tmp_path / RULES_FILE).resolve()


def test_every_problem_is_reported_not_only_the_first(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main('    log "{roundz}"\n    x = 1\n    if 3:\n        pass\n'))
    assert game is None
    assert [(d.code, d.span.line) for d in errors(diags)] == [
        ("unknown-name", 2), ("unknown-name", 3), ("type", 4)]


def test_problems_in_several_files_name_each_file(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, {"a.rules": main('    log "{nope}"\n'),
                                      "b.rules": "phase other:\n    log \"{alsonope}\"\n"})
    assert game is None
    assert sorted((pos(d)[0], d.code) for d in errors(diags)) == [
        ("a.rules", "unknown-name"), ("b.rules", "unknown-name")]


# ------------------------------------------------------------------ names


def test_unknown_name_suggests_a_close_one(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "{roundz}"\n'), "unknown-name")
    assert pos(d) == (RULES_FILE, 2, 11)
    assert "'roundz'" in d.message
    assert d.hint == "did you mean 'round'?"


def test_unknown_name_suggests_a_local_variable(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    let total = 1\n    log "{totl}"\n'), "unknown-name")
    assert pos(d) == (RULES_FILE, 3, 11)
    assert d.hint == "did you mean 'total'?"


def test_unknown_name_without_anything_close_has_no_hint(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "{zzzzzz}"\n'), "unknown-name")
    assert "'zzzzzz'" in d.message
    assert d.hint is None


def test_a_function_used_without_parentheses(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    let n = len\n    log "{n}"\n'), "unknown-name")
    assert pos(d) == (RULES_FILE, 2, 13)
    assert "'len' is a function" in d.message


def test_unknown_seat_field(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    for s in seats:\n        log "{s.scor}"\n'), "unknown-field")
    # The column is the field name's, not the seat's.
    assert pos(d) == (RULES_FILE, 3, 17)
    assert "seats have no field 'scor'" in d.message
    assert d.hint == "did you mean 'score'?"


def test_unknown_node_field(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    for n in nodes:\n        log "{n.colr}"\n'), "unknown-field")
    assert pos(d) == (RULES_FILE, 3, 17)
    assert "board nodes have no field or attribute 'colr'" in d.message
    assert d.hint == "did you mean 'colour'?"


def test_field_of_a_number(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "{round.size}"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 11)
    assert "int has no field 'size'" in d.message


def test_unknown_function(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "{frobnicate(1)}"\n'), "unknown-name")
    assert pos(d) == (RULES_FILE, 2, 11)
    assert "no function or formula called 'frobnicate'" in d.message
    assert d.hint is None


def test_unknown_function_suggests_a_builtin(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "{lenn(seats)}"\n'), "unknown-name")
    assert d.hint == "did you mean 'len'?"


def test_unknown_function_suggests_a_formula(tmp_path: Path) -> None:
    rules = "formula double(n: int) = n * 2\n" + main('    log "{dubble(2)} {double(1)}"\n')
    d = the_error(tmp_path, rules, "unknown-name")
    assert pos(d) == (RULES_FILE, 3, 11)
    assert d.hint == "did you mean 'double'?"


def test_unknown_phase_in_run(tmp_path: Path) -> None:
    rules = main("    run scorring\n") + "phase scoring:\n    pass\n"
    d = the_error(tmp_path, rules, "unknown-phase")
    assert pos(d) == (RULES_FILE, 2, 9)
    assert "no phase called 'scorring'" in d.message
    assert d.hint == "did you mean 'scoring'?"


# ------------------------------------------------------------------ arity


def test_formula_called_with_too_many_values(tmp_path: Path) -> None:
    rules = "formula double(n: int) = n * 2\n" + main('    log "{double(1, 2)}"\n')
    d = the_error(tmp_path, rules, "arity")
    assert pos(d) == (RULES_FILE, 3, 11)
    assert d.message == "'double' takes 1 value(s), got 2"


def test_builtin_called_with_too_many_values(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "{len(seats, 1)}"\n'), "arity")
    assert pos(d) == (RULES_FILE, 2, 11)
    assert d.message == "'len' takes 1 value(s), got 2"


def test_builtin_with_a_range_of_arities(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "{max()}"\n'), "arity")
    assert d.message == "'max' takes 1 or 2 value(s), got 0"


def test_phase_run_with_the_wrong_number_of_values(tmp_path: Path) -> None:
    rules = main("    run place(1)\n") + "phase place(a: int, b: int):\n    pass\n"
    d = the_error(tmp_path, rules, "arity")
    assert pos(d) == (RULES_FILE, 2, 5)
    assert d.message == "phase 'place' takes 2 value(s), got 1"


def test_phase_without_params_run_with_a_value(tmp_path: Path) -> None:
    rules = main("    run other(1)\n") + "phase other:\n    pass\n"
    d = the_error(tmp_path, rules, "arity")
    assert "takes 0 value(s), got 1" in d.message


# ------------------------------------------------------------------ types


def test_arithmetic_on_text(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    let x = "a" * 2\n    log "{x}"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 13)
    assert "left side of '*'" in d.message and "must be int, not str" in d.message


def test_adding_text_to_a_number(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    round = round + "1"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 21)
    assert "right side of '+'" in d.message and "not str" in d.message


def test_condition_must_be_bool(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    if round:\n        pass\n"), "type")
    assert pos(d) == (RULES_FILE, 2, 8)
    assert d.message == "a condition must be bool, not int"


def test_while_condition_must_be_bool(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    while 1:\n        break\n"), "type")
    assert pos(d) == (RULES_FILE, 2, 11)
    assert "condition must be bool" in d.message


def test_logic_operands_must_be_bool(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    let t = true and 1\n    log "{t}"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 22)
    assert "right side of 'and'" in d.message


def test_adding_text_to_a_list_of_numbers(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    let xs = [1, 2]\n    add "a" to xs\n    log "{xs}"\n'), "type")
    assert pos(d) == (RULES_FILE, 3, 9)
    # A list literal of numbers is list[int], not list[int?].
    assert d.message == "cannot add a str to a list of int"


def test_adding_text_to_a_list_field(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    add "a" to deck\n'), "type")
    assert d.message == "cannot add a str to a list of int"


def test_storing_text_in_a_number_field(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    round = "a"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 13)
    assert "cannot store a str" in d.message and "int" in d.message


def test_plus_equals_needs_numbers(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    round += "a"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 14)
    assert "'+='" in d.message


def test_formula_argument_type(tmp_path: Path) -> None:
    rules = "formula double(n: int) = n * 2\n" + main('    log "{double(deck)}"\n')
    d = the_error(tmp_path, rules, "type")
    assert pos(d) == (RULES_FILE, 3, 18)
    assert d.message == "value 1 of 'double' must be int, not list[int]"


def test_phase_argument_type(tmp_path: Path) -> None:
    rules = main('    run place("a")\n') + "phase place(n: int):\n    pass\n"
    d = the_error(tmp_path, rules, "type")
    assert pos(d) == (RULES_FILE, 2, 15)
    assert "phase 'place' expects int here, not str" in d.message


def test_bad_parameter_type(tmp_path: Path) -> None:
    rules = "formula f(n: integer) = 1\n" + main('    log "{f(1)}"\n')
    d = the_error(tmp_path, rules, "type")
    assert pos(d) == (RULES_FILE, 1, 11)
    assert "unknown type 'integer'" in d.message


def test_for_loop_over_a_number(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    for x in 3:\n        pass\n"), "type")
    assert pos(d) == (RULES_FILE, 2, 14)
    assert "for loop" in d.message and "must be list, not int" in d.message


def test_winners_must_be_seats(tmp_path: Path) -> None:
    d = the_error(tmp_path, "phase main:\n    end winners 1\n", "type")
    assert pos(d) == (RULES_FILE, 2, 17)
    assert "winners must be a list of seats" in d.message


def test_chooser_must_be_a_seat(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    choose x from [1, 2] by 1\n    log "{x}"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 29)
    assert "who chooses must be seat, not int" in d.message


def test_choice_options_must_be_a_list(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    choose x from 3 by seats[0]\n    log "{x}"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 19)
    assert "options of a choice must be list" in d.message


def test_choose_each_runs_over_seats(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    choose x from [1] by each s in [1, 2]\n    log "{x}"\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 36)
    assert "'each' runs over a list of seats" in d.message


def test_pay_amount_must_be_a_number(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    pay "a" from seats[0].money\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 9)
    assert "amount to pay must be int" in d.message


def test_gain_needs_a_seat_field(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    gain 1 to round\n"), "type")
    assert pos(d) == (RULES_FILE, 2, 15)
    assert "gain needs a seat's field" in d.message


def test_gain_needs_a_number_field(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    gain 1 to seats[0].nick\n"), "type")
    assert "'nick' is str" in d.message


def test_log_audience_must_be_seats(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    log "x" to 1\n'), "type")
    assert pos(d) == (RULES_FILE, 2, 16)
    assert "a log line goes to a seat or a list of seats" in d.message


def test_comparing_different_types_is_a_warning(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main('    if round == seats:\n        pass\n'))
    assert game is not None
    (w,) = warnings(diags)
    assert (w.code, pos(w)) == ("type", (RULES_FILE, 2, 8))
    assert "always false" in w.message


# ------------------------------------------------------- what may change


def test_assigning_to_a_table(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    prices = [1]\n"), "read-only")
    assert pos(d) == (RULES_FILE, 2, 5)
    assert "'prices' is a table" in d.message


def test_changing_part_of_a_table(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    costs["a"] = 2\n'), "read-only")
    assert "'costs' is a table" in d.message


def test_adding_to_a_table(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    add 4 to prices\n"), "read-only")
    assert pos(d) == (RULES_FILE, 2, 14)
    assert "table" in d.message


def test_assigning_to_a_board_attribute(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    for n in nodes:\n        n.colour = "x"\n'), "read-only")
    assert pos(d) == (RULES_FILE, 3, 9)
    assert "'colour' is a board attribute" in d.message


def test_node_fields_can_be_assigned(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main("    for n in nodes:\n        n.owner = seats[0]\n"))
    assert errors(diags) == [] and game is not None


def test_assigning_to_a_ledger_field(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    for s in seats:\n        s.money = 3\n"), "read-only")
    assert pos(d) == (RULES_FILE, 3, 9)
    assert "'money' is kept in the ledger" in d.message and "pay or gain" in d.message


def test_adding_to_a_ledger_field_with_plus_equals(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    for s in seats:\n        s.money += 3\n"), "read-only")
    assert "ledger" in d.message


def test_ledger_fields_change_by_pay_and_gain(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main("    for s in seats:\n        gain 3 to s.money\n        pay 1 from s.money\n"))
    assert errors(diags) == [] and game is not None


def test_assignment_without_let(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    x = 1\n"), "unknown-name")
    assert pos(d) == (RULES_FILE, 2, 5)
    assert "'x' is not declared" in d.message
    assert d.hint == "write 'let x = ...' to create it"


def test_assignment_to_a_misspelt_variable_suggests_it(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    let total = 1\n    totl = 2\n    log \"{total}\"\n"), "unknown-name")
    assert pos(d) == (RULES_FILE, 3, 5)
    assert d.hint == "did you mean 'total'?"


def test_assigning_to_seats(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    seats = []\n"), "read-only")
    assert "'seats' is fixed by the game" in d.message


def test_assigning_to_a_loop_variable(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    for x in deck:\n        x = 2\n"), "read-only")
    assert pos(d) == (RULES_FILE, 3, 9)
    assert "loop variable" in d.message


# ------------------------------------------------------------- formulas


@pytest.mark.parametrize("statement", [
    "pay 1 from s.money", "gain 1 to s.money", 'log "x"', "run main", "choose x from [1, 2] by s",
    "shuffle deck", "draw card from deck", "end winners seats",
])
def test_statements_not_allowed_in_a_formula(tmp_path: Path, statement: str) -> None:
    rules = f"formula f(s: seat):\n    {statement}\n    return 1\n" + main('    log "{f(seats[0])}"\n')
    d = the_error(tmp_path, rules, "not-in-formula")
    assert pos(d) == (RULES_FILE, 2, 5)
    assert "a formula only computes a value" in d.message and "use a phase" in d.message


@pytest.mark.parametrize("statement, column", [
    ("add 1 to deck", 14),          # game data
    ("s.score = 1", 5),             # a seat's field
    ("round += 1", 5),
    ("add 1 to xs", 14),            # a value the formula was given
    ("xs[0] = 1", 5),
])
def test_a_formula_cannot_change_the_game_or_its_arguments(tmp_path: Path, statement: str, column: int) -> None:
    rules = (f"formula f(s: seat, xs: list[int]):\n    {statement}\n    return 1\n"
             + main('    log "{f(seats[0], deck)}"\n'))
    d = the_error(tmp_path, rules, "not-in-formula")
    assert pos(d) == (RULES_FILE, 2, column)
    assert "only change its own variables" in d.message


def test_a_formula_may_loop_and_change_its_own_variables(tmp_path: Path) -> None:
    rules = textwrap.dedent("""\
        formula total(xs: list[int]):
            let sum_so_far = 0
            let kept = []
            for x in xs:
                if x > 5:
                    break
                sum_so_far += x
                add x to kept
            while len(kept) > 1:
                remove kept[0] from kept
            return sum_so_far + len(kept)
        """) + main('    log "{total(deck)}"\n')
    game, diags = diagnose(tmp_path, rules)
    assert diags == [] and game is not None


def test_formula_with_let_if_and_return_is_fine(tmp_path: Path) -> None:
    rules = textwrap.dedent("""\
        formula grade(n: int):
            let half = n // 2
            if half > 3:
                return "high"
            elif half > 1:
                return "mid"
            return "low"
        """) + main('    log "{grade(round)}"\n')
    game, diags = diagnose(tmp_path, rules)
    assert diags == [] and game is not None


def test_formula_that_never_returns(tmp_path: Path) -> None:
    rules = "formula f(n: int):\n    let x = n\n" + main('    log "{f(1)}"\n')
    d = the_error(tmp_path, rules, "no-return")
    assert pos(d) == (RULES_FILE, 1, 9)
    assert "formula 'f' never returns a value" in d.message


def test_recursive_formula(tmp_path: Path) -> None:
    rules = "formula f(n: int) = 1 if n == 0 else f(n - 1)\n" + main('    log "{f(1)}"\n')
    d = the_error(tmp_path, rules, "recursion")
    assert pos(d) == (RULES_FILE, 1, 38)
    assert "formula 'f' calls itself" in d.message
    assert d.hint is not None and "loop" in d.hint


def test_mutually_recursive_formulas_are_reported_once(tmp_path: Path) -> None:
    rules = "formula f(n: int) = g(n)\nformula g(n: int) = f(n)\n" + main('    log "{f(1)}"\n')
    d = the_error(tmp_path, rules, "recursion")
    assert pos(d) == (RULES_FILE, 2, 21)
    assert "'f' calls itself (directly or through others)" in d.message


def test_recursion_through_a_block_formula(tmp_path: Path) -> None:
    rules = textwrap.dedent("""\
        formula f(n: int):
            if n > 0:
                return g(n)
            return 0
        formula g(n: int) = f(n - 1)
        """) + main('    log "{f(3)}"\n')
    d = the_error(tmp_path, rules, "recursion")
    assert pos(d)[1] == 5


# ------------------------------------------------------------ definitions


def test_phase_defined_twice(tmp_path: Path) -> None:
    rules = main("") + "phase main:\n    pass\n"
    d = the_error(tmp_path, rules, "duplicate")
    assert pos(d) == (RULES_FILE, 3, 7)
    assert "'main' is defined twice" in d.message
    assert f"{RULES_FILE}:1" in d.message


def test_definitions_twice_across_files(tmp_path: Path) -> None:
    rules = {"a.rules": main("    run extra\n") + "phase extra:\n    pass\n",
             "b.rules": "formula extra(n: int) = n\n"}
    d = the_error(tmp_path, rules, "duplicate")
    assert pos(d) == ("b.rules", 1, 9)
    assert "'extra' is defined twice" in d.message and "a.rules:4" in d.message


def test_formula_named_like_a_builtin(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, "formula len(n: int) = 1\n" + main(""))
    (d,) = errors(diags)
    assert (d.code, pos(d)) == ("duplicate", (RULES_FILE, 1, 9))
    assert "'len' is a built-in name" in d.message


def test_phase_named_like_game_data(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main("    run prices\n") + "phase prices:\n    pass\n")
    assert any(d.code == "duplicate" and "'prices' already names game data" in d.message
               and pos(d) == (RULES_FILE, 4, 7) for d in errors(diags))


def test_unknown_start_phase(tmp_path: Path) -> None:
    d = the_error(tmp_path, "phase main:\n" + END, "unknown-phase", start="mian")
    assert pos(d)[0] == "game.yaml"
    # The `start:` line of the generated game.yaml.
    text = (tmp_path / "game.yaml").read_text().splitlines()
    assert text[d.span.line - 1].startswith("start:")
    assert "the start phase 'mian' is not defined" in d.message
    assert d.hint == "did you mean 'main'?"


def test_unreachable_phase_is_a_warning(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main("") + "phase lonely:\n    pass\n")
    assert game is not None
    (w,) = diags
    assert w.severity == "warning" and w.code == "unreachable-phase"
    assert pos(w) == (RULES_FILE, 3, 7)
    assert "phase 'lonely' is never run from 'main'" in w.message


def test_phase_reached_through_another_is_not_warned(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main("    run a\n") + "phase a:\n    run b\nphase b:\n    pass\n")
    assert diags == []


def test_unused_formula_is_a_warning(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, "formula spare(n: int) = n\n" + main(""))
    assert game is not None
    (w,) = diags
    assert (w.severity, w.code, pos(w)) == ("warning", "unused", (RULES_FILE, 1, 9))
    assert "formula 'spare' is never used" in w.message


def test_unused_local_is_a_warning(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main("    let spare = 1\n"))
    assert game is not None
    (w,) = diags
    assert (w.severity, w.code, pos(w)) == ("warning", "unused", (RULES_FILE, 2, 5))
    assert "'spare' is set but never used" in w.message


@pytest.mark.parametrize("header", ["for s in seats:", "if round == 0:", "while round == 0:"])
def test_unused_local_in_a_block_that_waits_is_a_warning(tmp_path: Path, header: str) -> None:
    rules = main(f"    {header}\n        choose x from [1, 2] by seats[0]\n        let spare = x\n")
    game, diags = diagnose(tmp_path, rules)
    assert game is not None
    (w,) = diags
    assert (w.severity, w.code, pos(w)) == ("warning", "unused", (RULES_FILE, 4, 9))
    assert "'spare'" in w.message


# ------------------------------------------------------------------ scopes


def test_let_shadowing_an_outer_local(tmp_path: Path) -> None:
    rules = main('    let x = 1\n    for s in seats:\n        let x = 2\n        log "{x}"\n    log "{x}"\n')
    d = the_error(tmp_path, rules, "shadowed-name")
    assert pos(d) == (RULES_FILE, 4, 9)
    assert "'x' is already a variable here" in d.message


def test_let_shadowing_a_global_field(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    let round = 1\n    log "{round}"\n'), "shadowed-name")
    assert pos(d) == (RULES_FILE, 2, 5)
    assert "'round' already names game data" in d.message


def test_let_shadowing_a_table(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    let prices = 1\n    log "{prices}"\n'), "shadowed-name")
    assert "'prices' already names game data" in d.message


def test_loop_variable_shadowing_seats(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    for seats in [1]:\n        pass\n"), "shadowed-name")
    assert pos(d) == (RULES_FILE, 2, 5)


def test_comprehension_variable_shadowing_a_local(tmp_path: Path) -> None:
    rules = main('    let a = [x for x in deck]\n    let b = [a for a in deck]\n    log "{a}{b}"\n')
    d = the_error(tmp_path, rules, "shadowed-name")
    assert pos(d) == (RULES_FILE, 3, 13)


def test_comprehension_variables_do_not_leak(tmp_path: Path) -> None:
    rules = main('    let a = [x for x in deck]\n    let x = 3\n    log "{a}{x}"\n')
    game, diags = diagnose(tmp_path, rules)
    assert diags == [] and game is not None


def test_sibling_blocks_may_reuse_a_name(tmp_path: Path) -> None:
    rules = main('    if round > 0:\n        let x = 1\n        log "{x}"\n    else:\n        let x = 2\n        log "{x}"\n')
    game, diags = diagnose(tmp_path, rules)
    assert diags == [] and game is not None


def test_parameter_shadowing_a_table(tmp_path: Path) -> None:
    d = the_error(tmp_path, "formula f(prices: int) = prices\n" + main('    log "{f(1)}"\n'), "shadowed-name")
    assert pos(d) == (RULES_FILE, 1, 11)


def test_keyword_as_variable_name(tmp_path: Path) -> None:
    d = the_error(tmp_path, main('    let each = 1\n    log "{each}"\n'), "reserved-word")
    assert pos(d) == (RULES_FILE, 2, 5)
    assert "'each' is a word of the language" in d.message


# ------------------------------------------------------------ control flow


def test_break_outside_a_loop(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    break\n"), "break-outside-loop")
    assert pos(d) == (RULES_FILE, 2, 5)
    assert "'break' is only allowed inside a loop" in d.message


def test_break_in_an_if_outside_a_loop(tmp_path: Path) -> None:
    d = the_error(tmp_path, main("    if true:\n        break\n"), "break-outside-loop")
    assert pos(d) == (RULES_FILE, 3, 9)


def test_break_in_a_resumable_phase_outside_a_loop(tmp_path: Path) -> None:
    rules = main('    choose x from [1, 2] by seats[0]\n    log "{x}"\n    break\n')
    d = the_error(tmp_path, rules, "break-outside-loop")
    assert pos(d) == (RULES_FILE, 4, 5)


def test_break_inside_a_loop_is_fine(tmp_path: Path) -> None:
    game, diags = diagnose(tmp_path, main("    while true:\n        if true:\n            break\n"))
    assert diags == [] and game is not None


def test_a_phase_that_gives_back_a_value_gives_one_at_every_return(tmp_path: Path) -> None:
    rules = main("    let n = run pick(1)\n    log \"{n}\"\n") + (
        "phase pick(k: int):\n    if k > 0:\n        return k\n    return\n")
    d = the_error(tmp_path, rules, "return-value")
    assert pos(d) == (RULES_FILE, 8, 5)
    assert "'pick' gives back a value" in d.message


def test_choose_with_a_seat_loop_variable_in_the_prompt(tmp_path: Path) -> None:
    rules = main('    for s in seats:\n        choose x from [1, 2] by s "{s}, pick one ({s.score} points)"\n'
                 '        s.score += x\n')
    game, diags = diagnose(tmp_path, rules)
    assert diags == [] and game is not None
    (spec,) = game.program.chooses
    assert (spec.var, spec.each, spec.secret) == ("x", False, False)
    assert (spec.span.line, spec.span.column) == (3, 9)


def test_game_yaml_is_written_as_expected(tmp_path: Path) -> None:
    """The helper writes a game the loader accepts as it is (guards the other tests)."""
    write_game(tmp_path, main(""), **WORLD)
    game, diags, sources = check_game(tmp_path)
    assert sorted(d.message for d in diags) == [f"table '{name}' is never used: no rule, ability or formula reads it"
                                                for name in ("costs", "prices")] and game is not None
    assert game.world.tables["prices"][1] == [1, 2, 3]
    assert game.world.seat_fields["money"].ledger
    assert any(Path(name).name == RULES_FILE for name in sources)
