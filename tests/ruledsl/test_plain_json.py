"""The cache format: plain data and syntax trees in, the same out; nothing else is ever built."""

from __future__ import annotations

import json

import pytest

from ruledsl.diagnostics import Diagnostic, Span
from ruledsl.syntax import ast as A
from ruledsl.syntax.parse_cache import CODEC
from ruledsl.syntax.parser import parse_rules

TEXT = 'formula f(x: int) = x * 2\n\nphase main:\n    let t = (1, "a\\u2028\\ud800")\n    log "{f(3)}"\n'


def test_trees_and_diagnostics_come_back_equal() -> None:
    tree, _ = parse_rules("phase main:\n    let y = [1, 2]\n    log \"{y}\"\n", "x.rules")
    value = [("rules", "text", "x.rules", 1, 1), (tree, (Diagnostic(Span("f", 1, 2), "syntax", "m", hint="h"),))]
    assert CODEC.loads(CODEC.dumps(value)) == value


def test_plain_data_keeps_its_kinds() -> None:
    value = {"t": (1, (2, 3)), 7: [None, True, 1.5], (1, 2): {"k": "\ud800 \u2028 \x1b"}}
    back = CODEC.loads(CODEC.dumps(value))
    assert back == value and isinstance(back["t"], tuple) and isinstance(back[7], list)


def test_the_text_is_ascii_json() -> None:
    text = CODEC.dumps({"s": "\ud800\u00e9"})
    text.encode("ascii")
    json.loads(text)


@pytest.mark.parametrize("planted", [
    '{"@": "system", "f": ["id"]}',            # a name that is not an allowed class
    '{"@": "os.system", "f": ["id"]}',
    '{"@": "__import__", "f": ["os"]}',
    '{"@": "Num", "f": "not a list"}',
    '{"py/object": "os.system"}',              # other libraries' ways of naming code
    '{"__reduce__": ["os.system", ["id"]]}',
    '{"(": 5}',
    '[1, 2',
])
def test_anything_else_is_refused(planted: str) -> None:
    with pytest.raises(ValueError):
        CODEC.loads(planted)


def test_only_the_syntax_tree_classes_are_allowed() -> None:
    names = set(CODEC.classes)
    assert {"Span", "Diagnostic", "Num", "Phase", "RulesFile"} <= names
    allowed = {c.__name__ for c in vars(A).values() if isinstance(c, type)} | {"Span", "Diagnostic", "Related"}
    assert names <= allowed
