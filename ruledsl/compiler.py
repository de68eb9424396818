"""Check a game's rules and compile them, once, into Python functions.

Statements that never wait for a player become plain Python code. A phase that contains a
`choose` (or runs a phase that does) is split into blocks at its waiting points; its position
(phase, block, locals) lives in the game state, so a game can pause, be saved and resume.
No text of a rule file reaches the generated source except through `repr()` of literal values
and names that the grammar has already restricted to identifiers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from . import ast as A
from . import runtime_support as R
from .emptiness import EmptyOptions
from .diagnostics import Diagnostic, DiagnosticBag, Span, an, did_you_mean
from .exprgen import BUILTINS, CONSTANTS, Code, Expressions
from .scope import Scope
from .types import (ANY, BOOL, INT, NONE, SEAT, Type, TypeSyntaxError, assignable, list_of, parse_type,
                    unify)
from .world import World

MODULE_NAME = "<rules>"


@dataclass(frozen=True)
class ChooseSpec:
    """Static facts about one `choose` statement."""

    var: str
    label: Callable[[Any, list[str]], str]   # an option's text for people
    ident: Callable[[Any], str]              # an option's stable id text (after "var:")
    secret: bool
    each: bool
    span: Span
    prompt_function: str = ""


@dataclass(frozen=True)
class AbilityCode:
    """An ability of a component kind: its parameters and, per item, the code written in its file."""

    kind: str
    ability: str
    params: tuple[A.Param, ...]          # declared in game.yaml; `this` comes first
    bodies: tuple[A.Phase | None, ...]   # by item index; copies share one body


@dataclass
class PhaseCode:
    """A compiled phase: a plain function, or resumable blocks run by the engine."""

    name: str
    params: list[str]
    resumable: bool
    function: Callable[..., Any] | None = None
    blocks: list[Callable[..., int]] = field(default_factory=list)


@dataclass
class Program:
    """Everything the engine needs to run a game's rules."""

    phases: dict[str, PhaseCode]
    chooses: list[ChooseSpec]
    loop_spans: list[Span]
    source: str
    line_spans: list[Span | None]
    prompts: list[Callable[..., str]] = field(default_factory=list)
    # name -> (function taking the runtime then the arguments, parameter types, result type)
    formulas: dict[str, tuple[Callable[..., Any], list[Type], Type]] = field(default_factory=dict)

    def span_of_line(self, lineno: int) -> Span | None:
        """Where in the rule files a line of generated code came from."""
        if 1 <= lineno <= len(self.line_spans):
            return self.line_spans[lineno - 1]
        return None


class _Function:
    """Lines of one generated function (or of the blocks of a resumable phase)."""

    def __init__(self, name: str, args: str, resumable: bool = False):
        self.name = name
        self.args = args
        self.resumable = resumable
        self.blocks: list[list[tuple[int, str, Span | None]]] = [[]]
        self.cur = 0
        self.depth = 1

    def emit(self, text: str, span: Span | None) -> None:
        self.blocks[self.cur].append((self.depth, text, span))

    def new_block(self) -> int:
        self.blocks.append([])
        return len(self.blocks) - 1

    def switch(self, block: int) -> None:
        self.cur = block
        self.depth = 1


@dataclass
class _Loop:
    native: bool
    end: int = -1


_FRESH = (A.ListLit, A.ListComp, A.MapLit, A.MapComp)
# A formula may compute with loops and its own variables, but never change the game.
_FORMULA_STATEMENTS = (A.Let, A.If, A.Return, A.Pass, A.For, A.While, A.Break, A.Assign, A.Add, A.Remove,
                       A.ExprStmt)


