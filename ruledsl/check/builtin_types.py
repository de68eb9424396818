"""Each built-in's typing rule: one function per built-in or per family, named in its entry of the
registry (`ruledsl/builtins.py`, `rule`), beside the function that writes its code
(`gen/builtin_code.py`, `code`).

A rule takes the typing rules of expressions (`ExprTypes`), the call and its arguments' types, and
gives the call's type, reporting type errors on the way; None when an error leaves the call
without a type. It runs after the arguments were checked, and before the call's code is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..check.scope import Scope
from ..diagnostics import an, did_you_mean
from ..syntax import ast as A
from ..types import ANY, BOOL, INT, NODE, SEAT, STR, Type, list_of, tuple_of, unify

if TYPE_CHECKING:
    from .exprtypes import ExprTypes

# (typing rules, call, the arguments' types, scope) -> the call's type, or None when it has none.
TypeRule = Callable[["ExprTypes", A.Call, list[Type], Scope], "Type | None"]


def length(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`len(x)`, `count(x)`: a list, map or text; an int."""
    g.check(args[0], ("list", "map", "str"), e.args[0].span, f"the value of {e.name}()")
    return INT


def total(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`sum(list)`: a list of ints; an int."""
    sp = e.args[0].span
    if g.check(args[0], ("list",), sp, "the value of sum()"):
        g.check(args[0].elem, ("int",), sp, "the elements summed")
    return INT


def extreme(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`max(list)`, `min(list)`: an element of the list; `max(a, b)`, `min(a, b)`: two ints, an int."""
    t0 = args[0]
    sp = e.args[0].span
    if len(args) == 2:
        g.check(t0, ("int",), sp, f"the values of {e.name}()")
        g.check(args[1], ("int",), e.args[1].span, f"the values of {e.name}()")
        return INT
    g.check(t0, ("list",), sp, f"the value of {e.name}()")
    return t0.elem


def truth(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`any(list)`, `all(list)`: a list of bools; a bool."""
    sp = e.args[0].span
    if g.check(args[0], ("list",), sp, f"the value of {e.name}()"):
        g.check(args[0].elem, ("bool",), sp, f"the elements of {e.name}()")
    return BOOL


def numbers(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`range(n)`, `range(a, b)`: ints; a list of ints."""
    for t, a in zip(args, e.args):
        g.check(t, ("int",), a.span, "a range bound")
    return list_of(INT)


def neighbours(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`neighbours(node)`: a node; a list of nodes."""
    g.check(args[0], ("node",), e.args[0].span, "the value of neighbours()")
    return list_of(NODE)


def same_list(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`unique(list)`, `sorted(list)`, `reversed(list)`: a list; a list of the same type."""
    g.check(args[0], ("list",), e.args[0].span, f"the value of {e.name}()")
    return args[0]


def next_seat(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`next_seat(s)`, `next_seat(s, k)`: a seat and an int; a seat."""
    g.check(args[0], ("seat",), e.args[0].span, "the value of next_seat()")
    if len(args) == 2:
        g.check(args[1], ("int",), e.args[1].span, "the step of next_seat()")
    return SEAT


def seats_from(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`seats_from(s)`: a seat; a list of seats."""
    g.check(args[0], ("seat",), e.args[0].span, "the value of seats_from()")
    return list_of(SEAT)


def index(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`index(list, value)`: a list and a value; an int."""
    g.check(args[0], ("list",), e.args[0].span, "the first value of index()")
    return INT


def absolute(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`abs(n)`: an int; an int."""
    g.check(args[0], ("int",), e.args[0].span, "the value of abs()")
    return INT


def get(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`get(map, key, default)`: a map, a key and a default; the map's values and the default unified."""
    t0 = args[0]
    g.check(t0, ("map",), e.args[0].span, "the first value of get()")
    vt = t0.args[1] if t0.kind == "map" else ANY
    return unify(vt, args[2])


def keys(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`keys(map)`: a map; a list of its keys."""
    t0 = args[0]
    g.check(t0, ("map",), e.args[0].span, "the value of keys()")
    return list_of(t0.args[0] if t0.kind == "map" else ANY)


def text(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`str(x)`: any value; a text, written as in templates."""
    return STR


def edges(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`exits(node, "attr")`: a list of (node, value) tuples; `follow(node, "attr", value)`: a node or none.

    The attribute must be written as a plain text naming an edge attribute of the board.
    """
    g.check(args[0], ("node",), e.args[0].span, f"the first value of {e.name}()")
    attr_arg = e.args[1]
    if not (isinstance(attr_arg, A.Template) and attr_arg.is_plain):
        return g.err(attr_arg.span, "type", f"the edge attribute of {e.name}() must be written as a text, "
                     "like \"dir\"")
    attr = attr_arg.text
    if attr not in g.world.edges:
        return g.err(attr_arg.span, "unknown-field", f"no edge of the board has an attribute '{attr}'",
                     did_you_mean(attr, list(g.world.edges)))
    if e.name == "exits":
        return list_of(tuple_of(NODE, g.world.edge_types[attr]))
    return NODE.or_none()


def unique_by(g: ExprTypes, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
    """`unique_by(cards, "colour")`: the first seat, node or item of each value of a field or attribute."""
    t = args[0]
    if not g.check(t, ("list",), e.args[0].span, "the first value of unique_by()") or t.elem.kind == "any":
        return t
    attr_arg = e.args[1]
    if not (isinstance(attr_arg, A.Template) and attr_arg.is_plain):
        return g.err(attr_arg.span, "type", "the field or attribute of unique_by() must be written as a "
                     "text, like \"colour\"")
    name, w, kind = attr_arg.text, g.world, t.elem.kind
    if kind == "seat":
        known = [*w.seat_fields, "name"]
    elif kind == "node":
        known = [*w.node_fields, *w.node_attrs]
    elif kind in w.components:
        known = [*w.components[kind].fields, *w.components[kind].attrs]
    else:
        return g.err(e.args[0].span, "type", f"unique_by() keeps one of each kind of seats, nodes or items, "
                     f"not of {t.elem}", "for other values, use unique([...]) on what they have in common")
    if name not in known:
        return g.err(attr_arg.span, "unknown-field", f"{an(kind)} has no field or attribute '{name}'",
                     did_you_mean(name, known))
    return t
