"""Assignments: their code.

What may be changed, and the element type `let xs = []` gets from the first value stored, are the
type walk's (`check/stmtwalk.py`).
"""

from __future__ import annotations

from ..check.scope import Scope
from ..compiler_base import CompilerBase
from ..syntax import ast as A
from .codegen import _Function


class AssignmentMixin(CompilerBase):
    """Assignments."""

    def _assign(self, s: A.Assign, scope: Scope, fn: _Function) -> None:
        target, _ = self.exprs.expr(s.target, scope)
        value, _ = self._value(s.value, scope)
        if s.op == "=":
            fn.emit(f"{target} = {value}", s.span)
        else:
            fn.emit(f"{target} {s.op} {value}", s.span)
