"""Hostile game files: the validator answers with diagnostics at sensible places, never a crash or a hang.

Every check runs under a deadline and a memory cap (`answers_in_time`): a check that does not
finish in time fails the test as a hang, one that swells as a MemoryError. The cases that can
kill the process itself are run in a child process in test_hostile_folders.py. The cases: files over the size limits, YAML nested 1000 deep, alias bombs,
recursive aliases, rules nested far beyond what any game needs, very long lines, bytes that are
not text, Python's dangerous names used as rules names (nothing may be executed), runaway loops
and recursion, and a start phase that does not exist.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, TypeVar

import pytest

from hostile_helpers import limited
from interpreter.cli import main
from interpreter.core.engine import STEP_BUDGET, Engine
from interpreter.load.base import MAX_RULES_BYTES
from interpreter.load.loader import check_game
from interpreter.load.yamlsource import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES
from lang_helpers import LINE_BOARD, write_game
from ruledsl.diagnostics import Diagnostic, render
from ruledsl.syntax.parser import MAX_NESTING

HANG_SECONDS = 30
END = "    end winners seats\n"
T = TypeVar("T")


@pytest.fixture(autouse=True)
def _no_parse_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hostile texts are parsed for real and leave nothing in the user's cache."""
    monkeypatch.setenv("CITYRULES_NO_CACHE", "1")


def answers_in_time(seconds: float = HANG_SECONDS) -> AbstractContextManager[None]:
    """Fail the test as a hang when the block runs longer than `seconds`, or as a blow-up when it
    takes more than a GiB of memory."""
    return limited(seconds)


def in_time(work: Callable[[], T]) -> T:
    """The result of `work`, which must come within the deadline."""
    with answers_in_time():
        return work()


def validate(folder: Path) -> list[Diagnostic]:
    """check_game under the deadline; every diagnostic must render with its source."""
    _, diags, sources = in_time(lambda: check_game(folder))
    for d in diags:
        assert render(d, sources.get(d.span.file)).startswith(f"{d.span.file}:{d.span.line}:{d.span.column}:")
    return diags


def errors(diags: list[Diagnostic]) -> list[Diagnostic]:
    return [d for d in diags if d.severity == "error"]


def the_error(diags: list[Diagnostic], code: str, file: str) -> Diagnostic:
    """The only error, which must have this code and be in this file."""
    found = errors(diags)
    assert [(d.code, Path(d.span.file).name) for d in found] == [(code, file)], diags
    return found[0]


def at(d: Diagnostic) -> tuple[int, int]:
    return d.span.line, d.span.column


def game(folder: Path, rules: str, **kw: Any) -> Path:
    """A tiny game whose rules are `rules` (x.rules, start phase `main`)."""
    return write_game(folder, rules, **kw)


# ------------------------------------------------------------------ size limits


@pytest.mark.parametrize("file", ["game.yaml", "board.yaml"])
def test_a_yaml_file_over_1_mib_is_refused_unread(tmp_path: Path, file: str) -> None:
    game(tmp_path, "phase main:\n" + END, board=LINE_BOARD)
    path = tmp_path / file
    path.write_text(path.read_text(encoding="utf-8") + "# " + "x" * MAX_FILE_BYTES + "\n", encoding="utf-8")
    d = the_error(validate(tmp_path), "file-too-large", file)
    assert at(d) == (1, 1)


