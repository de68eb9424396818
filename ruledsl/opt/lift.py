"""Comprehensions that make a whole statement's list become plain loops.

In Python 3.11 a list comprehension is a function of its own: it is made and called every time it
runs, and reads the variables of the function around it through cells. An option list rebuilt at
every step of a phase (`[("buy", card) for card in market() if affordable(player, card)]`, asked
several times a turn) pays that every time. Where a generated statement assigns or returns a
list made only of comprehensions and list displays joined by `+`, each comprehension becomes a
loop that appends to the list.

Every expression is evaluated as often, and in the same order, as before (the displays and
comprehensions left to right, each comprehension's list before its elements), but for these, none
of which can change a result or an error:
- a part of the condition that reads nothing the loop changes (`player.tokens > 0`) is computed
  once, before the loop, when every part before it is one that cannot fail (see `Known`): when it
  is false the loop is skipped, as no element could pass; when computing it fails, the loop runs
  as written, so the error comes where and when it came before;
- in the same place, a part comparing such a value with a fixed table's value for the element
  (`player.money >= price[card]`) first tests the value against the table's least (or greatest)
  value: when no element could pass, the loop is skipped (and when the test fails, runs as written);
- a test that the loop's element is not none is dropped when the loop runs over fixed data that
  holds no none.
The new lines keep the statement's place in the rules, so an error still points where it did.
Statements of any other shape are left as they are.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TypeVar

S = TypeVar("S")  # where a line comes from in the rules (a Span, or None)

_TEMP = "_z"  # prefix of the names made here (no other generated name starts with it)


@dataclass
class Known:
    """What the generated code's names hold, as far as the lifting needs to know.

    `constants`: the module's constants (tables, folded lists, per-node tables...) that nothing
    changes; `sizes`: for the local name of a state column, how many elements it has (one per
    board node, or per item of a kind: the engine makes every state, journals hold only choices);
    `numbers`: the columns of those whose field is a whole number that is never none.
    """

    constants: dict[str, object] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    numbers: set[str] = field(default_factory=set)  # columns that hold whole numbers only (never none)

    def indexes(self, name: str) -> list[int] | None:
        """The elements of a fixed list of whole numbers (node or item indexes), else None."""
        value = self.constants.get(name)
        if isinstance(value, (list, tuple)) and all(type(v) is int for v in value):
            return list(value)
        return None

    def numbers_at(self, name: str, keys: list[int]) -> list[int] | None:
        """The whole numbers a fixed list or tuple holds at the keys (None if any is something else)."""
        value = self.constants.get(name)
        if not isinstance(value, (list, tuple)) or not self.holds(name, keys):
            return None
        found = [value[k] for k in keys]
        return found if all(type(v) is int for v in found) else None

    def holds(self, name: str, keys: list[int]) -> bool:
        """Can every key be looked up in `name` (a fixed list or tuple, or a state column)?"""
        value = self.constants.get(name)
        size = len(value) if isinstance(value, (list, tuple)) else self.sizes.get(name)
        return size is not None and all(0 <= k < size for k in keys)


def lift_comprehensions(body: list[tuple[int, str, S]], known: Known | None = None) -> list[tuple[int, str, S]]:
    """The lines of one generated function, with whole-statement comprehensions made loops."""
    out: list[tuple[int, str, S]] = []
    lifter = _Lifter(known or Known())
    for depth, text, span in body:
        lifted = lifter.lift(text) if " for " in text else None
        if lifted is None:
            out.append((depth, text, span))
        else:
            out.extend((depth + extra, line, span) for extra, line in lifted)
    return out


class _Lifter:
    """Makes the loops of the statements of one function (its temporary names are its own)."""

    def __init__(self, known: Known) -> None:
        self.known = known
        self.names = 0

    def fresh(self) -> str:
        self.names += 1
        return f"{_TEMP}{self.names}"

    def lift(self, text: str) -> list[tuple[int, str]] | None:
        """The loop lines of one statement (with their extra indentation), or None to keep it."""
        if "\x01" in text or "\x02" in text:  # a charge still to be resolved (budget.PhaseWork)
            return None
        try:
            tree = ast.parse(text.strip())
        except SyntaxError:
            return None
        if len(tree.body) != 1:
            return None
        stmt = tree.body[0]
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target: ast.expr | None = stmt.targets[0]
            value = stmt.value
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            target, value = None, stmt.value
        else:
            return None
        parts = _parts(value)
        if parts is None or not any(isinstance(p, ast.ListComp) for p in parts):
            return None
        # Build in the target itself when it is a plain variable the list does not read.
        direct = (isinstance(target, ast.Name)
                  and not any(isinstance(n, ast.Name) and n.id == target.id for n in ast.walk(value)))
        name = target.id if direct and isinstance(target, ast.Name) else self.fresh()
        lines: list[tuple[int, str]] = []
        assigned = _assigned(value)
        for i, part in enumerate(parts):
            if isinstance(part, ast.List):
                lines.append((0, f"{name} {'+=' if i else '='} {ast.unparse(part)}"))
                continue
            if not i:
                lines.append((0, f"{name} = []"))
            lines.extend(self._loop(part, name, assigned))
        if target is None:
            lines.append((0, f"return {name}"))
        elif not direct:
            lines.append((0, f"{ast.unparse(target)} = {name}"))
        return lines

    def _loop(self, comp: ast.ListComp, into: str, assigned: set[str]) -> list[tuple[int, str]]:
        """The lines of one comprehension's loop, appending to `into`."""
        gen = comp.generators[0]
        var = gen.target.id if isinstance(gen.target, ast.Name) else ""
        keys = self.known.indexes(gen.iter.id) if isinstance(gen.iter, ast.Name) else None
        tests = [_Simplify(var).visit(t) for t in gen.ifs] if keys is not None else list(gen.ifs)
        conjuncts = [c for t in tests for c in _conjuncts(t)]
        hoisted: list[ast.expr] = []  # parts computed before the loop instead of in it
        needed: list[ast.expr] = []   # what must hold for any element to pass (the loop is skipped if not)
        # Only while every part before cannot fail, and the list is a plain name (skipping the loop
        # then skips no error and no work it counts).
        ahead = isinstance(gen.iter, ast.Name)
        for c in conjuncts:
            if not ahead:
                break
            if _invariant(c, assigned | {var, into}):
                hoisted.append(c)
                continue
            bound = self._bound(c, var, keys, assigned | {var, into})
            if bound is not None:
                needed.append(bound)
            ahead = self._cannot_fail(c, var, keys)
        head = f"for {ast.unparse(gen.target)} in {ast.unparse(gen.iter)}:"
        append = f"{into}.append({ast.unparse(comp.elt)})"

        def body(parts: list[ast.expr], depth: int) -> list[tuple[int, str]]:
            test = _and(parts)
            return [(depth, head), (depth + 1, f"if {ast.unparse(test)}: {append}" if test else append)]

        if not hoisted and not needed:
            return body(conjuncts, 0)
        kept = [c for c in conjuncts if not any(c is h for h in hoisted)]
        flag = self.fresh()
        return ([(0, f"try: {flag} = {ast.unparse(_and(hoisted + needed) or ast.Constant(True))}"),
                 (0, f"except Exception: {flag} = _U"),  # computed again in the loop, to fail there
                 (0, f"if {flag} is _U:")] + body(conjuncts, 1)
                + [(0, f"elif {flag}:")] + body(kept, 1))

    def _bound(self, e: ast.expr, var: str, keys: list[int] | None, changing: set[str]) -> ast.expr | None:
        """For `x >= table[element]` (or >, <, <=, either way round) with x the same at every
        element and the table fixed: what x must be for any element to pass (`x >= min`)."""
        if keys is None or not isinstance(e, ast.Compare) or len(e.ops) != 1:
            return None
        op, left, right = e.ops[0], e.left, e.comparators[0]
        if _element_read(left, var) and not _element_read(right, var):
            op, left, right = _FLIPPED.get(type(op), ast.Eq)(), right, left
        if not isinstance(op, (ast.Gt, ast.GtE, ast.Lt, ast.LtE)) or not _element_read(right, var):
            return None
        assert isinstance(right, ast.Subscript) and isinstance(right.value, ast.Name)
        values = self.known.numbers_at(right.value.id, keys)
        if not values or not _invariant(left, changing):
            return None
        edge = min(values) if isinstance(op, (ast.Gt, ast.GtE)) else max(values)
        return ast.Compare(left, [op], [ast.Constant(edge)])

    def _number(self, e: ast.expr, var: str, keys: list[int] | None) -> bool:
        """Is e a whole number (never none) that cannot fail to be read, whatever the element?"""
        if isinstance(e, ast.Constant):
            return type(e.value) is int
        if keys is None or not _element_read(e, var):
            return False
        assert isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name)
        name = e.value.id
        return (self.known.numbers_at(name, keys) is not None
                or name in self.known.numbers and self.known.holds(name, keys))

    def _cannot_fail(self, e: ast.expr, var: str, keys: list[int] | None) -> bool:
        """Is e an expression that cannot raise, whatever the element (see `Known`)?"""
        if isinstance(e, (ast.Constant, ast.Name)):
            return True
        if isinstance(e, ast.Compare):
            operands = [e.left, *e.comparators]
            if all(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in e.ops):
                return all(self._number(x, var, keys) for x in operands)
            return (all(isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) for op in e.ops)
                    and all(self._cannot_fail(x, var, keys) for x in operands))
        if isinstance(e, ast.BoolOp):
            return all(self._cannot_fail(x, var, keys) for x in e.values)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return self._cannot_fail(e.operand, var, keys)
        if isinstance(e, ast.IfExp):
            return all(self._cannot_fail(x, var, keys) for x in (e.test, e.body, e.orelse))
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name):
            if e.value.id == "L" and isinstance(e.slice, ast.Constant):
                return True  # a variable of a phase that waits: as a plain name is, where the rules read it
            return keys is not None and _element_read(e, var) and self.known.holds(e.value.id, keys)
        return False


