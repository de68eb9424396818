"""Meaning checks added for `cityrules validate`: lines that do nothing, values and keys that do
not exist in the game's data, choices whose options can be empty, and `# allow:` comments.

The tiny game is the one of test_compiler.py: seat fields money, score, hand; node field owner;
a three-node board whose nodes have a `colour` of red or blue; tables prices (list) and costs (map).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from interpreter.load.loader import check_game
from lang_helpers import LINE_BOARD, check, errors, warnings
from ruledsl.diagnostics import Diagnostic

WORLD: dict[str, Any] = {
    "seat": {"money": ("int", 10), "score": ("int", 0), "hand": ("list[int]", [])},
    "node": {"owner": ("seat?", None)},
    "tables": {"prices": [1, 2, 3], "costs": {"house": 1, "shop": 2},
               "by_seats": {2: 5, 3: 4}, "grid": {"north": {"row": 0}}},
    "board": LINE_BOARD,
}

# After the start phase, so that the body's first line is line 2.
HELPERS = "\nformula worth(s: seat) = s.money * 2\n\nphase turn(s: seat):\n    pass\n"


def diagnose(folder: Path, body: str, helpers: str = HELPERS) -> list[Diagnostic]:
    """Every diagnostic of a game whose start phase has this (4-space indented) body."""
    _, diags = check(folder, "phase main:\n" + body + "    end winners seats\n" + helpers, **WORLD)
    return diags


def where(d: Diagnostic) -> tuple[int, int]:
    return d.span.line, d.span.column


def only(diags: list[Diagnostic], code: str) -> Diagnostic:
    found = [d for d in diags if d.code == code]
    assert len(found) == 1, diags
    return found[0]


# ------------------------------------------------------------ lines that do nothing

def test_a_formula_alone_on_a_line_is_a_formula_used_as_a_statement(tmp_path: Path) -> None:
    d = only(diagnose(tmp_path, "    for s in seats:\n        worth(s)\n        run turn(s)\n"), "formula-as-statement")
    assert d.severity == "error"
    assert where(d) == (3, 9)
    assert "worth" in d.message and "thrown away" in d.message
    assert d.hint is not None and "let x = worth(" in d.hint


def test_running_a_formula_says_it_is_a_formula_not_an_unknown_phase(tmp_path: Path) -> None:
    diags = diagnose(tmp_path, "    for s in seats:\n        run worth(s)\n        run turn(s)\n")
    d = only(diags, "formula-as-statement")
    assert where(d) == (3, 13)
    assert "'worth' is a formula" in d.message
    assert not [x for x in diags if x.code in ("unknown-phase", "unused")]


def test_a_phase_called_without_run_gets_the_fix(tmp_path: Path) -> None:
    diags = diagnose(tmp_path, "    for s in seats:\n        turn(s)\n        let w = worth(s)\n        log \"{w}\"\n")
    d = only(diags, "no-effect")
    assert where(d) == (3, 9)
    assert d.hint == "write: run turn(...)"
    # The phase is not also reported as never run: one mistake, one diagnostic.
    assert not [x for x in diags if x.code == "unreachable-phase"]


def test_a_comparison_alone_on_a_line_suggests_assignment(tmp_path: Path) -> None:
    d = only(diagnose(tmp_path, "    for s in seats:\n        s.score == 3\n        run turn(s)\n"
                                "        let w = worth(s)\n        log \"{w}\"\n"), "no-effect")
    assert where(d) == (3, 9)
    assert d.hint is not None and "'='" in d.hint


def test_a_built_in_alone_on_a_line(tmp_path: Path) -> None:
    d = only(diagnose(tmp_path, "    len(seats)\n    for s in seats:\n        run turn(s)\n"
                                "        let w = worth(s)\n        log \"{w}\"\n"), "formula-as-statement")
    assert where(d) == (2, 5)
    assert "'len(...)'" in d.message


def test_a_bare_value_inside_a_formula_is_reported_as_such(tmp_path: Path) -> None:
    rules = ("formula f(s: seat):\n    worth(s)\n    return 1\n\nformula worth(s: seat) = s.money\n\n"
             "phase main:\n    for s in seats:\n        s.score = f(s)\n    end winners seats\n")
    _, diags = check(tmp_path, rules, **WORLD)
    d = only(diags, "formula-as-statement")
    assert where(d) == (2, 5)
    assert not [x for x in diags if x.code == "not-in-formula"]


# ------------------------------------------------------------ values the data does not have

def test_comparing_a_board_attribute_with_a_value_no_node_has(tmp_path: Path) -> None:
    diags = diagnose(tmp_path, "    for n in nodes:\n        if n.colour == \"gren\" or n.colour != \"red\":\n"
                               "            log \"x\"\n")
    d = only(diags, "unknown-value")
    assert d.severity == "error"
    assert where(d) == (3, 24)
    assert "no board node has colour 'gren'" in d.message
    assert d.hint == "the values are blue, red"


def test_a_misspelt_value_gets_did_you_mean(tmp_path: Path) -> None:
    d = only(diagnose(tmp_path, "    for n in nodes:\n        if \"blu\" == n.colour:\n            log \"x\"\n"),
             "unknown-value")
    assert where(d) == (3, 12)
    assert d.hint == "did you mean 'blue'?"


def test_a_node_id_that_does_not_exist(tmp_path: Path) -> None:
    d = only(diagnose(tmp_path, "    for n in nodes:\n        if n.id in [1, 4]:\n            log \"x\"\n"),
             "unknown-value")
    assert where(d) == (3, 24)
    assert "no board node has id 4" in d.message


def test_values_that_exist_and_computed_values_are_not_reported(tmp_path: Path) -> None:
    diags = diagnose(tmp_path, "    for n in nodes:\n        if n.colour == \"red\" or n.id == 3 or n.colour == str(n.id):\n"
                               "            log \"x\"\n")
    assert errors(diags) == []


def test_a_table_key_that_does_not_exist(tmp_path: Path) -> None:
    diags = diagnose(tmp_path, "    let a = costs[\"hous\"] + costs.shopp + costs.shop + by_seats[4] + by_seats[2]\n"
                               "    log \"{a}\"\n")
    found = [d for d in diags if d.code == "unknown-key"]
    assert [(where(d), d.message, d.hint) for d in found] == [
        ((2, 19), "table costs has no entry 'hous'", "did you mean 'house'?"),
        ((2, 35), "table costs has no entry 'shopp'", "did you mean 'shop'?"),
        ((2, 65), "table by_seats has no entry 4", "its keys are 2, 3"),
    ]


def test_a_list_table_position_out_of_range_and_a_nested_key(tmp_path: Path) -> None:
    diags = diagnose(tmp_path, "    let a = prices[3] + prices[-1] + grid[\"north\"][\"col\"] + grid.north.row\n"
                               "    log \"{a}\"\n")
    found = [d for d in diags if d.code == "unknown-key"]
    assert [(where(d), d.message) for d in found] == [
        ((2, 20), "table prices has 3 entries: 3 is not a position in it"),
        ((2, 52), "table grid[\"north\"] has no entry 'col'"),
    ]


def test_a_local_named_like_nothing_is_not_taken_for_a_table(tmp_path: Path) -> None:
    diags = diagnose(tmp_path, "    let table = {\"a\": 1}\n    let a = table[\"b\"]\n    log \"{a}\"\n")
    assert errors(diags) == []


# ------------------------------------------------------------ choices that can be empty

CHOICE = "    choose pick from {options} by 0 \"Pick\"\n    log \"{{pick}}\"\n"


@pytest.mark.parametrize("options", [
    "[n for n in nodes if n.owner == none]",
    "[1 for s in seats if s.money > 50]",
])
def test_a_filtered_list_of_options_is_reported(tmp_path: Path, options: str) -> None:
    d = only(diagnose(tmp_path, CHOICE.format(options=options)), "empty-options")
    assert d.severity == "warning"
    assert where(d) == (2, 22)
    assert "'pick' can be empty" in d.message
    assert d.hint is not None and "# allow: empty-options" in d.hint


def test_a_filtered_local_variable_is_followed(tmp_path: Path) -> None:
    body = "    let free = [n for n in nodes if n.owner == none]\n" + CHOICE.format(options="free")
    d = only(diagnose(tmp_path, body), "empty-options")
    assert where(d) == (3, 22)


@pytest.mark.parametrize("body", [
    # a test on the length that leaves the phase
    "    let free = [n for n in nodes if n.owner == none]\n    if len(free) == 0:\n        return\n"
    + CHOICE.format(options="free"),
    # the same inside a larger condition
    "    let free = [n for n in nodes if n.owner == none]\n    if 0 == len(seats) or len(free) == 0:\n"
    "        return\n" + CHOICE.format(options="free"),
    # the choice inside the test
    "    let free = [n for n in nodes if n.owner == none]\n    if len(free) > 0:\n"
    + CHOICE.format(options="free").replace("    ", "        "),
    # in the else branch of an emptiness test
    "    let free = [n for n in nodes if n.owner == none]\n    if len(free) == 0:\n        log \"none\"\n    else:\n"
    + CHOICE.format(options="free").replace("    ", "        "),
    # a while loop guarded on the length
    "    let free = [n for n in nodes if n.owner == none]\n    while len(free) > 1:\n"
    + CHOICE.format(options="free").replace("    ", "        ") + "        remove pick from free\n",
    # an option that is always there
    CHOICE.format(options="[none] + [n for n in nodes if n.owner == none]"),
    # lists that are never filtered: formulas, fields and tables are trusted
    CHOICE.format(options="[n for n in nodes]"),
    CHOICE.format(options="prices"),
])
def test_guarded_or_never_empty_options_are_not_reported(tmp_path: Path, body: str) -> None:
    diags = diagnose(tmp_path, body)
    assert [d for d in diags if d.code == "empty-options"] == [], diags


def test_a_guard_no_longer_holds_after_the_list_shrinks(tmp_path: Path) -> None:
    body = ("    let free = [n for n in nodes if n.owner == none]\n    if len(free) == 0:\n        return\n"
            "    for s in seats:\n" + CHOICE.format(options="free").replace("    ", "        ")
            + "        remove pick from free\n")
    d = only(diagnose(tmp_path, body), "empty-options")
    assert where(d) == (6, 26)


def test_each_seat_choices_are_checked_too(tmp_path: Path) -> None:
    body = ("    choose pick from [n for n in nodes if n.owner == s] by each s in seats secret \"Pick\"\n"
            "    log \"{pick}\"\n")
    d = only(diagnose(tmp_path, body), "empty-options")
    assert where(d) == (2, 22)


# ------------------------------------------------------------ allowing a warning

def test_an_allow_comment_silences_that_warning_on_its_line(tmp_path: Path) -> None:
    options = "[n for n in nodes if n.owner == none]"
    same_line = CHOICE.format(options=options).replace("\"Pick\"\n", "\"Pick\"  # allow: empty-options\n", 1)
    assert warnings(diagnose(tmp_path, same_line, helpers="")) == []
    line_above = "    # allow: unused, empty-options. The first lot is always free here.\n" + CHOICE.format(options=options)
    assert warnings(diagnose(tmp_path, line_above, helpers="")) == []


def test_an_allow_comment_names_the_code_it_allows(tmp_path: Path) -> None:
    options = "[n for n in nodes if n.owner == none]"
    body = "    # allow: unused\n" + CHOICE.format(options=options)
    assert [d.code for d in warnings(diagnose(tmp_path, body, helpers=""))] == ["empty-options"]


def test_an_allow_comment_cannot_silence_an_error(tmp_path: Path) -> None:
    diags = diagnose(tmp_path, "    let a = costs[\"hous\"]  # allow: unknown-key\n    log \"{a}\"\n")
    assert [d.code for d in errors(diags)] == ["unknown-key"]


# ------------------------------------------------------------ mistakes the gallery turned up

def test_an_empty_game_file_is_an_error_not_a_clean_game(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text("# to do\n", encoding="utf-8")
    game, diags, _ = check_game(tmp_path)
    assert game is None
    assert [(d.code, d.span.line, d.message) for d in diags] == [("schema", 1, "'game.yaml' is empty")]


def test_a_stored_value_of_the_wrong_type_reads_well(tmp_path: Path) -> None:
    d = only(diagnose(tmp_path, "    for s in seats:\n        s.score = \"ten\"\n"), "type")
    assert d.message == "cannot store a str where an int belongs"


def test_a_start_that_names_a_formula_says_so(tmp_path: Path) -> None:
    from lang_helpers import write_game

    write_game(tmp_path, "formula go() = 1\n\nphase main:\n    end winners seats\n", start="go", **WORLD)
    _, diags, _ = check_game(tmp_path)
    (err,) = errors(diags)
    assert err.code == "unknown-phase" and "'go' is a formula" in err.message


# ------------------------------------------------------------ hostile inputs that used to crash

def test_a_list_where_a_node_id_belongs_is_a_type_error(tmp_path: Path) -> None:
    from lang_helpers import write_game

    write_game(tmp_path, "phase main:\n    end winners seats\n", global_={"home": ("node?", [1])}, board=LINE_BOARD)
    game, diags, _ = check_game(tmp_path)
    assert game is None and [d.code for d in diags] == ["type"]


def test_a_text_with_thousands_of_parts_compiles_and_runs(tmp_path: Path) -> None:
    from lang_helpers import engine

    e = engine(tmp_path, "phase main:\n    let a = 7\n    log \"" + "{a}" * 3000 + "\"\n    end winners seats\n")
    state = e.new_game(1, seed=1)
    assert any(ev.get("text") == "7" * 3000 for ev in state["log"])


def test_a_very_long_chain_of_formulas_is_a_diagnostic(tmp_path: Path) -> None:
    rules = "".join(f"formula f{i}(x: int) = f{i + 1}(x) + 1\n" for i in range(200))
    rules += "formula f200(x: int) = x\nphase main:\n    log \"{f0(1)}\"\n    end winners seats\n"
    game, diags = check(tmp_path, rules)
    assert game is None and [d.code for d in diags] == ["too-deep"]


def test_a_rules_file_that_is_not_utf8_is_reported_where_the_byte_is(tmp_path: Path) -> None:
    from lang_helpers import write_game

    write_game(tmp_path, "phase main:\n    end winners seats\n")
    (tmp_path / "x.rules").write_bytes(b'phase main:\n    log "caf\xe9"\n    end winners seats\n')
    game, diags, _ = check_game(tmp_path)
    assert game is None
    assert [(d.code, d.span.line, d.span.column) for d in diags] == [("syntax", 2, 13)]
    assert "UTF-8" in diags[0].message
