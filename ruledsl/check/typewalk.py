"""The type-checking walk: every phase, then every formula, checked before any code is made.

Each phase's body and each formula's is walked in scopes of its own (`stmtwalk.py` for the
statements, `exprwalk.py` for the expressions), and every diagnostic of the rules' statements and
expressions is reported here, in the order the rules are met: a formula is checked the first time a call of it is
met, a phase whose value is kept the first time it is run for it, and whatever nothing calls at
the end. The walk records what the code generation reads: each expression's type, the type of each
variable a statement makes (`typerecord.py`), the parameters' types, each formula's signature and
the type of the value each phase gives back. The code generation (`gen/`) runs after it, only on
rules that it found without errors, and makes no typing decision of its own.
"""

from __future__ import annotations

from ..check.scope import Scope
from ..diagnostics import Span
from ..syntax import ast as A
from ..types import ANY, NONE, Type, TypeSyntaxError, parse_type, unify
from .emptiness import EmptyOptions
from .stmtwalk import StatementChecksMixin


class TypeWalkMixin(StatementChecksMixin):
    """Phases, formulas and their parameters, checked."""

    def _check_all(self) -> None:
        """The pass: every phase, then every formula (those not met yet)."""
        for phase in self.phases.values():
            self._check_phase(phase)
        for name in self.formulas:
            self._formula_types(name, self.formulas[name].name_span, count_use=False)

    def _check_phase(self, phase: A.Phase) -> None:
        """Check a phase once (a phase whose value is kept is checked when first met)."""
        if phase.name in self.phase_results or phase.name in self.phase_checking:
            return
        self.phase_checking.append(phase.name)
        saved = self.returns, self.bare_returns
        self.returns, self.bare_returns = [], []
        scope = Scope(None, persistent=False)
        self._declare_checked_params(phase.params, self._param_types(phase.params), scope)
        self._check_stmts(phase.body, scope, 0, "resumable" if phase.name in self.resumable else "direct")
        self._warn_unused(scope)
        self._warn_empty_options(phase)
        self.phase_results[phase.name] = self._result_type(phase)
        self.returns, self.bare_returns = saved
        self.phase_checking.pop()

    def _phase_result_type(self, name: str) -> Type | None:
        """The type of the value a phase gives back (None: it gives none), checking it if needed."""
        if name in self.phase_checking:
            return ANY  # a phase whose value is kept while it runs itself: known when it is done
        if name not in self.phase_results:
            self._check_phase(self.phases[name])
        return self.phase_results.get(name)

    def _result_type(self, phase: A.Phase) -> Type | None:
        """The type of the value a phase gives back with `return VALUE`, None when it gives none."""
        if not self.returns:
            return None
        for span in self.bare_returns:
            self.diags.error(span, "return-value", f"phase '{phase.name}' gives back a value with its other "
                             "returns: give one here too", "write return VALUE, or return none")
        result = NONE
        for t in self.returns:
            result = t if result.kind == "none" and not result.nullable else unify(result, t)
        return result

    def _formula_types(self, name: str, span: Span, count_use: bool = True) -> tuple[list[Type], Type] | None:
        """A formula's parameter and result types (None: no formula has that name), checking it the
        first time it is met."""
        formula = self.formulas.get(name)
        if formula is None:
            return None
        if count_use:
            self.formula_used.add(name)
        if name in self.formula_checked:
            return self.formula_checked[name]
        if name in self.formula_checking:
            # Through self.types.diags: a call met while a copy is checked reports nothing.
            self.types.diags.error(span, "recursion", f"formula '{name}' calls itself (directly or through others)",
                                   "formulas cannot be recursive; use a phase with a loop")
            return [ANY] * len(formula.params), ANY
        # A formula is checked once, where it is first met, and its problems are reported then, even
        # when that is a statement's type looked up in silence before the statement is checked.
        silenced = self.diags, self.types.diags
        self.diags = self.types.diags = self.reported
        try:
            return self._check_formula(name, formula)
        finally:
            self.diags, self.types.diags = silenced

    def _check_formula(self, name: str, formula: A.Formula) -> tuple[list[Type], Type]:
        """Check a formula's body, the first time it is met; its parameter and result types."""
        self.formula_checking.append(name)
        types = self._param_types(formula.params)
        scope = Scope(None, persistent=False)
        self._declare_checked_params(formula.params, types, scope)
        saved, self.returns = self.returns, []
        if formula.expr is not None:
            ret = self._typed(formula.expr, scope)
        else:
            self._check_stmts(formula.body, scope, 0, "formula")
            ret = NONE
            for t in self.returns:
                ret = t if ret.kind == "none" and not ret.nullable else unify(ret, t)
            if not self.returns:
                self.diags.error(formula.name_span, "no-return", f"formula '{name}' never returns a value")
        self.returns = saved
        self.formula_checking.pop()
        self.formula_checked[name] = (types, ret)
        return types, ret

    def _param_types(self, params: tuple[A.Param, ...]) -> list[Type]:
        """The types of a formula's or phase's parameters, as written (reported where one is not a type)."""
        types = []
        for p in params:
            try:
                types.append(parse_type(p.type_text, self.world.components, self.world.name_sets))
            except TypeSyntaxError as err:
                self.diags.error(p.span, "type", str(err))
                types.append(ANY)
        self.walk.record.note_params(params, types)
        return types

    def _declare_checked_params(self, params: tuple[A.Param, ...], types: list[Type], scope: Scope) -> None:
        """Declare a formula's or phase's parameters in the walk's scope."""
        for p, t in zip(params, types):
            self.types.no_shadow(p.name, p.span, scope)
            scope.declare(p.name, t, "param", p.span).used = True

    def _never_empty(self, name: str) -> bool:
        """Game data that always has an element: the seats, the board, a collection, a list table."""
        w = self.world
        if name in ("seats", "nodes") or any(name == c.collection for c in w.components.values()):
            return True
        value = w.tables[name][1] if name in w.tables else None
        return isinstance(value, list) and len(value) > 0

    def _warn_empty_options(self, phase: A.Phase) -> None:
        for s in EmptyOptions(phase.body, self._never_empty).found:
            self.diags.warning(s.options.span, "empty-options",
                               f"the options of '{s.var}' can be empty here, and a choice without "
                               "options stops the game",
                               "test its length first or add an option that is always there; if the game "
                               "guarantees it, say why in a comment '# allow: empty-options. REASON' on "
                               "this line or the line above")
