"""Comprehensions that make a whole statement's list become plain loops.

In Python 3.11 a list comprehension is a function of its own: it is made and called every time it
runs, and reads the variables of the function around it through cells. An option list rebuilt at
every step of a phase (`[("buy", shop) for shop in shops() if can_buy(player, shop)]`, 38 shops,
asked several times a turn) pays that every time. Where a generated statement assigns or returns a
list made only of comprehensions and list displays joined by `+`, each comprehension becomes a
loop that appends to the list.

Nothing else changes: every expression is evaluated as often, and in the same order, as before
(the displays and comprehensions left to right, each comprehension's list before its elements).
The new lines keep the statement's place in the rules, so an error still points where it did.
Statements of any other shape are left as they are.
"""

from __future__ import annotations

import ast
from typing import TypeVar

S = TypeVar("S")  # where a line comes from in the rules (a Span, or None)

_TEMP = "_z"  # prefix of the lists built here (no other generated name starts with it)


def lift_comprehensions(body: list[tuple[int, str, S]]) -> list[tuple[int, str, S]]:
    """The lines of one generated function, with whole-statement comprehensions made loops."""
    out: list[tuple[int, str, S]] = []
    temps = 0
    for depth, text, span in body:
        lifted = _lift(text, f"{_TEMP}{temps}") if " for " in text else None
        if lifted is None:
            out.append((depth, text, span))
            continue
        temps += 1
        out.extend((depth + extra, line, span) for extra, line in lifted)
    return out


def _lift(text: str, temp: str) -> list[tuple[int, str]] | None:
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
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.value is not None:
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
    name = target.id if direct and isinstance(target, ast.Name) else temp
    lines: list[tuple[int, str]] = []
    started = False
    for part in parts:
        if isinstance(part, ast.List):
            lines.append((0, f"{name} {'+=' if started else '='} {ast.unparse(part)}"))
        else:
            if not started:
                lines.append((0, f"{name} = []"))
            gen = part.generators[0]
            lines.append((0, f"for {ast.unparse(gen.target)} in {ast.unparse(gen.iter)}:"))
            append = f"{name}.append({ast.unparse(part.elt)})"
            if gen.ifs:
                test = gen.ifs[0] if len(gen.ifs) == 1 else ast.BoolOp(ast.And(), list(gen.ifs))
                lines.append((1, f"if {ast.unparse(test)}: {append}"))
            else:
                lines.append((1, append))
        started = True
    if target is None:
        lines.append((0, f"return {name}"))
    elif not direct:
        lines.append((0, f"{ast.unparse(target)} = {name}"))
    return lines


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
