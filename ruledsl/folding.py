"""Constant folding: values the rules read from fixed game data, known when the rules are compiled.

Tables are fixed for a compiled game (a variant's tables already replaced the defaults), so
`prices.bare[1]`, `cards_per_hand` or a variant's switch `advanced_rules` have one value for every game the
program plays. Reads of them with literal keys are written into the generated code as Python
literals (`repr` of a plain value, never rule text), and conditions made only of such values are
decided once: a branch that can never run is not generated for the agent path.
"""

from __future__ import annotations

from typing import Callable

from . import ast as A

# The value of an expression that is not fixed.
UNKNOWN = object()

# Plain values that can be written as Python literals.
_PLAIN = (int, str, bool, type(None))


# The fixed value a name has where it is read (a table's, or a literal argument's), else UNKNOWN.
Resolve = Callable[[str], object]


def fixed_value(e: A.Expr, resolve: Resolve) -> object:
    """The value of a read of fixed data with literal keys (`bonus[1].well`), or UNKNOWN."""
    if isinstance(e, A.Name):
        return resolve(e.name)
    if isinstance(e, A.Num):
        return e.value
    if isinstance(e, A.Bool):
        return e.value
    if isinstance(e, A.Template) and e.is_plain:
        return e.text
    if isinstance(e, (A.Attr, A.Index)):
        container = fixed_value(e.obj, resolve)
        if container is UNKNOWN:
            return UNKNOWN
        key = e.name if isinstance(e, A.Attr) else fixed_value(e.index, resolve)
        if isinstance(container, dict) and isinstance(key, _PLAIN) and key in container:
            return container[key]
        if isinstance(container, (list, tuple)) and type(key) is int and -len(container) <= key < len(container):
            return container[key]
    return UNKNOWN


def literal(value: object) -> str | None:
    """Python source for a plain value (number, text, yes/no, none), or None for anything else."""
    if type(value) in _PLAIN:
        return repr(value)
    return None


def condition_value(e: A.Expr, resolve: Resolve) -> object:
    """True or False when a condition depends on fixed data only, else UNKNOWN.

    `and`/`or` are decided as soon as one side decides them (`chains and in_chain(shop)` is
    false when `chains` is), as the rules evaluate them.
    """
    if isinstance(e, A.Not):
        inner = condition_value(e.operand, resolve)
        return UNKNOWN if inner is UNKNOWN else not inner
    if isinstance(e, A.BinOp) and e.op in ("and", "or"):
        left = condition_value(e.left, resolve)
        if left is not UNKNOWN and bool(left) == (e.op == "or"):
            return left
        right = condition_value(e.right, resolve)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        return right
    value = fixed_value(e, resolve)
    return value if type(value) is bool else UNKNOWN


def dead_branches(s: A.If, resolve: Resolve) -> list[bool]:
    """For each branch of an `if` (the `else` last), whether it can never run in this game: its
    condition is false, or an earlier condition is always true. Conditions read only fixed data
    here, such as a variant's switch; an unknown one leaves its branch alive."""
    dead = []
    taken = False
    for cond, _ in s.branches:
        value = condition_value(cond, resolve)
        dead.append(taken or value is False)
        taken = taken or value is True
    dead.append(taken)
    return dead


def live_blocks(s: A.Stmt, resolve: Resolve) -> list[tuple[A.Stmt, ...]]:
    """`ast.child_blocks`, without the branches that can never run."""
    if isinstance(s, A.If):
        blocks = [body for _, body in s.branches] + [s.orelse]
        return [b for b, d in zip(blocks, dead_branches(s, resolve)) if not d]
    return A.child_blocks(s)
