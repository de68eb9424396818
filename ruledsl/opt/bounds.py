"""Bounds: how big a whole number the rules compute can get, when the tree alone proves it.

Every sum or product that might run away is checked against the number limit where it is
computed (`_num(...)` in the generated code). Many cannot run away: `len(neighbours) * 2`,
`sum([2 if lobby[s] else 1 for s in seats])`, `2 * 4`. Their check can never fail, so it is left
out; a sum that reads a counter, a field or a formula's value keeps its check, at the same place.

Lengths (of lists, maps and texts) are bounded by what a machine can hold: no list of 2**48
elements fits in memory (2 PiB of pointers alone), whatever limit the runtime enforces.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from ..syntax import ast as A
from .folding import UNKNOWN, Resolve, fixed_value

# No list, map or text is longer than this.
LENGTH_BOUND = 2 ** 48
# Formulas followed into formulas no deeper than this (a recursive one, refused, never ends), and
# at most this many parts of the tree looked at for one number (formulas calling each other twice
# over would make the walk exponential): past either, the number keeps its check.
_DEPTH = 8
_PARTS = 200


class Calls(NamedTuple):
    """What a call is: `builtin(call)` (a formula may have a built-in's name), or `body(call)`: the
    parameter names and expression of a formula written as one expression (None otherwise);
    `tables` reads the fixed data a formula's body may name."""

    builtin: Callable[[A.Call], bool]
    body: Callable[[A.Call], tuple[list[str], A.Expr] | None]
    tables: Resolve


def bound(e: A.Expr, resolve: Resolve, calls: Calls, depth: int = 0, parts: list[int] | None = None) -> int | None:
    """The largest absolute value the whole number `e` can take, or None when nothing bounds it.

    `resolve` reads fixed data by name; `parts`: how many more parts of the tree may be looked at.
    """
    parts = [_PARTS] if parts is None else parts
    parts[0] -= 1
    if parts[0] < 0:
        return None
    value = fixed_value(e, resolve)
    if value is not UNKNOWN:
        return abs(value) if type(value) is int else None
    if isinstance(e, A.Neg):
        return bound(e.operand, resolve, calls, depth, parts)
    if isinstance(e, A.IfExp):
        return _most(bound(e.then, resolve, calls, depth, parts), bound(e.orelse, resolve, calls, depth, parts))
    if isinstance(e, A.BinOp) and e.op in ("+", "-", "*"):
        left = bound(e.left, resolve, calls, depth, parts)
        right = None if left is None else bound(e.right, resolve, calls, depth, parts)
        if left is None or right is None:
            return None
        return left * right if e.op == "*" else left + right
    if isinstance(e, A.Call) and calls.builtin(e):
        if e.name in ("len", "count"):
            return LENGTH_BOUND
        if e.name == "sum" and len(e.args) == 1:
            return sum_bound(e.args[0], resolve, calls, depth, parts)
    elif isinstance(e, A.Call) and depth < _DEPTH:
        formula = calls.body(e)
        if formula is not None:
            params, body = formula
            # The body's value, whatever the arguments: its names are its parameters or tables.
            inner: Resolve = lambda name: UNKNOWN if name in params else calls.tables(name)  # noqa: E731
            return bound(body, inner, calls, depth + 1, parts)
    return None


def sum_bound(e: A.Expr, resolve: Resolve, calls: Calls, depth: int = 0,
              parts: list[int] | None = None) -> int | None:
    """The largest absolute value of the sum of the list `e`, or None."""
    parts = [_PARTS] if parts is None else parts
    if isinstance(e, A.ListComp):
        inner: Resolve = lambda name: UNKNOWN if name == e.var else resolve(name)  # noqa: E731
        item = bound(e.elt, inner, calls, depth, parts)
        return None if item is None else item * LENGTH_BOUND
    if isinstance(e, A.ListLit):
        total = 0
        for part in e.items:
            b = bound(part, resolve, calls, depth, parts)
            if b is None:
                return None
            total += b
        return total
    return None


def _most(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else max(a, b)