class Compiler:
    """Checks rules files against a World and produces a Program plus diagnostics."""

    def __init__(self, world: World, files: list[A.RulesFile], start: str, start_span: Span,
                 used_elsewhere: tuple[str, ...] = (), abilities: tuple[AbilityCode, ...] = ()):
        self.world = world
        self.diags = DiagnosticBag()
        self.exprs = Expressions(world, self.diags, self._formula_sig, lambda: list(self.formulas),
                                 self._inline_body)
        self.formulas: dict[str, A.Formula] = {}
        self.phases: dict[str, A.Phase] = {}
        self.start = start
        self.start_span = start_span
        self.functions: list[_Function] = []
        self.formula_done: dict[str, tuple[list[Type], Type, str]] = {}
        self.formula_busy: list[str] = []
        self.formula_used: set[str] = set(used_elsewhere)
        self.chooses: list[ChooseSpec] = []
        self.loop_spans: list[Span] = []
        self.resumable: set[str] = set()
        self.phase_fn: dict[str, str] = {}
        self.returns: list[Type] = []
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

    # ------------------------------------------------------------------ driver
    def compile(self) -> tuple[Program | None, list[Diagnostic]]:
        """Check and compile everything; the Program is None when there are errors."""
        if self.start not in self.phases and self.start in self.formulas:
            self.diags.error(self.start_span, "unknown-phase", f"the start '{self.start}' is a formula; "
                             "the game starts with a phase", did_you_mean(self.start, list(self.phases)))
        elif self.start not in self.phases:
            self.diags.error(self.start_span, "unknown-phase", f"the start phase '{self.start}' is not defined",
                             did_you_mean(self.start, list(self.phases)))
        elif self.phases[self.start].params:
            self.diags.error(self.phases[self.start].name_span, "arity",
                             f"the start phase '{self.start}' cannot take values: nothing runs it with any")
        self._find_resumable()
        for name in self.phases:
            self.phase_fn[name] = f"_P{len(self.phase_fn)}"
        for name, phase in self.phases.items():
            self._compile_phase(phase)
        for name in self.formulas:
            self._formula_sig(name, self.formulas[name].name_span, count_use=False)
        self._warn_unreachable()
        if self.diags.has_errors:
            return None, self.diags.items
        return self._assemble(), self.diags.items

    def _find_resumable(self) -> None:
        calls: dict[str, set[str]] = {}
        for name, phase in self.phases.items():
            found: set[str] = set()
            if _walk_has(phase.body, lambda s: isinstance(s, A.Choose)):
                self.resumable.add(name)
            _walk_collect(phase.body, lambda s: found.update(self._entered(s)))
            calls[name] = found
        changed = True
        while changed:
            changed = False
            for name, targets in calls.items():
                if name not in self.resumable and targets & self.resumable:
                    self.resumable.add(name)
                    changed = True
        self.calls = calls

    def _entered(self, s: A.Stmt) -> set[str]:
        """The phases one statement may enter."""
        if isinstance(s, A.Run):
            return {s.phase}
        if isinstance(s, A.RunAbility):
            return self._ability_targets(s.ability)
        # `turn(s)` without `run` is reported once as such, not again as an unreachable phase.
        if isinstance(s, A.ExprStmt) and isinstance(s.expr, A.Call) and s.expr.name in self.phases:
            return {s.expr.name}
        return set()

    def _ability_targets(self, ability: str) -> set[str]:
        """Every phase that `run <ability> of ...` may enter, whatever the kind."""
        return {n for (_, a), (_, names) in self.abilities.items() if a == ability for n in names if n}

    def _warn_unreachable(self) -> None:
        if self.start not in self.phases:
            return
        seen = {self.start}
        todo = [self.start]
        while todo:
            for target in self.calls.get(todo.pop(), ()):
                if target in self.phases and target not in seen:
                    seen.add(target)
                    todo.append(target)
        for name, phase in self.phases.items():
            if name not in seen and name not in self.ability_phases:
                self.diags.warning(phase.name_span, "unreachable-phase",
                                   f"phase '{name}' is never run from '{self.start}'")
        for name, formula in self.formulas.items():
            if name not in self.formula_used:
                self.diags.warning(formula.name_span, "unused", f"formula '{name}' is never used")

    # ---------------------------------------------------------------- formulas
    def _inline_body(self, name: str) -> tuple[list[str], A.Expr] | None:
        formula = self.formulas.get(name)
        if formula is None or formula.expr is None or name in self.formula_busy:
            return None
        return [p.name for p in formula.params], formula.expr

    def _params(self, params: tuple[A.Param, ...]) -> list[Type]:
        types = []
        for p in params:
            try:
                types.append(parse_type(p.type_text, self.world.components))
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

    # ------------------------------------------------------------------ phases
    def _compile_phase(self, phase: A.Phase) -> None:
        resumable = phase.name in self.resumable
        scope = Scope(None, persistent=resumable)
        args = self._declare_params(phase.params, self._params(phase.params), scope)
        if resumable:
            fn = _Function(self.phase_fn[phase.name], "c, L", resumable=True)
            self._stmts(phase.body, scope, fn, [], context="resumable")
            fn.emit("return -1", None)
        else:
            fn = _Function(self.phase_fn[phase.name], ", ".join(["c"] + args))
            self._stmts(phase.body, scope, fn, [], context="direct")
        self._warn_unused(scope)
        self._warn_empty_options(phase)
        self.functions.append(fn)

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

    def _warn_unused(self, scope: Scope) -> None:
        for var in scope.vars.values():
            if not var.used and var.kind == "local":
                self.diags.warning(var.span, "unused", f"'{var.name}' is set but never used")

    # -------------------------------------------------------------- statements
    def _suspends(self, s: A.Stmt) -> bool:
        return _walk_has((s,), lambda x: isinstance(x, A.Choose)
                         or (isinstance(x, A.Run) and x.phase in self.resumable)
                         or (isinstance(x, A.RunAbility) and bool(self._ability_targets(x.ability) & self.resumable)))

    def _stmts(self, stmts: tuple[A.Stmt, ...], scope: Scope, fn: _Function, loops: list[_Loop],
               context: str) -> None:
        start = len(fn.blocks[fn.cur])
        for s in stmts:
            if context == "formula" and not isinstance(s, _FORMULA_STATEMENTS):
                self.diags.error(s.span, "not-in-formula",
                                 "a formula only computes a value: it may use let, if, for, while and "
                                 "return on its own variables, but cannot change the game (use a phase)")
                continue
            if context == "formula" and isinstance(s, (A.Assign, A.Add, A.Remove)):
                target = s.target
                if not self._formula_local(target, scope):
                    self.diags.error(target.span, "not-in-formula",
                                     "a formula may only change its own variables (made with let), "
                                     "never the game or the values it was given")
                    continue
            if context == "resumable" and self._suspends(s):
                self._suspending(s, scope, fn, loops)
            else:
                self._simple(s, scope, fn, loops, context)
        if fn.cur == 0 and len(fn.blocks[fn.cur]) == start and context != "resumable":
            fn.emit("pass", None)

    def _body(self, stmts: tuple[A.Stmt, ...], scope: Scope, fn: _Function, loops: list[_Loop],
              context: str) -> None:
        """An indented Python block."""
        fn.depth += 1
        before = len(fn.blocks[fn.cur])
        cur = fn.cur
        child = scope.child()
        self._stmts(stmts, child, fn, loops, context)
        self._warn_unused(child)
        if fn.cur == cur and len(fn.blocks[fn.cur]) == before:
            fn.emit("pass", None)
        fn.depth -= 1

    def _value(self, e: A.Expr, scope: Scope) -> Code:
        """An expression whose value will be stored: containers are copied unless fresh."""
        code, t = self.exprs.expr(e, scope)
        if not _fresh(e, t):
            code = copy_code(code, t)
        return code, t

    def _declare(self, name: str, t: Type, span: Span, scope: Scope, kind: str = "local") -> str:
        self.exprs.no_shadow(name, span, scope)
        return scope.declare(name, t, kind, span).code

    def _simple(self, s: A.Stmt, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        emit = fn.emit
        if isinstance(s, A.Let):
            code, t = self._value(s.value, scope)
            if t.kind == "none":
                t = ANY
            emit(f"{self._declare(s.name, t, s.span, scope)} = {code}", s.span)
            if isinstance(s.value, A.ListLit) and not s.value.items and s.name in scope.vars:
                scope.vars[s.name].open_type = True
        elif isinstance(s, A.Assign):
            self._assign(s, scope, fn)
        elif isinstance(s, A.If):
            for i, (cond, body) in enumerate(s.branches):
                emit(f"{'if' if i == 0 else 'elif'} {self.exprs.cond(cond, scope)}:", cond.span)
                self._body(body, scope, fn, loops, context)
            if s.orelse:
                emit("else:", s.span)
                self._body(s.orelse, scope, fn, loops, context)
        elif isinstance(s, A.For):
            # Like the resumable form below: the loop runs over the list as it was when it began.
            # One level of copying is not enough (the body may change an inner list before the loop
            # reaches it), nor may calls be trusted (a formula may return a field's own list).
            it, t = self._value(s.iter, scope)
            self.exprs.check(t, ("list",), s.iter.span, "what a for loop runs over")
            inner = scope.child()
            var = self._declare(s.var, t.elem, s.span, inner, "loop")
            inner.vars[s.var].used = True
            emit(f"for {var} in {it}:", s.span)
            fn.depth += 1
            self._tick(s.span, fn)
            fn.depth -= 1
            self._body(s.body, inner, fn, loops + [_Loop(native=True)], context)
        elif isinstance(s, A.While):
            emit(f"while {self.exprs.cond(s.cond, scope)}:", s.span)
            fn.depth += 1
            self._tick(s.span, fn)
            fn.depth -= 1
            self._body(s.body, scope, fn, loops + [_Loop(native=True)], context)
        elif isinstance(s, A.Break):
            if not loops:
                self.diags.error(s.span, "break-outside-loop", "'break' is only allowed inside a loop")
            elif loops[-1].native:
                emit("break", s.span)
            else:
                emit(f"return {loops[-1].end}", s.span)
        elif isinstance(s, A.Return):
            self._return(s, scope, fn, context)
        elif isinstance(s, A.Pass):
            emit("pass", s.span)
        elif isinstance(s, A.RunAbility):
            call = self._run_ability(s, scope)
            if call:
                emit(call, s.span)
        elif isinstance(s, A.ExprStmt):
            self._bare_value(s, scope)
        elif isinstance(s, A.Run):
            args = self._run_args(s, scope)
            if s.phase in self.phases:
                emit(f"{self.phase_fn[s.phase]}(c{''.join(', ' + a for a in args)})", s.span)
        elif isinstance(s, A.End):
            code, t = self.exprs.expr(s.winners, scope)
            if not assignable(list_of(SEAT), t):
                self.diags.error(s.winners.span, "type", f"the winners must be a list of seats, not {t}")
            emit(f"c.end({code})", s.span)
        elif isinstance(s, A.Log):
            self._log(s, scope, fn)
        elif isinstance(s, A.Pay):
            self._pay(s, scope, fn)
        elif isinstance(s, A.Shuffle):
            code, _ = self._list_target(s.target, scope, "shuffle")
            emit(f"c.shuffle({code})", s.span)
        elif isinstance(s, A.Roll):
            code, t = self.exprs.expr(s.source, scope)
            self.exprs.check(t, ("list",), s.source.span, "what a roll draws from")
            var = self._declare(s.var, t.elem, s.span, scope)
            emit(f"{var} = {copy_code(f'c.roll({code})', t.elem)}", s.span)
        elif isinstance(s, A.Draw):
            code, t = self._list_target(s.source, scope, "draw from")
            var = self._declare(s.var, t.elem, s.span, scope)
            emit(f"{var} = _draw({code})", s.span)
        elif isinstance(s, A.Add):
            self._settle_type(s.target, s.value, scope, element=True)
            code, t = self._list_target(s.target, scope, "add to")
            value, vt = self._value(s.value, scope)
            if not assignable(t.elem, vt):
                self.diags.error(s.value.span, "type", f"cannot add {an(vt)} to a list of {t.elem}")
            emit(f"{code}.append({value})", s.span)
        elif isinstance(s, A.Remove):
            code, t = self._list_target(s.target, scope, "remove from")
            value, _ = self.exprs.expr(s.value, scope)
            emit(f"_remove({code}, {value})", s.span)
        elif isinstance(s, A.Choose):
            self.diags.error(s.span, "choose-not-allowed", "'choose' cannot be used here")
        else:  # pragma: no cover - the grammar has no other statements
            self.diags.error(s.span, "internal", f"unsupported statement {type(s).__name__}")

    def _type_of(self, e: A.Expr, scope: Scope) -> Type:
        """The type of an expression, without reporting anything (it is checked where it is used)."""
        saved = self.diags
        self.diags = self.exprs.diags = DiagnosticBag()
        try:
            return self.exprs.expr(e, scope)[1]
        finally:
            self.diags = self.exprs.diags = saved

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

    def _tick(self, span: Span, fn: _Function) -> None:
        self.loop_spans.append(span)
        fn.emit("c.steps -= 1", span)
        fn.emit(f"if c.steps < 0: c.runaway({len(self.loop_spans) - 1})", span)

    def _return(self, s: A.Return, scope: Scope, fn: _Function, context: str) -> None:
        if context == "formula":
            if s.value is None:
                self.diags.error(s.span, "no-return", "a formula's return needs a value")
                return
            code, t = self.exprs.expr(s.value, scope)
            self.returns.append(t)
            fn.emit(f"return {code}", s.span)
            return
        if s.value is not None:
            self.diags.error(s.value.span, "return-value", "a phase's return takes no value",
                             "compute values with a formula")
        fn.emit("return -1" if context == "resumable" else "return", s.span)

    def _bare_value(self, s: A.ExprStmt, scope: Scope) -> None:
        """A value alone on a line does nothing: say what the designer probably meant."""
        e = s.expr
        if isinstance(e, A.Call) and e.name in self.phases:
            self.diags.error(e.span, "no-effect", f"'{e.name}' is a phase: start it with 'run'",
                             f"write: run {e.name}(...)")
            return
        self._value(e, scope)
        if isinstance(e, A.Call) and e.name in self.formulas:
            self.diags.error(e.span, "formula-as-statement",
                             f"formula '{e.name}' computes a value, which is thrown away here: "
                             "a formula cannot change the game",
                             f"keep the value with let x = {e.name}(...), or make it a phase and run it")
        elif isinstance(e, A.Call):
            self.diags.error(e.span, "formula-as-statement",
                             f"'{e.name}(...)' computes a value, which is thrown away here",
                             f"keep the value: let x = {e.name}(...)")
        elif isinstance(e, A.BinOp) and e.op == "==":
            self.diags.error(e.span, "no-effect", "this comparison is computed and then thrown away",
                             "to store a value, write '=' instead of '=='")
        else:
            self.diags.error(e.span, "no-effect", "this value is computed and then thrown away",
                             "a line must do something: let, an assignment, run, log, choose...")

    def _run_args(self, s: A.Run, scope: Scope) -> list[str]:
        phase = self.phases.get(s.phase)
        if phase is None and s.phase in self.formulas:
            self.diags.error(s.name_span, "formula-as-statement",
                             f"'{s.phase}' is a formula: it computes a value, and 'run' starts a phase",
                             f"use its value, e.g. let x = {s.phase}(...)")
            self.formula_used.add(s.phase)
            return []
        if phase is None:
            self.diags.error(s.name_span, "unknown-phase", f"no phase called '{s.phase}'",
                             did_you_mean(s.phase, list(self.phases)))
            return []
        types = self._params(phase.params)
        if len(s.args) != len(types):
            self.diags.error(s.span, "arity", f"phase '{s.phase}' takes {len(types)} value(s), got {len(s.args)}")
        codes = []
        for arg, t in zip(s.args, types):
            code, at = self._value(arg, scope)
            if not assignable(t, at):
                self.diags.error(arg.span, "type", f"phase '{s.phase}' expects {t} here, not {at}")
            codes.append(code)
        return codes

    def _run_ability(self, s: A.RunAbility, scope: Scope) -> str | None:
        """Code that runs an item's ability (nothing when that item has none)."""
        target, t = self.exprs.expr(s.target, scope)
        found = self.abilities.get((t.kind, s.ability))
        if found is None:
            known = [a for (k, a) in self.abilities if k == t.kind]
            if t.kind not in self.world.components:
                self.diags.error(s.target.span, "type", f"only components have abilities, not {an(t)}")
            else:
                self.diags.error(s.name_span, "unknown-name", f"{an(t.kind)} has no ability '{s.ability}'",
                                 did_you_mean(s.ability, known) or (f"abilities: {', '.join(known)}" if known else None))
            return None
        code, names = found
        params = code.params[1:]
        if len(s.args) != len(params):
            self.diags.error(s.span, "arity", f"ability '{s.ability}' takes {len(params)} value(s) after 'with', "
                             f"got {len(s.args)}")
            return None
        pairs = [f"{code.params[0].name!r}: {target}"]
        for p, arg in zip(params, s.args):
            value, vt = self._value(arg, scope)
            try:
                pt = parse_type(p.type_text, self.world.components)
            except TypeSyntaxError:
                pt = ANY
            if not assignable(pt, vt):
                self.diags.error(arg.span, "type", f"ability '{s.ability}' expects {pt} for '{p.name}', not {vt}")
            pairs.append(f"{p.name!r}: {value}")
        table = self.exprs.const("ability", f"{t.kind}.{s.ability}", names)
        return f"c.run_ability({table}[{target}], {{{', '.join(pairs)}}})"

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
                self.diags.error(s.value.span, "type", f"cannot store {an(vt)} where {an(tt)} belongs")
            fn.emit(f"{target} = {value}", s.span)
        else:
            self.exprs.check(tt, ("int",), s.target.span, f"the target of '{s.op}'")
            self.exprs.check(vt, ("int",), s.value.span, f"the value of '{s.op}'")
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

    def _pay(self, s: A.Pay, scope: Scope, fn: _Function) -> None:
        verb = "pay" if s.is_payment else "gain"
        if not (isinstance(s.target, A.Attr)):
            self.diags.error(s.target.span, "type", f"{verb} needs a seat's field, like s.money")
            return
        seat, st = self.exprs.expr(s.target.obj, scope)
        if st.kind == "seat" and s.target.name not in self.world.seat_fields:
            self.diags.error(s.target.name_span, "unknown-field", f"seats have no field '{s.target.name}'",
                             did_you_mean(s.target.name, list(self.world.seat_fields)))
            return
        if st.kind != "seat":
            self.diags.error(s.target.span, "type", f"{verb} needs a seat's number field, like s.money",
                             did_you_mean(s.target.name, list(self.world.seat_fields)))
            return
        f = self.world.seat_fields[s.target.name]
        if f.type.kind != "int":
            self.diags.error(s.target.span, "type", f"'{f.name}' is {f.type}; {verb} needs a number field")
        amount, at = self.exprs.expr(s.amount, scope)
        self.exprs.check(at, ("int",), s.amount.span, f"the amount to {verb}")
        fn.emit(f"c.transfer({seat}, {f.name!r}, {amount}, {s.is_payment})", s.span)

    def _log(self, s: A.Log, scope: Scope, fn: _Function) -> None:
        fields = []
        seats = []
        for name, e in s.fields:
            code, t = self.exprs.expr(e, scope)
            ids_by_kind = self.world.ids_by_kind()
            to_data = R.make_data(t, ids_by_kind)
            if t.kind in ids_by_kind and not t.nullable:
                # The common case, inline: logging happens on every step of a simulation.
                fields.append(f"{name!r}: {self.exprs.const('ids', t.kind, ids_by_kind[t.kind])}[{code}]")
            elif to_data is not None:
                fields.append(f"{name!r}: {self.exprs.const('data', str(t), to_data)}({code})")
            else:
                fields.append(f"{name!r}: {copy_code(code, t)}")
            if t.kind == "seat":
                seats.append(f"[{code}]")
            elif t.kind == "list" and t.elem.kind == "seat":
                seats.append(f"list({code})")
        text = self.exprs.template(s.text, scope)
        to = "None"
        if s.to is not None:
            code, t = self.exprs.expr(s.to, scope)
            if t.kind == "seat":
                to = f"[{code}]"
            elif t.kind == "list" and t.elem.kind in ("seat", "any"):
                to = f"list({code})"
            else:
                self.diags.error(s.to.span, "type", f"a log line goes to a seat or a list of seats, not {t}")
        seat_code = " + ".join(seats) if seats else "[]"
        fn.emit(f"c.log({s.kind!r}, {{{', '.join(fields)}}}, {seat_code}, {text}, {to})", s.span)

    # ------------------------------------------------- statements that can wait
    def _suspending(self, s: A.Stmt, scope: Scope, fn: _Function, loops: list[_Loop]) -> None:
        emit = fn.emit
        if isinstance(s, A.Choose):
            self._choose(s, scope, fn)
        elif isinstance(s, A.RunAbility):
            call = self._run_ability(s, scope)
            after = fn.new_block()
            if call:
                emit(call, s.span)
            emit(f"return {after}", s.span)
            fn.switch(after)
        elif isinstance(s, A.Run):
            args = self._run_args(s, scope)
            phase = self.phases[s.phase]
            pairs = ", ".join(f"{p.name!r}: {a}" for p, a in zip(phase.params, args))
            after = fn.new_block()
            emit(f"c.call({s.phase!r}, {{{pairs}}})", s.span)
            emit(f"return {after}", s.span)
            fn.switch(after)
        elif isinstance(s, A.If):
            end = fn.new_block()
            for cond, body in s.branches:
                then = fn.new_block()
                emit(f"if {self.exprs.cond(cond, scope)}: return {then}", cond.span)
                nxt = fn.cur
                fn.switch(then)
                child = scope.child()
                self._stmts(body, child, fn, loops, "resumable")
                self._warn_unused(child)
                fn.emit(f"return {end}", None)
                fn.switch(nxt)
                fn.depth = 1
            if s.orelse:
                child = scope.child()
                self._stmts(s.orelse, child, fn, loops, "resumable")
                self._warn_unused(child)
            fn.emit(f"return {end}", None)
            fn.switch(end)
        elif isinstance(s, A.While):
            head, body_b, end = fn.new_block(), fn.new_block(), fn.new_block()
            emit(f"return {head}", s.span)
            fn.switch(head)
            self._tick(s.span, fn)
            fn.emit(f"if not {self.exprs.cond(s.cond, scope)}: return {end}", s.span)
            fn.emit(f"return {body_b}", s.span)
            fn.switch(body_b)
            child = scope.child()
            self._stmts(s.body, child, fn, loops + [_Loop(False, end)], "resumable")
            self._warn_unused(child)
            fn.emit(f"return {head}", None)
            fn.switch(end)
        elif isinstance(s, A.For):
            it, t = self._value(s.iter, scope)
            self.exprs.check(t, ("list",), s.iter.span, "what a for loop runs over")
            k = scope.fresh("")
            seq, idx = f"L['$s{k}']", f"L['$i{k}']"
            head, body_b, end = fn.new_block(), fn.new_block(), fn.new_block()
            emit(f"{seq} = {it}", s.span)
            emit(f"{idx} = 0", s.span)
            emit(f"return {head}", s.span)
            fn.switch(head)
            inner = scope.child()
            var = self._declare(s.var, t.elem, s.span, inner, "loop")
            inner.vars[s.var].used = True
            fn.emit(f"if {idx} >= len({seq}): return {end}", s.span)
            fn.emit(f"{var} = {seq}[{idx}]", s.span)
            fn.emit(f"{idx} += 1", s.span)
            fn.emit(f"return {body_b}", s.span)
            fn.switch(body_b)
            self._stmts(s.body, inner, fn, loops + [_Loop(False, end)], "resumable")
            self._warn_unused(inner)
            fn.emit(f"return {head}", None)
            fn.switch(end)
        else:
            self._simple(s, scope, fn, loops, "resumable")

    def _choose(self, s: A.Choose, scope: Scope, fn: _Function) -> None:
        spec_id = len(self.chooses)
        # Prompts are text for people: built only when someone looks at the decision, never
        # on a bot's hot path. The prompt function sees the same locals as the choice.
        prompt_fn = f"_Q{spec_id}"
        if s.each_var is None:
            by, bt = self.exprs.expr(s.by, scope)
            self.exprs.check(bt, ("seat",), s.by.span, "who chooses")
            opts, ot = self._value(s.options, scope)
            prompt = self.exprs.template(s.prompt, scope) if s.prompt else repr(f"Choose {s.var}")
            self.exprs.check(ot, ("list",), s.options.span, "the options of a choice")
            elem = ot.elem
            var_type = elem
            call = f"c.choose({spec_id}, L, {by}, {opts})"
            seat_param = "_seat"
        else:
            seats, st = self.exprs.expr(s.by, scope)
            if not assignable(list_of(SEAT), st):
                self.diags.error(s.by.span, "type", f"'each' runs over a list of seats, not {st}")
            inner = Scope(scope, scope.persistent, scope.counter)
            self.exprs.no_shadow(s.each_var, s.span, scope)
            sv = inner.declare(s.each_var, SEAT, "comp", s.span, comp=True)
            sv.used = True
            opts, ot = self._value(s.options, inner)
            self.exprs.check(ot, ("list",), s.options.span, "the options of a choice")
            prompt = self.exprs.template(s.prompt, inner) if s.prompt else repr(f"Choose {s.var}")
            elem = ot.elem
            var_type = list_of(elem.or_none())
            call = f"c.choose_each({spec_id}, L, {seats}, lambda {sv.code}: {opts})"
            seat_param = sv.code
        prompt_function = _Function(prompt_fn, f"c, L, {seat_param}")
        prompt_function.emit(f"return {prompt}", s.prompt.span if s.prompt else s.span)
        self.functions.append(prompt_function)
        nids = self.world.node_ids
        comps = self.world.ids_by_kind()
        self.chooses.append(ChooseSpec(s.var, R.make_formatter(elem, nids, comps),
                                       R.make_identifier(elem, nids, comps),
                                       s.secret, s.each_var is not None, s.span, prompt_fn))
        self._declare(s.var, var_type, s.span, scope)
        after = fn.new_block()
        fn.emit(call, s.span)
        fn.emit(f"return {after}", s.span)
        fn.switch(after)

    # ---------------------------------------------------------------- assembly
    def _assemble(self) -> Program:
        lines: list[str] = []
        spans: list[Span | None] = []
        block_names: dict[str, list[str]] = {}
        for fn in self.functions:
            if fn.resumable:
                names = []
                for i, block in enumerate(fn.blocks):
                    name = f"{fn.name}_b{i}"
                    names.append(name)
                    lines.append(f"def {name}(c, L):")
                    spans.append(None)
                    body = block or [(1, "return -1", None)]
                    if not body or not body[-1][1].startswith("return"):
                        body = body + [(1, "return -1", None)]
                    lines.append("    " + _prologue(body))
                    spans.append(None)
                    for depth, text, span in body:
                        lines.append("    " * depth + text)
                        spans.append(span)
                block_names[fn.name] = names
            else:
                lines.append(f"def {fn.name}({fn.args}):")
                spans.append(None)
                lines.append("    " + _prologue(fn.blocks[0]))
                spans.append(None)
                for depth, text, span in fn.blocks[0]:
                    lines.append("    " * depth + text)
                    spans.append(span)
        source = "\n".join(lines) + "\n"
        namespace: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS}
        namespace.update(_HELPERS)
        namespace.update(self.exprs.consts)
        namespace["_adj"] = self.world.adjacency
        namespace["_nid"] = self.world.node_ids
        namespace["_nids"] = tuple(str(n) for n in self.world.node_ids)
        code = compile(source, MODULE_NAME, "exec")
        exec(code, namespace)  # noqa: S102 - generated from the checked tree, see module docstring
        phases: dict[str, PhaseCode] = {}
        for name, phase in self.phases.items():
            fname = self.phase_fn[name]
            params = [p.name for p in phase.params]
            if name in self.resumable:
                phases[name] = PhaseCode(name, params, True,
                                         blocks=[namespace[b] for b in block_names[fname]])
            else:
                phases[name] = PhaseCode(name, params, False, function=namespace[fname])
        prompts = [namespace[spec.prompt_function] for spec in self.chooses]
        formulas = {name: (namespace[fn], params, ret) for name, (params, ret, fn) in self.formula_done.items()}
        return Program(phases, self.chooses, self.loop_spans, source, spans, prompts, formulas)


