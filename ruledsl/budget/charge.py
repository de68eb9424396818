"""Where the work of statements is charged (cost.py says what is counted).

Work whose amount is known when compiling is added up per *region*: a function's body (charged
once when the function starts) or a loop's body (charged for all passes when a `for` loop starts,
at every pass of a `while` loop or of a loop that waits for decisions). Work known only at run
time is charged just before its statement. When a charge uses up the budget, the error names the
loop, or the statement, that contributed most to it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..check.scope import Scope
from ..compiler_base import CompilerBase
from ..diagnostics import Span
from . import cost

if TYPE_CHECKING:
    from ..gen.codegen import _Function


@dataclass
class Region:
    """Work of one function body or loop body: known when compiling (`steps`, plus the phases it
    runs, `runs`, whose work is known once every phase is compiled), or read from lists that exist
    when the body starts (`terms`: Python, computed there)."""

    names: frozenset[str] | None = None  # the variables (their code) that exist when the body starts
    steps: int = 0
    runs: Counter[str] = field(default_factory=Counter)
    terms: list[str] = field(default_factory=list)
    span: Span | None = None     # where the largest known part of it is
    loop: int | None = None      # ... when that part is a loop (its index in loop_spans)
    largest: int = -1

    def add_loop(self, size: int, body: "Region", span: Span | None, loop: int | None) -> None:
        """A loop of known length over a body with no run-time terms."""
        self.add(size * (1 + body.steps), span, loop)
        for phase, n in body.runs.items():
            self.runs[phase] += size * n

    def add(self, steps: int, span: Span | None, loop: int | None = None) -> None:
        """Add the work of a statement or a loop."""
        self.steps += steps
        if steps > self.largest:
            self.largest, self.span, self.loop = steps, span, loop

    def takes(self, term: str) -> bool:
        """Can this run-time term be charged when the body starts (it reads no variable made later)?

        Decided by the variables' names, so that both compiled forms of a phase that waits (its
        locals in a frame dict, or Python locals) decide alike."""
        return self.names is not None and all(v in self.names for v in _VARIABLE.findall(term))

    def amount(self, extra: int = 0) -> str:
        """Python for the whole amount (the phases' work is written as a mark, see PhaseWork)."""
        known = [str(self.steps + extra)] + ([PhaseWork.mark(self.runs)] if self.runs else [])
        return " + ".join(known + self.terms)


class PhaseWork:
    """The work a phase does that is known when compiling, once every phase is compiled.

    A `run` adds the phase's work to the work of the place it runs from, so that a phase need not
    charge it itself when it starts (one check fewer per run). Charges name it with a mark,
    `\x01phase*n|...\x01`, replaced by the number when the code is assembled. Phases that run
    themselves (directly or through others), abilities and the start phase charge their own work
    when they start, at their entry mark `\x02phase\x02`.
    """

    @staticmethod
    def mark(runs: Counter[str]) -> str:
        return "\x01" + "|".join(f"{phase}*{n}" for phase, n in sorted(runs.items())) + "\x01"

    @staticmethod
    def entry(phase: str) -> str:
        return f"\x02{phase}\x02"

    def __init__(self, own: dict[str, Region], charging: set[str], calls: dict[str, set[str]]):
        """`own`: each phase's body region; `charging`: phases that charge their own work, besides
        those on a cycle of `calls` (the phases each phase runs)."""
        self.own = own
        self.charging = set(charging) | _cycles(calls)
        self.work: dict[str, int] = {}

    def of(self, phase: str) -> int:
        """All the work known for running a phase: one step, its body, the phases it runs."""
        if phase not in self.work:
            region = self.own.get(phase)
            self.work[phase] = 0  # (a cycle: those phases charge themselves)
            self.work[phase] = 1 + (region.steps + self.runs(region.runs) if region else 0)
        return self.work[phase]

    def runs(self, runs: Counter[str]) -> int:
        """The work of running these phases that the place running them must charge."""
        return sum(n * self.of(p) for p, n in runs.items() if p not in self.charging)

    def resolve(self, line: str) -> str:
        """A generated line with its marks replaced by numbers."""
        line = _RUNS.sub(lambda m: str(self.runs(_parse(m.group(1)))), line)
        return _ENTRY.sub(lambda m: str(self.of(m.group(1)) if m.group(1) in self.charging else 0), line)


_RUNS = re.compile("\x01([^\x01]*)\x01")


def _parse(mark: str) -> Counter[str]:
    runs: Counter[str] = Counter()
    for part in mark.split("|"):
        phase, n = part.rsplit("*", 1)
        runs[phase] += int(n)
    return runs
_ENTRY = re.compile("\x02([^\x02]*)\x02")


def _cycles(graph: dict[str, set[str]]) -> set[str]:
    """The nodes on a cycle of a directed graph."""
    found: set[str] = set()
    for start in graph:
        todo, seen = list(graph.get(start, ())), set()
        while todo:
            node = todo.pop()
            if node == start:
                found.add(start)
                break
            if node not in seen:
                seen.add(node)
                todo.extend(graph.get(node, ()))
    return found


def _visible(scope: Scope) -> list[str]:
    """The code of every variable visible in a scope."""
    found: list[str] = []
    at: Scope | None = scope
    while at is not None:
        found.extend(v.code for v in at.vars.values())
        at = at.parent
    return found


def stop(loop: int | None) -> str:
    """The call that reports a used-up budget: at a loop, or at the line that charged it."""
    return f"c.runaway({loop})" if loop is not None else "c.out_of_steps()"


def charge_lines(amount: str, loop: int | None, guarded: bool) -> list[str]:
    """Python lines charging `amount` steps. `guarded`: the amount reads lists before the statement
    does, and a read that fails (a none where a seat was expected...) must fail in the statement
    itself, at its place, so the charge is skipped then."""
    lines = [f"try: c.steps -= {amount}", "except _Err: pass"] if guarded else [f"c.steps -= {amount}"]
    return lines + [f"if c.steps < 0: {stop(loop)}"]


_VARIABLE = re.compile(r"\b_[lcth]\d+\b|\bL\['[^']*'\]")


class BudgetMixin(CompilerBase):
    """Regions of known work, and the lines that charge them."""

    regions: list[Region]

    def _loop(self, span: Span) -> int:
        """Register a loop (its place is named when it runs out of steps)."""
        self.loop_spans.append(span)
        return len(self.loop_spans) - 1

    def _push_region(self, scope: Scope | None = None) -> None:
        """A new region, whose body starts where `scope`'s variables exist (None: a throwaway one)."""
        self.regions.append(Region(frozenset(_visible(scope)) if scope is not None else None))

    def _pop_region(self) -> Region:
        return self.regions.pop()

    def _insert_charge(self, fn: "_Function", block: int, pos: int, depth: int, amount: str, span: Span | None,
                       loop: int | None, guarded: bool) -> None:
        """Charge lines at a place already passed (a loop's head, a function's top)."""
        if not cost.COUNT_WORK:
            return
        fn.blocks[block][pos:pos] = [(depth, line, span) for line in charge_lines(amount, loop, guarded)]

    def _charge_region(self, fn: "_Function", block: int, pos: int, depth: int, region: Region, extra: int) -> None:
        """Charge a region's work (plus `extra`), if any, at a place already passed."""
        if region.steps + extra or region.terms or region.runs:
            self._insert_charge(fn, block, pos, depth, region.amount(extra), region.span, region.loop,
                                bool(region.terms))

    def _charge_phase(self, fn: "_Function", phase: str, region: Region) -> None:
        """A phase's charge when it starts: its own work if it charges it itself (PhaseWork), and
        its run-time terms."""
        self.phase_regions.setdefault(phase, region)  # (a phase's two compiled forms do the same work)
        amount = " + ".join([PhaseWork.entry(phase)] + region.terms)
        self._insert_charge(fn, 0, 0, 1, amount, region.span, region.loop, bool(region.terms))


_CHARGE = re.compile(r"^(\s*(?:try: )?c\.steps -= )(.*)$")
_SEATS_TERM = re.compile(r"^(?:\(?c\.nseats\)?(?: \* \(?(\d+)\)?)?|\(?(\d+)\)? \* \(?c\.nseats\)?)$")


def fold_charge(line: str) -> str:
    """A charge line with its like terms added up when compiling: `0 + c.nseats + (c.nseats) * 101`
    becomes `102 * c.nseats`, `len(x) + len(x)` becomes `2 * (len(x))`. The amount is the same, so
    the game runs out of steps at the same place; a term that fails still skips the whole charge."""
    found = _CHARGE.match(line)
    terms = _top_level_terms(found.group(2)) if found else None
    if found is None or terms is None:
        return line
    fixed, seats, rest = 0, 0, dict[str, int]()
    for term in terms:
        seat_term = _SEATS_TERM.match(term)
        if term.isdigit():
            fixed += int(term)
        elif seat_term:
            seats += int(seat_term.group(1) or seat_term.group(2) or 1)
        else:  # the same read, twice, is counted once times two (reads change nothing)
            rest[term] = rest.get(term, 0) + 1
    parts = ([str(fixed)] if fixed or not (seats or rest) else []) + \
        ([f"{seats} * c.nseats" if seats > 1 else "c.nseats"] if seats else []) + \
        [term if n == 1 else f"{n} * ({term})" for term, n in rest.items()]
    return found.group(1) + " + ".join(parts)


def _top_level_terms(amount: str) -> list[str] | None:
    """The parts of `a + b + c` outside brackets and texts, or None when the amount is anything
    but a plain sum at its top level."""
    terms, depth, quote, start, i, outside = [], 0, "", 0, 0, []
    while i < len(amount):
        ch = amount[i]
        if depth == 0 and not quote:
            outside.append(ch)
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and amount.startswith(" + ", i):
            terms.append(amount[start:i])
            start, i = i + 3, i + 3
            continue
        elif depth == 0 and not (ch.isalnum() or ch in "_.* "):
            return None  # a `-`, a comparison...: not folded
        i += 1
    terms.append(amount[start:])
    top = f" {''.join(outside)} "
    if any(f" {word} " in top for word in ("if", "else", "and", "or", "not", "lambda", "for", "in", "is")):
        return None
    return terms
