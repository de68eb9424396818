"""Which formulas read no game state, and which of those are worth remembering.

A formula whose value depends only on its arguments and the game's fixed data (tables, board
attributes and edges, component attributes) gives the same value for the same arguments in every
game of the compiled program: a path search over the board's street graph is the example. Such a
formula can be computed once per argument list and remembered (`memoised`).

The pass looks at the checked tree only, and errs on the side of "reads state": any field of a
seat, node or item, the seats themselves (their number and names), and texts (which may show a
seat's name) count as state.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable, Mapping

from ..builtins import BUILTINS
from ..syntax import ast as A
from ..world import World

# Parameter types whose values can key a dictionary (item kinds are checked separately).
_HASHABLE = re.compile(r"(int|str|bool|node|seat)\??")


def walk(node: object) -> Iterable[object]:
    """Every node of a tree, the node itself first."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, tuple):
            todo.extend(node)
        elif isinstance(node, A.Node):
            todo.extend(getattr(node, name) for name in _children(type(node)))


_CHILDREN: dict[type, tuple[str, ...]] = {}


def _children(kind: type) -> tuple[str, ...]:
    """The fields of a kind of node that may hold nodes (not its positions)."""
    names = _CHILDREN.get(kind)
    if names is None:
        names = _CHILDREN[kind] = tuple(f.name for f in dataclasses.fields(kind)
                                        if f.name != "span" and not f.name.endswith("_span"))
    return names


def _declared(formula: A.Formula) -> set[str]:
    """Every name the formula declares: parameters, lets, loop and comprehension variables."""
    names = {p.name for p in formula.params}
    for n in walk((formula.expr, formula.body)):
        if isinstance(n, (A.Let, A.For)):
            names.add(n.name if isinstance(n, A.Let) else n.var)
        elif isinstance(n, (A.ListComp, A.MapComp)):
            names.add(n.var)
    return names


def _field_names(world: World) -> set[str]:
    names = set(world.seat_fields) | set(world.node_fields) | {"name"}
    for component in world.components.values():
        names |= set(component.fields)
    return names


def _direct(formula: A.Formula, formulas: Mapping[str, A.Formula], world: World, fields: set[str]
            ) -> tuple[set[str], bool, set[str]]:
    """What a formula's own text reads: the state fields it names, whether it reads anything else of
    the game (the seats themselves, a text that may show a seat's name), and the formulas it calls."""
    local = _declared(formula)
    named: set[str] = set()
    other = False
    called: set[str] = set()
    for n in walk((formula.expr, formula.body)):
        if isinstance(n, A.Name) and n.name not in local and n.name in world.global_fields:
            named.add(n.name)
        elif isinstance(n, A.Name) and n.name not in local and n.name == "seats":
            other = True
        elif isinstance(n, A.Attr) and n.name in fields:
            named.add(n.name)
        elif isinstance(n, A.Template) and not n.is_plain:
            other = True
        elif isinstance(n, A.Call):
            if n.name in formulas:
                called.add(n.name)
            elif n.name in BUILTINS and BUILTINS[n.name].reads_seats:
                other = True
    return named, other, called


def _direct_all(formulas: Mapping[str, A.Formula], world: World, among: Iterable[str] | None
                ) -> dict[str, tuple[set[str], bool, set[str]]]:
    """`_direct` of the formulas `among` (all when None) and of every formula they call."""
    fields = _field_names(world)
    found: dict[str, tuple[set[str], bool, set[str]]] = {}
    todo = list(formulas if among is None else among)
    while todo:
        name = todo.pop()
        if name not in found:
            found[name] = _direct(formulas[name], formulas, world, fields)
            todo.extend(found[name][2])
    return found


def state_free(formulas: Mapping[str, A.Formula], world: World, among: Iterable[str] | None = None) -> set[str]:
    """The formulas that read no game state, directly or through the formulas they call.

    `among`: only these formulas, and those they call, are looked at (the answer for them is the same).
    """
    direct = _direct_all(formulas, world, among)
    free = {name for name, (named, other, _) in direct.items() if not named and not other}
    changed = True
    while changed:  # a formula calling one that reads state reads state (recursion included)
        changed = False
        for name in list(free):
            if any(c not in free or c == name for c in direct[name][2]):
                free.discard(name)
                changed = True
    return free


def fields_read(formulas: Mapping[str, A.Formula], world: World) -> dict[str, frozenset[str]]:
    """The state fields (of the game, the seats, the board's nodes, the components) each formula may
    read, by name, directly or through the formulas it calls: what decides whether its value can
    differ between two seats' views of one state."""
    direct = _direct_all(formulas, world, None)
    reads = {name: set(named) for name, (named, _, _) in direct.items()}
    changed = True
    while changed:  # what a called formula reads, read by its callers (recursion included)
        changed = False
        for name, (_, _, called) in direct.items():
            before = len(reads[name])
            for c in called:
                reads[name] |= reads[c]
            changed |= len(reads[name]) != before
    return {name: frozenset(names) for name, names in reads.items()}


def _works(formula: A.Formula) -> bool:
    """Does the formula loop or build a list (so that remembering it saves more than it costs)?"""
    return any(isinstance(n, (A.For, A.While, A.ListComp, A.MapComp)) for n in walk((formula.expr, formula.body)))


def memoised(formulas: Mapping[str, A.Formula], world: World, among: Iterable[str] | None = None) -> set[str]:
    """State-free formulas worth remembering, whose arguments can key a dictionary.

    `among`: the only formulas asked about (others are left out of the answer, whatever they are).
    """
    kinds = set(world.components)
    wanted = [name for name in (formulas if among is None else among)
              if all(_HASHABLE.fullmatch(p.type_text) or p.type_text.rstrip("?") in kinds
                     for p in formulas[name].params) and _works(formulas[name])]
    return state_free(formulas, world, wanted) & set(wanted)


def memo_key(args: list[str]) -> str:
    """Python for the key a remembered formula's value is kept under, from its arguments' code."""
    return args[0] if len(args) == 1 else "(" + "".join(a + ", " for a in args) + ")"


def memo_read(table: str, function: str, args: list[str], var: str) -> str:
    """Python reading a remembered formula's value where it is called, or calling it.

    The wrapper's own test (formulas.py) written in place, which saves a Python call per use. The
    arguments are computed twice when the value must be computed, so they must be plain reads.
    `var` is assigned in the enclosing function: the code must not go in a comprehension.
    """
    call = f"{function}(c{''.join(', ' + a for a in args)})"
    return (f"({var}[0] if ({var} := {table}.get({memo_key(args)})) is not None and c.steps >= {var}[1] "
            f"else {call})")
