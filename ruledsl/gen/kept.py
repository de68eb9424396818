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
from ..check.scope import Scope, Var
from ..check.stmtwalk import KEPT
from ..runtime_support import MAX_DEPTH
from ..syntax import ast as A
from ..types import ANY
from .codegen import _Function


class KeptMixin(BudgetMixin):
    """`let NAME = STATEMENT` and `TARGET = STATEMENT` for the statements that give a value."""

    def _keep(self, s: A.Keep, scope: Scope, fn: _Function, context: str) -> None:
        """Run the statement and store its value. `context` "resumable": the phase run may wait for a
        choice (it runs as frames); "agent": it is run by its direct function. (The type walk checked
        it: a phase that gives back a value, or a pay.)"""
        stmt = s.stmt
        if isinstance(stmt, A.Pay):
            self._store(s, self._pay_code(stmt, scope, kept=True), scope, fn)
            return
        assert isinstance(stmt, A.Run)
        args = self._run_args(stmt, scope)
        self._compile_phase(self.phases[stmt.phase])  # (its function is made when first met)
        self.regions[-1].runs[stmt.phase] += 1  # its work is charged here, as for a plain `run`
        call = f"{self.phase_fn[stmt.phase]}{{}}(c{''.join(', ' + a for a in args)})"
        waits = stmt.phase in self.resumable
        if context == "agent" and waits and self.depth_bounded:  # (callgraph.py)
            self._store(s, call.format("_d"), scope, fn)
        elif context == "agent" and waits:
            fn.emit(f"if c.depth >= {MAX_DEPTH}: c.too_deep()", stmt.span)  # counted like a frame
            fn.emit("c.depth += 1", stmt.span)
            self._store(s, call.format("_d"), scope, fn)
            fn.emit("c.depth -= 1", stmt.span)
        elif context == "resumable" and waits:
            phase = self.phases[stmt.phase]
            pairs = ", ".join(f"{p.name!r}: {a}" for p, a in zip(phase.params, args))
            after = fn.new_block()
            fn.emit("c.returned = None", stmt.span)
            fn.emit(f"c.call({stmt.phase!r}, {{{pairs}}})", stmt.span)
            fn.emit(f"return {after}", stmt.span)
            fn.switch(after)
            self._store(s, "c.returned", scope, fn)
        else:
            self._store(s, call.format(""), scope, fn)

    def _store(self, s: A.Keep, code: str, scope: Scope, fn: _Function) -> None:
        """`let`/assign as written, with the statement's value in place of an expression (read as the
        name KEPT, whose type the type walk recorded)."""
        stored = self._kept_form(s)
        t = self.exprs.record.type_of(stored.value)
        scope.vars[KEPT] = Var(KEPT, t if t is not None else ANY, code, "local", s.stmt.span, used=True)
        try:
            if isinstance(stored, A.Let):
                self._simple(stored, scope, fn, [], "direct")
            else:
                self._assign(stored, scope, fn)
        finally:
            del scope.vars[KEPT]