def test_a_rules_file_over_the_limit_is_refused(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n" + END + "# " + "x" * MAX_RULES_BYTES + "\n")
    d = the_error(validate(tmp_path), "file-too-large", "x.rules")
    assert at(d) == (1, 1)


# ------------------------------------------------------------------ hostile YAML


def yaml_table(folder: Path, text: str) -> int:
    """A game whose game.yaml ends with `tables:` and the given lines; returns the first one's number."""
    game(folder, "phase main:\n" + END)
    path = folder / "game.yaml"
    before = path.read_text(encoding="utf-8")
    path.write_text(before + "tables:\n" + text, encoding="utf-8")
    return before.count("\n") + 2


def test_yaml_nested_1000_deep_in_brackets_is_refused(tmp_path: Path) -> None:
    line = yaml_table(tmp_path, "  t: " + "[" * 1000 + "]" * 1000 + "\n")
    d = the_error(validate(tmp_path), "yaml-too-deep", "game.yaml")
    # On the nested line, at the first bracket past the limit (the brackets start in column 6).
    assert d.span.line == line and 6 + MAX_DEPTH - 4 <= d.span.column <= 6 + MAX_DEPTH + 1, d


def test_yaml_nested_1000_deep_in_indented_blocks_is_refused(tmp_path: Path) -> None:
    nested = "".join("  " * (i + 2) + f"k{i}:\n" for i in range(1000)) + "  " * 1002 + "v: 1\n"
    line = yaml_table(tmp_path, "  t:\n" + nested)
    d = the_error(validate(tmp_path), "yaml-too-deep", "game.yaml")
    assert line + MAX_DEPTH - 4 <= d.span.line <= line + MAX_DEPTH + 1, d
    assert d.span.column == 2 * (d.span.line - line + 1) + 1, d  # where that line's key starts


def test_yaml_lists_nested_1000_deep_in_block_style_are_refused(tmp_path: Path) -> None:
    line = yaml_table(tmp_path, "  t:\n    " + "- " * 1000 + "1\n")
    d = the_error(validate(tmp_path), "yaml-too-deep", "game.yaml")
    assert d.span.line == line + 1 and 5 + 2 * (MAX_DEPTH - 4) <= d.span.column <= 5 + 2 * (MAX_DEPTH + 1), d


def test_a_billion_laughs_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    lines = ['  a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n']
    lines += [f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 10)]
    first = yaml_table(tmp_path, "".join(lines))
    with answers_in_time(10):
        d = the_error(validate(tmp_path), "yaml-too-large", "game.yaml")
    assert first <= d.span.line < first + len(lines) and str(MAX_NODES) in d.message, d


def test_a_recursive_alias_is_refused(tmp_path: Path) -> None:
    line = yaml_table(tmp_path, "  loop: &x [1, *x]\n")
    d = the_error(validate(tmp_path), "yaml-recursive-alias", "game.yaml")
    assert d.span.line == line and d.span.column == len("  loop: ") + 1, d  # the anchored block


def test_a_recursive_merge_key_is_refused(tmp_path: Path) -> None:
    line = yaml_table(tmp_path, "  m: &m {a: 1, <<: *m}\n")
    d = the_error(validate(tmp_path), "yaml-recursive-alias", "game.yaml")
    assert d.span.line == line, d


# ------------------------------------------------------------------ rules nested beyond reason


def test_10000_redundant_parentheses_are_only_parentheses(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n    let x = " + "(" * 10000 + "1" + ")" * 10000 + "\n    log \"{x}\"\n" + END)
    assert validate(tmp_path) == []
    g, _, _ = check_game(tmp_path)
    assert g is not None and Engine(g).new_game(1, seed=1)["log"][0]["text"] == "1"


@pytest.mark.parametrize("opening, closing", [("[", "]"), ("-(", ")"), ("abs(", ")"), ("(1, ", ")")])
def test_10000_nested_brackets_in_one_expression_are_too_deep(tmp_path: Path, opening: str, closing: str) -> None:
    game(tmp_path, "phase main:\n    let x = " + opening * 10000 + "1" + closing * 10000 + "\n    log \"{x}\"\n" + END)
    d = the_error(validate(tmp_path), "too-deep", "x.rules")
    # Inside the brackets of line 2, which start in column 13, about MAX_NESTING levels in.
    assert d.span.line == 2 and 13 < d.span.column <= 13 + len(opening) * MAX_NESTING, d


def test_300_nested_if_blocks_are_too_deep(tmp_path: Path) -> None:
    body = "".join("    " * (i + 1) + "if true:\n" for i in range(300)) + "    " * 301 + "pass\n"
    game(tmp_path, "phase main:\n" + body + END)
    d = the_error(validate(tmp_path), "too-deep", "x.rules")
    # The phase is one level and each `if` one more: the `if` that is one too many.
    assert at(d) == (1 + MAX_NESTING, 4 * MAX_NESTING + 1), d


def test_nesting_inside_a_text_counts_with_the_nesting_around_it(tmp_path: Path) -> None:
    inner = "[" * (MAX_NESTING - 2) + "1" + "]" * (MAX_NESTING - 2)
    game(tmp_path, "phase main:\n    if true:\n        log \"{" + inner + "}\"\n" + END)
    d = the_error(validate(tmp_path), "too-deep", "x.rules")
    assert d.span.line == 3 and 14 <= d.span.column <= 14 + MAX_NESTING, d


