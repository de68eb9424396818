"""Check a game's rules and compile them, once, into Python functions.

Statements that never wait for a player become plain Python code. A phase that contains a
`choose` (or runs a phase that does) is split into blocks at its waiting points; its position
(phase, block, locals) lives in the game state, so a game can pause, be saved and resume.
No text of a rule file reaches the generated source except through `repr()` of literal values
and names that the grammar has already restricted to identifiers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from .budget.charge import Region
from .builtins import BUILTINS
from .check.callgraph import CallGraphMixin
from .check.events import logged_events
from .check.exprtypes import CONSTANTS, ExprTypes
from .check.exprwalk import ExprWalk
from .check.namecheck import check_names
from .check.typewalk import TypeWalkMixin
from .diagnostics import Diagnostic, DiagnosticBag, Span, did_you_mean
from .gen.assignment import AssignmentMixin
from .gen.codegen import AssemblyMixin, _Function, copy_code
from .gen.direct import DirectMixin
from .gen.exprgen import Expressions
from .gen.formulas import FormulasMixin
from .gen.kept import KeptMixin
from .gen.statements import StatementsMixin
from .gen.waiting import WaitingMixin
from .opt.fresh_results import fresh_results
from .opt.mutation import Mutations
from .opt.purity import fields_read, memoised
from .program import MODULE_NAME, AbilityCode, ChooseSpec, PhaseCode, Program, ProgramCode
from .syntax import ast as A
from .types import Type
from .world import World

__all__ = ["MODULE_NAME", "AbilityCode", "ChooseSpec", "Compiler", "PhaseCode", "Program", "compile_rules",
           "copy_code"]


class Compiler(CallGraphMixin, TypeWalkMixin, FormulasMixin, StatementsMixin, AssignmentMixin, WaitingMixin,
               KeptMixin, DirectMixin, AssemblyMixin):
    """Checks rules files against a World and produces a Program plus diagnostics.

    Each part of the work is a mixin of its own module: the call graph (callgraph.py), the
    type-checking walk (typewalk.py, its statements in stmtwalk.py), and the code generation:
    formulas (formulas.py), statements (statements.py), assignments (assignment.py), statements
    that wait (waiting.py), values kept from statements (kept.py), the direct functions of the
    agent path (direct.py) and the assembly of the generated code (codegen.py).
    """

    def __init__(self, world: World, files: list[A.RulesFile], start: str, start_span: Span,
                 used_elsewhere: tuple[str, ...] = (), abilities: tuple[AbilityCode, ...] = (),
                 check_only: bool = False):
        self.world = world
        self.diags = DiagnosticBag()
        self.reported = self.diags   # the bag the rules' problems go to (self.diags may be a throwaway one)
        # Only the diagnostics are wanted (an editor's check): the code's optimisations are skipped.
        self.check_only = check_only
        self._inputs = (world, files, start, start_span, used_elsewhere, abilities)
        self.types = ExprTypes(world, self.diags, lambda: list(self.formulas), self._inline_body)
        self.walk = ExprWalk(self.types, self._formula_types)
        self.exprs = Expressions(world, self.walk.record, self._formula_function, self._inline_body, check_only)
        self.formulas: dict[str, A.Formula] = {}
        self.phases: dict[str, A.Phase] = {}
        self.start = start
        self.start_span = start_span
        self.functions: list[_Function] = []
        self.formula_checked: dict[str, tuple[list[Type], Type]] = {}   # (the type walk's)
        self.formula_checking: list[str] = []
        self.formula_done: dict[str, tuple[list[Type], Type, str]] = {}  # (the code generation's)
        self.formula_busy: list[str] = []
        self.formula_used: set[str] = set(used_elsewhere)
        self.memo: set[str] = set()
        self.fresh_results: set[str] = set()  # formulas that always give a list of their own
        self.chooses: list[ChooseSpec] = []
        self.choose_ids: dict[int, int] = {}
        self.event_seats: dict[str, set[str]] = {}
        self.regions: list[Region] = [Region()]
        self.phase_regions: dict[str, Region] = {}
        self.changed: list[set[str]] = [set()]
        self.loop_spans: list[Span] = []
        self.resumable: set[str] = set()
        self.phase_fn: dict[str, str] = {}
        self.returns: list[Type] = []       # (the type walk's: the function being checked)
        self.bare_returns: list[Span] = []
        self.phase_results: dict[str, Type | None] = {}   # (the type walk's)
        self.phase_checking: list[str] = []
        self.kept_forms: dict[int, tuple[A.Keep, A.Let | A.Assign]] = {}
        self.phase_compiled: set[str] = set()             # (the code generation's)
        self.phase_busy: list[str] = []
        self.option_names: dict[str, tuple[str, ...]] = {}  # found by the checked names pass
        for f in files:
            for formula in f.formulas:
                self._register(formula.name, formula.name_span, formula, self.formulas)
            for phase in f.phases:
                self._register(phase.name, phase.name_span, phase, self.phases)
        # Ability code becomes phases with names no rule can write ("card.on_activate#3").
        self.abilities: dict[tuple[str, str], tuple[AbilityCode, tuple[str | None, ...]]] = {}
        self.ability_phases: set[str] = set()
        for code in abilities:
            names: list[str | None] = []
            seen: dict[int, str] = {}
            for body in code.bodies:
                if body is None:
                    names.append(None)
                    continue
                if id(body) not in seen:
                    name = f"{code.kind}.{code.ability}#{len(seen)}"
                    seen[id(body)] = name
                    self.phases[name] = A.Phase(body.span, name, code.params, body.body, body.name_span)
                    self.ability_phases.add(name)
                names.append(seen[id(body)])
            self.abilities[(code.kind, code.ability)] = (code, tuple(names))

    def _register(self, name: str, span: Span, node: Any, table: dict[str, Any]) -> None:
        other = self.formulas.get(name) or self.phases.get(name)
        if other is not None:
            self.diags.error(span, "duplicate", f"'{name}' is defined twice; the first is at "
                             f"{other.name_span.file}:{other.name_span.line}")
            return
        if name in BUILTINS or name in CONSTANTS:
            self.diags.error(span, "duplicate", f"'{name}' is a built-in name of the language")
        elif name in self.world.tables or name in self.world.global_fields:
            self.diags.error(span, "duplicate", f"'{name}' already names game data")
        table[name] = node

    def compile(self) -> tuple[Program | None, list[Diagnostic]]:
        """Check and compile everything (the passes of `PASSES`, in order); the Program is None when
        there are errors. The passes of `FIRST_RUN_PASSES` run when a game first runs."""
        for step in PASSES:
            if step.checks or not self.check_only:
                step.run(self)
        if self.diags.has_errors:
            return None, self.diags.items
        types = {name: (params, ret) for name, (params, ret, _) in self.formula_done.items()}
        seats = {kind: frozenset(fields) for kind, fields in self.event_seats.items()}
        # A program only checked has no code to finish: it is compiled again, in full, if it ever runs.
        build = partial(_compile_in_full, self._inputs) if self.check_only else self._finish
        program = Program(build, types, logged_events(self.phases.values()), self.chooses, seats)
        program.option_names = self.option_names
        program.formula_reads = fields_read(self.formulas, self.world)
        return program, self.diags.items

    def _finish(self) -> ProgramCode:
        """Generate the rest of the code and compile it all: when a game first runs."""
        for step in FIRST_RUN_PASSES[:-1]:
            step.run(self)
        code = FIRST_RUN_PASSES[-1].run(self)  # assembly gives the compiled code
        assert isinstance(code, ProgramCode)
        return code

    def _check_start(self) -> None:
        if self.start not in self.phases and self.start in self.formulas:
            self.diags.error(self.start_span, "unknown-phase", f"the start '{self.start}' is a formula; "
                             "the game starts with a phase", did_you_mean(self.start, list(self.phases)))
        elif self.start not in self.phases:
            self.diags.error(self.start_span, "unknown-phase", f"the start phase '{self.start}' is not defined",
                             did_you_mean(self.start, list(self.phases)))
        elif self.phases[self.start].params:
            self.diags.error(self.phases[self.start].name_span, "arity",
                             f"the start phase '{self.start}' cannot take values: nothing runs it with any")

    def _find_memo(self) -> None:
        # Checking only, what is remembered matters only where it hides a one-expression formula's
        # body from a note (`_inline_body`): the other formulas are not asked about.
        among = [name for name, f in self.formulas.items() if f.expr is not None and f.params] \
            if self.check_only else None
        self.memo = self.exprs.memo = memoised(self.formulas, self.world, among)

    def _find_fresh_results(self) -> None:
        self.fresh_results = fresh_results(self.formulas, self.memo)

    def _find_mutations(self) -> None:
        self.mutations = Mutations(self.world, set(self.formulas), frozenset(self.memo))

    def _generate(self) -> None:
        if self.diags.has_errors:
            return  # no program is made: its code is not wanted (and is made only of checked rules)
        for name in self.phases:
            self.phase_fn[name] = f"_P{len(self.phase_fn)}"
        for name, phase in self.phases.items():
            self._compile_phase(phase)
        for name in self.formulas:
            self._formula_sig(name)

    def _check_names(self) -> None:
        reported = frozenset(d.span for d in self.diags.items if d.code in ("unknown-value", "unknown-key"))
        names = check_names(self.world, self.formulas, self.phases, self.abilities, reported)
        self.diags.extend(names.diagnostics)
        self.option_names = names.options


@dataclass(frozen=True)
class Pass:
    """One pass of the compiler: its name (as docs/architecture.md lists it), where its work is
    done, and what it does. `run` takes the compiler, whose state the passes share."""

    name: str
    modules: str
    does: str
    run: Callable[[Compiler], object]
    checks: bool = True   # False: it only shapes the generated code (skipped when only checking)


# What `Compiler.compile` runs, in this order (parsing comes before, one tree per file); then the
# `Program` is made, with the events the rules log (check/events.py), unless there were errors.
PASSES: tuple[Pass, ...] = (
    Pass("start phase", "compiler.py", "the start names a phase that takes no values", Compiler._check_start),
    Pass("waiting phases", "check/callgraph.py",
         "the phases that may wait (a fixpoint over the `run` graph), and whether a chain of them can "
         "come near MAX_DEPTH", Compiler._find_resumable),
    Pass("remembered formulas", "opt/purity.py",
         "formulas that read no state and are worth remembering per argument list", Compiler._find_memo),
    Pass("fresh results", "opt/fresh_results.py",
         "formulas that always give a list they made themselves, not copied when kept", Compiler._find_fresh_results,
         checks=False),
    Pass("loop copies", "opt/mutation.py", "a `for` loop copies its list only when its body may change it",
         Compiler._find_mutations),
    Pass("type checking walk", "check/typewalk.py, check/stmtwalk.py, check/exprwalk.py, check/exprtypes.py, "
         "check/builtin_types.py",
         "every phase then every formula, each in scopes of its own: every statement's checks and each "
         "expression's type by its typing rule, recorded; every diagnostic of the walk", Compiler._check_all),
    Pass("code generation", "gen/ (statements, waiting, assignment, kept, formulas, exprgen)",
         "unless there were errors, every phase then every formula: the lines of each function from the types "
         "recorded, folding, bounding, hoisting and counting the work of each expression on the way",
         Compiler._generate),
    Pass("unreachable phases", "check/callgraph.py", "warns of phases nothing runs", Compiler._warn_unreachable),
    Pass("checked names", "check/namecheck.py, check/nameterms.py",
         "texts written where a name is expected; the names each `choose` offers", Compiler._check_names),
)

# What `Program.code` runs when a game first runs; the last gives the compiled code.
FIRST_RUN_PASSES: tuple[Pass, ...] = (
    Pass("direct functions", "gen/direct.py", "the agent path: phases with Python locals", Compiler._compile_direct),
    Pass("assembly", "gen/codegen.py, opt/lift.py, opt/kept_locals.py, opt/global_reads.py, budget/charge.py",
         "lift, kept locals, global reads, the prologue and the work charges over each function's lines, "
         "then `compile`", Compiler._assemble),
)


def compile_rules(world: World, files: list[A.RulesFile], start: str, start_span: Span,
                  used_elsewhere: tuple[str, ...] = (), abilities: tuple[AbilityCode, ...] = (),
                  check_only: bool = False) -> tuple[Program | None, list[Diagnostic]]:
    """Check and compile a game's rules files against its World.

    `used_elsewhere` names formulas the game's data refers to (e.g. for display), so they are
    not reported as unused. `check_only`: the same diagnostics and Program, sooner, leaving out
    what only makes the code better (inlining, folding, hoisting...); the code is then made, in
    full, by a compile of its own the first time something runs the Program.
    """
    return Compiler(world, files, start, start_span, used_elsewhere, abilities, check_only).compile()


def _compile_in_full(inputs: tuple[World, list[A.RulesFile], str, Span, tuple[str, ...], tuple[AbilityCode, ...]]
                     ) -> ProgramCode:
    """The code of a program that was only checked (its inputs gave no errors then, and give none now)."""
    program, diags = Compiler(*inputs).compile()
    if program is None:
        raise RuntimeError(f"rules checked clean fail to compile: {diags[:1]}")
    return program.code
