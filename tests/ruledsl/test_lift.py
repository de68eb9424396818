"""Whole-statement comprehensions become loops (ruledsl/opt/lift.py) without changing what runs, in what order."""

from __future__ import annotations

from typing import Any

import pytest

from ruledsl.opt.lift import Known, lift_comprehensions


def _outcome(lines: list[tuple[int, str, Any]], env: dict[str, Any]) -> tuple[Any, list[Any]]:
    """Run lines as the body of a function f(L): (its result, or the type of the error it raised,
    and the trace of the values given to `seen`, in order)."""
    trace: list[Any] = []

    def seen(x: Any) -> Any:
        trace.append(x)
        return x

    source = "def f(L):\n" + "".join("    " * d + text + "\n" for d, text, _ in lines)
    namespace: dict[str, Any] = {"seen": seen, **env}
    exec(compile(source, "<test>", "exec"), namespace)  # the test's own code
    try:
        return namespace["f"]({}), trace
    except Exception as err:  # the tests compare the errors of both forms
        return type(err), trace


BOTH = [
    "x = [seen('a')] + [seen(v) for v in xs if seen(v % 2)] + [seen(v * 10) for v in xs]\n return x",
    "return [seen(v) for v in xs if v > 1 if seen(v)]",
    "L['o'] = [[seen('done'), None]] + [['buy', seen(v)] for v in xs]\n return L['o']",
    "x = xs[:]\n x = [v + 1 for v in x if seen(v)]\n return x",  # the target is read: built apart
]


@pytest.mark.parametrize("body", BOTH)
def test_the_loops_give_the_same_list_and_evaluate_the_same_things_in_the_same_order(body: str) -> None:
    lines = [(1, line.strip(), ("span", i)) for i, line in enumerate(body.split("\n"))]
    lifted = lift_comprehensions(lines)
    assert lifted != lines
    assert all(text.startswith("for ") for _, text, _ in lifted if " for " in text)  # no comprehension left
    env = {"xs": [1, 2, 3, 4]}
    assert _outcome(lifted, env) == _outcome(lines, env)


def test_every_new_line_keeps_the_statements_place_in_the_rules() -> None:
    lines = [(1, "a = 1", "first"), (2, "b = [x for x in xs if x]", "second"), (1, "return b", "third")]
    lifted = lift_comprehensions(lines)
    assert [span for _, _, span in lifted] == ["first", "second", "second", "second", "third"]
    assert [depth for depth, _, _ in lifted] == [1, 2, 2, 3, 1]


def test_an_error_in_an_element_is_raised_at_the_same_element() -> None:
    lines = [(1, "return [seen(10 // v) for v in xs]", None)]
    env = {"xs": [5, 2, 0, 1]}
    for body in (lines, lift_comprehensions(lines)):
        assert _outcome(body, env) == (ZeroDivisionError, [2, 5])


@pytest.mark.parametrize("text", [
    "x = len([v for v in xs])",                 # not the whole list of the statement
    "x = [v for v in xs for w in ys]",          # two clauses
    "x = [a, b] + ys",                          # no comprehension
    "x = [v for v in xs] + ys",                 # a part that is not a display or comprehension
    "if c.steps < 0: c.runaway(3)",             # not an assignment
    "x = [v for (v, w) in xs]",                 # unpacking target
    "c.steps -= \x01 for",                      # a charge still to be resolved
])
def test_other_statements_are_left_as_they_are(text: str) -> None:
    assert lift_comprehensions([(1, text, None)]) == [(1, text, None)]


# ---------------------------------------------------------------- a condition's part computed once

KNOWN = Known({"_K1": [0, 1, 2, 3], "_K2": (10, 11, 12, 13)}, {"_f0": 4})
"""`_K1`: fixed node indexes; `_K2`: a table with one value per node; `_f0`: a column of the 4 nodes."""


HOISTED = "x = [['done']] + [['buy', seen(v)] for v in _K1 if _f0[v] is None and tokens[s] > 0 and _K2[v] > seen(11)]"


