"""Names in a table that the rules meet with a board or item attribute, checked against it.

`mall_icons: [cup, bred]`, where the rules look for a card's `icon` in `mall_icons`, validates as
types, yet no card's icon is `bred`: the table can never match it. When the names pass
(namecheck.py) has joined a table's texts with an attribute's values, a text of the table that
no node or item has, and that is spelt nearly like one they have, is reported at its line of
the data. A table may hold names no node or item has (an icon of a later expansion): only a near
miss is taken for a mistake.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..diagnostics import Diagnostic, Related, Span, did_you_mean
from ..world import World
from .nameterms import Source, Term

CODE = "unknown-value"
_TABLES = ("values", "keys")
_ATTRIBUTES = ("item", "node", "edge")


def check_table_names(terms: Iterable[Term], world: World) -> list[Diagnostic]:
    """Every near miss between a table's texts and the attribute values they were joined with."""
    found: list[Diagnostic] = []
    for root in _classes(terms):
        names = root.names
        if names is None or names.declared or names.open:
            continue  # declared names are checked where the data is loaded
        attributes = [s for s in names.by_source if s.kind in _ATTRIBUTES]
        held = set().union(*(names.by_source[s] for s in attributes)) if attributes else set()
        if not held:
            continue
        for source, texts in names.by_source.items():
            if source.kind not in _TABLES:
                continue
            for text in sorted(texts - held):
                hint = did_you_mean(text, sorted(held))
                if hint is None:
                    continue
                where = _locate(world, source.name, text) or world.table_spans.get(source.name)
                if where is None:
                    continue
                found.append(Diagnostic(where, CODE, f"table {source.name} holds {text!r}, but "
                                        + attributes[0].missing(text), "error", hint,
                                        _note(world, attributes[0])))
    return found


def _classes(terms: Iterable[Term]) -> Iterator[Term]:
    """The root of every class inside these terms (lists' elements, maps' keys, values and entries)."""
    seen: set[int] = set()
    todo = list(terms)
    while todo:
        root = todo.pop().find()
        if id(root) in seen:
            continue
        seen.add(id(root))
        yield root
        todo.extend(root.args)
        todo.extend(root.parts.values())


def _locate(world: World, table: str, text: str) -> Span | None:
    """Where the text is written in the table (as a value or as a key), the first time."""
    source = world.table_sources.get(table)
    if source is None:
        return None
    path = _path_to(source.value, text)
    return source.locate(path) if path is not None else None


def _path_to(value: object, text: str) -> tuple[object, ...] | None:
    if value == text:
        return ()
    if isinstance(value, dict):
        for k, v in value.items():
            if k == text:
                return (k,)
            found = _path_to(v, text)
            if found is not None:
                return (k,) + found
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            found = _path_to(v, text)
            if found is not None:
                return (i,) + found
    return None


def _note(world: World, source: Source) -> tuple[Related, ...]:
    """A note at the attribute's first value in its file, when it can be found."""
    if source.kind == "item":
        component = world.components.get(source.owner)
        data = component.attr_sources.get(source.name) if component is not None else None
    else:
        data = world.node_attr_sources.get(source.name)
    span = data.locate((0,)) if data is not None else None
    whose = f"the {source.owner}s'" if source.kind == "item" else "the board's"
    return (Related(span, f"{whose} {source.name} values start here"),) if span is not None else ()
