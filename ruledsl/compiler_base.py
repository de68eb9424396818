"""The state shared by the compiler's parts, each a mixin in a module of its own.

Methods one part calls on another are declared here, so each module type-checks alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .check.exprtypes import ExprTypes
from .check.exprwalk import ExprWalk
from .check.scope import Scope
from .diagnostics import DiagnosticBag, Span
from .gen.exprgen import Code, Expressions
from .program import AbilityCode, ChooseSpec
from .syntax import ast as A
from .types import Type
from .world import World

if TYPE_CHECKING:
    from .budget.charge import Region
    from .gen.codegen import _Function, _Loop
    from .opt.mutation import Mutations


class CompilerBase:
    """Checks rules files against a World and produces a Program plus diagnostics."""

    world: World
    diags: DiagnosticBag
    reported: DiagnosticBag
    exprs: Expressions
    types: ExprTypes                 # the typing rules of expressions (check/exprtypes.py)
    walk: ExprWalk                   # the type-checking walk of expressions (check/exprwalk.py)
    formulas: dict[str, A.Formula]
    phases: dict[str, A.Phase]
    start: str
    start_span: Span
    functions: list["_Function"]
    formula_checked: dict[str, tuple[list[Type], Type]]   # each formula's signature (the type walk's)
    formula_checking: list[str]
    formula_done: dict[str, tuple[list[Type], Type, str]]  # ... and its function (the code generation's)
    formula_busy: list[str]
    formula_used: set[str]
    memo: set[str]                   # state-free formulas whose values are remembered (purity.py)
    fresh_results: set[str]          # formulas that always give a new list of their own (fresh_results.py)
    mutations: "Mutations"           # which loops must copy their list (mutation.py)
    chooses: list[ChooseSpec]
    choose_ids: dict[int, int]       # id of a Choose node -> its spec, shared by both compiled forms
    event_seats: dict[str, set[str]]    # event kind -> its data fields of a seat type
    loop_spans: list[Span]
    resumable: set[str]
    phase_fn: dict[str, str]
    returns: list[Type]
    bare_returns: list[Span]
    phase_results: dict[str, Type | None]   # the type of the value each phase gives back (the type walk's)
    phase_checking: list[str]
    kept_forms: dict[int, tuple[A.Keep, A.Let | A.Assign]]   # (stmtwalk._kept_form)
    phase_compiled: set[str]                # (the code generation's)
    phase_busy: list[str]
    abilities: dict[tuple[str, str], tuple[AbilityCode, tuple[str | None, ...]]]
    ability_phases: set[str]
    calls: dict[str, set[str]]
    depth_bounded: bool              # no chain of waiting phases can come near MAX_DEPTH (callgraph.py)
    changed: list[set[str]]                # variables each function being compiled changes (mutation.py)
    phase_regions: dict[str, "Region"]     # each phase's body: its work known when compiling (budget/charge.py)

    # -- implemented by the parts (see the module named in each docstring)
    def _ability_targets(self, ability: str) -> set[str]:
        """callgraph.py"""
        raise NotImplementedError

    def _suspends(self, s: A.Stmt) -> bool:
        """callgraph.py"""
        raise NotImplementedError

    def _params(self, params: tuple[A.Param, ...]) -> list[Type]:
        """formulas.py"""
        raise NotImplementedError

    def _param_types(self, params: tuple[A.Param, ...]) -> list[Type]:
        """typewalk.py"""
        raise NotImplementedError

    def _check_phase(self, phase: A.Phase) -> None:
        """typewalk.py"""
        raise NotImplementedError

    def _phase_result_type(self, name: str) -> Type | None:
        """typewalk.py"""
        raise NotImplementedError

    def _formula_types(self, name: str, span: Span, count_use: bool = True) -> tuple[list[Type], Type] | None:
        """typewalk.py"""
        raise NotImplementedError

    def _kept_form(self, s: A.Keep) -> A.Let | A.Assign:
        """stmtwalk.py"""
        raise NotImplementedError

    def _declare_params(self, params: tuple[A.Param, ...], types: list[Type], scope: Scope) -> list[str]:
        """formulas.py"""
        raise NotImplementedError

    def _stmts(self, stmts: tuple[A.Stmt, ...], scope: Scope, fn: "_Function", loops: list["_Loop"],
               context: str) -> None:
        """statements.py"""
        raise NotImplementedError

    def _phase_body(self, phase: A.Phase, scope: Scope, fn: "_Function", context: str) -> None:
        """statements.py"""
        raise NotImplementedError

    def _simple(self, s: A.Stmt, scope: Scope, fn: "_Function", loops: list["_Loop"], context: str) -> None:
        """statements.py"""
        raise NotImplementedError

    def _value(self, e: A.Expr, scope: Scope) -> Code:
        """statements.py"""
        raise NotImplementedError

    def _declare(self, name: str, t: Type, span: Span, scope: Scope, kind: str = "local") -> str:
        """statements.py"""
        raise NotImplementedError

    def _warn_unused(self, scope: Scope) -> None:
        """stmtwalk.py"""
        raise NotImplementedError

    def _run_args(self, s: A.Run, scope: Scope) -> list[str]:
        """statements.py"""
        raise NotImplementedError

    def _run_ability(self, s: A.RunAbility, scope: Scope) -> str:
        """statements.py"""
        raise NotImplementedError

    def _assign(self, s: A.Assign, scope: Scope, fn: "_Function") -> None:
        """assignment.py"""
        raise NotImplementedError

    def _suspending(self, s: A.Stmt, scope: Scope, fn: "_Function", loops: list["_Loop"]) -> None:
        """waiting.py"""
        raise NotImplementedError

    def _dead(self, body: tuple[A.Stmt, ...], scope: Scope, loops: list["_Loop"], context: str) -> None:
        """statements.py"""
        raise NotImplementedError

    def _compile_phase(self, phase: A.Phase) -> None:
        """statements.py"""
        raise NotImplementedError

    def _pay_code(self, s: A.Pay, scope: Scope, kept: bool) -> str:
        """statements.py"""
        raise NotImplementedError

    def _keep(self, s: A.Keep, scope: Scope, fn: "_Function", context: str) -> None:
        """kept.py"""
        raise NotImplementedError

    def _choose(self, s: A.Choose, scope: Scope, fn: "_Function") -> None:
        """waiting.py"""
        raise NotImplementedError

    def _ask(self, s: A.Choose, scope: Scope, fn: "_Function") -> None:
        """waiting.py"""
        raise NotImplementedError

    def _direct_call(self, call: str, span: Span, fn: "_Function") -> None:
        """waiting.py"""
        raise NotImplementedError

    def _formula_sig(self, name: str) -> tuple[list[Type], Type, str]:
        """formulas.py"""
        raise NotImplementedError

    def _formula_function(self, name: str) -> str:
        """formulas.py"""
        raise NotImplementedError

    def _inline_body(self, name: str) -> tuple[list[str], A.Expr] | None:
        """formulas.py"""
        raise NotImplementedError