# Values that are never changed in place: sharing them is safe (tuples cannot be changed).
_FLAT = ("int", "str", "bool", "seat", "node", "none", "tuple")


def _fresh(e: A.Expr, t: Type) -> bool:
    """A new container that shares nothing: a literal or comprehension of plain values.

    `[grid[0], grid[1]]` is new, but its elements are grid's own lists: it must still be copied.
    """
    if isinstance(e, A.ListLit) and not e.items or isinstance(e, A.MapLit) and not e.pairs:
        return True
    if not isinstance(e, _FRESH):
        return False
    elem = t.args[0] if t.kind == "list" else t.args[1] if t.kind == "map" else ANY
    return elem.kind in _FLAT


def copy_code(code: str, t: Type) -> str:
    """Python that copies a value about to be stored, so no two places share a list or map.

    The static type says how deep the copy must go: a list of plain values needs one level.
    """
    if t.kind == "list" and t.args[0].kind in _FLAT:
        return f"{code}[:]"
    if t.kind == "map" and t.args[1].kind in _FLAT:
        return f"dict({code})"
    if t.kind == "list" and t.args[0].kind == "list" and t.args[0].args[0].kind in _FLAT:
        return f"[_x[:] for _x in {code}]"
    if t.kind in ("list", "map", "any"):
        return f"_dc({code})"
    return code


