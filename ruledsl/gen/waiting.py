"""Statements that may wait for a player: a resumable phase is split into blocks at each of them
(checked before, in the same order, by `check/stmtwalk.py`)."""

from __future__ import annotations

import re

from .. import runtime_support as R
from ..budget.charge import BudgetMixin, Region
from ..budget.cost import Cost
from ..budget.exprcost import PAID
from ..check.scope import Scope
from ..diagnostics import Span
from ..opt.folding import dead_branches
from ..program import ChooseSpec
from ..runtime_support import MAX_DEPTH
from ..syntax import ast as A
from ..types import SEAT, Type
from .codegen import _fresh, _Function, _Loop, copy_code, flat

# A Python local of the direct form (`_l3`, or options held for a choice, `_o4`): reading it does
# nothing and cannot fail.
_PLAIN_VARIABLE = re.compile(r"_[lo]\d+")


class WaitingMixin(BudgetMixin):
    """`choose`, and the runs, ifs and loops that contain one, as blocks the engine can pause between."""

    def _suspending(self, s: A.Stmt, scope: Scope, fn: _Function, loops: list[_Loop]) -> None:
        emit = fn.emit
        if isinstance(s, A.Choose):
            self._choose(s, scope, fn)
        elif isinstance(s, A.Keep):
            self._keep(s, scope, fn, "resumable")
        elif isinstance(s, A.RunAbility):
            call = self._run_ability(s, scope)
            after = fn.new_block()
            emit(call, s.span)
            emit(f"return {after}", s.span)
            fn.switch(after)
        elif isinstance(s, A.Run):
            args = self._run_args(s, scope)
            self.regions[-1].runs[s.phase] += 1  # its work is charged here (budget.PhaseWork)
            phase = self.phases[s.phase]
            pairs = ", ".join(f"{p.name!r}: {a}" for p, a in zip(phase.params, args))
            after = fn.new_block()
            emit(f"c.call({s.phase!r}, {{{pairs}}})", s.span)
            emit(f"return {after}", s.span)
            fn.switch(after)
        elif isinstance(s, A.If):
            dead = dead_branches(s, self.exprs.resolver(scope))
            end = fn.new_block()
            for (cond, body), never in zip(s.branches, dead):
                test = self.exprs.cond(cond, scope)
                if never:  # can never run in this game (folding.py): not generated
                    self._dead(body, scope, loops, "resumable")
                    continue
                then = fn.new_block()
                emit(f"if {test}: return {then}", cond.span)
                nxt = fn.cur
                fn.switch(then)
                self._stmts(body, scope.child(), fn, loops, "resumable")
                fn.emit(f"return {end}", None)
                fn.switch(nxt)
                fn.depth = 1
            if s.orelse and dead[-1]:
                self._dead(s.orelse, scope, loops, "resumable")
            elif s.orelse:
                self._stmts(s.orelse, scope.child(), fn, loops, "resumable")
            fn.emit(f"return {end}", None)
            fn.switch(end)
        elif isinstance(s, A.While):
            loop = self._loop(s.span)
            head, body_b, end = fn.new_block(), fn.new_block(), fn.new_block()
            emit(f"return {head}", s.span)
            fn.switch(head)
            self.exprs.charges.begin()  # the condition's work, charged at every pass
            fn.emit(f"if not {self.exprs.cond(s.cond, scope)}: return {end}", s.span)
            condition = self.exprs.charges.end()
            fn.emit(f"return {body_b}", s.span)
            fn.switch(body_b)
            self._push_region(scope)
            self._stmts(s.body, scope.child(), fn, loops + [_Loop(False, end)], "resumable")
            self._charge_pass(fn, body_b, loop, s.span, self._pop_region(), condition)
            fn.emit(f"return {head}", None)
            fn.switch(end)
        elif isinstance(s, A.For):
            # The list is copied (a value the loop keeps across decisions); the copy is not counted,
            # as the direct form may not make it: the loop's passes are.
            it, t = self.exprs.expr(s.iter, scope)
            if not _fresh(s.iter, t):
                it = copy_code(it, t)
            loop = self._loop(s.span)
            k = scope.fresh("")
            seq, idx = f"L['$s{k}']", f"L['$i{k}']"
            head, body_b, end = fn.new_block(), fn.new_block(), fn.new_block()
            emit(f"{seq} = {it}", s.span)
            emit(f"{idx} = 0", s.span)
            emit(f"return {head}", s.span)
            fn.switch(head)
            inner = scope.child()
            var = self._declare(s.var, self.exprs.record.bound(s), s.span, inner, "loop")
            inner.vars[s.var].used = True
            fn.emit(f"if {idx} >= len({seq}): return {end}", s.span)
            fn.emit(f"{var} = {seq}[{idx}]", s.span)
            fn.emit(f"{idx} += 1", s.span)
            fn.emit(f"return {body_b}", s.span)
            fn.switch(body_b)
            self._push_region(inner)
            self._stmts(s.body, inner, fn, loops + [_Loop(False, end)], "resumable")
            self._charge_pass(fn, body_b, loop, s.span, self._pop_region(), None)
            fn.emit(f"return {head}", None)
            fn.switch(end)
        else:
            self._simple(s, scope, fn, loops, "resumable")

    def _choose(self, s: A.Choose, scope: Scope, fn: _Function) -> None:
        spec_id = len(self.chooses)
        self.choose_ids[id(s)] = spec_id
        # Prompts are text for people: built only when someone looks at the decision, never
        # on a bot's hot path. The prompt function sees the same locals as the choice.
        prompt_fn = f"_Q{spec_id}"
        if s.each_var is None:
            by, _ = self.exprs.expr(s.by, scope)
            opts, ot = self._kept(s.options, scope)
            prompt = self._prompt(s, scope)
            elem = ot.elem
            call = f"c.choose({spec_id}, L, {by}, {opts})"
            seat_param = "_seat"
            label_scope = scope
            # The same options as a function of the locals: a scenario's `setup` changes the state
            # a pending first decision was computed from, and asks for its options again.
            options_function = _Function(f"_O{spec_id}", f"c, L, {seat_param}")
            options_function.emit(f"return {opts}", s.options.span)
            self.functions.append(options_function)
        else:
            seats, _ = self.exprs.expr(s.by, scope)
            inner = Scope(scope, scope.persistent, scope.counter)
            sv = inner.declare(s.each_var, SEAT, "comp", s.span, comp=True)
            sv.used = True
            self.exprs.hoister.repeat += 1  # the options are computed once per seat ...
            self.exprs.charges.begin()      # ... and so is their work
            opts, ot = self._kept(s.options, inner)
            self.exprs.charges.charge_cost(self.exprs.charges.end().times(self._seat_count(s.by, seats, scope)))
            self.exprs.hoister.repeat -= 1
            prompt = self._prompt(s, inner)
            elem = ot.elem
            call = f"c.choose_each({spec_id}, L, {seats}, lambda {sv.code}: {opts})"
            seat_param = sv.code
            # The same options as a function of the locals and the seat: a bot sampling what it cannot
            # see asks the other seats again, with options that follow from the sampled state.
            options_function = _Function(f"_O{spec_id}", f"c, L, {seat_param}")
            options_function.emit(f"return {opts}", s.options.span)
            self.functions.append(options_function)
            label_scope = inner
        prompt_function = _Function(prompt_fn, f"c, L, {seat_param}")
        prompt_function.emit(f"return {prompt}", s.prompt.span if s.prompt else s.span)
        self.functions.append(prompt_function)
        label_fn = self._label_function(s, s.label, f"_L{spec_id}", elem, label_scope, seat_param)
        detail_fn = self._label_function(s, s.detail, f"_D{spec_id}", elem, label_scope, seat_param)
        nids = self.world.node_ids
        comps = self.world.ids_by_kind()
        self.chooses.append(ChooseSpec(s.var, R.make_formatter(elem, nids, comps),
                                       R.make_identifier(elem, nids, comps),
                                       s.secret, s.each_var is not None, s.span, prompt_fn, label_fn, elem,
                                       f"_O{spec_id}", detail_fn))
        self._declare(s.var, self.exprs.record.bound(s), s.span, scope)
        after = fn.new_block()
        fn.emit(call, s.span)
        fn.emit(f"return {after}", s.span)
        fn.switch(after)

    def _kept(self, e: A.Expr, scope: Scope) -> tuple[str, "Type"]:
        """Options kept in a pending decision: copied, the copy not counted (the direct form of the
        choice makes none, and both forms must count the same work)."""
        code, t = self.exprs.expr(e, scope)
        return (code if _fresh(e, t) else copy_code(code, t)), t

    def _seat_count(self, e: A.Expr, code: str, scope: Scope) -> int | str:
        """How many seats a simultaneous choice asks (for counting the work of their options)."""
        size = self.exprs.size_of(e, code, scope)
        return size if isinstance(size, int) or (isinstance(size, str) and size != PAID) else "c.nseats"

    def _prompt(self, s: A.Choose, scope: Scope) -> str:
        """The prompt's code (see _for_people)."""
        if s.prompt is None:
            return repr(f"Choose {s.var}")
        return self._for_people(s.prompt, scope)

    def _for_people(self, template: A.Template, scope: Scope) -> str:
        """A text shown only to people (a prompt, an option's label): in a function of its own, run
        only when someone looks, so it keeps no value (hoist.py) and counts no work (cost.py: the
        direct form of the choice has no such text, and both forms must count the same)."""
        self.exprs.hoister.off += 1
        self.exprs.charges.off += 1
        try:
            return self.exprs.template(template, scope)
        finally:
            self.exprs.hoister.off -= 1
            self.exprs.charges.off -= 1

    def _charge_pass(self, fn: _Function, body_block: int, loop: int, span: Span, body: Region,
                     condition: Cost | None) -> None:
        """Charge every pass of a loop that waits, as its body starts (as the direct form does)."""
        amount = " + ".join([body.amount(1 + (condition.static if condition else 0))]
                            + (condition.terms if condition else []))
        self._insert_charge(fn, body_block, 0, 1, amount, span, loop, bool(condition and condition.terms))

    # -- the agent path: decisions answered at once, inside one direct function per phase
    def _ask(self, s: A.Choose, scope: Scope, fn: _Function) -> None:
        """A choice put to the seat's picker; the answer is stored like the waiting form stores it."""
        spec_id = self.choose_ids[id(s)]
        if s.each_var is None:
            by, _ = self.exprs.expr(s.by, scope)
            opts, _ = self.exprs.expr(s.options, scope)
            var_type = self.exprs.record.bound(s)
            call = copy_code(self._ask_call(spec_id, by, opts, scope, fn, s.span), var_type)
        else:
            seats, _ = self.exprs.expr(s.by, scope)
            inner = Scope(scope, scope.persistent, scope.counter)
            sv = inner.declare(s.each_var, SEAT, "comp", s.span, comp=True)
            sv.used = True
            self.exprs.hoister.repeat += 1  # the options are computed once per seat ...
            self.exprs.charges.begin()      # ... and so is their work
            opts, ot = self.exprs.expr(s.options, inner)
            if not flat(ot.elem):  # elements that may be changed: copy like a stored value
                opts = copy_code(opts, ot)
            self.exprs.charges.charge_cost(self.exprs.charges.end().times(self._seat_count(s.by, seats, scope)))
            self.exprs.hoister.repeat -= 1
            var_type = self.exprs.record.bound(s)
            if seats == "c.seats" and flat(ot.elem) and not re.search(rf"\b{sv.code}\b", opts):
                # Every seat, the same plain options: computed once rather than once per seat.
                call = f"c.ask_all({spec_id}, {opts})"
            else:
                call = f"c.ask_each({spec_id}, {seats}, lambda {sv.code}: {opts})"
        fn.emit(f"{self._declare(s.var, var_type, s.span, scope)} = {call}", s.span)

    @staticmethod
    def _ask_call(spec_id: int, by: str, opts: str, scope: Scope, fn: _Function, span: Span) -> str:
        """`c.ask(...)`, with a single option taken at the call, as `c.ask` would take it.

        A turn often offers one thing only ("end your turn"); a call into the runtime for it costs
        more than the test. Only when the seat is a plain variable: the options are then computed
        first, in a statement of their own (so a list made by a comprehension becomes a loop,
        lift.py), and nothing the seat's code could do (fail) moves."""
        if not _PLAIN_VARIABLE.fullmatch(by):
            return f"c.ask({spec_id}, {by}, {opts})"
        if not _PLAIN_VARIABLE.fullmatch(opts):
            held = scope.fresh("o")
            fn.emit(f"{held} = {opts}", span)
            opts = held
        return f"({opts}[0] if len({opts}) == 1 else c.ask({spec_id}, {by}, {opts}))"

    def _direct_call(self, call: str, span: Span, fn: _Function) -> None:
        """Run a phase that may wait as a plain call, counted against the depth limit like a frame
        (unless no chain of such phases can come near it, callgraph.py)."""
        if self.depth_bounded:
            fn.emit(call, span)
            return
        fn.emit(f"if c.depth >= {MAX_DEPTH}: c.too_deep()", span)
        fn.emit("c.depth += 1", span)
        fn.emit(call, span)
        fn.emit("c.depth -= 1", span)

    def _label_function(self, s: A.Choose, template: A.Template | None, name: str, elem: Type, scope: Scope,
                        seat_param: str) -> str:
        """The function giving one option's text from the choice's `label` or `detail` template
        ("" without one); `_L`/`_D` names, apart from `by each` options' `_O` functions.

        Inside the template the choice's variable names the option being labelled, as it will
        name the answer after the choice; like the prompt, it runs only when a person looks.
        """
        if template is None:
            return ""
        inner = Scope(scope, False, scope.counter)
        option = inner.declare(s.var, elem, "comp", s.span, comp=True)
        option.used = True
        text = self._for_people(template, inner)
        function = _Function(name, f"c, L, {seat_param}, {option.code}")
        function.emit(f"return {text}", template.span)
        self.functions.append(function)
        return name
