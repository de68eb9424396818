"""Formulas: checked once each, with their parameter and result types; one-expression ones are inlined."""

from __future__ import annotations

from . import ast as A
from .codegen import _Function
from .compiler_base import CompilerBase
from .diagnostics import Span
from .scope import Scope
from .types import ANY, NONE, Type, TypeSyntaxError, parse_type, unify


class FormulasMixin(CompilerBase):
    """Signatures and code of formulas, and the parameters of formulas and phases."""

    def _inline_body(self, name: str) -> tuple[list[str], A.Expr] | None:
        formula = self.formulas.get(name)
        if formula is None or formula.expr is None or name in self.formula_busy:
            return None
        return [p.name for p in formula.params], formula.expr

    def _params(self, params: tuple[A.Param, ...]) -> list[Type]:
        types = []
        for p in params:
            try:
                types.append(parse_type(p.type_text, self.world.components, self.world.name_sets))
            except TypeSyntaxError as err:
                self.diags.error(p.span, "type", str(err))
                types.append(ANY)
        return types

    def _formula_sig(self, name: str, span: Span, count_use: bool = True) -> tuple[list[Type], Type, str] | None:
        formula = self.formulas.get(name)
        if formula is None:
            return None
        if count_use:
            self.formula_used.add(name)
        if name in self.formula_done:
            return self.formula_done[name]
        if name in self.formula_busy:
            # Through self.exprs.diags: a call met while inlining another formula reports nothing.
            self.exprs.diags.error(span, "recursion", f"formula '{name}' calls itself (directly or through others)",
                             "formulas cannot be recursive; use a phase with a loop")
            return [ANY] * len(formula.params), ANY, "_recursive"
        self.formula_busy.append(name)
        types = self._params(formula.params)
        fn_name = f"_F{len(self.formula_done) + len(self.formula_busy)}_{len(self.functions)}"
        scope = Scope(None, persistent=False)
        args = self._declare_params(formula.params, types, scope)
        fn = _Function(fn_name, ", ".join(["c"] + args))
        saved_returns, self.returns = self.returns, []
        if formula.expr is not None:
            code, ret = self.exprs.expr(formula.expr, scope)
            fn.emit(f"return {code}", formula.expr.span)
        else:
            self._stmts(formula.body, scope, fn, [], context="formula")
            ret = NONE
            for t in self.returns:
                ret = t if ret.kind == "none" and not ret.nullable else unify(ret, t)
            if not self.returns:
                self.diags.error(formula.name_span, "no-return", f"formula '{name}' never returns a value")
        self.returns = saved_returns
        self.functions.append(fn)
        self.formula_busy.pop()
        sig = (types, ret, fn_name)
        self.formula_done[name] = sig
        return sig

    def _declare_params(self, params: tuple[A.Param, ...], types: list[Type], scope: Scope) -> list[str]:
        """Declare a formula's or phase's parameters; returns the Python code naming each."""
        args = []
        for p, t in zip(params, types):
            self.exprs.no_shadow(p.name, p.span, scope)
            var = scope.declare(p.name, t, "param", p.span)
            var.used = True
            args.append(var.code)
        return args
