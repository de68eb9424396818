"""What may be changed, and how: assignment targets, read-only data, the element type of `let xs = []`."""

from __future__ import annotations

from ..check.exprtypes import CONSTANTS
from ..compiler_base import CompilerBase
from ..diagnostics import DiagnosticBag, an, did_you_mean
from ..syntax import ast as A
from ..types import ANY, Type, assignable, list_of, unify
from .codegen import _Function, _has_none
from .exprgen import Code
from .scope import Scope


class AssignmentMixin(CompilerBase):
    """Assignments, list targets and the checks that keep fixed data fixed."""

    def _type_of(self, e: A.Expr, scope: Scope) -> Type:
        """The type of an expression, without reporting anything (it is checked where it is used)."""
        saved = self.diags
        self.diags = self.types.diags = DiagnosticBag()
        try:
            t = self.walk.type_of(e, scope)
        finally:
            self.diags = self.types.diags = saved
        return t if t is not None else ANY

    def _settle_type(self, target: A.Expr, value: A.Expr, scope: Scope, element: bool) -> None:
        """Give `let xs = []` its element type from the first value added or stored."""
        if not isinstance(target, A.Name):
            return
        var = scope.lookup(target.name)
        if var is None or not var.open_type:
            return
        vt = self._type_of(value, scope)
        if element and var.type.kind == "list" and var.type.args[0].kind not in ("any", "none"):
            vt = unify(var.type.args[0], vt)  # a later value may fill a part the first left none
        new = list_of(vt) if element else vt
        if new.kind == "list" and new.args[0].kind not in ("any", "none"):
            var.type = new
            var.open_type = _has_none(new.args[0])

    def _formula_local(self, e: A.Expr, scope: Scope) -> bool:
        while isinstance(e, (A.Attr, A.Index)):
            e = e.obj
        if not isinstance(e, A.Name):
            return False
        var = scope.lookup(e.name)
        return var is not None and var.kind == "local"

    def _writable(self, e: A.Expr, scope: Scope) -> str | None:
        """Why an assignment target cannot be changed, or None when it can."""
        if isinstance(e, A.Name):
            var = scope.lookup(e.name)
            if var is not None:
                return "a loop variable cannot be changed" if var.kind in ("loop", "comp") else None
            if e.name in self.world.global_fields:
                return None
            if e.name in self.world.tables:
                return f"'{e.name}' is a table: fixed data that rules read but never change"
            if e.name in CONSTANTS or any(c.collection == e.name for c in self.world.components.values()):
                return f"'{e.name}' is fixed by the game"
            return None  # unknown names are reported by the expression checker
        if isinstance(e, A.Attr):
            t = self._type_of(e.obj, scope)
            if t.kind == "node" and e.name in self.world.node_attrs and e.name not in self.world.node_fields:
                return f"'{e.name}' is a board attribute, fixed in the board file"
            if t.kind == "seat" and e.name == "name" and e.name not in self.world.seat_fields:
                return "a seat's name is given by the players, not by the rules"
            if t.kind == "seat" and e.name in self.world.seat_fields:
                if self.world.seat_fields[e.name].ledger:
                    return f"'{e.name}' is kept in the ledger: change it with pay or gain"
                return None
            component = self.world.components.get(t.kind)
            if component is not None:
                if e.name in component.attrs and e.name not in component.fields:
                    return f"'{e.name}' is an attribute of every {t.kind}, fixed in its file"
                return None
            if t.kind in ("seat", "node"):
                return None
            return self._writable(e.obj, scope)
        if isinstance(e, A.Index):
            t = self._type_of(e.obj, scope)
            if t.kind == "tuple":
                return "a tuple is a fixed value: build a new one instead of changing a part"
            return self._writable(e.obj, scope)
        return "only variables, state fields and their parts can be changed"

    def _assign(self, s: A.Assign, scope: Scope, fn: _Function) -> None:
        if isinstance(s.target, A.Name) and scope.lookup(s.target.name) is None \
                and s.target.name not in self.world.global_fields and s.target.name not in self.world.tables \
                and s.target.name not in CONSTANTS \
                and not any(c.collection == s.target.name for c in self.world.components.values()):
            self.diags.error(s.target.span, "unknown-name", f"'{s.target.name}' is not declared",
                             did_you_mean(s.target.name, list(scope.names()) + list(self.world.global_fields))
                             or f"write 'let {s.target.name} = ...' to create it")
            return
        why = self._writable(s.target, scope)
        if why:
            self.diags.error(s.target.span, "read-only", why)
            return
        if s.op == "=":
            self._settle_type(s.target, s.value, scope, element=False)
        target, tt = self.exprs.expr(s.target, scope)
        value, vt = self._value(s.value, scope)
        if s.op == "=":
            if not assignable(tt, vt):
                self.diags.error(s.value.span, "type", f"cannot store {an(vt)} where {an(tt)} belongs",
                                 related=self.types.explain(s.value.span, vt))
            fn.emit(f"{target} = {value}", s.span)
        else:
            self.types.check(tt, ("int",), s.target.span, f"the target of '{s.op}'")
            self.types.check(vt, ("int",), s.value.span, f"the value of '{s.op}'")
            fn.emit(f"{target} {s.op} {value}", s.span)

    def _list_target(self, e: A.Expr, scope: Scope, what: str) -> Code:
        why = self._writable(e, scope)
        code, t = self.exprs.expr(e, scope)
        if why:
            self.diags.error(e.span, "read-only", why)
        if t.kind not in ("list", "any"):
            self.diags.error(e.span, "type", f"can only {what} a list, not {an(t)}")
            return code, list_of(ANY)
        return code, t
