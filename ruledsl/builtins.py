"""The registry of the rules language's built-in functions: everything the compiler's stages know of each.

Every stage reads a built-in's properties here, and nowhere else: its argument counts (checking),
its typing rule (`check/builtin_types.py`) and code (`gen/builtin_code.py`), the work it costs
(`budget/`), which lists it reads, makes or searches (the optimisation passes of `opt/`), what holds
no name the rules wrote (`check/namecheck.py`), the runtime functions generated code calls
(`gen/codegen.py`), and its example in docs/language.md, section 6 (`tests/ruledsl/test_builtins.py`
checks that each entry is complete and documented). docs/maintaining.md says how to add one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Mapping

from . import runtime_support as R
from .check import builtin_types as rules
from .check.builtin_types import TypeRule
from .gen import builtin_code as code
from .gen.builtin_code import CodeRule


class Work(Enum):
    """How the work budget (budget/cost.py) counts a call, besides the step every call costs."""

    STEP = "one step"                       # nothing more
    MAKES = "as long as its list"           # makes a new value as long as its list argument
    SEARCHES = "a search"                   # visits its list to find or add up: SEARCH_STEPS
    RUNS = "counted as it runs"             # its runtime function counts what it makes (range)


@dataclass(frozen=True)
class Builtin:
    """One built-in function and every property of it a stage of the compiler needs."""

    name: str
    fewest: int                             # arguments, at least
    most: int                               # arguments, at most
    typing: str                             # the typing rule in words: arguments -> result
    rule: TypeRule                          # the typing rule: checks the arguments' types, gives the result's
    code: CodeRule                          # the call's code, once its typing rule accepted it
    work: Work
    example: str                            # a call as docs/language.md, section 6, shows it
    reads_list: bool = False                # only reads its list argument: a kept (shared) list may be handed to it
    kept_when_costly: bool = False          # its value is worth keeping (hoist.py) when its argument is costly
    new_list: bool = False                  # gives a new list shared with nothing (mutation.py)
    paid_list: bool = False                 # gives a list no longer than the work already counted for making it
    reads_seats: bool = False               # depends on the seats of the running game (purity.py)
    keeps_elements: bool = False            # gives elements of its list argument, and only those (namecheck.py)
    plain_result: tuple[str, str] | None = None  # its result holds no text the rules wrote: (shape, element shape)
    runtime: Mapping[str, Callable[..., Any]] = field(default_factory=dict)  # names generated code calls

    @property
    def searches_list(self) -> bool:
        """Visits its list to find or add up, making nothing."""
        return self.work is Work.SEARCHES

    @property
    def makes_value(self) -> bool:
        """Makes a new value as long as its list argument (counted by its length)."""
        return self.work is Work.MAKES

    @property
    def arity(self) -> str:
        """Its argument counts in words: `1`, `1 or 2`."""
        return f"{self.fewest}" if self.fewest == self.most else f"{self.fewest} or {self.most}"


_ALL = (
    Builtin("len", 1, 1, "list, map or str -> int", rules.length, code.length, Work.STEP, "len(lot.markers)",
            reads_list=True, kept_when_costly=True, plain_result=("int", ""), runtime={"len": len}),
    Builtin("count", 1, 1, "list, map or str -> int", rules.length, code.length, Work.STEP,
            "count([m for m in lot.markers if m == s])", reads_list=True, kept_when_costly=True,
            plain_result=("int", ""), runtime={"len": len}),
    Builtin("sum", 1, 1, "list[int] -> int", rules.total, code.total, Work.SEARCHES, "sum([s.money for s in seats])",
            reads_list=True, kept_when_costly=True, plain_result=("int", ""), runtime={"sum": sum, "_num": R.number}),
    Builtin("max", 1, 2, "list[T] -> T; int, int -> int", rules.extreme, code.extreme, Work.SEARCHES,
            "max([s.money for s in seats])", reads_list=True, kept_when_costly=True,
            plain_result=("int", ""), runtime={"_max": R.rmax}),
    Builtin("min", 1, 2, "list[T] -> T; int, int -> int", rules.extreme, code.extreme, Work.SEARCHES, "min(most, s.markers)",
            reads_list=True, kept_when_costly=True, plain_result=("int", ""), runtime={"_min": R.rmin}),
    Builtin("any", 1, 1, "list[bool] -> bool", rules.truth, code.truth, Work.SEARCHES, "any([n > 0 for n in left])",
            reads_list=True, kept_when_costly=True, plain_result=("bool", ""), runtime={"any": any}),
    Builtin("all", 1, 1, "list[bool] -> bool", rules.truth, code.truth, Work.SEARCHES,
            "all([lot.plaque != none for lot in nodes])", reads_list=True, kept_when_costly=True,
            plain_result=("bool", ""),
            runtime={"all": all}),
    Builtin("range", 1, 2, "int; int, int -> list[int]", rules.numbers, code.numbers, Work.RUNS, "range(1, most + 1)",
            new_list=True, paid_list=True, plain_result=("list", "int"), runtime={"_range": R.rrange}),
    Builtin("neighbours", 1, 1, "node -> list[node]", rules.neighbours, code.neighbours, Work.STEP, "neighbours(lot)",
            plain_result=("list", "node")),
    Builtin("unique", 1, 1, "list[T] -> list[T]", rules.same_list, code.same_list, Work.MAKES, "unique(lot.markers)",
            reads_list=True, kept_when_costly=True, new_list=True, paid_list=True, keeps_elements=True,
            runtime={"_unique": R.unique}),
    Builtin("sorted", 1, 1, "list[T] -> list[T]", rules.same_list, code.same_list, Work.MAKES,
            "sorted([s.money for s in seats])", reads_list=True, kept_when_costly=True, new_list=True, paid_list=True,
            keeps_elements=True, runtime={"sorted": sorted}),
    Builtin("reversed", 1, 1, "list[T] -> list[T]", rules.same_list, code.same_list, Work.MAKES, "reversed(seats_from(mayor))",
            reads_list=True, new_list=True, paid_list=True, keeps_elements=True,
            runtime={"_reversed": R.reversed_list}),
    Builtin("next_seat", 1, 2, "seat; seat, int -> seat", rules.next_seat, code.next_seat, Work.STEP, "next_seat(mayor, -1)",
            reads_seats=True, plain_result=("seat", "")),
    Builtin("seats_from", 1, 1, "seat -> list[seat]", rules.seats_from, code.seats_from, Work.STEP, "seats_from(mayor)",
            new_list=True, reads_seats=True, plain_result=("list", "seat")),
    Builtin("index", 2, 2, "list[T], T -> int", rules.index, code.index, Work.SEARCHES, "index(revealed, lot)",
            reads_list=True, kept_when_costly=True, plain_result=("int", ""), runtime={"_index": R.index_of}),
    Builtin("abs", 1, 1, "int -> int", rules.absolute, code.absolute, Work.STEP, "abs(a.money - b.money)",
            plain_result=("int", ""), runtime={"abs": abs}),
    Builtin("get", 3, 3, "map[K, V], K, V -> V", rules.get, code.get, Work.STEP, "get(bonus, owners, none)"),
    Builtin("keys", 1, 1, "map[K, V] -> list[K]", rules.keys, code.keys, Work.MAKES, "keys(supply)",
            new_list=True, paid_list=True, runtime={"list": list}),
    Builtin("str", 1, 1, "any -> str", rules.text, code.text, Work.MAKES, "str(lot)", reads_seats=True),
    Builtin("follow", 3, 3, "node, edge attribute, value -> node?", rules.edges, code.edges, Work.STEP,
            "follow(lot, \"dir\", \"east\")", runtime={"_follow": R.follow}),
    Builtin("exits", 2, 2, "node, edge attribute -> list[tuple[node, value]]", rules.edges, code.edges, Work.STEP,
            "exits(lot, \"dir\")", new_list=True, runtime={"list": list}),
    Builtin("unique_by", 2, 2, "list[T], field or attribute of T -> list[T]", rules.unique_by, code.unique_by, Work.MAKES,
            "unique_by(nodes, \"shape\")", reads_list=True, kept_when_costly=True, keeps_elements=True,
            runtime={"_unique_by": R.unique_by}),
)

BUILTINS: dict[str, Builtin] = {b.name: b for b in _ALL}
