"""Kept values (hoist.py) held in a plain local instead of a one-element list, where Python allows it.

hoist.py keeps a value in a cell made before its statement, `_h3 = [_U]`, read as
`(_h3[0] if _h3[0] is not _U else _set(_h3, <code>))`: that form is valid anywhere an expression
is. Where every read of the value allows an assignment expression, the cell becomes the local
itself, `_h3 = _U`, read as `(_h3 if _h3 is not _U else (_h3 := <code>))`: two subscripts and a
call fewer at every read (a path search tests each square it reaches against a kept list).

The value is computed at the same place, at the same time, and kept only when computing it
succeeds, as before. Python refuses `:=` in what a comprehension runs over, and inside a `lambda`
it would name the lambda's own variable: a value read there keeps its cell.
"""

from __future__ import annotations

import re
from typing import TypeVar

S = TypeVar("S")  # where a line comes from in the rules (a Span, or None)

_CELL = re.compile(r"(_h\d+) = \[_U\]")


def local_kept(body: list[tuple[int, str, S]]) -> list[tuple[int, str, S]]:
    """The lines of one generated function, with its kept values in plain locals where allowed."""
    lines = [text for _, text, _ in body]
    for text in lines[:]:
        cell = _CELL.fullmatch(text)
        if cell is not None:
            lines = _as_local(cell.group(1), lines)
    return [(depth, text, span) for (depth, _, span), text in zip(body, lines)]


def _as_local(name: str, lines: list[str]) -> list[str]:
    """The lines with one kept value in a local, or as they were when a read does not allow it."""
    mention = re.compile(rf"\b{name}\b")
    read = f"{name}[0] if {name}[0] is not _U else _set({name}, "
    changed: list[str] = []
    for text in lines:
        if text == f"{name} = [_U]":
            changed.append(f"{name} = _U")
            continue
        found = len(mention.findall(text))
        if not found:
            changed.append(text)
            continue
        reads = text.count(read)
        if found != 3 * reads or "lambda" in text:  # a mention that is no read, or a lambda's
            return lines
        local = text.replace(read, f"{name} if {name} is not _U else ({name} := ")
        if not _allowed(local):
            return lines
        changed.append(local)
    return changed


def _allowed(text: str) -> bool:
    """Does Python accept this line (a statement, or the head of a block) in a function?"""
    line = text.strip()
    if line.startswith("elif "):
        line = line[2:]
    elif line.startswith("try: "):
        line = line[5:]
    if line.endswith(":"):
        line += " pass"
    try:
        compile(f"def _line():\n    {line}\n", "<kept>", "exec")
    except SyntaxError:
        return False
    return True
