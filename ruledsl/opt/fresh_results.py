"""Formulas whose value is always a list or map made by the call itself, shared with nothing.

A value the rules keep (`let options = moves(face)`) is copied, so that no two names share a list
(codegen.copy_code): a formula may hand back a list it was given, a list of the state, or a value
it remembers from an earlier call. A formula that always hands back a list it made itself, a
comprehension, a list written out, a sum of lists, or a variable of its own that only ever held
such a list, shares it with nothing once it returns: the copy would copy a list nobody else has.
The copy's work is still counted (the count depends on the rules only); only the copying goes.

Remembered formulas (purity.py) are never fresh: every call gives the same list.
"""

from __future__ import annotations

from ..gen.codegen import _FRESH
from ..syntax import ast as A
from .purity import walk


def fresh_results(formulas: dict[str, A.Formula], remembered: set[str]) -> set[str]:
    """The formulas whose every value is a new list or map that nothing else holds."""
    fresh: set[str] = set()
    changed = True
    while changed:  # a formula returning another's value is fresh once that one is known to be
        changed = False
        for name, formula in formulas.items():
            if name not in fresh and name not in remembered and _gives_new(formula, fresh):
                fresh.add(name)
                changed = True
    return fresh


def _new(e: A.Expr | None, fresh: set[str]) -> bool:
    """Is e's value a new list or map? (Its elements may still be shared: callers check that they
    are plain values.)"""
    if isinstance(e, _FRESH):
        return True
    if isinstance(e, A.BinOp):  # `a + b` of lists makes a new list, whatever a and b are
        return e.op == "+"
    if isinstance(e, A.IfExp):
        return _new(e.then, fresh) and _new(e.orelse, fresh)
    return isinstance(e, A.Call) and e.name in fresh


def _gives_new(formula: A.Formula, fresh: set[str]) -> bool:
    if formula.expr is not None:
        return _new(formula.expr, fresh)
    owned = _owned_locals(formula, fresh)
    returns = [s.value for s in walk(formula.body) if isinstance(s, A.Return)]
    return bool(returns) and all(_new(v, fresh) or isinstance(v, A.Name) and v.name in owned for v in returns)


def _owned_locals(formula: A.Formula, fresh: set[str]) -> set[str]:
    """Variables of the formula given only new lists or maps: by `let`, by `=`, and changed in place."""
    made: set[str] = set()
    other: set[str] = {p.name for p in formula.params}
    for s in walk(formula.body):
        if isinstance(s, A.Let):
            (made if _new(s.value, fresh) else other).add(s.name)
        elif isinstance(s, A.Assign) and isinstance(s.target, A.Name) and s.op == "=" and not _new(s.value, fresh):
            other.add(s.target.name)
        elif isinstance(s, A.For):
            other.add(s.var)
    return made - other

