"""Tests for interpreter.load.yamlsource: plain data, positions, and hostile input."""

from __future__ import annotations

import pathlib
import time

import pytest

from interpreter.load.yamlsource import MAX_FILE_BYTES, PositionMap, load_yaml, load_yaml_text
from ruledsl.diagnostics import Diagnostic, Span

NESTED = """\
name: downtown
seats: {min: 3, max: 6}
rules:
  - round.rules
  - scoring.rules
state:
  seat:
    money: {type: int, initial: 10}
text: |
  first
  second
"""


def load(text: str) -> tuple[object, PositionMap, list[Diagnostic]]:
    return load_yaml_text(text, "game.yaml")


def codes(diagnostics: list[Diagnostic]) -> list[str]:
    return [d.code for d in diagnostics]


def at(diag: Diagnostic) -> tuple[int, int]:
    return diag.span.line, diag.span.column


def test_builds_plain_data() -> None:
    data, _, diagnostics = load(NESTED + "flags: [yes, no, ~, 1.5, '3', 2024-01-01]\n")
    assert diagnostics == []
    assert isinstance(data, dict)
    assert data["seats"] == {"min": 3, "max": 6}
    assert data["rules"] == ["round.rules", "scoring.rules"]
    assert data["text"] == "first\nsecond\n"
    # Dates stay text; the other scalars follow YAML 1.1 as SafeLoader does.
    assert data["flags"] == [True, False, None, 1.5, "3", "2024-01-01"]


def test_positions_of_values_in_nested_maps_and_lists() -> None:
    _, positions, _ = load(NESTED)
    assert positions.span(("name",)) == Span("game.yaml", 1, 7, 1, 14)
    assert positions.span(("seats", "max")) == Span("game.yaml", 2, 22, 2, 22)
    assert positions.span(("seats",)) == Span("game.yaml", 2, 8, 2, 23)
    assert positions.span(("rules", 1)) == Span("game.yaml", 5, 5, 5, 17)
    assert positions.span(("rules",)) == Span("game.yaml", 4, 3, 5, 17)
    assert positions.span(("state", "seat", "money", "initial")) == Span("game.yaml", 8, 33, 8, 34)
    assert positions.span(("text",)) == Span("game.yaml", 9, 7, 11, 8)
    assert positions.span(()) == Span("game.yaml", 1, 1, 11, 8)
    assert positions.span(("nope",)) is None


def test_positions_of_keys() -> None:
    _, positions, _ = load(NESTED)
    assert positions.key_span(("name",)) == Span("game.yaml", 1, 1, 1, 4)
    assert positions.key_span(("seats", "max")) == Span("game.yaml", 2, 17, 2, 19)
    assert positions.key_span(("state", "seat", "money")) == Span("game.yaml", 8, 5, 8, 9)
    assert positions.key_span(("rules", 0)) is None


def test_nearest_falls_back_to_longest_existing_prefix() -> None:
    _, positions, _ = load(NESTED)
    assert positions.nearest(("state", "seat", "money", "visible")) == positions.span(("state", "seat", "money"))
    assert positions.nearest(["rules", 1]) == positions.span(("rules", 1))
    assert positions.nearest(("missing", "deeper")) == positions.span(())
    assert PositionMap("x.yaml").nearest(("a",)) == Span("x.yaml", 1, 1)


def test_int_keys_are_allowed() -> None:
    data, positions, diagnostics = load("payout: {3: 3, 4: 5}\n")
    assert diagnostics == []
    assert data == {"payout": {3: 3, 4: 5}}
    assert positions.span(("payout", 4)) == Span("game.yaml", 1, 19, 1, 19)
    assert positions.key_span(("payout", 4)) == Span("game.yaml", 1, 16, 1, 16)


def test_anchors_and_merge_keys() -> None:
    data, positions, diagnostics = load("base: &b {x: 1, y: 2}\ncopy: *b\nmerged:\n  <<: *b\n  y: 3\n")
    assert diagnostics == []
    assert isinstance(data, dict)
    assert data["copy"] == {"x": 1, "y": 2}
    assert data["merged"] == {"x": 1, "y": 3}
    assert positions.span(("merged", "y")) == Span("game.yaml", 5, 6, 5, 6)
    # A merged-in value is found where it was written.
    assert positions.span(("merged", "x")) == Span("game.yaml", 1, 14, 1, 14)


def test_empty_document_is_none_without_diagnostics() -> None:
    assert load("# nothing here\n")[0] is None
    assert load("")[2] == []


def test_duplicate_key_points_at_second_key() -> None:
    data, _, diagnostics = load("state:\n  round: 1\n  round: 2\n")
    assert codes(diagnostics) == ["duplicate-key"]
    assert at(diagnostics[0]) == (3, 3)
    assert "line 2" in diagnostics[0].message
    assert data == {"state": {"round": 1}}


@pytest.mark.parametrize(("text", "column"), [("[1, 2]: x\n", 1), ("? {a: 1}\n: x\n", 3)])
def test_list_or_map_keys_are_errors(text: str, column: int) -> None:
    _, _, diagnostics = load(text)
    assert codes(diagnostics) == ["yaml-complex-key"]
    assert at(diagnostics[0]) == (1, column)