@pytest.mark.parametrize("env", [
    {"tokens": {0: 1}, "s": 0, "_f0": [None, 1, None, None]},   # computed once, true: the loop runs
    {"tokens": {0: 0}, "s": 0, "_f0": [None, 1, None, None]},   # false: the loop is skipped
    {"tokens": {}, "s": 0, "_f0": [None, 1, None, None]},       # fails: at the first free node, as before
    {"tokens": {}, "s": 0, "_f0": [1, 1, 1, 1]},                 # fails, but never computed before: no error
])
def test_a_part_of_the_condition_that_the_loop_does_not_change_is_computed_once(env: dict[str, Any]) -> None:
    lines = [(1, HOISTED, None), (1, "return x", None)]
    lifted = lift_comprehensions(lines, KNOWN)
    text = "\n".join(t for _, t, _ in lifted)
    assert "try: _z" in text and "elif _z" in text
    env = {**env, "_K1": KNOWN.constants["_K1"], "_K2": KNOWN.constants["_K2"], "_U": object()}
    assert _outcome(lifted, env) == _outcome(lines, env)


@pytest.mark.parametrize("condition", [
    "xs[v] > 0 and tokens[s] > 0",        # a part before it may fail (xs is not known)
    "_f0[v] < 0 and tokens[s] > 0",       # an order between values may fail (none < 0)
    "_f0[v] is None and seen(s) > 0",     # a call
    "_f0[v] is None and tokens[v] > 0",   # reads the element
])
def test_nothing_is_computed_ahead_when_that_could_change_an_error_or_a_count(condition: str) -> None:
    text = "\n".join(t for _, t, _ in lift_comprehensions([(1, f"x = [v for v in _K1 if {condition}]", None)], KNOWN))
    assert "try:" not in text and text.startswith("x = []")


def test_a_test_that_a_fixed_node_is_not_none_is_dropped() -> None:
    lines = [(1, "return [v for v in _K1 if (_K2[v] if v is not None else slow(v)) > 11]", None)]
    lifted = "\n".join(t for _, t, _ in lift_comprehensions(lines, KNOWN))
    assert "slow" not in lifted and "_K2[v] > 11" in lifted
    kept = "\n".join(t for _, t, _ in lift_comprehensions([(1, lines[0][1].replace("_K1", "xs"), None)], KNOWN))
    assert "slow" in kept  # a list the compiler does not know may hold none


NUMBERS = Known({"_K1": [0, 1, 2, 3], "_K2": (10, 11, 12, 13)}, {"_f0": 4, "_f1": 4}, {"_f1"})
"""As KNOWN, and `_f1`, a column of whole numbers of the 4 nodes."""


@pytest.mark.parametrize("condition,edge", [
    ("_f0[v] is None and score[s] >= _K2[v]", "score[s] >= 10"),
    ("_f0[v] is None and _K2[v] < score[s]", "score[s] > 10"),
    ("_f1[v] < 5 and score[s] <= _K2[v] and seen(v)", "score[s] <= 13"),
])
@pytest.mark.parametrize("score", [5, 10, 11, 13, 14, None])
@pytest.mark.parametrize("owners", [[None, 1, None, None], [1, 1, 1, 1]])
def test_a_loop_no_element_could_pass_is_skipped(condition: str, edge: str, score: Any, owners: list[Any]) -> None:
    lines = [(1, f"return [seen(v) for v in _K1 if {condition}]", None)]
    lifted = lift_comprehensions(lines, NUMBERS)
    assert any(edge in text for _, text, _ in lifted if text.startswith("try:"))
    env = {"_K1": [0, 1, 2, 3], "_K2": (10, 11, 12, 13), "_f0": owners, "_f1": [4, 5, 4, 9],
           "score": {0: score}, "s": 0, "_U": object()}
    assert _outcome(lifted, env) == _outcome(lines, env)  # the same list, or the same error
