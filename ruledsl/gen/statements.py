"""Statements that never wait for a player, checked before (`check/stmtwalk.py`): turned into plain
Python lines, with the types the type-checking walk recorded."""

from __future__ import annotations

from .. import runtime_support as R
from ..budget.charge import BudgetMixin, Region, charge_lines
from ..budget.cost import LOG_STEPS, SEARCH_STEPS, Cost
from ..budget.exprcost import PAID
from ..check.scope import Scope
from ..check.stmtwalk import KEPT
from ..diagnostics import Span
from ..opt.folding import dead_branches
from ..opt.hoist import cells
from ..opt.mutation import changed_names
from ..syntax import ast as A
from ..types import Type
from .codegen import _fresh, _Function, _Loop, copy_code, flat
from .exprgen import COUNT_WORK_ON, Code


class StatementsMixin(BudgetMixin):
    """Phases and the statements in them, one Python line or block each."""

    def _compile_phase(self, phase: A.Phase) -> None:
        """Compile a phase once (a phase whose value is kept is compiled when first met)."""
        if phase.name in self.phase_compiled or phase.name in self.phase_busy:
            return
        self.phase_busy.append(phase.name)
        resumable = phase.name in self.resumable
        scope = Scope(None, persistent=resumable)
        args = self._declare_params(phase.params, self._params(phase.params), scope)
        if resumable:
            fn = _Function(self.phase_fn[phase.name], "c, L", resumable=True)
            self._phase_body(phase, scope, fn, "resumable")
            if self.phase_results[phase.name] is not None:
                # Read by the phase that ran this one: no value left over from a phase run inside.
                fn.emit("c.returned = None", None)
            fn.emit("return -1", None)
        else:
            fn = _Function(self.phase_fn[phase.name], ", ".join(["c"] + args))
            self._phase_body(phase, scope, fn, "direct")
        self.functions.append(fn)
        self.phase_compiled.add(phase.name)
        self.phase_busy.pop()

    def _phase_body(self, phase: A.Phase, scope: Scope, fn: _Function, context: str) -> None:
        """A phase's statements; running the phase counts one step plus the work known now."""
        hoisting = self.exprs.hoister.begin_function(None)
        self.changed.append(changed_names(phase.body))
        # Work read from lists that exist when the phase starts is charged then, the rest by each
        # statement (both compiled forms of a phase that waits decide alike: see Region.takes).
        self._push_region(scope)
        self._stmts(phase.body, scope, fn, [], context)
        self._charge_phase(fn, phase.name, self._pop_region())
        self.changed.pop()
        self.exprs.hoister.end_function(hoisting)

    def _stmts(self, stmts: tuple[A.Stmt, ...], scope: Scope, fn: _Function, loops: list[_Loop],
               context: str) -> None:
        start = len(fn.blocks[fn.cur])
        for s in stmts:
            # Values kept while the statement runs (hoist.py) get their cells just before it, and
            # its work known only at run time is charged there (cost.py).
            block, pos, depth = fn.cur, len(fn.blocks[fn.cur]), fn.depth
            saved = self.exprs.begin_statement(scope)
            if context == "resumable" and self._suspends(s):
                self.exprs.hoister.off += 1
                self._suspending(s, scope, fn, loops)
                self.exprs.hoister.off -= 1
            else:
                self._simple(s, scope, fn, loops, context)
            temps, cost = self.exprs.end_statement(saved)
            lines: list[tuple[int, str, Span | None]] = [
                (depth, line, None) for line in cells(temps, [x for _, x, _ in fn.blocks[block][pos:]])] \
                if temps else []
            region = self.regions[-1]
            late = [t for t in cost.terms if not region.takes(t)]  # the rest is charged with the region
            region.terms.extend(t for t in cost.terms if region.takes(t))
            if late and COUNT_WORK_ON():
                lines += [(depth, line, s.span) for line in charge_lines(" + ".join(late), None, True)]
            fn.blocks[block][pos:pos] = lines
            region.add(cost.static, s.span)
        if fn.cur == 0 and len(fn.blocks[fn.cur]) == start and context != "resumable":
            fn.emit("pass", None)

    def _body(self, stmts: tuple[A.Stmt, ...], scope: Scope, fn: _Function, loops: list[_Loop],
              context: str) -> None:
        """An indented Python block."""
        fn.depth += 1
        before = len(fn.blocks[fn.cur])
        cur = fn.cur
        self._stmts(stmts, scope.child(), fn, loops, context)
        if fn.cur == cur and len(fn.blocks[fn.cur]) == before:
            fn.emit("pass", None)
        fn.depth -= 1

    def _value(self, e: A.Expr, scope: Scope, may_share: bool = False) -> Code:
        """An expression whose value will be stored: containers are copied unless fresh (or, when
        `may_share` says the name it goes to may share it, unless they are table data)."""
        code, t = self.exprs.expr(e, scope)
        if isinstance(e, A.Name) and e.name == KEPT:  # a phase's value (copied by its return) or an amount
            return code, t
        if may_share:
            return code, t
        if _fresh(e, t) or copy_code(code, t) == code:
            return code, t
        code = self.exprs.counted(e, code, scope)  # a copy visits every element
        if isinstance(e, A.Call) and e.name in self.fresh_results \
                and copy_code(code, t) in (f"{code}[:]", f"dict({code})"):
            return code, t  # a list the formula made for this call: nobody else holds it (fresh_results.py)
        return copy_code(code, t), t

    def _may_share(self, name: str, e: A.Expr, scope: Scope) -> bool:
        """May the variable `name`, given e's value, share it instead of holding a copy? When the value
        is table data, which no rule changes, and the name is never changed in place; not for the
        locals of a phase that waits, which live in the state (saved, copied, shown to bots)."""
        return not scope.persistent and name not in self.changed[-1] \
            and self.mutations.table_data(e, lambda var: scope.lookup(var) is not None)

    def _declare(self, name: str, t: Type, span: Span, scope: Scope, kind: str = "local") -> str:
        return scope.declare(name, t, kind, span).code

    def _simple(self, s: A.Stmt, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        """A statement that does not wait, by its kind (`_STATEMENTS` names each kind's method)."""
        getattr(self, _STATEMENTS[type(s)])(s, scope, fn, loops, context)

    def _let(self, s: A.Let, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        code, _ = self._value(s.value, scope, may_share=self._may_share(s.name, s.value, scope))
        t = self.exprs.record.bound(s)
        fn.emit(f"{self._declare(s.name, t, s.span, scope)} = {code}", s.span)
        if t.kind == "list" and s.name in scope.vars and s.name not in self.changed[-1]:
            scope.vars[s.name].max_len = self.exprs.max_len(s.value, scope)

    def _assign_stmt(self, s: A.Assign, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        self._assign(s, scope, fn)

    def _if(self, s: A.If, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        dead = dead_branches(s, self.exprs.resolver(scope))
        for i, (cond, body) in enumerate(s.branches):
            fn.emit(f"{'if' if i == 0 else 'elif'} {self.exprs.cond(cond, scope)}:", cond.span)
            self._branch(body, dead[i], scope, fn, loops, context)
        if s.orelse:
            fn.emit("else:", s.span)
            self._branch(s.orelse, dead[-1], scope, fn, loops, context)

    def _while(self, s: A.While, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        loop = self._loop(s.span)
        self.exprs.hoister.off += 1  # the condition is computed again at every pass ...
        self.exprs.charges.begin()   # ... and its work is charged at every pass
        fn.emit(f"while {self.exprs.cond(s.cond, scope)}:", s.span)
        condition = self.exprs.charges.end()
        self.exprs.hoister.off -= 1
        self._loop_body(s, scope, fn, loops, context, loop, condition, scope)

    def _break(self, s: A.Break, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        if loops[-1].native:
            fn.emit("break", s.span)
        else:
            fn.emit(f"return {loops[-1].end}", s.span)

    def _return_stmt(self, s: A.Return, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        self._return(s, scope, fn, context)

    def _pass(self, s: A.Pass, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        fn.emit("pass", s.span)

    def _run_ability_stmt(self, s: A.RunAbility, scope: Scope, fn: _Function, loops: list[_Loop],
                          context: str) -> None:
        fn.emit(self._run_ability(s, scope), s.span)

    def _run(self, s: A.Run, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        args = self._run_args(s, scope)
        if s.phase in self.phases:
            self.regions[-1].runs[s.phase] += 1  # its work is charged here (budget.PhaseWork)
            call = f"{self.phase_fn[s.phase]}{{}}(c{''.join(', ' + a for a in args)})"
            if context == "agent" and s.phase in self.resumable:
                self._direct_call(call.format("_d"), s.span, fn)
            else:
                fn.emit(call.format(""), s.span)

    def _end(self, s: A.End, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        code, _ = self.exprs.expr(s.winners, scope)
        fn.emit(f"c.end({code})", s.span)

    def _log_stmt(self, s: A.Log, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        self._log(s, scope, fn)

    def _pay_stmt(self, s: A.Pay, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        self._pay(s, scope, fn)

    def _shuffle(self, s: A.Shuffle, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        code, _ = self.exprs.expr(s.target, scope)
        # Shuffling costs a few draws of the generator per element, not one step.
        fn.emit(f"c.shuffle({self.exprs.counted(s.target, code, scope, Cost(3))})", s.span)

    def _roll_stmt(self, s: A.Roll, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        self._roll(s, scope, fn)

    def _draw(self, s: A.Draw, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        code, _ = self.exprs.expr(s.source, scope)
        self.exprs.charges.charge(SEARCH_STEPS)  # taking the first element moves the others
        var = self._declare(s.var, self.exprs.record.bound(s), s.span, scope)
        fn.emit(f"{var} = _draw({code})", s.span)

    def _add(self, s: A.Add, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        code, _ = self.exprs.expr(s.target, scope)
        value, _ = self._value(s.value, scope)
        if COUNT_WORK_ON() and (context in ("resumable", "agent") or not self._local(s.target, scope)):
            # A list that outlives a decision could grow without end; a function's own list
            # cannot grow more within a decision than the work budget allows.
            fn.emit(f"if len({code}) >= {R.LIST_LIMIT}: c.too_long()", s.span)
        fn.emit(f"{code}.append({value})", s.span)

    def _remove(self, s: A.Remove, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        code, t = self.exprs.expr(s.target, scope)
        value, _ = self.exprs.expr(s.value, scope)
        self.exprs.charges.charge(SEARCH_STEPS)  # searches the list
        fn.emit(f"_remove({code}, {value})", s.span)

    def _keep_stmt(self, s: A.Keep, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        self._keep(s, scope, fn, context)

    def _choose_here(self, s: A.Choose, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        """A `choose` in a function that cannot wait: only the bots' direct path asks there (the type
        walk reports one anywhere else)."""
        self._ask(s, scope, fn)

    def _roll(self, s: A.Roll, scope: Scope, fn: _Function) -> None:
        """`roll face from die`, or `roll 2 faces from die` (a list of that many draws)."""
        code, t = self.exprs.expr(s.source, scope)
        if s.count is None:
            shared = self._may_share(s.var, s.source, scope)  # a face of table data, as a `let` shares it
            var = self._declare(s.var, self.exprs.record.bound(s), s.span, scope)
            fn.emit(f"{var} = {f'c.roll({code})' if shared else copy_code(f'c.roll({code})', t.elem)}", s.span)
            return
        self.exprs.in_iterable += 1  # (the count goes in a comprehension's range)
        count, _ = self.exprs.expr(s.count, scope)
        self.exprs.in_iterable -= 1
        faces, each = scope.fresh("r"), scope.fresh("r")
        var = self._declare(s.var, self.exprs.record.bound(s), s.span, scope)
        fn.emit(f"{faces} = {code}", s.span)
        fn.emit(f"{var} = [{copy_code(f'c.roll({faces})', t.elem)} for {each} in _range(c, {count})]", s.span)


    def _branch(self, body: tuple[A.Stmt, ...], dead: bool, scope: Scope, fn: _Function, loops: list[_Loop],
                context: str) -> None:
        """A branch of an `if`; one that can never run in this game is not generated (see _dead)."""
        if not dead:
            self._body(body, scope, fn, loops, context)
            return
        self._dead(body, scope, loops, context)
        fn.depth += 1
        fn.emit("pass", None)
        fn.depth -= 1

    def _dead(self, body: tuple[A.Stmt, ...], scope: Scope, loops: list[_Loop], context: str) -> None:
        """A block that can never run (folding.py): none of its code or work is kept.

        The type walk checked it as the phase would be if the block could run (the block may wait).
        Its code is still made, as the walk checked it, into a function that is thrown away: what
        that numbers on the way (constants, loops, choices and their functions) is numbered as it
        was when this walk also checked the rules, so the code of the rest is the same.
        """
        if context == "agent":  # the waiting form numbered it already
            return
        sink = _Function("_dead", "c, L", resumable=True)
        self._push_region()
        self.exprs.charges.off += 1
        self.exprs.hoister.off += 1
        self._stmts(body, scope.child(), sink, loops, "formula" if context == "formula" else "resumable")
        self.exprs.hoister.off -= 1
        self.exprs.charges.off -= 1
        self._pop_region()

    def _local(self, e: A.Expr, scope: Scope) -> bool:
        """Is this a part of a variable of the running function (not of the game's state)?"""
        while isinstance(e, (A.Attr, A.Index)):
            e = e.obj
        return isinstance(e, A.Name) and scope.lookup(e.name) is not None

    def _for(self, s: A.For, scope: Scope, fn: _Function, loops: list[_Loop], context: str) -> None:
        """A native for loop, charged for all its passes when it starts (see budget/charge.py)."""
        it, t = self.exprs.read(s.iter, scope)
        waits = context == "agent" and self._suspends(s)  # charged per pass, as its waiting form
        size = None if waits else self.exprs.size_of(s.iter, it, scope)
        # Like the resumable form: the loop runs over the list as it was when it began. One level
        # of copying is not enough (the body may change an inner list before the loop reaches
        # it), nor may calls be trusted (a formula may return a field's own list). No copy is
        # needed when the body cannot change that list (mutation.py).
        if self.mutations.loop_needs_copy(s, t.kind == "list" and flat(t.elem)) and not _fresh(s.iter, t):
            it = copy_code(it, t)
        loop = self._loop(s.span)
        block, pos, depth = fn.cur, len(fn.blocks[fn.cur]), fn.depth
        guarded = True  # the length is read before the statement reads the list
        if not waits and not isinstance(size, (int, str)) or size == PAID:
            temp = scope.fresh("t")  # its length is known once it is made
            fn.emit(f"{temp} = {it}", s.span)
            it, size, pos, guarded = temp, f"len({temp})", pos + 1, False
        inner = scope.child()
        var = self._declare(s.var, self.exprs.record.bound(s), s.span, inner, "loop")
        inner.vars[s.var].used = True
        fn.emit(f"for {var} in {it}:", s.span)
        # Charged when the loop starts (the loop's variable is not there yet), or at each pass.
        body = self._loop_body(s, inner, fn, loops, context, loop if waits else None, None,
                               inner if waits else scope)
        if waits:
            return
        # Named when the budget runs out: this loop, or the loop in its body doing most of the work.
        span, blamed = (body.span, body.loop) if body.steps > 1 and body.loop is not None else (s.span, loop)
        if isinstance(size, int) and not body.terms:
            self.regions[-1].add_loop(size, body, span, blamed)
            return
        per = body.amount(1)
        amount = f"({size}) * ({per})" if body.terms else f"({size}) * {per}"
        if guarded and self.regions[-1].takes(amount):  # charged with the enclosing body
            self.regions[-1].terms.append(amount)
            self.regions[-1].add(0, span, blamed)
        else:
            self._insert_charge(fn, block, pos, depth, amount, span, blamed, guarded or bool(body.terms))

    def _loop_body(self, s: A.For | A.While, scope: Scope, fn: _Function, loops: list[_Loop], context: str,
                   tick: int | None, condition: Cost | None, start: Scope) -> Region:
        """A loop's body in its own region (whose charge reads the variables of `start`); `tick`:
        the loop whose passes are each charged (with the condition's work, for a while loop)."""
        block, pos = fn.cur, len(fn.blocks[fn.cur])
        self._push_region(start)
        self.exprs.hoister.loops += 1
        self._body(s.body, scope, fn, loops + [_Loop(native=True)], context)
        self.exprs.hoister.loops -= 1
        region = self._pop_region()
        if tick is not None:
            amount = " + ".join([region.amount(1 + (condition.static if condition else 0))]
                                + (condition.terms if condition else []))
            self._insert_charge(fn, block, pos, fn.depth + 1, amount, s.span, tick,
                                bool(region.terms or condition and condition.terms))
        return region

    def _return(self, s: A.Return, scope: Scope, fn: _Function, context: str) -> None:
        if context == "formula":
            assert s.value is not None  # (the type walk reports a formula's return without one)
            code, _ = self.exprs.expr(s.value, scope)
            fn.emit(f"return {code}", s.span)
            return
        if s.value is None:
            fn.emit("return -1" if context == "resumable" else "return", s.span)
            return
        code, _ = self._value(s.value, scope)
        if context == "resumable":
            fn.emit(f"c.returned = {code}", s.span)
            fn.emit("return -1", s.span)
        else:
            fn.emit(f"return {code}", s.span)

    def _run_args(self, s: A.Run, scope: Scope) -> list[str]:
        """The code of the values a phase is run with."""
        types = self._params(self.phases[s.phase].params)
        return [self._value(arg, scope)[0] for arg, _ in zip(s.args, types)]

    def _run_ability(self, s: A.RunAbility, scope: Scope) -> str:
        """Code that runs an item's ability (nothing when that item has none)."""
        target, t = self.exprs.expr(s.target, scope)
        code, names = self.abilities[(t.kind, s.ability)]
        pairs = [f"{code.params[0].name!r}: {target}"]
        for p, arg in zip(code.params[1:], s.args):
            value, _ = self._value(arg, scope)
            pairs.append(f"{p.name!r}: {value}")
        table = self.exprs.const("ability", f"{t.kind}.{s.ability}", names)
        return f"c.run_ability({table}[{target}], {{{', '.join(pairs)}}})"

    def _pay(self, s: A.Pay, scope: Scope, fn: _Function) -> None:
        fn.emit(self._pay_code(s, scope, kept=False), s.span)

    def _pay_code(self, s: A.Pay, scope: Scope, kept: bool) -> str:
        """The code of a pay or gain; `kept`: it gives the amount paid."""
        assert isinstance(s.target, A.Attr)  # (the type walk reports any other target)
        seat, _ = self.exprs.expr(s.target.obj, scope)
        name = s.target.name
        amount, _ = self.exprs.expr(s.amount, scope)
        if s.up_to or kept:
            return f"_pay(c, {seat}, {name!r}, {amount}, {s.up_to})"
        return f"c.transfer({seat}, {name!r}, {amount}, {s.is_payment})"

    def _log(self, s: A.Log, scope: Scope, fn: _Function) -> None:
        # A log line counts LOG_STEPS, log or no log. The work of building it is done only when the
        # log is kept (never in simulations, where nobody reads it), so it is counted against the
        # budget while it runs and then given back: the game is the same either way.
        self.exprs.charges.charge(LOG_STEPS)
        self.exprs.charges.begin()
        self.exprs.hoister.off += 1  # nothing worth keeping in a line built once, and only sometimes
        call = self._log_call(s, scope)
        self.exprs.hoister.off -= 1
        work = self.exprs.charges.end()
        fn.emit("if c.logging:", s.span)
        fn.depth += 1
        fn.emit("_s = c.steps", s.span)
        if (work.static or work.terms) and COUNT_WORK_ON():
            for line in charge_lines(" + ".join([str(work.static)] + work.terms), None, bool(work.terms)):
                fn.emit(line, s.span)
        fn.emit(call, s.span)
        fn.emit("c.steps = _s", s.span)
        fn.depth -= 1

    def _log_call(self, s: A.Log, scope: Scope) -> str:
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
                self.event_seats.setdefault(s.kind, set()).add(name)
            elif t.kind == "list" and t.elem.kind == "seat":
                seats.append(f"list({code})")
                self.event_seats.setdefault(s.kind, set()).add(name)
        text = self.exprs.template(s.text, scope)
        to = "None"
        if s.to is not None:
            code, t = self.exprs.expr(s.to, scope)
            to = f"[{code}]" if t.kind == "seat" else f"list({code})"
        seat_code = " + ".join(seats) if seats else "[]"
        return f"c.log({s.kind!r}, {{{', '.join(fields)}}}, {seat_code}, {text}, {to})"


# Each statement that does not wait, by its kind: the StatementsMixin method that generates it. (A
# value alone on a line is never generated: the type walk reports every one.)
_STATEMENTS: dict[type[A.Stmt], str] = {
    A.Let: "_let", A.Assign: "_assign_stmt", A.If: "_if", A.For: "_for", A.While: "_while",
    A.Break: "_break", A.Return: "_return_stmt", A.Pass: "_pass", A.RunAbility: "_run_ability_stmt",
    A.Run: "_run", A.End: "_end", A.Log: "_log_stmt", A.Pay: "_pay_stmt",
    A.Shuffle: "_shuffle", A.Roll: "_roll_stmt", A.Draw: "_draw", A.Add: "_add", A.Remove: "_remove",
    A.Keep: "_keep_stmt", A.Choose: "_choose_here",
}
