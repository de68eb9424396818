"""Choices whose options can visibly be empty: found before any game is played.

A `choose` over an empty list stops the game with "no legal option". Whether a list can be empty
usually depends on the game's own invariants, which no checker can know. This pass looks only at
what the phase itself shows: options narrowed by the `if` of a comprehension (directly, or through
a variable of the phase) that no test on their length protects. The results of formulas, fields
and tables are taken on trust; `cityrules validate --fuzz` finds those while games run.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Iterable

from ..syntax import ast as A

# How deep the definitions of variables are followed (`let b = a`, `let a = [...]`...).
_DEPTH = 6


def key(e: A.Expr) -> str:
    """The shape of an expression without its positions: two copies of a test compare equal."""
    if dataclasses.is_dataclass(e):
        parts = [type(e).__name__]
        for f in dataclasses.fields(e):
            if f.name == "span" or f.name.endswith("_span"):
                continue
            parts.append(key(getattr(e, f.name)))
        return "(" + " ".join(parts) + ")"
    if isinstance(e, tuple):
        return "[" + ",".join(key(x) for x in e) + "]"
    return repr(e)


def names_in(e: object) -> set[str]:
    """Every variable name an expression reads."""
    found: set[str] = set()
    if isinstance(e, A.Name):
        found.add(e.name)
    if dataclasses.is_dataclass(e):
        for f in dataclasses.fields(e):
            found |= names_in(getattr(e, f.name))
    elif isinstance(e, tuple):
        for x in e:
            found |= names_in(x)
    return found


class EmptyOptions:
    """Finds the choices of one phase whose options can be empty; `found` lists them."""

    def __init__(self, body: tuple[A.Stmt, ...], never_empty: Callable[[str], bool]):
        self.never_empty = never_empty
        self.defs: dict[str, list[A.Expr]] = {}
        self.shrunk: set[str] = set()
        self.found: list[A.Choose] = []
        if _asks(body):  # (most phases ask nothing: no choice of theirs to judge)
            self._collect(body)
            self._walk(body, frozenset())

    # ------------------------------------------------------------ variables
    def _collect(self, stmts: tuple[A.Stmt, ...]) -> None:
        for s in stmts:
            if isinstance(s, A.Let):
                self.defs.setdefault(s.name, []).append(s.value)
            elif isinstance(s, A.Assign) and isinstance(s.target, A.Name):
                if s.op == "=":
                    self.defs.setdefault(s.target.name, []).append(s.value)
            elif isinstance(s, A.Remove) and isinstance(s.target, A.Name):
                self.shrunk.add(s.target.name)
            for child in A.child_blocks(s):
                self._collect(child)

    # ----------------------------------------------------------------- walk
    def _walk(self, stmts: tuple[A.Stmt, ...], known: frozenset[str]) -> None:
        facts = set(known)
        for s in stmts:
            if isinstance(s, A.Choose):
                if self._filtered(s.options, 0) and not self._non_empty(s.options, frozenset(facts), 0):
                    self.found.append(s)
            elif isinstance(s, A.If):
                passed: set[str] = set()
                for cond, body in s.branches:
                    self._walk(body, frozenset(facts | passed | when_true(cond)))
                    passed |= when_false(cond)
                self._walk(s.orelse, frozenset(facts | passed))
                if len(s.branches) == 1 and _exits(s.branches[0][1]):
                    facts |= when_false(s.branches[0][0])
            elif isinstance(s, A.While):
                self._walk(s.body, frozenset(_after(facts, s.body) | when_true(s.cond)))
            elif isinstance(s, A.For):
                self._walk(s.body, frozenset(_after(facts, s.body)))
            facts = _after(facts, (s,))

    # ---------------------------------------------------------- judgements
    def _non_empty(self, e: A.Expr, facts: frozenset[str], depth: int) -> bool:
        if key(e) in facts or depth > _DEPTH:
            return key(e) in facts
        if isinstance(e, A.ListLit):
            return len(e.items) > 0
        if isinstance(e, A.BinOp) and e.op == "+":
            return self._non_empty(e.left, facts, depth + 1) or self._non_empty(e.right, facts, depth + 1)
        if isinstance(e, A.ListComp):
            return e.cond is None and self._non_empty(e.iter, facts, depth + 1)
        if isinstance(e, A.IfExp):
            return self._non_empty(e.then, facts, depth + 1) and self._non_empty(e.orelse, facts, depth + 1)
        if isinstance(e, A.Call) and e.name == "range":
            bounds = [a.value if isinstance(a, A.Num) else None for a in e.args]
            if None in bounds:
                return False
            return (bounds[0] or 0) > 0 if len(bounds) == 1 else (bounds[0] or 0) < (bounds[1] or 0)
        if isinstance(e, A.Name):
            if e.name in self.defs:
                return e.name not in self.shrunk and all(
                    self._non_empty(d, facts, depth + 1) for d in self.defs[e.name])
            return self.never_empty(e.name)
        return False

    def _filtered(self, e: A.Expr, depth: int) -> bool:
        """Whether the phase visibly narrows this list: only then is a warning worth giving."""
        if depth > _DEPTH:
            return False
        if isinstance(e, A.ListComp):
            return e.cond is not None or self._filtered(e.iter, depth + 1)
        if isinstance(e, A.BinOp) and e.op == "+":
            return self._filtered(e.left, depth + 1) or self._filtered(e.right, depth + 1)
        if isinstance(e, A.IfExp):
            return self._filtered(e.then, depth + 1) or self._filtered(e.orelse, depth + 1)
        if isinstance(e, A.Name) and e.name in self.defs:
            return e.name in self.shrunk or any(self._filtered(d, depth + 1) for d in self.defs[e.name])
        return False


# ------------------------------------------------------------------- tests
def _length_of(e: A.Expr) -> A.Expr | None:
    if isinstance(e, A.Call) and e.name in ("len", "count") and len(e.args) == 1:
        return e.args[0]
    return None


def _num(e: A.Expr) -> int | None:
    return e.value if isinstance(e, A.Num) else None


def _length_first(cond: A.BinOp) -> tuple[A.Expr, str, A.Expr]:
    """`0 < len(xs)` as `len(xs) > 0`: the length on the left, the comparison turned to match."""
    if _length_of(cond.right) is not None and _length_of(cond.left) is None:
        return cond.right, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(cond.op, cond.op), cond.left
    return cond.left, cond.op, cond.right


def when_true(cond: A.Expr) -> set[str]:
    """Lists a condition proves non-empty when it holds (`len(xs) > 0 and ...`)."""
    if isinstance(cond, A.BinOp) and cond.op == "and":
        return when_true(cond.left) | when_true(cond.right)
    if isinstance(cond, A.Not):
        return when_false(cond.operand)
    if not isinstance(cond, A.BinOp):
        return set()
    left, op, right = _length_first(cond)
    inner = _length_of(left)
    if inner is not None:
        n = _num(right)
        # `len(xs) > limit` for any limit: the designer is clearly thinking about the size.
        if op == ">" or (op == ">=" and n is not None and n >= 1) or (op == "!=" and n == 0):
            return {key(inner)}
    if op == "!=" and isinstance(right, A.ListLit) and not right.items:
        return {key(left)}
    return set()


def when_false(cond: A.Expr) -> set[str]:
    """Lists a condition proves non-empty when it fails (`if len(xs) == 0 or ...: return`)."""
    if isinstance(cond, A.BinOp) and cond.op == "or":
        return when_false(cond.left) | when_false(cond.right)
    if isinstance(cond, A.Not):
        return when_true(cond.operand)
    if not isinstance(cond, A.BinOp):
        return set()
    left, op, right = _length_first(cond)
    inner = _length_of(left)
    n = _num(right)
    if inner is not None and ((op == "==" and n == 0) or (op == "<" and n == 1) or (op == "<=" and n == 0)):
        return {key(inner)}
    if op == "==" and isinstance(right, A.ListLit) and not right.items:
        return {key(left)}
    return set()


# --------------------------------------------------------------- statements
def _asks(stmts: tuple[A.Stmt, ...]) -> bool:
    """Does `EmptyOptions._walk` meet a choice in these statements (it looks where this looks)?"""
    for s in stmts:
        if isinstance(s, A.Choose):
            return True
        if isinstance(s, A.If) and (any(_asks(body) for _, body in s.branches) or _asks(s.orelse)):
            return True
        if isinstance(s, (A.While, A.For)) and _asks(s.body):
            return True
    return False


def _exits(body: tuple[A.Stmt, ...]) -> bool:
    return bool(body) and isinstance(body[-1], (A.Return, A.Break, A.End))


def _changed(stmts: Iterable[A.Stmt]) -> set[str]:
    """Variables a block may change: facts about them no longer hold after it."""
    found: set[str] = set()
    for s in stmts:
        if isinstance(s, (A.Let, A.Choose, A.Roll, A.Draw)):
            found.add(s.name if isinstance(s, A.Let) else s.var)
            if isinstance(s, A.Draw):
                found |= names_in(s.source)
        elif isinstance(s, (A.Assign, A.Remove, A.Add)):
            found |= names_in(s.target)
        for child in A.child_blocks(s):
            found |= _changed(child)
    return found


def _after(facts: set[str], stmts: tuple[A.Stmt, ...]) -> set[str]:
    """The facts that still hold once the statements have run; what they change is worked out only
    when there are facts to forget (most of a phase has none)."""
    return _forget(facts, _changed(stmts)) if facts else set()


def _forget(facts: set[str], changed: set[str]) -> set[str]:
    if not changed:
        return set(facts)
    return {f for f in facts if not any(f"(Name '{n}')" in f for n in changed)}
