"""Hoisting: a costly part of an expression that cannot change is computed once, when first needed.

Inside a comprehension, a sub-expression that reads none of the comprehension's variables gives
the same value at every element: a test on the player (`can_afford(you)`) inside a list of the
cards, for instance, was computed once per card and per card again. Within one statement nothing
changes the state, so such a value can be kept from its first evaluation to the end of the
statement. In a formula nothing ever changes the state or the parameters, so a value that reads
only those can be kept for the whole call (a list of occupied cells inside a path search).

The value is kept lazily, in a one-element list made before the statement (or at the top of the
formula): `(_h3[0] if _h3[0] is not _U else _set(_h3, <code>))`. It is computed exactly where
and when the rules first compute it, so errors and their positions do not change, and it is
never computed when the rules would not have computed it (kept_locals.py then makes the cell a
plain local wherever Python allows). Only values that nobody changes are shared: plain values
(numbers, texts, yes/no, seats, nodes, items) and lists that are only read (what a comprehension
runs over, the right side of `in`, the argument of `len`, `sum`...). A list only searched by `in`,
for a plain value among plain values, is kept as a set: it answers alike, in one step.

Identical code kept twice in one region shares one kept value (common subexpressions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..builtins import BUILTINS
from ..syntax import ast as A
from ..types import Type

# The kinds of values that may be changed in place: never shared unless only read.
_CONTAINERS = ("list", "map", "tuple", "any")
_COMP_VAR = re.compile(r"\b_c(\d+)\b")
_LOCAL = re.compile(r"\b_l(\d+)\b|\bL\[")


@dataclass
class _Region:
    """One statement (or one formula call) whose kept values share a lifetime."""

    start: int                      # the variable counter when the region began
    params: int | None = None       # a formula: how many parameters (the only locals that never change)
    temps: list[str] = field(default_factory=list)
    seen: dict[str, str] = field(default_factory=dict)


class Hoister:
    """Decides, for each costly sub-expression, whether to keep its value and where."""

    def __init__(self) -> None:
        self.statement: _Region | None = None
        self.function: _Region | None = None
        self.repeat = 0                 # inside how many comprehensions (or per-seat options)
        self.loops = 0                  # inside how many loops of a formula
        self.off = 0                    # > 0 while generating code that must not keep values

    # -------------------------------------------------------------- regions
    def begin_function(self, params: int | None) -> tuple[_Region | None, _Region | None, int, int]:
        """A function starts; a formula's (params is not None) values that read only its parameters
        and the state last the whole call."""
        saved = (self.function, self.statement, self.loops, self.repeat)
        self.function = _Region(0, params) if params is not None else None
        self.statement = None
        self.loops = self.repeat = 0
        return saved

    def in_formula(self) -> bool:
        """Is the code being generated a formula's own (not a phase's, nor a formula inlined in one)?"""
        return self.function is not None and self.function.params is not None

    def end_function(self, saved: tuple[_Region | None, _Region | None, int, int]) -> list[str]:
        """The function is done: the names of the values it keeps for the whole call."""
        region = self.function
        self.function, self.statement, self.loops, self.repeat = saved
        return region.temps if region else []

    def begin_statement(self, counter: int) -> tuple[_Region | None, int]:
        """A statement starts."""
        saved = (self.statement, self.repeat)
        self.statement = _Region(counter)
        self.repeat = 0
        return saved

    def end_statement(self, saved: tuple[_Region | None, int]) -> list[str]:
        """The statement is done: the names of the values it keeps (their cells go before it)."""
        region = self.statement
        self.statement, self.repeat = saved
        return region.temps if region else []

    # -------------------------------------------------------------- decisions
    def consider(self, e: A.Expr, code: str, t: Type, reader: bool, start: int, fresh: Callable[[], str],
                 lookup: bool = False) -> str:
        """The code to use for `e`: `code` itself, or a read of its kept value.

        `start` is the variable counter before `e` was generated (variables numbered after it are
        e's own), `fresh` makes a new name for a kept value, `reader`: e's value is only read,
        `lookup`: e is a list searched by `in` whose elements and sought value a set holds alike.
        """
        region = self.statement
        if region is None or self.off or not _costly(e, code):
            return code
        if t.kind in _CONTAINERS and not reader:
            return code
        # Comprehension variables of the enclosing comprehensions, numbered between the region's
        # start and e's start, make a value that changes from one element to the next.
        free = [int(n) for n in _COMP_VAR.findall(code) if int(n) <= start]
        if any(n > region.start for n in free):
            return code
        target = None
        fn = self.function
        if fn is not None and self.loops and not free and all(
                m.group(1) is not None and int(m.group(1)) <= (fn.params or 0) for m in _LOCAL.finditer(code)):
            target = fn  # reads only parameters and the state: kept for the whole formula call
        elif self.repeat:
            target = region
        if target is None:
            return code
        # Values kept inside this one are computed again within its single computation instead.
        for region_ in (self.statement, self.function):
            for inner_code, inner in (region_.seen.items() if region_ else ()):
                code = code.replace(_lazy(inner, inner_code), inner_code)
        if lookup:  # searched again and again: kept as a set, which finds a value in one step
            made_here = isinstance(e, A.ListComp) and code.startswith("[") and code.endswith("]")
            code = f"{{{code[1:-1]}}}" if made_here else f"_hset({code})"
        name = target.seen.get(code)
        if name is None:
            name = target.seen[code] = fresh()
            target.temps.append(name)
        return _lazy(name, code)


def _lazy(name: str, code: str) -> str:
    """Read a kept value, computing it the first time."""
    return f"({name}[0] if {name}[0] is not _U else _set({name}, {code}))"


def cells(temps: list[str], lines: list[str]) -> list[str]:
    """The lines making the cells of the kept values that the given lines use."""
    text = "\n".join(lines)
    return [f"{t} = [_U]" for t in temps if re.search(rf"\b{t}\b", text)]


def _costly(e: A.Expr, code: str) -> bool:
    """Worth keeping: a comprehension, a formula, or a built-in over one."""
    if isinstance(e, (A.ListComp, A.MapComp)):
        return True
    if isinstance(e, A.Call):
        spec = BUILTINS.get(e.name)
        return (spec is None or spec.kept_when_costly) and (" for " in code or "_F" in code)
    return False
