"""The type-checking walk of expressions: every node's type by its typing rule, recorded.

The walk visits an expression's parts before the expression, in the order the rules are written,
asks `ExprTypes` (`exprtypes.py`) for each node's type, which reports every type diagnostic, and
records the type (`typerecord.py`). It makes no code: the code generation (`gen/exprgen.py`) walks
the same expressions later and reads the recorded types. A call of a formula asks for the formula's
signature when the walk meets it, before its values, so a formula is checked (and its diagnostics
reported) the first time a call of it is met (`typewalk.py`).
"""

from __future__ import annotations

from typing import Callable

from ..check.scope import Scope
from ..diagnostics import Span
from ..syntax import ast as A
from ..types import ANY, Type
from .exprtypes import ExprTypes
from .typerecord import Signature, TypeRecord


class ExprWalk:
    """Walks expressions against the names in scope, with the typing rules of `types`."""

    def __init__(self, types: ExprTypes, formula_sig: Callable[[str, Span], Signature | None]):
        self.types = types
        self.formula_sig = formula_sig
        self.record = TypeRecord()

    def type_of(self, e: A.Expr, scope: Scope) -> Type | None:
        """Check e and everything in it; e's type (None: an error left it none), recorded for each node."""
        return self.record.note(e, _RULES[type(e)](self, e, scope))

    def condition(self, e: A.Expr, scope: Scope, what: str = "a condition") -> None:
        """Check e as a yes/no."""
        self.types.condition(e, self._known(e, scope), what)

    def template(self, e: A.Template, scope: Scope) -> None:
        """Check the expressions in a text template."""
        self.type_of(e, scope)

    def _known(self, e: A.Expr, scope: Scope) -> Type:
        """e's type, `any` where an error left it none (checking goes on as if nothing were known)."""
        t = self.type_of(e, scope)
        return t if t is not None else ANY

    # ------------------------------------------------------------- each kind of expression
    def _literal(self, e: A.Num | A.Bool | A.NoneLit, scope: Scope) -> Type | None:
        return self.types.literal(e)

    def _template(self, e: A.Template, scope: Scope) -> Type | None:
        for part in e.parts:
            if not isinstance(part, str):
                self.type_of(part, scope)
        return self.types.literal(e)

    def _name(self, e: A.Name, scope: Scope) -> Type | None:
        return self.types.name(e, scope)

    def _attr(self, e: A.Attr, scope: Scope) -> Type | None:
        return self.types.attr(e, self._known(e.obj, scope), scope)

    def _tuple(self, e: A.TupleLit, scope: Scope) -> Type | None:
        return self.types.tuple_of_elements([self._known(item, scope) for item in e.items])

    def _index(self, e: A.Index, scope: Scope) -> Type | None:
        t = self._known(e.obj, scope)
        return self.types.index(e, t, self._known(e.index, scope), scope)

    def _binary(self, e: A.BinOp, scope: Scope) -> Type | None:
        left = self._known(e.left, scope)
        return self.types.binary(e, left, self._known(e.right, scope))

    def _not(self, e: A.Not, scope: Scope) -> Type | None:
        return self.types.condition(e.operand, self._known(e.operand, scope), "the operand of not")

    def _neg(self, e: A.Neg, scope: Scope) -> Type | None:
        return self.types.negated(e, self._known(e.operand, scope))

    def _if_else(self, e: A.IfExp, scope: Scope) -> Type | None:
        self.condition(e.cond, scope)
        then = self._known(e.then, scope)
        return self.types.conditional(e, then, self._known(e.orelse, scope))

    def _list(self, e: A.ListLit, scope: Scope) -> Type | None:
        return self.types.list_of_elements([self._known(item, scope) for item in e.items])

    def _comprehension(self, e: A.ListComp | A.MapComp, scope: Scope) -> Scope:
        """The list a comprehension runs over, its variable (in a scope of the walk's own, so that
        the code's names are not counted twice) and its condition."""
        elem = self.types.comprehension(e.var, e.iter, self._known(e.iter, scope), e.span, scope)
        self.record.note_bound(e, elem)
        inner = Scope(scope, scope.persistent, [0])
        inner.declare(e.var, elem, "comp", e.span, comp=True).used = True
        if e.cond is not None:
            self.condition(e.cond, inner)
        return inner

    def _list_comprehension(self, e: A.ListComp, scope: Scope) -> Type | None:
        inner = self._comprehension(e, scope)
        return self.types.list_of_elements([self._known(e.elt, inner)])

    def _map(self, e: A.MapLit, scope: Scope) -> Type | None:
        values = []
        for k, v in e.pairs:
            kt = self._known(k, scope)
            values.append(self._known(v, scope))
            self.types.map_key(k, kt)
        return self.types.map_of_values(values)

    def _map_comprehension(self, e: A.MapComp, scope: Scope) -> Type | None:
        inner = self._comprehension(e, scope)
        self.types.map_key(e.key, self._known(e.key, inner))
        return self.types.map_of_values([self._known(e.value, inner)])

    def _call(self, e: A.Call, scope: Scope) -> Type | None:
        """A formula's call (its signature asked first: the formula is checked when first met), or a
        built-in's."""
        sig = self.formula_sig(e.name, e.name_span)
        if sig is not None:
            params, ret = sig
            accepted = self.types.formula_call(e, params)
            self.record.note_call(e, sig, accepted)
            if not accepted:
                return None
            for i, (arg, pt) in enumerate(zip(e.args, params), 1):
                self.types.formula_argument(e, i, arg, pt, self._known(arg, scope))
            return ret
        accepted = self.types.builtin_call(e)
        self.record.note_call(e, None, accepted)
        if not accepted:
            return None
        return self.types.builtin(e, [self._known(a, scope) for a in e.args], scope)


# The walk's method for each kind of expression.
_RULES: dict[type, Callable[..., Type | None]] = {
    A.Num: ExprWalk._literal, A.Bool: ExprWalk._literal, A.NoneLit: ExprWalk._literal,
    A.Template: ExprWalk._template, A.Name: ExprWalk._name, A.Attr: ExprWalk._attr,
    A.TupleLit: ExprWalk._tuple, A.Index: ExprWalk._index, A.BinOp: ExprWalk._binary,
    A.Not: ExprWalk._not, A.Neg: ExprWalk._neg, A.IfExp: ExprWalk._if_else, A.ListLit: ExprWalk._list,
    A.ListComp: ExprWalk._list_comprehension, A.MapLit: ExprWalk._map,
    A.MapComp: ExprWalk._map_comprehension, A.Call: ExprWalk._call,
}
