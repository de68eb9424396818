"""Kept values in plain locals (ruledsl/opt/kept_locals.py): the same values, computed as often, and the
same errors, as with their one-element cells; reads where Python refuses `:=` keep the cell."""

from __future__ import annotations

from typing import Any

import pytest

from ruledsl import runtime_support as R
from ruledsl.opt.kept_locals import local_kept

Lines = list[tuple[int, str, None]]


def _read(name: str, code: str) -> str:
    return f"({name}[0] if {name}[0] is not _U else _set({name}, {code}))"


def _body(*lines: str) -> Lines:
    return [(len(line) - len(line.lstrip(" ")) + 4, line.strip(), None) for line in lines]


def _run(body: Lines, xs: list[Any]) -> tuple[object, list[str]]:
    """Run the lines as a function of `xs`: its result (or the error's type) and what was computed."""
    seen: list[str] = []

    def cost(label: str, value: Any) -> Any:
        seen.append(label)
        if value == "boom":
            raise KeyError(label)
        return value

    source = "def f(xs):\n" + "\n".join(" " * depth + text for depth, text, _ in body) + "\n"
    space: dict[str, Any] = {"_U": R.UNSET, "_set": R.keep, "cost": cost}
    exec(compile(source, "<test>", "exec"), space)
    try:
        return space["f"](xs), seen
    except Exception as err:  # the error's kind is part of what must not change
        return type(err).__name__, seen


def _texts(body: Lines) -> list[str]:
    return [text for _, text, _ in body]


CASES = [[1, 2, 3], [], [5, "boom", 7], ["boom"], ["boom", 4, 6]]
# What the kept values compute, each reported to `cost` under its label.
A_LEN, B_LIST = "cost('a', len(xs))", "cost('b', [y for y in xs if y != 2])"
A_X, A_XS, A_ONE = "cost('a', x)", "cost('a', xs)", "cost('a', 1)"


@pytest.mark.parametrize("xs", CASES)
def test_reads_in_statements_and_comprehension_tests_become_a_local(xs: list[Any]) -> None:
    body = _body(
        "_h1 = [_U]",
        "_h2 = [_U]",
        f"out = [x for x in xs if x != {_read('_h1', A_LEN)}]",
        "for x in xs:",
        f"    if x in {_read('_h2', B_LIST)}:",
        "        out.append(x)",
        f"    out.append({_read('_h1', A_LEN)})",
        "return out")
    local = local_kept(body)
    assert "_h1 = _U" in _texts(local) and "_h2 = _U" in _texts(local)
    assert not any("_set(" in text for text in _texts(local))
    assert _run(local, xs) == _run(body, xs)


@pytest.mark.parametrize("xs", CASES)
def test_a_value_whose_computation_fails_is_computed_again_at_its_next_read(xs: list[Any]) -> None:
    body = _body(
        "_h1 = [_U]",
        "out = []",
        "for x in xs:",
        "    try:",
        f"        out.append({_read('_h1', A_X)})",
        "    except KeyError:",
        "        out.append('failed')",
        "return out")
    local = local_kept(body)
    assert "_h1 = _U" in _texts(local)
    assert _run(local, xs) == _run(body, xs)


def test_reads_in_what_a_comprehension_runs_over_or_in_a_lambda_keep_their_cell() -> None:
    iterable = _body(
        "_h1 = [_U]",
        f"return [[y for y in {_read('_h1', A_XS)}] for x in xs]")
    assert local_kept(iterable) == iterable
    assert _run(iterable, [1, 2]) == ([[1, 2], [1, 2]], ["a"])
    in_lambda = _body(
        "_h1 = [_U]",
        f"f = lambda x: x + len({_read('_h1', A_XS)})",
        "return [f(x) for x in xs]")
    assert local_kept(in_lambda) == in_lambda


def test_a_cell_used_in_any_other_way_is_left_alone() -> None:
    body = _body(
        "_h1 = [_U]",
        f"a = {_read('_h1', A_ONE)}",
        "return _h1[0]")
    assert local_kept(body) == body
    other = _body(
        "_h1 = [_U]",
        "_h2 = [_U]",
        f"a = {_read('_h1', A_ONE)}",
        "return [_h2, a]")
    assert _texts(local_kept(other))[:2] == ["_h1 = _U", "_h2 = [_U]"]