def _has_none(t: Type) -> bool:
    """Does a type still have a part known only as none (so a later value may tell more)?"""
    return t.kind == "none" or any(_has_none(a) for a in t.args)


def _prologue(body: list[tuple[int, str, Span | None]]) -> str:
    """Bind only the state columns a function reads: most formulas need one or none."""
    text = "\n".join(line for _, line, _ in body)
    binds = [f"{v} = c.{v}" for v in ("S", "N", "V", "C") if f"{v}[" in text]
    return "; ".join(binds) if binds else "pass"


def _walk_has(stmts: tuple[A.Stmt, ...], pred: Callable[[A.Stmt], bool]) -> bool:
    for s in stmts:
        if pred(s) or any(_walk_has(body, pred) for body in A.child_blocks(s)):
            return True
    return False


def _walk_collect(stmts: tuple[A.Stmt, ...], visit: Callable[[A.Stmt], None]) -> None:
    for s in stmts:
        visit(s)
        for body in A.child_blocks(s):
            _walk_collect(body, visit)


def _reversed(items: list[Any]) -> list[Any]:
    return items[::-1]


_SAFE_BUILTINS = {"len": len, "sum": sum, "any": any, "all": all, "abs": abs, "sorted": sorted,
                  "list": list, "str": str, "dict": dict, "True": True, "False": False, "None": None}
_HELPERS: dict[str, Any] = {
    "_dc": R.deep_copy, "_draw": R.draw, "_remove": R.remove, "_max": R.rmax, "_min": R.rmin,
    "_range": R.rrange, "_unique": R.unique, "_index": R.index_of, "_div": R.div, "_mod": R.mod,
    "_reversed": _reversed, "_follow": R.follow,
}


def compile_rules(world: World, files: list[A.RulesFile], start: str, start_span: Span,
                  used_elsewhere: tuple[str, ...] = (),
                  abilities: tuple[AbilityCode, ...] = ()) -> tuple[Program | None, list[Diagnostic]]:
    """Check and compile a game's rules files against its World.

    `used_elsewhere` names formulas the game's data refers to (e.g. for display), so they are
    not reported as unused.
    """
    return Compiler(world, files, start, start_span, used_elsewhere, abilities).compile()
