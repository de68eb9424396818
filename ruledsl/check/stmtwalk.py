"""The type-checking walk of statements: each statement's checks, in scopes of the walk's own.

Every statement of a phase, formula or ability body is checked here, in the order the rules are
written, with its expressions walked by `exprwalk.py` (their types recorded) and the names it
makes declared in the walk's scopes; every diagnostic of a statement is reported here. What the
code generation needs besides the expressions' types is recorded too: the type of the variable a
statement makes (`TypeRecord.bound`). A phase that may wait is checked in the order of its
waiting form (`gen/waiting.py`); a branch that can never run in this game (`opt/folding.py`) is
checked as if it could, in the waiting form, though no code is made for it.
"""

from __future__ import annotations

from ..check.scope import Scope, Var
from ..compiler_base import CompilerBase
from ..diagnostics import DiagnosticBag, Span, an, did_you_mean
from ..opt.folding import dead_branches, scope_resolver
from ..syntax import ast as A
from ..types import ANY, INT, SEAT, Type, TypeSyntaxError, assignable, list_of, parse_type, unify
from .exprtypes import CONSTANTS, disagree

# A formula may compute with loops and its own variables, but never change the game.
FORMULA_STATEMENTS = (A.Let, A.If, A.Return, A.Pass, A.For, A.While, A.Break, A.Assign, A.Add, A.Remove,
                      A.ExprStmt)
# The name under which a statement's kept value is read while it is stored: no rules text can write it.
KEPT = "<kept>"


