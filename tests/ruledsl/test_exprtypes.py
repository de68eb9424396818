"""The typing rules of expressions (check/exprtypes.py, check/builtin_types.py) on their own, with no
code generated: a small walk made of the rules alone gives each expression's type and diagnostics."""

from __future__ import annotations

from lang_helpers import expr
from ruledsl.check.exprtypes import ExprTypes
from ruledsl.check.scope import Scope
from ruledsl.diagnostics import DiagnosticBag, Span
from ruledsl.syntax import ast as A
from ruledsl.types import BOOL, INT, NODE, SEAT, STR, Type, list_of
from ruledsl.world import Component, Field, World

SPAN = Span("x.rules", 1, 1)


def rules() -> ExprTypes:
    """Seats with `money`, nodes with a field `owner` and an attribute `kind`, items `card` with `cost`."""
    card = Component("card", ("a-1", "a-2"), {"cost": INT}, {"cost": (3, 5)}, {"held": Field("held", BOOL, SPAN)},
                     "cards")
    world = World(seat_fields={"money": Field("money", INT, SPAN)}, global_fields={},
                  node_fields={"owner": Field("owner", SEAT.or_none(), SPAN)}, node_attrs={"kind": STR},
                  node_attr_values={"kind": ("road", "shop", "shop")}, node_ids=(1, 2, 3),
                  adjacency=((1,), (0, 2), (1,)), tables={"price": (INT, 4)}, components={"card": card})
    return ExprTypes(world, DiagnosticBag(), lambda: ["score"], lambda name: None)


def type_of(g: ExprTypes, e: A.Expr, scope: Scope) -> Type | None:
    """The type of e by the rules alone (the kinds of expression these tests use)."""
    if isinstance(e, (A.Num, A.Bool, A.NoneLit, A.Template)):
        return g.literal(e)
    if isinstance(e, A.Name):
        return g.name(e, scope)
    parts = [type_of(g, part, scope) for part in _parts(e)]
    if any(t is None for t in parts):
        return None
    ts = [t for t in parts if t is not None]
    if isinstance(e, A.Attr):
        return g.attr(e, ts[0], scope)
    if isinstance(e, A.BinOp):
        return g.binary(e, ts[0], ts[1])
    if isinstance(e, A.ListLit):
        return g.list_of_elements(ts)
    if isinstance(e, A.Call) and g.builtin_call(e):
        return g.builtin(e, ts, scope)
    return None


def _parts(e: A.Expr) -> list[A.Expr]:
    if isinstance(e, A.Attr):
        return [e.obj]
    if isinstance(e, A.BinOp):
        return [e.left, e.right]
    if isinstance(e, A.ListLit):
        return list(e.items)
    return list(e.args) if isinstance(e, A.Call) else []


def typed(text: str) -> tuple[Type | None, list[tuple[str, str]]]:
    g = rules()
    scope = Scope(None, persistent=False)
    scope.declare("s", SEAT, "param", SPAN)
    scope.declare("n", NODE, "param", SPAN)
    return type_of(g, expr(text), scope), [(d.code, d.message) for d in g.diags.items]


def test_the_rules_give_types_without_generating_code() -> None:
    assert typed("s.money + price * 2") == (INT, [])
    assert typed("n.owner == s") == (BOOL, [])
    assert typed("[n.kind, \"x\"]") == (list_of(STR), [])
    assert typed("cards") == (list_of(Type("card")), [])
    assert typed("len(cards) > 1") == (BOOL, [])


def test_a_rule_reports_and_gives_no_type_where_none_can_be_given() -> None:
    t, diags = typed("s.mony")
    assert t is None and diags == [("unknown-field", "seats have no field 'mony'")]
    t, diags = typed("score")
    assert t is None and diags == [("unknown-name", "'score' is a function: call it with ( )")]
    t, diags = typed("nope(1)")
    assert t is None and [code for code, _ in diags] == ["unknown-name"]


def test_a_rule_reports_and_still_gives_the_type_it_can() -> None:
    assert typed("s.money < \"a\"") == (BOOL, [("type", "'<' compares int with str: compare two numbers or two texts")])
    assert typed("len(3)") == (INT, [("type", "the value of len() must be list or map or str, not int")])
    assert typed("n.kind == \"shopp\"") == (BOOL, [("unknown-value", "no board node has kind 'shopp'")])
