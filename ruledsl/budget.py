"""Where the work of statements is charged (cost.py says what is counted).

Work whose amount is known when compiling is added up per *region*: a function's body (charged
once when the function starts) or a loop's body (charged for all passes when a `for` loop starts,
at every pass of a `while` loop or of a loop that waits for decisions). Work known only at run
time is charged just before its statement. When a charge uses up the budget, the error names the
loop, or the statement, that contributed most to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .codegen import _Function
from .compiler_base import CompilerBase
from .diagnostics import Span


@dataclass
class Region:
    """Work known when compiling, in one function body or loop body."""

    steps: int = 0
    span: Span | None = None     # where the largest part of it is
    loop: int | None = None      # ... when that part is a loop (its index in loop_spans)
    largest: int = -1

    def add(self, steps: int, span: Span | None, loop: int | None = None) -> None:
        """Add the work of a statement or a loop."""
        self.steps += steps
        if steps > self.largest:
            self.largest, self.span, self.loop = steps, span, loop


def stop(loop: int | None) -> str:
    """The call that reports a used-up budget: at a loop, or at the line that charged it."""
    return f"c.runaway({loop})" if loop is not None else "c.out_of_steps()"


def charge_lines(amount: str, loop: int | None, guarded: bool) -> list[str]:
    """Python lines charging `amount` steps. `guarded`: the amount reads lists before the statement
    does, and a read that fails (a none where a seat was expected...) must fail in the statement
    itself, at its place, so the charge is skipped then."""
    lines = [f"try: c.steps -= {amount}", "except Exception: pass"] if guarded else [f"c.steps -= {amount}"]
    return lines + [f"if c.steps < 0: {stop(loop)}"]


class BudgetMixin(CompilerBase):
    """Regions of known work, and the lines that charge them."""

    regions: list[Region]

    def _loop(self, span: Span) -> int:
        """Register a loop (its place is named when it runs out of steps)."""
        self.loop_spans.append(span)
        return len(self.loop_spans) - 1

    def _push_region(self) -> None:
        self.regions.append(Region())

    def _pop_region(self) -> Region:
        return self.regions.pop()

    def _insert_charge(self, fn: _Function, block: int, pos: int, depth: int, amount: str, span: Span | None,
                       loop: int | None, guarded: bool) -> None:
        """Charge lines at a place already passed (a loop's head, a function's top)."""
        fn.blocks[block][pos:pos] = [(depth, line, span) for line in charge_lines(amount, loop, guarded)]

    def _charge_region(self, fn: _Function, block: int, pos: int, depth: int, region: Region, extra: int) -> None:
        """Charge a region's known work (plus `extra`), if any, at a place already passed."""
        if region.steps + extra:
            self._insert_charge(fn, block, pos, depth, str(region.steps + extra), region.span, region.loop, False)