class StatementChecksMixin(CompilerBase):
    """Each kind of statement's checks; `loops` counts the loops around a statement."""

    def _check_stmts(self, stmts: tuple[A.Stmt, ...], scope: Scope, loops: int, context: str) -> None:
        """Statements of a phase ("direct", or "resumable" when it may wait) or of a formula ("formula")."""
        for s in stmts:
            if context == "formula" and not isinstance(s, FORMULA_STATEMENTS):
                self.diags.error(s.span, "not-in-formula",
                                 "a formula only computes a value: it may use let, if, for, while and "
                                 "return on its own variables, but cannot change the game (use a phase)")
                continue
            if context == "formula" and isinstance(s, (A.Assign, A.Add, A.Remove)):
                target = s.target
                if not _formula_local(target, scope):
                    self.diags.error(target.span, "not-in-formula",
                                     "a formula may only change its own variables (made with let), "
                                     "never the game or the values it was given")
                    continue
            if context == "resumable" and self._suspends(s):
                self._check_waiting(s, scope, loops)
            else:
                getattr(self, _CHECKS[type(s)])(s, scope, loops, context)

    def _check_body(self, stmts: tuple[A.Stmt, ...], scope: Scope, loops: int, context: str) -> None:
        """An indented block, in a scope of its own."""
        child = scope.child()
        self._check_stmts(stmts, child, loops, context)
        self._warn_unused(child)

    def _check_dead(self, body: tuple[A.Stmt, ...], scope: Scope, loops: int, context: str) -> None:
        """A block that can never run in this game: checked as the phase would be if it could run (the
        block may wait)."""
        self._check_body(body, scope, loops, "formula" if context == "formula" else "resumable")

    def _warn_unused(self, scope: Scope) -> None:
        for var in scope.vars.values():
            if not var.used and var.kind == "local":
                self.diags.warning(var.span, "unused", f"'{var.name}' is set but never used")

    def _declare_checked(self, name: str, t: Type, span: Span, scope: Scope, kind: str = "local") -> Var:
        """A name the rules make: it may not hide another."""
        self.types.no_shadow(name, span, scope)
        return scope.declare(name, t, kind, span)

    def _typed(self, e: A.Expr, scope: Scope) -> Type:
        """Walk e; its type, `any` where an error left it none."""
        t = self.walk.type_of(e, scope)
        return t if t is not None else ANY

    def _type_of(self, e: A.Expr, scope: Scope) -> Type:
        """The type of an expression, without reporting anything (it is checked where it is used)."""
        saved = self.diags
        self.diags = self.types.diags = DiagnosticBag()
        try:
            return self._typed(e, scope)
        finally:
            self.diags = self.types.diags = saved

    # ------------------------------------------------------------- statements that never wait
    def _check_let(self, s: A.Let, scope: Scope, loops: int, context: str) -> None:
        t = self._typed(s.value, scope)
        if t.kind == "none":
            t = ANY
        var = self._declare_checked(s.name, t, s.span, scope)
        self.walk.record.note_bound(s, t)
        self.types.carry(scope.vars.get(s.name), s.value)
        if isinstance(s.value, A.ListLit) and not s.value.items:
            var.open_type = True

    def _check_assign(self, s: A.Assign, scope: Scope, loops: int, context: str) -> None:
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
        tt = self._typed(s.target, scope)
        vt = self._typed(s.value, scope)
        if s.op == "=":
            if not assignable(tt, vt):
                self.diags.error(s.value.span, "type", f"cannot store {an(vt)} where {an(tt)} belongs",
                                 related=self.types.explain(s.value.span, vt))
        else:
            self.types.check(tt, ("int",), s.target.span, f"the target of '{s.op}'")
            self.types.check(vt, ("int",), s.value.span, f"the value of '{s.op}'")

    def _check_if(self, s: A.If, scope: Scope, loops: int, context: str) -> None:
        dead = dead_branches(s, scope_resolver(scope, self.world))
        for i, (cond, body) in enumerate(s.branches):
            self.walk.condition(cond, scope)
            self._check_branch(body, dead[i], scope, loops, context)
        if s.orelse:
            self._check_branch(s.orelse, dead[-1], scope, loops, context)

    def _check_branch(self, body: tuple[A.Stmt, ...], dead: bool, scope: Scope, loops: int, context: str) -> None:
        if dead:
            self._check_dead(body, scope, loops, context)
        else:
            self._check_body(body, scope, loops, context)

    def _check_while(self, s: A.While, scope: Scope, loops: int, context: str) -> None:
        self.walk.condition(s.cond, scope)
        self._check_body(s.body, scope, loops + 1, context)

    def _check_for(self, s: A.For, scope: Scope, loops: int, context: str) -> None:
        t = self._typed(s.iter, scope)
        self.types.check(t, ("list",), s.iter.span, "what a for loop runs over")
        inner = scope.child()
        self._declare_checked(s.var, t.elem, s.span, inner, "loop").used = True
        self.walk.record.note_bound(s, t.elem)
        self._check_body(s.body, inner, loops + 1, context)

    def _check_break(self, s: A.Break, scope: Scope, loops: int, context: str) -> None:
        if not loops:
            self.diags.error(s.span, "break-outside-loop", "'break' is only allowed inside a loop")

    def _check_return(self, s: A.Return, scope: Scope, loops: int, context: str) -> None:
        if s.value is None:
            if context == "formula":
                self.diags.error(s.span, "no-return", "a formula's return needs a value")
            else:
                self.bare_returns.append(s.span)
            return
        t = self._typed(s.value, scope)
        what = "formula" if context == "formula" else "phase"
        other = next((r for r in self.returns if disagree(r, t)), None)
        if other is not None:
            # Unified, the two would make `any`, and the mistake would surface where the value is
            # used, or only in play: it is reported where it is made.
            self.diags.error(s.value.span, "type", f"this return gives {an(t)}, where an earlier return of the "
                             f"{what} gives {an(other)}", f"every return of a {what} gives the same type")
        self.returns.append(t)

    def _check_pass(self, s: A.Pass, scope: Scope, loops: int, context: str) -> None:
        pass

    def _check_run_ability(self, s: A.RunAbility, scope: Scope, loops: int = 0, context: str = "") -> None:
        t = self._typed(s.target, scope)
        found = self.abilities.get((t.kind, s.ability))
        if found is None:
            known = [a for (k, a) in self.abilities if k == t.kind]
            if t.kind not in self.world.components:
                self.diags.error(s.target.span, "type", f"only components have abilities, not {an(t)}")
            else:
                self.diags.error(s.name_span, "unknown-name", f"{an(t.kind)} has no ability '{s.ability}'",
                                 did_you_mean(s.ability, known) or (f"abilities: {', '.join(known)}" if known else None))
            return
        code, _ = found
        params = code.params[1:]
        if len(s.args) != len(params):
            self.diags.error(s.span, "arity", f"ability '{s.ability}' takes {len(params)} value(s) after 'with', "
                             f"got {len(s.args)}")
            return
        for p, arg in zip(params, s.args):
            vt = self._typed(arg, scope)
            try:
                pt = parse_type(p.type_text, self.world.components, self.world.name_sets)
            except TypeSyntaxError:
                pt = ANY
            if not assignable(pt, vt):
                self.diags.error(arg.span, "type", f"ability '{s.ability}' expects {pt} for '{p.name}', not {vt}",
                                 related=self.types.explain(arg.span, vt))

    def _check_bare_value(self, s: A.ExprStmt, scope: Scope, loops: int, context: str) -> None:
        """A value alone on a line does nothing: say what the designer probably meant."""
        e = s.expr
        if isinstance(e, A.Call) and e.name in self.phases:
            self.diags.error(e.span, "no-effect", f"'{e.name}' is a phase: start it with 'run'",
                             f"write: run {e.name}(...)")
            return
        found_before = len(self.diags.items)
        self._typed(e, scope)
        if isinstance(e, A.Name) and len(self.diags.items) > found_before:
            return  # an unknown word alone on a line (`continue`): its own message says it all
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

    def _check_run(self, s: A.Run, scope: Scope, loops: int = 0, context: str = "") -> None:
        phase = self.phases.get(s.phase)
        if phase is None and s.phase in self.formulas:
            self.diags.error(s.name_span, "formula-as-statement",
                             f"'{s.phase}' is a formula: it computes a value, and 'run' starts a phase",
                             f"use its value, e.g. let x = {s.phase}(...)")
            self.formula_used.add(s.phase)
            return
        if phase is None:
            self.diags.error(s.name_span, "unknown-phase", f"no phase called '{s.phase}'",
                             did_you_mean(s.phase, list(self.phases)))
            return
        types = self._param_types(phase.params)
        if len(s.args) != len(types):
            self.diags.error(s.span, "arity", f"phase '{s.phase}' takes {len(types)} value(s), got {len(s.args)}")
        for arg, t in zip(s.args, types):
            at = self._typed(arg, scope)
            if not assignable(t, at):
                self.diags.error(arg.span, "type", f"phase '{s.phase}' expects {t} here, not {at}",
                                 related=self.types.explain(arg.span, at))

    def _check_end(self, s: A.End, scope: Scope, loops: int, context: str) -> None:
        t = self._typed(s.winners, scope)
        if not assignable(list_of(SEAT), t):
            self.diags.error(s.winners.span, "type", f"the winners must be a list of seats, not {t}",
                             related=self.types.explain(s.winners.span, t))

    def _check_log(self, s: A.Log, scope: Scope, loops: int, context: str) -> None:
        for _, e in s.fields:
            self._typed(e, scope)
        self.walk.template(s.text, scope)
        if s.to is not None:
            t = self._typed(s.to, scope)
            if t.kind != "seat" and not (t.kind == "list" and t.elem.kind in ("seat", "any")):
                self.diags.error(s.to.span, "type", f"a log line goes to a seat or a list of seats, not {t}",
                                 related=self.types.explain(s.to.span, t))

    def _check_pay(self, s: A.Pay, scope: Scope, loops: int = 0, context: str = "") -> None:
        verb = "pay" if s.is_payment else "gain"
        if not (isinstance(s.target, A.Attr)):
            self.diags.error(s.target.span, "type", f"{verb} needs a seat's field, like s.money")
            return
        st = self._typed(s.target.obj, scope)
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
        at = self._typed(s.amount, scope)
        self.types.check(at, ("int",), s.amount.span, f"the amount to {verb}")

    def _check_shuffle(self, s: A.Shuffle, scope: Scope, loops: int, context: str) -> None:
        self._check_list_target(s.target, scope, "shuffle")

    def _check_roll(self, s: A.Roll, scope: Scope, loops: int, context: str) -> None:
        """`roll face from die`, or `roll 2 faces from die` (a list of that many draws)."""
        t = self._typed(s.source, scope)
        self.types.check(t, ("list",), s.source.span, "what a roll draws from")
        made = t.elem
        if s.count is not None:
            ct = self._typed(s.count, scope)
            self.types.check(ct, ("int",), s.count.span, "how many to roll")
            made = list_of(t.elem)
        self._declare_checked(s.var, made, s.span, scope)
        self.walk.record.note_bound(s, made)

    def _check_draw(self, s: A.Draw, scope: Scope, loops: int, context: str) -> None:
        t = self._check_list_target(s.source, scope, "draw from")
        self._declare_checked(s.var, t.elem, s.span, scope)
        self.walk.record.note_bound(s, t.elem)

    def _check_add(self, s: A.Add, scope: Scope, loops: int, context: str) -> None:
        self._settle_type(s.target, s.value, scope, element=True)
        t = self._check_list_target(s.target, scope, "add to")
        vt = self._typed(s.value, scope)
        if not assignable(t.elem, vt):
            self.diags.error(s.value.span, "type", f"cannot add {an(vt)} to a list of {t.elem}",
                             related=self.types.explain(s.value.span, vt))

    def _check_remove(self, s: A.Remove, scope: Scope, loops: int, context: str) -> None:
        self._check_list_target(s.target, scope, "remove from")
        self._typed(s.value, scope)

    def _check_choose_here(self, s: A.Choose, scope: Scope, loops: int, context: str) -> None:
        self.diags.error(s.span, "choose-not-allowed", "'choose' cannot be used here")

    # ------------------------------------------------------------- what may be changed
    def _check_list_target(self, e: A.Expr, scope: Scope, what: str) -> Type:
        """A list the statement changes: writable, and a list (its type; a list of any after an error)."""
        why = self._writable(e, scope)
        t = self._typed(e, scope)
        if why:
            self.diags.error(e.span, "read-only", why)
        if t.kind not in ("list", "any"):
            self.diags.error(e.span, "type", f"can only {what} a list, not {an(t)}")
            return list_of(ANY)
        return t

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

    # ------------------------------------------------------------- statements that may wait
    def _check_waiting(self, s: A.Stmt, scope: Scope, loops: int) -> None:
        """A statement of a phase that may wait, that waits or holds one that does."""
        if isinstance(s, A.Choose):
            self._check_choose(s, scope)
        elif isinstance(s, A.Keep):
            self._check_keep(s, scope, loops, "resumable")
        elif isinstance(s, A.RunAbility):
            self._check_run_ability(s, scope)
        elif isinstance(s, A.Run):
            self._check_run(s, scope)
        elif isinstance(s, A.If):
            dead = dead_branches(s, scope_resolver(scope, self.world))
            for (cond, body), never in zip(s.branches, dead):
                self.walk.condition(cond, scope)
                if never:
                    self._check_dead(body, scope, loops, "resumable")
                else:
                    self._check_body(body, scope, loops, "resumable")
            if s.orelse:
                self._check_branch(s.orelse, dead[-1], scope, loops, "resumable")
        elif isinstance(s, A.While):
            self.walk.condition(s.cond, scope)
            self._check_body(s.body, scope, loops + 1, "resumable")
        elif isinstance(s, A.For):
            t = self._typed(s.iter, scope)
            self.types.check(t, ("list",), s.iter.span, "what a for loop runs over")
            inner = scope.child()
            self._declare_checked(s.var, t.elem, s.span, inner, "loop").used = True
            self.walk.record.note_bound(s, t.elem)
            self._check_stmts(s.body, inner, loops + 1, "resumable")
            self._warn_unused(inner)
        else:
            getattr(self, _CHECKS[type(s)])(s, scope, loops, "resumable")

    def _check_choose(self, s: A.Choose, scope: Scope) -> None:
        """Who chooses, the options (a list), the prompt, labels and details; the chosen value's name."""
        if s.each_var is None:
            self.types.check(self._typed(s.by, scope), ("seat",), s.by.span, "who chooses")
            ot = self._typed(s.options, scope)
            if s.prompt is not None:
                self.walk.template(s.prompt, scope)
            self.types.check(ot, ("list",), s.options.span, "the options of a choice")
            var_type, label_scope = ot.elem, scope
        else:
            st = self._typed(s.by, scope)
            if not assignable(list_of(SEAT), st):
                self.diags.error(s.by.span, "type", f"'each' runs over a list of seats, not {st}",
                                 related=self.types.explain(s.by.span, st))
            inner = Scope(scope, scope.persistent, [0])
            self.types.no_shadow(s.each_var, s.span, scope)
            inner.declare(s.each_var, SEAT, "comp", s.span, comp=True).used = True
            ot = self._typed(s.options, inner)
            self.types.check(ot, ("list",), s.options.span, "the options of a choice")
            if s.prompt is not None:
                self.walk.template(s.prompt, inner)
            var_type, label_scope = list_of(ot.elem.or_none()), inner
        for template in (s.label, s.detail):
            if template is not None:
                # The choice's variable names the option being labelled.
                option = Scope(label_scope, False, [0])
                option.declare(s.var, ot.elem, "comp", s.span, comp=True).used = True
                self.walk.template(template, option)
        self._declare_checked(s.var, var_type, s.span, scope)
        self.walk.record.note_bound(s, var_type)

    # ------------------------------------------------------------- statements that give a value
    def _check_keep(self, s: A.Keep, scope: Scope, loops: int, context: str) -> None:
        """`let NAME = STATEMENT` or `TARGET = STATEMENT`: the statement, then the value stored."""
        stmt = s.stmt
        if isinstance(stmt, A.RunAbility):
            self._check_run_ability(stmt, scope)
            self.diags.error(stmt.span, "no-return", "an ability gives back no value",
                             "run the ability on its own line; a phase can give back a value with return")
            self._check_store(s, ANY, scope)  # the variable exists: no second error where it is used
            return
        if isinstance(stmt, A.Pay):
            self._check_pay(stmt, scope)
            self._check_store(s, INT, scope)
            return
        self._check_run(stmt, scope)
        result = self._phase_result_type(stmt.phase) if stmt.phase in self.phases else ANY
        if result is None:
            self.diags.error(stmt.name_span, "no-return", f"phase '{stmt.phase}' gives back no value",
                             "end it with 'return VALUE', or run it on its own line")
        self._check_store(s, ANY if result is None else result, scope)

    def _check_store(self, s: A.Keep, t: Type, scope: Scope) -> None:
        """`let`/assign as written, with the statement's value (of type t) in place of an expression."""
        scope.vars[KEPT] = Var(KEPT, t, "", "local", s.stmt.span, used=True)
        try:
            stored = self._kept_form(s)
            if isinstance(stored, A.Let):
                self._check_let(stored, scope, 0, "direct")
            else:
                assert isinstance(stored, A.Assign)
                self._check_assign(stored, scope, 0, "direct")
        finally:
            del scope.vars[KEPT]

    def _kept_form(self, s: A.Keep) -> A.Let | A.Assign:
        """The `let` or assignment that stores a kept statement's value (read as the name KEPT): one
        tree per statement, so that both walks see the same nodes."""
        found = self.kept_forms.get(id(s))
        if found is None or found[0] is not s:
            value = A.Name(s.stmt.span, KEPT)
            stored: A.Let | A.Assign = A.Let(s.span, s.target.name, value) \
                if s.op == "let" and isinstance(s.target, A.Name) else A.Assign(s.span, s.target, s.op, value)
            found = self.kept_forms[id(s)] = (s, stored)
        return found[1]


