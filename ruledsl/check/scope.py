"""Names visible at a point of a rules file, and the Python expression that reads each one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..diagnostics import Span
from ..types import Type


@dataclass
class Var:
    """A local name: a `let`, a loop variable, a formula or phase parameter, a comprehension variable."""

    name: str
    type: Type
    code: str          # Python expression that reads it
    kind: str          # "local" | "param" | "loop" | "comp"
    span: Span
    used: bool = False
    # `let xs = []` has no element type yet: the first value added or stored gives it one.
    open_type: bool = False
    # A parameter of an inlined formula whose argument is a literal: its value, known when compiling.
    fixed: tuple[object] | None = None
    # A list never changed after it is made, with at most this many elements (for counting work).
    max_len: int | None = None


class Scope:
    """A block of names; lookups fall through to the enclosing block."""

    def __init__(self, parent: "Scope | None", persistent: bool, counter: list[int] | None = None):
        self.parent = parent
        self.vars: dict[str, Var] = {}
        # Locals of resumable phases live in the frame dict `L` so that they survive a pause.
        self.persistent = persistent
        self.counter: list[int] = counter if counter is not None else (parent.counter if parent else [0])

    def child(self) -> "Scope":
        """A nested block sharing the same storage discipline."""
        return Scope(self, self.persistent, self.counter)

    def lookup(self, name: str) -> Var | None:
        """The innermost variable with this name."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.vars:
                return scope.vars[name]
            scope = scope.parent
        return None

    def fresh(self, prefix: str) -> str:
        """A new Python identifier that no rule text can produce."""
        self.counter[0] += 1
        return f"_{prefix}{self.counter[0]}"

    def declare(self, name: str, type_: Type, kind: str, span: Span, comp: bool = False) -> Var:
        """Add a variable; its storage depends on the kind of function being compiled."""
        if comp:
            code = self.fresh("c")
        elif self.persistent:
            code = f"L[{name!r}]"
        else:
            code = self.fresh("l")
        var = Var(name, type_, code, kind, span)
        self.vars[name] = var
        return var

    def names(self) -> Iterator[str]:
        """Every visible name (for suggestions)."""
        scope: Scope | None = self
        while scope is not None:
            yield from scope.vars
            scope = scope.parent
