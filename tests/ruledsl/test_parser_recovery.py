"""A broken rules file reports a syntax error in every definition, not only the first."""

from __future__ import annotations

from ruledsl.syntax.parser import parse_rules

BROKEN = """\
# three definitions, each with its own mistake
phase main:
    let x = 1
    if x > 0
        pass
    end winners seats

formula f(a: int) = (a + 1

phase other:
    let y = = 2
"""


def test_every_broken_definition_is_reported_in_file_order() -> None:
    tree, diags = parse_rules(BROKEN, "bad.rules")
    assert tree is None
    assert [(d.span.line, d.span.column) for d in diags] == [(4, 13), (8, 21), (11, 13)]
    assert "missing ':'" in diags[0].message
    assert "never closed" in diags[1].message
    assert "unexpected '='" in diags[2].message


def test_a_single_mistake_is_reported_once() -> None:
    text = BROKEN.replace("    if x > 0\n", "    if x > 0:\n").replace("(a + 1\n", "(a + 1)\n")
    tree, diags = parse_rules(text, "bad.rules")
    assert tree is None and [(d.span.line, d.span.column) for d in diags] == [(11, 13)]
