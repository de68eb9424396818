"""Statements that give a value, kept with `let` or an assignment: `let n = run roll_dice(s)`,
`paid = pay up to rent from s.money`.

A phase gives back a value with `return VALUE`. A phase that never waits is a plain function and
returns it; a phase that may wait runs as frames on the engine's stack, so its `return VALUE` leaves
the value in the runtime (`c.returned`) just before its frame is popped, and the phase that ran it
reads it in the block that resumes right after: nothing else runs in between, and nothing is kept
in the state (no choice can come between the two). On the agent path (direct.py) a phase that may
wait is a plain function too: its direct function returns the value.
"""

from __future__ import annotations

from ..budget.charge import BudgetMixin
from ..runtime_support import MAX_DEPTH
from ..syntax import ast as A
from ..types import ANY, INT, Type
from .codegen import _Function
from .scope import Scope, Var

# The name under which the value is read while it is stored: no rules text can write it.
KEPT = "<kept>"


class KeptMixin(BudgetMixin):
    """`let NAME = STATEMENT` and `TARGET = STATEMENT` for the statements that give a value."""

    def _phase_result(self, name: str) -> Type | None:
        """The type of the value a phase gives back (None: it gives none), compiling it if needed."""
        if name in self.phase_busy:
            return ANY  # a phase whose value is kept while it runs itself: known when it is done
        if name not in self.phase_results:
            self._compile_phase(self.phases[name])
        return self.phase_results.get(name)

    def _keep(self, s: A.Keep, scope: Scope, fn: _Function, context: str) -> None:
        """Run the statement and store its value. `context` "resumable": the phase run may wait for a
        choice (it runs as frames); "agent": it is run by its direct function."""
        stmt = s.stmt
        if isinstance(stmt, A.RunAbility):
            self._run_ability(stmt, scope)
            self.diags.error(stmt.span, "no-return", "an ability gives back no value",
                             "run the ability on its own line; a phase can give back a value with return")
            self._store(s, "None", ANY, scope, fn)  # the variable exists: no second error where it is used
            return
        if isinstance(stmt, A.Pay):
            code = self._pay_code(stmt, scope, kept=True)
            self._store(s, code or "None", INT, scope, fn)
            return
        args = self._run_args(stmt, scope)
        result = self._phase_result(stmt.phase) if stmt.phase in self.phases else ANY
        if result is None:
            self.diags.error(stmt.name_span, "no-return", f"phase '{stmt.phase}' gives back no value",
                             "end it with 'return VALUE', or run it on its own line")
        if stmt.phase not in self.phases or result is None:
            self._store(s, "None", ANY, scope, fn)
            return
        self.regions[-1].runs[stmt.phase] += 1  # its work is charged here, as for a plain `run`
        call = f"{self.phase_fn[stmt.phase]}{{}}(c{''.join(', ' + a for a in args)})"
        waits = stmt.phase in self.resumable
        if context == "agent" and waits and self.depth_bounded:  # (callgraph.py)
            self._store(s, call.format("_d"), result, scope, fn)
        elif context == "agent" and waits:
            fn.emit(f"if c.depth >= {MAX_DEPTH}: c.too_deep()", stmt.span)  # counted like a frame
            fn.emit("c.depth += 1", stmt.span)
            self._store(s, call.format("_d"), result, scope, fn)
            fn.emit("c.depth -= 1", stmt.span)
        elif context == "resumable" and waits:
            phase = self.phases[stmt.phase]
            pairs = ", ".join(f"{p.name!r}: {a}" for p, a in zip(phase.params, args))
            after = fn.new_block()
            fn.emit("c.returned = None", stmt.span)
            fn.emit(f"c.call({stmt.phase!r}, {{{pairs}}})", stmt.span)
            fn.emit(f"return {after}", stmt.span)
            fn.switch(after)
            self._store(s, "c.returned", result, scope, fn)
        else:
            self._store(s, call.format(""), result, scope, fn)

    def _store(self, s: A.Keep, code: str, t: Type, scope: Scope, fn: _Function) -> None:
        """`let`/assign as written, with the statement's value in place of an expression."""
        scope.vars[KEPT] = Var(KEPT, t, code, "local", s.stmt.span, used=True)
        try:
            value = A.Name(s.stmt.span, KEPT)
            if s.op == "let" and isinstance(s.target, A.Name):
                self._simple(A.Let(s.span, s.target.name, value), scope, fn, [], "direct")
            else:
                self._assign(A.Assign(s.span, s.target, s.op, value), scope, fn)
        finally:
            del scope.vars[KEPT]
