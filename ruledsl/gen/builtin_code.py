"""Each built-in's typing rule and generated code: one function per built-in, named in its entry of
the registry (`ruledsl/builtins.py`).

A function takes the expression generator, the call and its arguments already generated (code and
type), and gives the call's code and type, reporting type errors on the way. The work a built-in
costs is charged before (by its work class, in `Expressions._Call`), not here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..diagnostics import an, did_you_mean
from ..opt.bounds import sum_bound
from ..opt.folding import fixed_value, literal
from ..runtime_support import follow
from ..syntax import ast as A
from ..types import ANY, BOOL, INT, NODE, SEAT, STR, Type, list_of, tuple_of, unify
from .scope import Scope

if TYPE_CHECKING:
    from .exprgen import Expressions

Code = tuple[str, Type]
# (generator, call, generated arguments, scope) -> the call's code and type.
CodeRule = Callable[["Expressions", A.Call, list[Code], Scope], Code]


def length(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`len(x)`, `count(x)`: a list, map or text; an int."""
    g.check(args[0][1], ("list", "map", "str"), e.args[0].span, f"the value of {e.name}()")
    return (f"len({args[0][0]})", INT)


def total(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`sum(list)`: a list of ints; an int, checked against the number limit unless it is bounded."""
    a0, t0 = args[0]
    sp = e.args[0].span
    if g.check(t0, ("list",), sp, "the value of sum()"):
        g.check(t0.elem, ("int",), sp, "the elements summed")
    if g._bounded(sum_bound(e.args[0], g.resolver(scope), g._calls)):
        return (f"sum({a0})", INT)
    return (f"_num(sum({a0}))", INT)


def extreme(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`max(list)`, `min(list)`: an element of the list; `max(a, b)`, `min(a, b)`: two ints, an int."""
    a0, t0 = args[0]
    sp = e.args[0].span
    fn = "_max" if e.name == "max" else "_min"
    if len(args) == 2:
        g.check(t0, ("int",), sp, f"the values of {e.name}()")
        g.check(args[1][1], ("int",), e.args[1].span, f"the values of {e.name}()")
        return (f"{fn}({a0}, {args[1][0]})", INT)
    g.check(t0, ("list",), sp, f"the value of {e.name}()")
    return (f"{fn}({a0})", t0.elem)


def truth(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`any(list)`, `all(list)`: a list of bools; a bool."""
    a0, t0 = args[0]
    sp = e.args[0].span
    if g.check(t0, ("list",), sp, f"the value of {e.name}()"):
        g.check(t0.elem, ("bool",), sp, f"the elements of {e.name}()")
    return (f"{e.name}({a0})", BOOL)


# A range of known bounds no longer than this is made once, as a constant.
_FIXED_RANGE = 1000


def numbers(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`range(n)`, `range(a, b)`: ints; a list of ints."""
    for (_, t), a in zip(args, e.args):
        g.check(t, ("int",), a.span, "a range bound")
    bounds = [b for b in (fixed_value(a, g.resolver(scope)) for a in e.args) if type(b) is int]
    if len(bounds) == len(e.args) and len(range(*bounds)) <= _FIXED_RANGE:
        return (g.const("range", repr(bounds), list(range(*bounds))), list_of(INT))
    return (f"_range(c, {', '.join(c for c, _ in args)})", list_of(INT))


def neighbours(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`neighbours(node)`: a node; a list of nodes."""
    g.check(args[0][1], ("node",), e.args[0].span, "the value of neighbours()")
    return (f"_adj[{args[0][0]}]", list_of(NODE))


# The Python function each list-to-list built-in calls.
_SAME_LIST = {"unique": "_unique", "sorted": "sorted", "reversed": "_reversed"}


def same_list(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`unique(list)`, `sorted(list)`, `reversed(list)`: a list; a list of the same type."""
    a0, t0 = args[0]
    g.check(t0, ("list",), e.args[0].span, f"the value of {e.name}()")
    return (f"{_SAME_LIST[e.name]}({a0})", t0)


def next_seat(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`next_seat(s)`, `next_seat(s, k)`: a seat and an int; a seat."""
    a0, t0 = args[0]
    g.check(t0, ("seat",), e.args[0].span, "the value of next_seat()")
    step = args[1][0] if len(args) == 2 else "1"
    if len(args) == 2:
        g.check(args[1][1], ("int",), e.args[1].span, "the step of next_seat()")
    return (f"(({a0}) + ({step})) % c.nseats", SEAT)


def seats_from(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`seats_from(s)`: a seat; a list of seats."""
    g.check(args[0][1], ("seat",), e.args[0].span, "the value of seats_from()")
    return (f"c.seats_from({args[0][0]})", list_of(SEAT))


def index(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`index(list, value)`: a list and a value; an int."""
    g.check(args[0][1], ("list",), e.args[0].span, "the first value of index()")
    return (f"_index({args[0][0]}, {args[1][0]})", INT)


def absolute(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`abs(n)`: an int; an int."""
    g.check(args[0][1], ("int",), e.args[0].span, "the value of abs()")
    return (f"abs({args[0][0]})", INT)


def get(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`get(map, key, default)`: a map, a key and a default; the map's values and the default unified."""
    a0, t0 = args[0]
    g.check(t0, ("map",), e.args[0].span, "the first value of get()")
    vt = t0.args[1] if t0.kind == "map" else ANY
    return (f"{a0}.get({args[1][0]}, {args[2][0]})", unify(vt, args[2][1]))


def keys(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`keys(map)`: a map; a list of its keys."""
    a0, t0 = args[0]
    g.check(t0, ("map",), e.args[0].span, "the value of keys()")
    return (f"list({a0})", list_of(t0.args[0] if t0.kind == "map" else ANY))


def text(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`str(x)`: any value; a text, written as in templates."""
    return (g.fmt(*args[0]), STR)


def edges(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`exits(node, "attr")`: a list of (node, value) tuples; `follow(node, "attr", value)`: a node or none.

    The attribute must be written as a plain text naming an edge attribute of the board.
    """
    a0, t0 = args[0]
    g.check(t0, ("node",), e.args[0].span, f"the first value of {e.name}()")
    attr_arg = e.args[1]
    if not (isinstance(attr_arg, A.Template) and attr_arg.is_plain):
        return g.err(attr_arg.span, "type", f"the edge attribute of {e.name}() must be written as a text, "
                     "like \"dir\"")
    attr = attr_arg.text
    if attr not in g.world.edges:
        return g.err(attr_arg.span, "unknown-field", f"no edge of the board has an attribute '{attr}'",
                     did_you_mean(attr, list(g.world.edges)))
    column = g.const("edges", attr, g.world.edges[attr])
    vt = g.world.edge_types[attr]
    if e.name == "exits":
        return (f"list({column}[{a0}])", list_of(tuple_of(NODE, vt)))
    target = fixed_value(e.args[2], g.resolver(scope))
    if literal(target) is not None:  # known edge value: every node's answer, computed once
        found = tuple(follow(exits, target) for exits in g.world.edges[attr])
        return (f"{g.const('follow', f'{attr}:{target!r}', found)}[{a0}]", NODE.or_none())
    return (f"_follow({column}[{a0}], {args[2][0]})", NODE.or_none())


def unique_by(g: Expressions, e: A.Call, args: list[Code], scope: Scope) -> Code:
    """`unique_by(cards, "colour")`: the first seat, node or item of each value of a field or attribute."""
    items, t = args[0]
    if not g.check(t, ("list",), e.args[0].span, "the first value of unique_by()") or t.elem.kind == "any":
        return (items, t)
    attr_arg = e.args[1]
    if not (isinstance(attr_arg, A.Template) and attr_arg.is_plain):
        return g.err(attr_arg.span, "type", "the field or attribute of unique_by() must be written as a "
                     "text, like \"colour\"")
    name, w, kind = attr_arg.text, g.world, t.elem.kind
    column: str | None = None
    known: list[str] = []
    if kind == "seat":
        column = g.column(f"S[{name!r}]") if name in w.seat_fields else "c.names" if name == "name" else None
        known = [*w.seat_fields, "name"]
    elif kind == "node":
        if name in w.node_fields:
            column = g.column(f"N[{name!r}]")
        elif name in w.node_attrs:
            column = g.const("attr", name, tuple(w.node_attr_values[name]))
        known = [*w.node_fields, *w.node_attrs]
    elif kind in w.components:
        component = w.components[kind]
        if name in component.fields:
            column = g.column(f"C[{kind!r}][{name!r}]")
        elif name in component.attrs:
            column = g.const(f"attr:{kind}", name, tuple(component.attr_values[name]))
        known = [*component.fields, *component.attrs]
    else:
        return g.err(e.args[0].span, "type", f"unique_by() keeps one of each kind of seats, nodes or items, "
                     f"not of {t.elem}", "for other values, use unique([...]) on what they have in common")
    if column is None:
        return g.err(attr_arg.span, "unknown-field", f"{an(kind)} has no field or attribute '{name}'",
                     did_you_mean(name, known))
    return (f"_unique_by({items}, {column})", t)
