"""Each built-in's generated code: one function per built-in, named in its entry of the registry
(`ruledsl/builtins.py`, `code`), beside its typing rule (`check/builtin_types.py`, `rule`).

A function takes the expression generator, the call and its arguments already generated (code and
type), and gives the call's Python code. It runs only for a call its typing rule accepted, so it
reports nothing. The work a built-in costs is charged before (by its work class, in
`Expressions._builtin`), not here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from ..check.scope import Scope
from ..opt.bounds import sum_bound
from ..opt.folding import fixed_value, literal
from ..runtime_support import follow
from ..syntax import ast as A
from ..types import Type

if TYPE_CHECKING:
    from .exprgen import Expressions

Code = tuple[str, Type]
# (generator, call, generated arguments, scope) -> the call's code.
CodeRule = Callable[["Expressions", A.Call, list[Code], Scope], str]


def length(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`len(x)`, `count(x)`."""
    return f"len({args[0][0]})"


def total(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`sum(list)`: checked against the number limit unless it is bounded."""
    a0 = args[0][0]
    if g._bounded(sum_bound(e.args[0], g.resolver(scope), g._calls)):
        return f"sum({a0})"
    return g.checked_number(f"sum({a0})", scope)


def extreme(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`max(list)`, `min(list)`, `max(a, b)`, `min(a, b)`."""
    fn = "_max" if e.name == "max" else "_min"
    if len(args) == 2:
        first, second = args[0][0], args[1][0]
        if g.in_iterable:
            return f"{fn}({first}, {second})"
        # Two whole numbers, compared in place (a call fewer: `best = max(best, x)` in a loop), each
        # computed once and in order; the first of equal values, as the runtime's max and min give.
        first_at, first_read = _once(first, scope)
        second_at, second_read = _once(second, scope)
        return f"({first_read} if {first_at} {'>=' if e.name == 'max' else '<='} {second_at} else {second_read})"
    return f"{fn}({args[0][0]})"


# Code naming a value that computing another cannot change: a local or a whole number.
_PLAIN = re.compile(r"-?\d+|[A-Za-z_][A-Za-z0-9_]*")


def _once(code: str, scope: Scope) -> tuple[str, str]:
    """Code computing a value where it first appears, and code reading it again after."""
    if _PLAIN.fullmatch(code):
        return code, code
    kept = scope.fresh("x")
    return f"({kept} := {code})", kept


def truth(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`any(list)`, `all(list)`."""
    return f"{e.name}({args[0][0]})"


# A range of known bounds no longer than this is made once, as a constant.
_FIXED_RANGE = 1000


def numbers(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`range(n)`, `range(a, b)`: a constant when its bounds are known and it is short."""
    bounds = [b for b in (fixed_value(a, g.resolver(scope)) for a in e.args) if type(b) is int]
    if len(bounds) == len(e.args) and len(range(*bounds)) <= _FIXED_RANGE:
        return g.const("range", repr(bounds), list(range(*bounds)))
    return f"_range(c, {', '.join(c for c, _ in args)})"


def neighbours(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`neighbours(node)`."""
    return f"_adj[{args[0][0]}]"


# The Python function each list-to-list built-in calls.
_SAME_LIST = {"unique": "_unique", "sorted": "sorted", "reversed": "_reversed"}


def same_list(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`unique(list)`, `sorted(list)`, `reversed(list)`."""
    return f"{_SAME_LIST[e.name]}({args[0][0]})"


def next_seat(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`next_seat(s)`, `next_seat(s, k)`."""
    step = args[1][0] if len(args) == 2 else "1"
    return f"(({args[0][0]}) + ({step})) % c.nseats"


def seats_from(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`seats_from(s)`."""
    return f"c.seats_from({args[0][0]})"


def index(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`index(list, value)`."""
    return f"_index({args[0][0]}, {args[1][0]})"


def absolute(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`abs(n)`."""
    return f"abs({args[0][0]})"


def get(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`get(map, key, default)`."""
    return f"{args[0][0]}.get({args[1][0]}, {args[2][0]})"


def keys(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`keys(map)`."""
    return f"list({args[0][0]})"


def text(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`str(x)`: written as in templates."""
    return g.fmt(*args[0])


def edges(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`exits(node, "attr")`, `follow(node, "attr", value)`: a column of the board's edges; a known
    value followed from every node at once."""
    a0 = args[0][0]
    attr = _written(e.args[1])
    column = g.const("edges", attr, g.world.edges[attr])
    if e.name == "exits":
        return f"list({column}[{a0}])"
    target = fixed_value(e.args[2], g.resolver(scope))
    if literal(target) is not None:  # known edge value: every node's answer, computed once
        found = tuple(follow(exits, target) for exits in g.world.edges[attr])
        return f"{g.const('follow', f'{attr}:{target!r}', found)}[{a0}]"
    return f"_follow({column}[{a0}], {args[2][0]})"


def unique_by(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> str:
    """`unique_by(cards, "colour")`: the column of the field or attribute; a list of values of
    unknown type (where its rule reported a mistake, or cannot tell) is left as it is."""
    items, t = args[0]
    if t.kind != "list" or t.elem.kind == "any":
        return items
    name, w, kind = _written(e.args[1]), g.world, t.elem.kind
    if kind == "seat":
        column = g.column(f"S[{name!r}]") if name in w.seat_fields else "c.names"
    elif kind == "node":
        column = g.column(f"N[{name!r}]") if name in w.node_fields \
            else g.const("attr", name, tuple(w.node_attr_values[name]))
    else:
        component = w.components[kind]
        column = g.column(f"C[{kind!r}][{name!r}]") if name in component.fields \
            else g.const(f"attr:{kind}", name, tuple(component.attr_values[name]))
    return f"_unique_by({items}, {column})"


def _written(e: A.Expr) -> str:
    """The plain text written as a call's edge attribute, field or attribute (its rule saw to it)."""
    return e.text if isinstance(e, A.Template) else ""
