"""Counting the work of expressions (see cost.py), as part of generating their code.

Each expression that visits the elements of a list says so here: with the length known when
compiling (a table, the board's nodes, a node's neighbours...), with Python that reads the length
before the statement runs (a variable or a field), or, failing both, by wrapping the list in
`_cnt(c, list, k)` where it is used.
"""

from __future__ import annotations

import re

from ..builtins import BUILTINS
from ..check.scope import Scope
from ..opt.folding import Resolve, fixed_value
from ..opt.hoist import Hoister
from ..syntax import ast as A
from ..world import World
from . import cost
from .cost import Charges, Cost

_COMP_VAR = re.compile(r"\b_c(\d+)\b")
# The length of a list whose making was counted: visiting it again costs nothing more.
PAID = "paid"


class ExprCostMixin:
    """The work-counting part of `Expressions`."""

    charges: Charges
    stmt_start: int
    hoister: Hoister
    world: World
    known_sizes: dict[int, int | str | None]

    def resolver(self, scope: Scope) -> Resolve:
        """exprgen.py"""
        raise NotImplementedError

    def begin_statement(self, scope: Scope) -> tuple[object, int]:
        """A statement starts: count its work, keep its values (hoist.py)."""
        saved = (self.hoister.begin_statement(scope.counter[0]), self.stmt_start)
        self.stmt_start = scope.counter[0]
        self.charges.begin()
        return saved

    def end_statement(self, saved: tuple[object, int]) -> tuple[list[str], Cost]:
        """The statement is done: the values it keeps and the work it does."""
        hoisting, self.stmt_start = saved
        return self.hoister.end_statement(hoisting), self.charges.end()  # type: ignore[arg-type]

    def size_of(self, e: A.Expr, code: str, scope: Scope) -> int | str | None:
        """How long the list `e` is: a number known now, Python that reads it before the statement,
        PAID when making it was counted already (a comprehension), or None when none of these."""
        w = self.world
        value = fixed_value(e, self.resolver(scope))
        if isinstance(value, (list, tuple, dict)):
            return len(value)
        if isinstance(e, A.ListLit):
            return len(e.items)
        if isinstance(e, (A.ListComp, A.MapComp)):
            return self.known_sizes.get(id(e), PAID)  # (a list computed when compiling: its length)
        if isinstance(e, A.BinOp):  # `+` of lists: its making visits both parts, counted there
            return self.known_sizes.get(id(e), PAID)
        var = scope.lookup(e.name) if isinstance(e, A.Name) else None
        if var is not None and var.max_len is not None:
            return var.max_len  # at most that long: counted as if it were
        if isinstance(e, A.Name) and var is None:
            if e.name in ("seats",):
                return "c.nseats"
            if e.name == "nodes":
                return len(w.node_ids)
            for component in w.components.values():
                if e.name == component.collection:
                    return len(component.ids)
        if isinstance(e, A.Call):
            if id(e) in self.known_sizes:
                return self.known_sizes[id(e)]
            if e.name == "neighbours":
                return max((len(a) for a in w.adjacency), default=0)
            if e.name == "exits" and len(e.args) == 2 and isinstance(e.args[1], A.Template) \
                    and e.args[1].text in w.edges:
                return max((len(x) for x in w.edges[e.args[1].text]), default=0)
            if e.name == "seats_from":
                return "c.nseats"
            if e.name == "range":
                bounds = [fixed_value(a, self.resolver(scope)) for a in e.args]
                numbers = [b for b in bounds if type(b) is int]
                if len(numbers) == len(bounds):
                    return len(range(*numbers))
                return PAID  # _range counts the numbers it makes
            if e.name in BUILTINS and BUILTINS[e.name].paid_list:
                return PAID
        if _plain(e) and self.ahead(code):
            return f"len({code})"
        return None

    def ahead(self, code: str) -> bool:
        """Can this code be computed before the statement runs (it reads no variable of the
        statement's own comprehensions)?"""
        return all(int(n) <= self.stmt_start for n in _COMP_VAR.findall(code))

    def max_len(self, e: A.Expr, scope: Scope) -> int | None:
        """At most how many elements a new list has, when that is known now."""
        if isinstance(e, (A.ListComp, A.MapComp)):
            return self.max_len(e.iter, scope)
        if isinstance(e, A.BinOp) and e.op == "+":
            parts = [self.max_len(x, scope) for x in (e.left, e.right)]
            return None if None in parts else sum(p for p in parts if p is not None)
        size = self.size_of(e, "", scope) if not _plain(e) or isinstance(e, A.Name) else None
        return size if isinstance(size, int) else None

    @staticmethod
    def total(sizes: list[int | str | None]) -> int | str | None:
        """The length of a list made of lists of these lengths."""
        if all(isinstance(x, int) for x in sizes):
            return sum(x for x in sizes if isinstance(x, int))
        if all(isinstance(x, (int, str)) and x != PAID for x in sizes):
            return " + ".join(str(x) for x in sizes if x is not None)
        return PAID

    def counted(self, e: A.Expr, code: str, scope: Scope, per: Cost | None = None) -> str:
        """Count a visit of every element of the list `e` (with `per` more work for each element);
        the code to use for `e` (wrapped in `_cnt` when its length is only known as it runs)."""
        if not cost.COUNT_WORK:
            return code
        per = per or Cost()
        size = self.size_of(e, code, scope)
        if size == PAID:  # visiting was counted when the list was made; more work per element is not
            if self.charges.off or (not per.static and not per.terms):
                return code
            return f"_cnt(c, {code}, {per.extra()})"
        if size is None:
            if self.charges.off:
                return code
            return f"_cnt(c, {code}, {per.per_element()})"
        self.charges.charge_cost(per.times(size))
        return code


def _plain(e: A.Expr) -> bool:
    """A read of a variable or a field, with plain indexes: cheap and safe to compute twice."""
    if isinstance(e, A.Name):
        return True
    if isinstance(e, A.Attr):
        return _plain(e.obj)
    if isinstance(e, A.Index):
        return _plain(e.obj) and _plain(e.index)
    return isinstance(e, (A.Num, A.Bool, A.NoneLit))
