"""Which phases run which: the phases that may wait for a decision, and those never reached."""

from __future__ import annotations

from typing import Callable

from ..compiler_base import CompilerBase
from ..opt.folding import UNKNOWN, live_blocks
from ..runtime_support import MAX_DEPTH
from ..syntax import ast as A


class CallGraphMixin(CompilerBase):
    """Finds the resumable phases and warns of unreachable phases and unused formulas."""

    def _find_resumable(self) -> None:
        """The phases that may wait for a decision. A `choose` or `run` in a branch that can never
        run in this game (its condition reads only fixed data, say a variant's switch, and is
        false) does not count (folding.py); for the warnings every branch counts."""
        calls: dict[str, set[str]] = {}
        live_calls: dict[str, set[str]] = {}
        for name, phase in self.phases.items():
            found: set[str] = set()
            live: set[str] = set()
            if self._walk_has(phase.body, lambda s: isinstance(s, A.Choose)):
                self.resumable.add(name)
            _walk_collect(phase.body, lambda s: found.update(self._entered(s)), A.child_blocks)
            _walk_collect(phase.body, lambda s: live.update(self._entered(s)), self._live)
            calls[name] = found
            live_calls[name] = live
        changed = True
        while changed:
            changed = False
            for name, targets in live_calls.items():
                if name not in self.resumable and targets & self.resumable:
                    self.resumable.add(name)
                    changed = True
        self.calls = calls
        self.depth_bounded = _depth_bounded(self.resumable, calls)

    def _live(self, s: A.Stmt) -> list[tuple[A.Stmt, ...]]:
        """The blocks of a statement that may run in this game."""
        return live_blocks(s, self._table_value)

    def _table_value(self, name: str) -> object:
        return self.world.tables[name][1] if name in self.world.tables else UNKNOWN

    def _walk_has(self, stmts: tuple[A.Stmt, ...], pred: Callable[[A.Stmt], bool]) -> bool:
        for s in stmts:
            if pred(s) or any(self._walk_has(body, pred) for body in self._live(s)):
                return True
        return False

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
        return self._walk_has((s,), lambda x: isinstance(x, A.Choose)
                              or (isinstance(x, A.Run) and x.phase in self.resumable)
                              or (isinstance(x, A.RunAbility)
                                  and bool(self._ability_targets(x.ability) & self.resumable)))


def _walk_collect(stmts: tuple[A.Stmt, ...], visit: Callable[[A.Stmt], None],
                  blocks: Callable[[A.Stmt], list[tuple[A.Stmt, ...]]]) -> None:
    for s in stmts:
        visit(s)
        for body in blocks(s):
            _walk_collect(body, visit, blocks)


def _depth_bounded(resumable: set[str], calls: dict[str, set[str]]) -> bool:
    """Can no chain of phases that wait, run one inside another, come near the depth limit?

    Only phases that wait count against it (the others are plain functions). When none of them
    runs itself, directly or through others, a chain holds each at most once; a game resumed in
    the middle of one chain (its frames) may start a second: twice their number stays below the
    limit, so the agent path need not count (the depth is checked, and stops a game, only for
    phases that may run themselves)."""
    state: dict[str, int] = {}  # 1: being visited, 2: done

    def cyclic(name: str) -> bool:
        state[name] = 1
        for target in calls.get(name, set()) & resumable:
            if state.get(target) == 1 or state.get(target) is None and cyclic(target):
                return True
        state[name] = 2
        return False

    return 2 * len(resumable) < MAX_DEPTH and not any(state.get(p) is None and cyclic(p) for p in sorted(resumable))
