"""Which phases run which: the phases that may wait for a decision, and those never reached."""

from __future__ import annotations

from typing import Callable

from . import ast as A
from .compiler_base import CompilerBase


class CallGraphMixin(CompilerBase):
    """Finds the resumable phases and warns of unreachable phases and unused formulas."""

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

    def _suspends(self, s: A.Stmt) -> bool:
        return _walk_has((s,), lambda x: isinstance(x, A.Choose)
                         or (isinstance(x, A.Run) and x.phase in self.resumable)
                         or (isinstance(x, A.RunAbility) and bool(self._ability_targets(x.ability) & self.resumable)))


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
