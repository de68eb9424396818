"""Formulas: checked once each, with their parameter and result types; one-expression ones are inlined."""

from __future__ import annotations

from ..budget.charge import BudgetMixin, charge_lines
from ..budget.cost import FormulaWork
from ..diagnostics import Span
from ..opt.hoist import cells
from ..opt.mutation import changed_names
from ..opt.purity import memo_key
from ..syntax import ast as A
from ..types import ANY, NONE, Type, TypeSyntaxError, parse_type, unify
from .codegen import _Function
from .scope import Scope

# Argument lists remembered per formula: enough for any board; a hostile game cannot fill memory.
MEMO_LIMIT = 4096


class FormulasMixin(BudgetMixin):
    """Signatures and code of formulas, and the parameters of formulas and phases."""

    def _inline_body(self, name: str) -> tuple[list[str], A.Expr] | None:
        formula = self.formulas.get(name)
        if formula is None or formula.expr is None or name in self.formula_busy:
            return None
        if name in self.memo and formula.params:  # (a remembered one only to be computed now, see _inline)
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
            # Through self.types.diags: a call met while inlining another formula reports nothing.
            self.types.diags.error(span, "recursion", f"formula '{name}' calls itself (directly or through others)",
                             "formulas cannot be recursive; use a phase with a loop")
            return [ANY] * len(formula.params), ANY, "_recursive"
        self.formula_busy.append(name)
        types = self._params(formula.params)
        fn_name = f"_F{len(self.formula_done) + len(self.formula_busy)}_{len(self.functions)}"
        scope = Scope(None, persistent=False)
        args = self._declare_params(formula.params, types, scope)
        fn = _Function(fn_name, ", ".join(["c"] + args))
        saved_returns, self.returns = self.returns, []
        exprs = self.exprs
        hoisting = exprs.hoister.begin_function(len(args))
        quiet = (exprs.hoister.off, exprs.charges.off)  # a formula is compiled once, for every use
        exprs.hoister.off = exprs.charges.off = 0
        self._push_region(scope)
        self.changed.append(changed_names(formula.body))
        if formula.expr is not None:
            statement = exprs.begin_statement(scope)
            code, ret = exprs.expr(formula.expr, scope)
            temps, cost = exprs.end_statement(statement)
            for line in cells(temps, [code]):
                fn.emit(line, None)
            region = self.regions[-1]
            late = [t for t in cost.terms if not region.takes(t)]
            region.terms.extend(t for t in cost.terms if region.takes(t))
            if late:
                for line in charge_lines(" + ".join(late), None, True):
                    fn.emit(line, formula.expr.span)
            region.add(cost.static, formula.expr.span)
            fn.emit(f"return {code}", formula.expr.span)
        else:
            self._stmts(formula.body, scope, fn, [], context="formula")
            ret = NONE
            for t in self.returns:
                ret = t if ret.kind == "none" and not ret.nullable else unify(ret, t)
            if not self.returns:
                self.diags.error(formula.name_span, "no-return", f"formula '{name}' never returns a value")
        region = self._pop_region()
        self.changed.pop()
        text = "\n".join(line for _, line, _ in fn.blocks[0])
        if "c.steps" not in text and "_cnt(" not in text and name not in self.memo:
            # Its work is known before it runs, from its arguments: every call counts it (exprgen).
            exprs.formula_work[name] = FormulaWork(region.steps, region.terms, args)
            if region.terms:  # for a call whose arguments cannot be read twice: it counts itself
                counting = _Function(fn_name + "_c", fn.args)
                for line in charge_lines(region.amount(), region.loop, True):
                    counting.emit(line, region.span)
                counting.emit(f"return {fn_name}({fn.args})", None)
                self.functions.append(counting)
        else:
            exprs.formula_work[name] = None  # counted by the formula itself as it runs
            self._charge_region(fn, 0, 0, 1, region, 0)
        exprs.hoister.off, exprs.charges.off = quiet
        kept = exprs.hoister.end_function(hoisting)
        if kept:
            fn.blocks[0][0:0] = [(1, line, None) for line in cells(kept, [text for _, text, _ in fn.blocks[0]])]
        self.returns = saved_returns
        if name in self.memo:
            self._memo_wrapper(fn, args)
        self.functions.append(fn)
        self.formula_busy.pop()
        sig = (types, ret, fn_name)
        self.formula_done[name] = sig
        return sig

    def _declare_params(self, params: tuple[A.Param, ...], types: list[Type], scope: Scope) -> list[str]:
        """Declare a formula's or phase's parameters; returns the Python code naming each."""
        args = []
        for p, t in zip(params, types):
            self.types.no_shadow(p.name, p.span, scope)
            var = scope.declare(p.name, t, "param", p.span)
            var.used = True
            args.append(var.code)
        return args

    def _memo_wrapper(self, fn: _Function, args: list[str]) -> None:
        """Remember a state-free formula's value for each argument list (purity.py says which).

        The function itself is renamed `..._m`; the wrapper keeps its name. Its value costs no
        steps, remembered or not (the steps computing it takes are given back; visiting a list it
        gives is counted where it is visited). But it is computed again whenever the budget left
        is smaller than what computing it took: then the loop that runs out is named as it would
        be, so the budget runs out at the same place either way.
        """
        table = self.exprs.const("memo", fn.name, {})
        inner = fn.name + "_m"
        wrapper = _Function(fn.name, fn.args)
        fn.name = inner
        call = f"{inner}({fn.args})"
        key = memo_key(args)
        for line in (f"_r = {table}.get({key})",
                     "if _r is None or c.steps < _r[1]:",
                     "    _s = c.steps",
                     f"    _v = {call}",
                     f"    if len({table}) < {MEMO_LIMIT}: {table}[{key}] = (_v, _s - c.steps)",
                     "    c.steps = _s",
                     "    return _v",
                     "return _r[0]"):
            wrapper.emit(line, None)
        self.functions.append(wrapper)