def test_bool_looking_key_warns() -> None:
    data, _, diagnostics = load("on: 1\n")
    assert data == {True: 1}
    assert codes(diagnostics) == ["yaml-bool-key"]
    assert diagnostics[0].severity == "warning"


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("a: b: c\n", 1, 5, "mapping values are not allowed here"),
        ("a: 'open\n", 2, 1, "unexpected end of stream"),
        ("a:\n\t- 1\n", 2, 1, "cannot start any token"),
        ("a: 1\n---\nb: 2\n", 2, 1, "single document"),
        ("a: *nowhere\n", 1, 4, "undefined alias"),
        ("a: b\x00\n", 1, 5, "not allowed"),
    ],
)
def test_syntax_errors(text: str, line: int, column: int, words: str) -> None:
    data, _, diagnostics = load(text)
    assert data is None
    assert codes(diagnostics) == ["yaml-syntax"]
    assert at(diagnostics[0]) == (line, column)
    assert words in diagnostics[0].message
    assert "\n" not in diagnostics[0].message


def test_billion_laughs_is_capped() -> None:
    text = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
    previous = "a"
    for name in "bcdefghi":
        text += f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]\n"
        previous = name
    started = time.monotonic()
    data, _, diagnostics = load(text)
    assert time.monotonic() - started < 10
    assert data is None
    assert codes(diagnostics) == ["yaml-too-large"]


def test_recursive_alias_is_reported() -> None:
    data, _, diagnostics = load("a: &x [1, *x]\n")
    assert data is None
    assert codes(diagnostics) == ["yaml-recursive-alias"]


@pytest.mark.parametrize("text", ["[" * 65 + "]" * 65, "".join("  " * i + "-\n" for i in range(70))])
def test_nesting_deeper_than_64_is_reported(text: str) -> None:
    data, _, diagnostics = load(text)
    assert data is None
    assert codes(diagnostics) == ["yaml-too-deep"]


def test_nesting_of_64_is_fine() -> None:
    data, _, diagnostics = load("[" * 64 + "]" * 64)
    assert diagnostics == []
    assert data is not None


def test_deep_nesting_built_from_aliases_is_reported() -> None:
    inner = "[" * 40 + "]" * 40
    data, _, diagnostics = load(f"a: &a {inner}\nb: {'[' * 30}*a{']' * 30}\n")
    assert data is None
    assert codes(diagnostics) == ["yaml-too-deep"]


def test_huge_unclosed_nesting_does_not_crash() -> None:
    data, _, diagnostics = load("{" * 200_000)
    assert data is None
    assert codes(diagnostics) == ["yaml-too-deep"]


@pytest.mark.parametrize("text", ["a: !!python/object/apply:os.system [ls]\n", "a: !custom x\n", "a: !!binary aGk=\n"])
def test_unsafe_or_unknown_tags_are_not_constructed(text: str) -> None:
    data, _, diagnostics = load(text)
    assert codes(diagnostics) == ["yaml-tag"]
    assert isinstance(data, dict) and not callable(data["a"])


def test_oversized_integer_is_a_diagnostic() -> None:
    _, _, diagnostics = load("a: 1" + "0" * 5000 + "\n")
    assert codes(diagnostics) == ["yaml-bad-value"]


def test_file_too_large(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("a: " + "x" * MAX_FILE_BYTES + "\n")
    data, _, diagnostics = load_yaml(path, "game.yaml")
    assert data is None
    assert codes(diagnostics) == ["file-too-large"]
    assert codes(load("#" * (MAX_FILE_BYTES + 1))[2]) == ["file-too-large"]


def test_load_yaml_reads_a_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_text("\ufeffnodes:\n  - {id: 1}\n", encoding="utf-8")
    data, positions, diagnostics = load_yaml(path, "games/x/board.yaml")
    assert diagnostics == []
    assert data == {"nodes": [{"id": 1}]}
    assert positions.span(("nodes", 0, "id")) == Span("games/x/board.yaml", 2, 10, 2, 10)


def test_unreadable_and_non_utf8_files(tmp_path: pathlib.Path) -> None:
    assert codes(load_yaml(tmp_path / "missing.yaml", "missing.yaml")[2]) == ["file-unreadable"]
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    _, _, diagnostics = load_yaml(path, "latin1.yaml")
    assert codes(diagnostics) == ["yaml-encoding"]
    assert at(diagnostics[0]) == (2, 7)


def test_a_question_mark_in_a_flow_value_is_read_as_text_with_libyaml() -> None:
    # libyaml (used whenever the file is plainly shallow) reads `int?` as text; the pure-Python
    # parser, kept for deep files and for error messages, refuses it.
    import yaml
    data, _, diagnostics = load("t: {type: int?}\n")
    if yaml.__with_libyaml__:
        assert data == {"t": {"type": "int?"}} and diagnostics == []
    else:
        assert data is None and codes(diagnostics) == ["yaml-syntax"]


def test_deep_files_still_go_through_the_bounded_loader() -> None:
    deep = "a: " + "[" * 80 + "]" * 80 + "\n"
    data, _, diagnostics = load(deep)
    assert data is None and codes(diagnostics) == ["yaml-too-deep"]
