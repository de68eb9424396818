"""A value of a scenario file together with where it is, and the problems found in one."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ruledsl.diagnostics import Diagnostic, Span

from ..load.yamlsource import PathItem, PositionMap


@dataclass(frozen=True)
class Y:
    """A value read from a scenario file, with the path to it so that any part can be located."""

    value: Any
    path: tuple[PathItem, ...]
    pos: PositionMap

    @property
    def span(self) -> Span:
        """Where the value is written."""
        return self.pos.nearest(self.path)

    @property
    def key_span(self) -> Span:
        """Where the mapping key naming this value is written (the value's own span if none)."""
        return self.pos.key_span(self.path) or self.span

    def at(self, key: PathItem) -> "Y":
        """The part of a list or mapping at `key`."""
        return Y(self.value[key], self.path + (key,), self.pos)

    def items(self) -> Iterator[tuple["Y", "Y"]]:
        """A mapping's keys (located at the key) and values, in the written order."""
        for key in self.value:
            part = self.at(key)
            yield Y(key, part.path, _KeyPositions(self.pos)), part

    def elements(self) -> Iterator["Y"]:
        """A list's elements."""
        for i in range(len(self.value)):
            yield self.at(i)


class _KeyPositions(PositionMap):
    """Positions of mapping keys: a key's span is where the key is written."""

    def __init__(self, pos: PositionMap) -> None:
        super().__init__(pos.file)
        self._of = pos

    def nearest(self, path: Any) -> Span:
        return self._of.key_span(tuple(path)) or self._of.nearest(path)

    def key_span(self, path: Any) -> Span | None:
        return self._of.key_span(tuple(path))


@dataclass(frozen=True)
class Failure:
    """Why a scenario failed: a diagnostic at its line, and lines that say more (what did happen)."""

    diagnostic: Diagnostic
    details: tuple[str, ...] = ()


class Problem(Exception):
    """Something wrong in a scenario file, at a place in it: becomes a diagnostic."""

    def __init__(self, span: Span, code: str, message: str, hint: str | None = None):
        super().__init__(message)
        self.diagnostic = Diagnostic(span, code, message, "error", hint)


def kind_of(value: Any) -> str:
    """How a YAML value is described in messages."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__
