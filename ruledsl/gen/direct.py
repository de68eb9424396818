"""The agent path: each phase that may wait gets a second, direct function.

When every decision is answered at once by a bot (`Engine.play`, `Engine.playout`), nothing ever
pauses, so a phase need not be cut into blocks with its locals in a frame dict: it runs as one
plain Python function with local variables, and `choose` asks the seat's picker (`c.ask`). This
code generation runs after checking, on rules already known to be clean, and reports nothing: the
type walk checked the same statements, in their waiting form.
"""

from __future__ import annotations

from ..check.scope import Scope
from ..compiler_base import CompilerBase
from .codegen import _Function


class DirectMixin(CompilerBase):
    """Direct functions `_Pn_d(c, params...)` for the resumable phases."""

    def _compile_direct(self) -> None:
        for name, phase in self.phases.items():
            if name not in self.resumable:
                continue
            scope = Scope(None, persistent=False)
            args = self._declare_params(phase.params, self._params(phase.params), scope)
            fn = _Function(self.phase_fn[name] + "_d", ", ".join(["c"] + args))
            self._phase_body(phase, scope, fn, "agent")
            self.functions.append(fn)
