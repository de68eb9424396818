"""A field that gives up items as a place does, missing from its kind's `places`.

`places` lists the fields that together hold every item of a kind once. A field the rules `draw`
from, or `remove` an item from, holds items that leave it: it is one of the places. Left off the
list, the items it holds are taken for lost (or for held twice) by the bots' sampling, by a
scenario's `set` and by the conformance suite, far from the mistake. A field that only records
items it does not hold (`add c to activated`, then `activated = []`) is no place, and is left alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import Any, get_args

from ruledsl.diagnostics import Diagnostic, Related, Span
from ruledsl.program import AbilityCode
from ruledsl.syntax import ast as A
from ruledsl.types import Type


def unlisted_places(trees: Iterable[A.RulesFile], abilities: Iterable[AbilityCode],
                    places: Mapping[str, tuple[str, ...]], declared_at: Mapping[str, Span],
                    seat_fields: Mapping[str, Type], global_fields: Mapping[str, Type],
                    other_fields: set[str]) -> list[Diagnostic]:
    """An error for each field, not in its kind's places, that the rules take items out of.

    `declared_at`: where each kind's `places` is written; `other_fields`: names of node and item
    fields, which a `.name` may mean as well (those are not checked).
    """
    found: dict[tuple[str, str], Diagnostic] = {}
    bodies: list[Any] = [p for tree in trees for p in (*tree.phases, *tree.formulas)]
    bodies += [body for code in abilities for body in code.bodies if body is not None]
    listed_anywhere = {name for listed in places.values() for name in listed}
    for body in bodies:
        # Items taken out of a place, by the variable holding them: where the rules then add them.
        moved: dict[str, list[tuple[A.Add, str]]] = {}
        suspects: list[tuple[A.Node, str, str]] = []  # (rule, field, what the rule does)
        for node in _nodes(body):
            if isinstance(node, (A.Draw, A.Remove)):
                target, verb = (node.source, "draw") if isinstance(node, A.Draw) else (node.target, "remove")
                name = _field_name(target, seat_fields, global_fields, other_fields)
                if name is not None and name in listed_anywhere:
                    moved.update({var: [] for var in _taken(node)})
                elif name is not None:
                    suspects.append((node, name, verb))
            elif isinstance(node, A.Add) and isinstance(node.value, A.Name) and node.value.name in moved:
                name = _field_name(node.target, seat_fields, global_fields, other_fields)
                if name is not None:
                    moved[node.value.name].append((node, name))
        for adds in moved.values():
            # An item added to a place and also to another field is recorded there, not moved there.
            if adds and not any(name in listed_anywhere for _, name in adds):
                suspects.append((adds[0][0], adds[0][1], "move"))
        for node, name, verb in suspects:
            t = seat_fields.get(name) or global_fields.get(name)
            for kind, listed in places.items():
                if t is None or not _holds(t, kind) or (kind, name) in found:
                    continue
                what = f"move {kind}s into" if verb == "move" else f"{verb} {kind}s from"
                found[(kind, name)] = Diagnostic(
                    declared_at[kind], "places", f"'{name}' holds {kind}s as a place does (the rules {what} it), "
                    f"but it is not in the places of {kind}", "error",
                    f"add it: places: [{', '.join((*listed, name))}]",
                    (Related(node.span, f"the rules {what} '{name}' here"),))
    return list(found.values())


def _field_name(target: A.Expr, seat_fields: Mapping[str, Type], global_fields: Mapping[str, Type],
                other_fields: set[str]) -> str | None:
    """The seat or global field an expression names (`deck`, `s.hand`), or None."""
    if isinstance(target, A.Name) and target.name in global_fields:
        return target.name
    if isinstance(target, A.Attr) and target.name in seat_fields and target.name not in other_fields:
        return target.name
    return None


def _taken(node: A.Draw | A.Remove) -> set[str]:
    """The variable that holds the item a `draw` or `remove` takes out, when it is one."""
    if isinstance(node, A.Draw):
        return {node.var}
    return {node.value.name} if isinstance(node.value, A.Name) else set()


def _holds(t: Type, kind: str) -> bool:
    return t.kind == kind or any(_holds(a, kind) for a in t.args)


def _nodes(root: Any) -> Iterator[Any]:
    """Every syntax node under this one but expressions (phases, formulas, statements), in the written order."""
    todo = [root]
    while todo:  # a stack, not recursion: an editor asks at every keystroke, for every phase
        node = todo.pop()
        if isinstance(node, (tuple, list)):
            todo.extend(reversed(node))
            continue
        kind = type(node)
        if kind in _EXPRESSIONS:
            continue  # expressions hold no statements: what the rules do with items is in those
        if kind not in _FIELDS:
            _FIELDS[kind] = _node_fields(kind)
        names = _FIELDS[kind]
        if names is not None:
            yield node
            todo.extend(getattr(node, name) for name in reversed(names))


_FIELDS: dict[type, tuple[str, ...] | None] = {}
_EXPRESSIONS = frozenset(get_args(A.Expr))


def _node_fields(kind: type) -> tuple[str, ...] | None:
    """The fields of a kind of syntax node; None for what is no node (a position, a text, a number)."""
    if not is_dataclass(kind) or issubclass(kind, Span):
        return None
    return tuple(f.name for f in fields(kind))
