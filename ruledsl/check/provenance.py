"""Where the type of a value read by the rules comes from, for the notes under a type error.

Tables and board or item attributes get their types from the values written in the data; state
fields get theirs from a declaration. When the rules use such a value with the wrong type, the
mistake is often in the data (`shops_at_start: four`), so the error at the rules line gets a note
that points at the data line: "`shops_at_start` is text because game.yaml:46:19 holds 'four'".
"""

from __future__ import annotations

import json
from typing import NamedTuple

from ..diagnostics import Related, Span
from ..printable import printable
from ..types import Type, type_of_data
from ..world import DataSource, Field


class _Every:
    """A step into every part of a list or map: a part picked at run time (`prices[kind]`)."""

    def __repr__(self) -> str:
        return "EVERY"


EVERY = _Every()

# Past this many parts the search for a witness stops: a note is a help, not a scan of big data.
_SEARCH_LIMIT = 10_000
_SHOWN_CHARS = 40


class Origin(NamedTuple):
    """What an expression reads: data (a source and the steps into it) or a declared field.

    (A named tuple: one is made for every read of data or of a field while the rules compile.)
    """

    label: str
    source: DataSource | None = None
    steps: tuple[object, ...] = ()
    field: Field | None = None

    def part(self, label: str, key: object) -> "Origin | None":
        """The origin of a part of this value (`key`, or EVERY when picked at run time)."""
        if self.source is None:
            return None
        return Origin(label, self.source, self.steps + (key,))

    def named(self, label: str) -> "Origin":
        """The same origin read under another name (a variable made with `let`)."""
        return Origin(label, self.source, self.steps, self.field)


def describe(t: Type) -> str:
    """A type in the words of a designer reading the YAML: 'text', 'a number', 'a list'."""
    return {"int": "a number", "str": "text", "bool": "true or false", "list": "a list", "map": "a map",
            "none": "none"}.get(t.kind, str(t))


def shown(value: object) -> str:
    """A data value as a note quotes it: short, one line, no control characters."""
    text = f"'{value}'" if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if len(text) > _SHOWN_CHARS:
        text = text[:_SHOWN_CHARS - 3] + "..."
    return printable(text)


def explain(origin: Origin, t: Type) -> tuple[Related, ...]:
    """The note saying where a value of type `t` read through `origin` was written or declared."""
    if origin.field is not None:
        f = origin.field
        if f.type.kind != t.kind:
            return ()
        declared = f.type_span or f.span
        return (Related(declared, f"`{origin.label}` is {describe(f.type)} because {_at(declared)} declares "
                                  f"'{f.name}' as {f.type}"),)
    if origin.source is None or t.kind not in ("int", "str", "bool", "list", "map", "none"):
        return ()
    budget = [_SEARCH_LIMIT]
    for path, value in _parts(origin.source.value, origin.steps, budget):
        found = _witness(path, value, t, budget)
        if found is None:
            continue
        where = origin.source.locate(found[0])
        if where is None:
            return ()
        verb = "is" if found[0] == path else "holds"
        return (Related(where, f"`{origin.label}` {verb} {describe(t)} because {_at(where)} holds "
                               f"{shown(found[1])}"),)
    return ()


def _kind(value: object) -> str:
    """The kind of type a value written in the data has (the top of what type_of_data says)."""
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict):
        return "map"
    return type_of_data(value).kind


def _at(span: Span) -> str:
    return f"{span.file}:{span.line}:{span.column}"


def _children(value: object) -> list[tuple[object, object]]:
    if isinstance(value, (list, tuple)):
        return list(enumerate(value))
    if isinstance(value, dict):
        return list(value.items())
    return []


def _parts(value: object, steps: tuple[object, ...], budget: list[int]) -> list[tuple[tuple[object, ...], object]]:
    """The parts of `value` the steps can reach, with their paths, in file order."""
    found: list[tuple[tuple[object, ...], object]] = [((), value)]
    for step in steps:
        following: list[tuple[tuple[object, ...], object]] = []
        for path, part in found:
            for key, child in _children(part):
                budget[0] -= 1
                if budget[0] < 0:
                    return following
                if step is EVERY or key == step:
                    following.append((path + (key,), child))
        found = following
    return found


def _witness(path: tuple[object, ...], value: object, t: Type,
             budget: list[int]) -> tuple[tuple[object, ...], object] | None:
    """The first value, here or inside, whose own type is of the kind `t` (depth first)."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if _kind(value) == t.kind:
        return path, value
    for key, child in _children(value):
        found = _witness(path + (key,), child, t, budget)
        if found is not None:
            return found
    return None