def _formula_local(e: A.Expr, scope: Scope) -> bool:
    """Is this a part of a variable the formula made with let?"""
    while isinstance(e, (A.Attr, A.Index)):
        e = e.obj
    if not isinstance(e, A.Name):
        return False
    var = scope.lookup(e.name)
    return var is not None and var.kind == "local"


def _has_none(t: Type) -> bool:
    """Does a type still have a part known only as none (so a later value may tell more)?"""
    return t.kind == "none" or any(_has_none(a) for a in t.args)


# Each statement that does not wait, by its kind: the method that checks it.
_CHECKS: dict[type[A.Stmt], str] = {
    A.Let: "_check_let", A.Assign: "_check_assign", A.If: "_check_if", A.For: "_check_for",
    A.While: "_check_while", A.Break: "_check_break", A.Return: "_check_return", A.Pass: "_check_pass",
    A.RunAbility: "_check_run_ability", A.ExprStmt: "_check_bare_value", A.Run: "_check_run", A.End: "_check_end",
    A.Log: "_check_log", A.Pay: "_check_pay", A.Shuffle: "_check_shuffle", A.Roll: "_check_roll",
    A.Draw: "_check_draw", A.Add: "_check_add", A.Remove: "_check_remove", A.Keep: "_check_keep",
    A.Choose: "_check_choose_here",
}
