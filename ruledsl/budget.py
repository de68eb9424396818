"""Where the work of statements is charged (cost.py says what is counted).

Work whose amount is known when compiling is added up per *region*: a function's body (charged
once when the function starts) or a loop's body (charged for all passes when a `for` loop starts,
at every pass of a `while` loop or of a loop that waits for decisions). Work known only at run
time is charged just before its statement. When a charge uses up the budget, the error names the
loop, or the statement, that contributed most to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import cost
from .codegen import _Function
from .compiler_base import CompilerBase
from .diagnostics import Span


@dataclass
class Region:
    """Work of one function body or loop body: known when compiling (`steps`), or read from lists
    that exist when the body starts (`terms`: Python, computed there)."""

    start: int | None = None     # variables numbered up to this exist when the body starts (None: unknown)
    steps: int = 0
    terms: list[str] = field(default_factory=list)
    span: Span | None = None     # where the largest known part of it is
    loop: int | None = None      # ... when that part is a loop (its index in loop_spans)
    largest: int = -1

    def add(self, steps: int, span: Span | None, loop: int | None = None) -> None:
        """Add the work of a statement or a loop."""
        self.steps += steps
        if steps > self.largest:
            self.largest, self.span, self.loop = steps, span, loop

    def takes(self, term: str) -> bool:
        """Can this run-time term be charged when the body starts (it reads nothing made later)?"""
        if self.start is None or "L[" in term:
            return False
        return all(int(n) <= self.start for n in _NUMBERED.findall(term))

    def amount(self, extra: int = 0) -> str:
        """Python for the whole amount."""
        return " + ".join([str(self.steps + extra)] + self.terms)


def stop(loop: int | None) -> str:
    """The call that reports a used-up budget: at a loop, or at the line that charged it."""
    return f"c.runaway({loop})" if loop is not None else "c.out_of_steps()"


def charge_lines(amount: str, loop: int | None, guarded: bool) -> list[str]:
    """Python lines charging `amount` steps. `guarded`: the amount reads lists before the statement
    does, and a read that fails (a none where a seat was expected...) must fail in the statement
    itself, at its place, so the charge is skipped then."""
    lines = [f"try: c.steps -= {amount}", "except Exception: pass"] if guarded else [f"c.steps -= {amount}"]
    return lines + [f"if c.steps < 0: {stop(loop)}"]


_NUMBERED = re.compile(r"\b_[lcth](\d+)\b")


class BudgetMixin(CompilerBase):
    """Regions of known work, and the lines that charge them."""

    regions: list[Region]

    def _loop(self, span: Span) -> int:
        """Register a loop (its place is named when it runs out of steps)."""
        self.loop_spans.append(span)
        return len(self.loop_spans) - 1

    def _push_region(self, start: int | None = None) -> None:
        self.regions.append(Region(start))

    def _pop_region(self) -> Region:
        return self.regions.pop()

    def _insert_charge(self, fn: _Function, block: int, pos: int, depth: int, amount: str, span: Span | None,
                       loop: int | None, guarded: bool) -> None:
        """Charge lines at a place already passed (a loop's head, a function's top)."""
        if not cost.COUNT_WORK:
            return
        fn.blocks[block][pos:pos] = [(depth, line, span) for line in charge_lines(amount, loop, guarded)]

    def _charge_region(self, fn: _Function, block: int, pos: int, depth: int, region: Region, extra: int) -> None:
        """Charge a region's work (plus `extra`), if any, at a place already passed."""
        if region.steps + extra or region.terms:
            self._insert_charge(fn, block, pos, depth, region.amount(extra), region.span, region.loop,
                                bool(region.terms))
