"""The work budget: how many steps each piece of rules costs, counted cheaply and the same way always.

Between two decisions the rules may do STEP_BUDGET steps of work; past that, the game stops with a
rule error at the statement (or loop) that used the last step, instead of running for ever or
filling the memory. A step is about one element visited:

- a loop pass; a `for` loop is charged for all its passes when it starts (it runs over a list
  whose length is known then), a `while` loop at every pass;
- each element a comprehension runs over (times the work done per element), each element of a
  new list or text made (copies, `+`, `sorted`, `unique`, `range`...);
- SEARCH_STEPS for a built-in that only searches a list (`in`, `remove`, `draw`, `sum`, `max`...);
- a run of a phase; a call of a formula (plus its own work); a log line (LOG_STEPS);
- four per element shuffled.

Most of this is known when compiling: a loop over the board's nodes or a table, a formula without
loops. That part (`static`) is added up at compile time and charged once per function run or per
loop pass. The rest depends on the lengths of lists at run time; when those lists can be read
before the statement runs, the statement is preceded by one line that charges them all
(`terms`); otherwise the list is wrapped, where it is used, in `_cnt(c, list, k)`, which charges
`len(list) * k` as it goes by.

The count depends only on the rules and the game's data, never on how the code was optimised:
a remembered formula value is charged what computing it cost (formulas.py), hoisted values
(hoist.py) are charged as if computed every time, and the event log's own work is not counted
(it is skipped in simulations, and the game must stay the same).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Steps charged for a log line (so that a runaway log is stopped like a runaway loop).
LOG_STEPS = 50
# Steps charged for searching a list without making anything (`in`, `remove`, `draw`, `sum`, `max`,
# `any`...): Python does that about a hundred times faster per element than it runs rules code,
# on lists of at most LIST_LIMIT elements, so it is counted as a fixed amount.
SEARCH_STEPS = 100
# Off only in benchmarks/bench_games.py, to measure what counting costs: rules compiled without it
# have no protection against runaway work at all.
COUNT_WORK = True


@dataclass
class Cost:
    """Work of a piece of code: a fixed part and run-time terms (Python int expressions)."""

    static: int = 0
    terms: list[str] = field(default_factory=list)

    def add(self, other: "Cost") -> None:
        """Add another piece's work."""
        self.static += other.static
        self.terms.extend(other.terms)

    def per_element(self) -> str:
        """Python for `1 + the work`, the cost of one element of a comprehension over this work."""
        return " + ".join([str(1 + self.static)] + [f"({t})" for t in self.terms])

    def extra(self) -> str:
        """Python for the work alone."""
        return " + ".join([str(self.static)] + [f"({t})" for t in self.terms])

    def times(self, size: int | str) -> "Cost":
        """This work repeated `size` times (a number, or Python for one)."""
        if isinstance(size, int) and not self.terms:
            return Cost(size * (1 + self.static))
        if isinstance(size, int):
            return Cost(size * (1 + self.static), [f"{size} * ({' + '.join(self.terms)})"])
        if not self.terms and self.static == 0:
            return Cost(0, [size])
        return Cost(0, [f"{size} * ({self.per_element()})"])

    def code(self) -> str:
        """Python for the run-time part."""
        return " + ".join(self.terms)


@dataclass
class FormulaWork:
    """The work of a formula, known before it runs: a fixed part, and terms read from its
    parameters (`params`: their Python names in the terms)."""

    static: int
    terms: list[str]
    params: list[str]

    def used_params(self) -> set[str]:
        """The parameters the terms read."""
        return {m for t in self.terms for m in _PARAM.findall(t)}

    def at_call(self, args: list[str]) -> list[str]:
        """The terms with a call's arguments in place of the parameters."""
        names = dict(zip(self.params, args))
        return [_PARAM.sub(lambda m: f"({names[m.group(0)]})" if m.group(0) in names else m.group(0), t)
                for t in self.terms]


_PARAM = re.compile(r"\b_l\d+\b")


class Charges:
    """The work counted while generating code: one Cost per statement being generated, and one per
    comprehension element inside it."""

    def __init__(self) -> None:
        self.stack: list[Cost] = []
        self.off = 0

    def begin(self) -> None:
        """Start counting a statement or a comprehension's element."""
        self.stack.append(Cost())

    def end(self) -> Cost:
        """Stop counting; the work counted."""
        return self.stack.pop()

    def charge(self, static: int = 0, term: str | None = None) -> None:
        """Count some work, if anything is being counted."""
        if self.stack and not self.off and COUNT_WORK:
            top = self.stack[-1]
            top.static += static
            if term:
                top.terms.append(term)

    def charge_cost(self, cost: Cost) -> None:
        """Count a piece of work."""
        if self.stack and not self.off and COUNT_WORK:
            self.stack[-1].add(cost)