class _Simplify(ast.NodeTransformer):
    """Drops the tests that the loop's element is not none (it runs over fixed data with no none)."""

    def __init__(self, var: str) -> None:
        self.var = var

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:  # the ast module's naming
        node = self.generic_visit(node)  # type: ignore[assignment]
        test = node.test
        if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name)
                and test.left.id == self.var and isinstance(test.ops[0], ast.IsNot)
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
            return node.body
        return node


_FLIPPED: dict[type, type] = {ast.Gt: ast.Lt, ast.Lt: ast.Gt, ast.GtE: ast.LtE, ast.LtE: ast.GtE}


def _element_read(e: ast.expr, var: str) -> bool:
    """Is e `name[element]`?"""
    return (isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name)
            and isinstance(e.slice, ast.Name) and e.slice.id == var)


def _conjuncts(e: ast.expr) -> list[ast.expr]:
    """The parts of an `and` chain, left to right."""
    if isinstance(e, ast.BoolOp) and isinstance(e.op, ast.And):
        return [c for v in e.values for c in _conjuncts(v)]
    return [e]


def _and(parts: list[ast.expr]) -> ast.expr | None:
    return None if not parts else parts[0] if len(parts) == 1 else ast.BoolOp(ast.And(), parts)


def _assigned(e: ast.expr) -> set[str]:
    """The names whose value may change while a statement's expression runs: those it binds
    (comprehension variables, `:=`) and those it gives to a call (a kept value's cell, `_set`)."""
    names = {n.target.id for n in ast.walk(e) if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)}
    for n in ast.walk(e):
        if isinstance(n, ast.comprehension):
            names |= {t.id for t in ast.walk(n.target) if isinstance(t, ast.Name)}
        elif isinstance(n, ast.Call):
            names |= {t.id for a in n.args for t in ast.walk(a) if isinstance(t, ast.Name)}
    return names


def _invariant(e: ast.expr, changing: set[str]) -> bool:
    """Does e give the same value at every element, without side effects? Only reads of names the
    loop does not bind, fixed values, look-ups, comparisons and arithmetic qualify (no call, no `:=`)."""
    allowed = (ast.Name, ast.Constant, ast.Subscript, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp,
               ast.IfExp, ast.Load, ast.cmpop, ast.boolop, ast.unaryop, ast.operator, ast.Tuple)
    # (no attribute either: `c.steps` changes as the loop runs)
    return all(isinstance(n, allowed) and not (isinstance(n, ast.Name) and n.id in changing) for n in ast.walk(e))


def _parts(value: ast.expr) -> list[ast.List | ast.ListComp] | None:
    """The lists a `+` chain joins, left to right, when each is a display or a simple comprehension."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        left, right = _parts(value.left), _parts(value.right)
        return left + right if left is not None and right is not None else None
    if isinstance(value, ast.List) and isinstance(value.ctx, ast.Load):
        return [value]
    if (isinstance(value, ast.ListComp) and len(value.generators) == 1 and not value.generators[0].is_async
            and isinstance(value.generators[0].target, ast.Name)):
        return [value]
    return None
