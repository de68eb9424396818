"""Formulas: compiled once each, with the parameter and result types the type walk found
(`check/typewalk.py`); one-expression ones are inlined."""

from __future__ import annotations

from ..budget.charge import BudgetMixin, charge_lines
from ..budget.cost import FormulaWork
from ..check.scope import Scope
from ..opt.hoist import cells
from ..opt.mutation import changed_names
from ..opt.purity import memo_key
from ..syntax import ast as A
from ..types import Type
from .codegen import _Function

# Argument lists remembered per formula: enough for any board; a hostile game cannot fill memory.
MEMO_LIMIT = 4096


class FormulasMixin(BudgetMixin):
    """Signatures and code of formulas, and the parameters of formulas and phases."""

    def _inline_body(self, name: str) -> tuple[list[str], A.Expr] | None:
        """A one-expression formula's parameter names and body, unless it is being checked or compiled."""
        formula = self.formulas.get(name)
        if formula is None or formula.expr is None or name in self.formula_busy or name in self.formula_checking:
            return None
        if name in self.memo and formula.params:  # (a remembered one only to be computed now, see _inline)
            return None
        return [p.name for p in formula.params], formula.expr

    def _params(self, params: tuple[A.Param, ...]) -> list[Type]:
        """The types of a formula's or phase's parameters (the type walk's)."""
        return self.exprs.record.params(params)

    def _formula_function(self, name: str) -> str:
        """The function computing a formula, compiled the first time a call of it is met."""
        return self._formula_sig(name)[2]

    def _formula_sig(self, name: str) -> tuple[list[Type], Type, str]:
        """A formula's parameter and result types and its function, compiled once."""
        if name in self.formula_done:
            return self.formula_done[name]
        assert name not in self.formula_busy  # (the type walk reports a formula calling itself)
        formula = self.formulas[name]
        self.formula_busy.append(name)
        types, ret = self.formula_checked[name]
        fn_name = f"_F{len(self.formula_done) + len(self.formula_busy)}_{len(self.functions)}"
        scope = Scope(None, persistent=False)
        args = self._declare_params(formula.params, types, scope)
        fn = _Function(fn_name, ", ".join(["c"] + args))
        exprs = self.exprs
        hoisting = exprs.hoister.begin_function(len(args))
        quiet = (exprs.hoister.off, exprs.charges.off)  # a formula is compiled once, for every use
        exprs.hoister.off = exprs.charges.off = 0
        self._push_region(scope)
        self.changed.append(changed_names(formula.body))
        if formula.expr is not None:
            statement = exprs.begin_statement(scope)
            code, _ = exprs.expr(formula.expr, scope)
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