@pytest.mark.parametrize("extra, fine", [(0, True), (1, False)])
def test_the_limit_counts_blocks_and_expressions_together(tmp_path: Path, extra: int, fine: bool) -> None:
    # The phase, 16 `if` blocks, the `log`, its text, the lists and the number: MAX_NESTING levels.
    blocks = MAX_NESTING // 2
    depth = MAX_NESTING - blocks - 4 + extra
    body = "".join("    " * (i + 1) + "if true:\n" for i in range(blocks))
    body += "    " * (blocks + 1) + 'log "{' + "[" * depth + "1" + "]" * depth + '}"\n'
    game(tmp_path, "phase main:\n" + body + END)
    diags = validate(tmp_path)
    if fine:
        assert diags == []
    else:
        d = the_error(diags, "too-deep", "x.rules")
        assert d.span.line == blocks + 2, d


def test_ability_code_nested_too_deep_is_reported_in_its_yaml_file(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text(
        "name: tiny\ntitle: Tiny\nseats: {min: 1, max: 2}\nrules: [x.rules]\nstart: main\n"
        "components:\n  card: {file: cards.yaml, collection: deck, abilities: {on_play: 'you: seat'}}\n"
        "state: {}\n", encoding="utf-8")
    (tmp_path / "x.rules").write_text("phase main:\n    for c in deck:\n        run on_play of c with seats[0]\n"
                                      + END, encoding="utf-8")
    nested = "".join("      " + "    " * i + "if true:\n" for i in range(100)) + "      " + "    " * 100 + "pass\n"
    (tmp_path / "cards.yaml").write_text("items:\n  - id: a\n    on_play: |\n" + nested, encoding="utf-8")
    d = the_error(validate(tmp_path), "too-deep", "cards.yaml")
    # The ability is a phase (one level), so the `if` one too many is the 32nd, on line 3 + 32.
    assert at(d) == (3 + MAX_NESTING, 7 + 4 * (MAX_NESTING - 1)), d


def test_a_200000_character_sum_is_too_deep(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n    let x = " + " + ".join(["1"] * 50000) + "\n    log \"{x}\"\n" + END)
    d = the_error(validate(tmp_path), "too-deep", "x.rules")
    assert at(d) == (2, 13), d  # where the sum starts


def test_a_200000_character_text_is_just_text(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n    log \"" + "a" * 200_000 + "\"\n" + END)
    assert validate(tmp_path) == []


# ------------------------------------------------------------------ bytes that are not text


def test_a_nul_byte_in_rules_code_is_a_syntax_error_where_it_is(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n" + END)
    (tmp_path / "x.rules").write_bytes(b"phase main:\n    let x = 1\x00\n" + END.encode())
    d = the_error(validate(tmp_path), "syntax", "x.rules")
    assert at(d) == (2, 14) and "\\x00" in repr(d.message), d


def test_invalid_utf8_in_rules_code_is_a_syntax_error_where_it_is(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n" + END)
    (tmp_path / "x.rules").write_bytes(b"phase main:\n    let \xff = 1\n" + END.encode())
    d = the_error(validate(tmp_path), "syntax", "x.rules")
    assert at(d) == (2, 9), d


def test_a_binary_file_named_x_rules_is_a_syntax_error(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n" + END)
    (tmp_path / "x.rules").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40)
    d = the_error(validate(tmp_path), "syntax", "x.rules")
    assert at(d) == (1, 1), d


def test_a_nul_byte_in_yaml_is_reported_where_it_is(tmp_path: Path) -> None:
    line = yaml_table(tmp_path, "  t: 1\n")
    path = tmp_path / "game.yaml"
    path.write_bytes(path.read_bytes().replace(b"t: 1", b"t: \x001"))
    d = the_error(validate(tmp_path), "yaml-syntax", "game.yaml")
    assert at(d) == (line, 6), d


def test_invalid_utf8_in_yaml_is_reported_where_it_is(tmp_path: Path) -> None:
    line = yaml_table(tmp_path, "  t: 1\n")
    path = tmp_path / "game.yaml"
    path.write_bytes(path.read_bytes().replace(b"t: 1", b"t: \xe91"))
    d = the_error(validate(tmp_path), "yaml-encoding", "game.yaml")
    assert at(d) == (line, 6), d


def test_a_binary_file_named_game_yaml_is_reported(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40)
    found = errors(validate(tmp_path))
    assert found and all(Path(d.span.file).name == "game.yaml" for d in found), found
    assert found[0].code in ("yaml-syntax", "yaml-encoding") and found[0].span.line == 1, found


# ------------------------------------------------------------------ Python's names are plain names

PYTHON_NAMES = ["__import__", "__class__", "__builtins__", "eval", "exec", "open", "os", "sys"]
ROLES = ["variable", "parameter", "loop variable", "phase", "formula", "seat field", "global field",
         "node field", "table", "table key", "node attribute"]


def plain_name_game(folder: Path, name: str, role: str) -> None:
    """A game that uses `name` in one role and logs 7 through it."""
    main_body, more = {
        "variable": (f"    let {name} = 7\n    log \"{{{name}}}\"\n", ""),
        "parameter": ("    run p(7)\n", f"phase p({name}: int):\n    log \"{{{name}}}\"\n"),
        "loop variable": (f"    for {name} in [7]:\n        log \"{{{name}}}\"\n", ""),
        "phase": (f"    run {name}\n", f"phase {name}:\n    log \"7\"\n"),
        "formula": (f"    log \"{{{name}()}}\"\n", f"formula {name}() = 7\n"),
        "seat field": (f"    seats[0].{name} += 6\n    log \"{{seats[0].{name}}}\"\n", ""),
        "global field": (f"    {name} += 6\n    log \"{{{name}}}\"\n", ""),
        "node field": (f"    nodes[0].{name} += 6\n    log \"{{nodes[0].{name}}}\"\n", ""),
        "table": (f"    log \"{{{name}}}\"\n", ""),
        "table key": (f"    log \"{{t.{name}}}\"\n", ""),
        "node attribute": (f"    log \"{{nodes[0].{name}}}\"\n", ""),
    }[role]
    options: dict[str, dict[str, Any]] = {
        "seat field": {"seat": {name: ("int", 1)}},
        "global field": {"global_": {name: ("int", 1)}},
        "node field": {"node": {name: ("int", 1)}, "board": {"nodes": [{"id": 1}], "edges": []}},
        "table": {"tables": {name: 7}},
        "table key": {"tables": {"t": {name: 7, "other": 8}}},
        "node attribute": {"board": {"nodes": [{"id": 1, name: 7}], "edges": []}},
    }
    game(folder, "phase main:\n" + main_body + END + "\n" + more, **options.get(role, {}))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", PYTHON_NAMES)
def test_python_names_are_plain_names_in_the_rules(tmp_path: Path, name: str, role: str) -> None:
    plain_name_game(tmp_path, name, role)
    assert validate(tmp_path) == []
    g, _, _ = check_game(tmp_path)
    assert g is not None
    state = in_time(lambda: Engine(g).new_game(1, seed=1))
    assert [entry["text"] for entry in state["log"]] == ["7"] and state["result"] == {"winners": [0]}


@pytest.mark.parametrize("expression, code, column", [
    ("seats[0].__class__", "unknown-field", 22),
    ("nodes[0].__class__", "unknown-field", 22),
    ("seats.__class__", "type", 13),
    ("t.__class__", "unknown-key", 15),
    ("t.__dict__", "unknown-key", 15),
])
def test_python_attributes_are_unknown_fields(tmp_path: Path, expression: str, code: str, column: int) -> None:
    game(tmp_path, f"phase main:\n    let x = {expression}\n    log \"{{x}}\"\n" + END, board=LINE_BOARD,
         tables={"t": {"a": 1}})
    d = the_error(validate(tmp_path), code, "x.rules")
    assert d.span.line == 2 and d.span.column <= column <= d.span.end_column, d


@pytest.mark.parametrize("call", ["__import__(m)", "open(target, m)", "eval(target)", "exec(target)",
                                  "getattr(seats, m)", "__builtins__(m)", "globals()"])
def test_python_functions_in_a_text_are_unknown_and_never_run(tmp_path: Path, call: str) -> None:
    target = tmp_path / "created-by-the-rules"
    code = f"open('{target}', 'w')"
    rules = (f"phase main:\n    let target = \"{code if call.startswith(('eval', 'exec')) else target}\"\n"
             f"    let m = \"w\"\n    log \"{{{call}}}\"\n" + END)
    game(tmp_path, rules)
    found = errors(validate(tmp_path))
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("unknown-name", 4, 11)], found
    assert not target.exists()


def test_python_looking_text_in_the_data_is_only_text(tmp_path: Path) -> None:
    target = tmp_path / "created-by-the-data"
    payload = f"{{__import__('os').system('touch {target}')}}"
    game(tmp_path, "phase main:\n    log \"{t}\"\n" + END, tables={"t": payload, "__builtins__": {"open": 1}})
    # Loaded as plain data; the one thing said of `__builtins__` is that no rule reads it.
    assert [(d.code, d.message) for d in validate(tmp_path)] == [
        ("unused", "table '__builtins__' is never used: no rule, ability or formula reads it")]
    g, _, _ = check_game(tmp_path)
    assert g is not None
    state = in_time(lambda: Engine(g).new_game(1, seed=1))
    assert state["log"][0]["text"] == payload and not target.exists()


# ------------------------------------------------------------------ runaway loops and recursion


def fuzz(capsys: pytest.CaptureFixture[str], folder: Path) -> tuple[int, list[dict[str, Any]]]:
    """`cityrules validate --fuzz 1 --format json` under the deadline."""
    code = in_time(lambda: main(["validate", "--fuzz", "1", "--format", "json", str(folder)]))
    return code, json.loads(capsys.readouterr().out)


def test_an_endless_loop_is_stopped_by_the_step_budget_and_named(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    game(tmp_path, "phase main:\n    while true:\n        pass\n" + END, seats=(1, 1))
    code, records = fuzz(capsys, tmp_path)
    assert code == 1 and [(r["code"], Path(r["file"]).name, r["line"], r["column"]) for r in records] == [
        ("runtime", "x.rules", 2, 5)], records
    assert f"more than {STEP_BUDGET:,} steps" in records[0]["message"]


def test_phases_running_each_other_forever_are_stopped_at_a_run(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    rules = "phase main:\n    run ping\n" + END + "\nphase ping:\n    run pong\n\nphase pong:\n    run ping\n"
    game(tmp_path, rules, seats=(1, 1))
    code, records = fuzz(capsys, tmp_path)
    assert code == 1 and len(records) == 1 and records[0]["code"] == "runtime", records
    assert (Path(records[0]["file"]).name, records[0]["column"]) == ("x.rules", 5)
    assert records[0]["line"] in (6, 9), records  # `run pong` or `run ping`, in the cycle


def test_phases_that_wait_and_run_each_other_forever_are_stopped_at_a_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = ("phase main:\n    run ping\n" + END + "\nphase ping:\n    choose x from [1, 2] by seats[0]\n"
             "    log \"{x}\"\n    run pong\n\nphase pong:\n    run ping\n")
    game(tmp_path, rules, seats=(1, 1))
    code, records = fuzz(capsys, tmp_path)
    assert code == 1 and len(records) == 1 and records[0]["code"] == "runtime", records
    assert (Path(records[0]["file"]).name, records[0]["line"], records[0]["column"]) in (
        ("x.rules", 8, 5), ("x.rules", 11, 5)), records
    assert "more than 200 deep" in records[0]["message"]


def test_a_formula_calling_itself_is_refused_at_the_call(tmp_path: Path) -> None:
    game(tmp_path, "formula f(n: int) = f(n - 1) + 1\n\nphase main:\n    log \"{f(3)}\"\n" + END)
    d = the_error(validate(tmp_path), "recursion", "x.rules")
    assert at(d) == (1, 21), d


def test_formulas_calling_each_other_are_refused_at_a_call(tmp_path: Path) -> None:
    rules = "formula f(n: int) = g(n)\n\nformula g(n: int) = f(n)\n\nphase main:\n    log \"{f(3)}\"\n" + END
    game(tmp_path, rules)
    d = the_error(validate(tmp_path), "recursion", "x.rules")
    assert at(d) in ((1, 21), (3, 21)), d


# ------------------------------------------------------------------ game.yaml naming nothing


def test_a_start_phase_that_does_not_exist_is_reported_in_game_yaml(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n" + END, start="nowhere")
    d = the_error(validate(tmp_path), "unknown-phase", "game.yaml")
    lines = (tmp_path / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[d.span.line - 1][d.span.column - 1:d.span.end_column] == "nowhere", d


def test_a_start_phase_named_like_python_is_just_missing(tmp_path: Path) -> None:
    game(tmp_path, "phase main:\n" + END, start="__import__")
    d = the_error(validate(tmp_path), "unknown-phase", "game.yaml")
    assert "__import__" in d.message
