"""Does a loop's body change the list the loop runs over? If not, the loop need not copy it.

A `for` loop runs over its list as it was when the loop began, so the generated code copies the
list first. The copy is only needed when the body can change that list in place. Every value the
rules store is already a copy (see `codegen.copy_code`), so two names never share a list, with
one exception: a formula may hand back a list it was given or one of the state's own lists (not a
remembered one, purity.py: it takes plain values and reads no state). This pass compares what the
loop's list may be part of (its "roots": variables, global fields, fields of seats, nodes and
items) with what the body may change in place (`add`, `remove`, `draw`, `shuffle`, assignments into
a part of a list or map, and `run`, which may change any state).
"""

from __future__ import annotations

from typing import Callable

from ..builtins import BUILTINS
from ..syntax import ast as A
from ..world import World

# A root: ("var", name), ("global", name), ("field", name), or ANY_STATE for "some of the state".
Root = tuple[str, str]
ANY_STATE: Root = ("state", "*")



class Mutations:
    """Answers `loop_needs_copy` for one game's world and formulas."""

    def __init__(self, world: World, formulas: set[str], remembered: frozenset[str] = frozenset()):
        self.world = world
        self.formulas = formulas
        # Remembered formulas (purity.py) take plain values and read no state: their value is held
        # by the formula's memory alone, which no rule can change (a kept copy is a copy).
        self.remembered = remembered
        self.fields = set(world.seat_fields) | set(world.node_fields)
        for component in world.components.values():
            self.fields |= set(component.fields)

    def roots(self, e: A.Expr | None, deep: bool = False) -> set[Root]:
        """What a value may be, or be part of; `deep`: or share an element with (lists of lists)."""
        if e is None or isinstance(e, (A.Num, A.Bool, A.NoneLit, A.Template, A.Not, A.Neg)):
            return set()
        if isinstance(e, A.Name):
            return {("global", e.name)} if e.name in self.world.global_fields else {("var", e.name)}
        if isinstance(e, A.Attr):
            return {("field", e.name)} if e.name in self.fields else self.roots(e.obj, deep)
        if isinstance(e, A.Index):
            return self.roots(e.obj, deep)
        if isinstance(e, A.IfExp):
            return self.roots(e.then, deep) | self.roots(e.orelse, deep)
        found: set[Root] = set()
        if isinstance(e, (A.ListComp, A.MapComp)):  # a new list, of elements it may share
            return self.roots(e.iter, deep) | self.roots(e.elt if isinstance(e, A.ListComp) else e.value, deep) \
                if deep else found
        if isinstance(e, (A.ListLit, A.TupleLit)):
            for item in e.items:
                found |= self.roots(item, deep) if deep else set()
            return found
        if isinstance(e, A.MapLit):
            return set().union(*(self.roots(v, deep) for _, v in e.pairs)) if deep else found
        if isinstance(e, A.BinOp):  # arithmetic, comparisons and `+` of lists all make new values
            return self.roots(e.left, deep) | self.roots(e.right, deep) if deep and e.op == "+" else found
        if isinstance(e, A.Call):
            if e.name in self.remembered:
                return found
            if e.name in self.formulas:
                found.add(ANY_STATE)
                for arg in e.args:
                    found |= self.roots(arg, True)
                return found
            if e.name in BUILTINS and BUILTINS[e.name].new_list and not deep:
                return found
            for arg in e.args:  # max, min and get may return an element or a value of an argument
                found |= self.roots(arg, deep)
            return found
        return {ANY_STATE}

    def table_data(self, e: A.Expr, is_local: Callable[[str], bool]) -> bool:
        """Is the value a part of the game's tables alone (data no rule ever changes)?

        A variable never changed in place may then share it instead of holding a copy
        (`let rule = well_placed_rule[lot.plaque]`): nothing can change it through either name.
        """
        roots = self.roots(e, deep=True)
        return bool(roots) and all(kind == "var" and name in self.world.tables and not is_local(name)
                                   for kind, name in roots)

    def changed(self, body: tuple[A.Stmt, ...]) -> set[Root]:
        """Everything a block may change in place."""
        found: set[Root] = set()
        for s in body:
            if isinstance(s, (A.Add, A.Remove, A.Shuffle)):
                found |= self.roots(s.target)
            elif isinstance(s, A.Draw):
                found |= self.roots(s.source)
            elif isinstance(s, A.Assign) and isinstance(s.target, A.Index):
                found |= self.roots(s.target.obj)
            elif isinstance(s, A.Assign) and isinstance(s.target, A.Attr) and s.target.name not in self.fields:
                found |= self.roots(s.target.obj)  # a key of a map
            elif isinstance(s, (A.Run, A.RunAbility)):
                found.add(ANY_STATE)
            for block in A.child_blocks(s):
                found |= self.changed(block)
        return found

    def loop_needs_copy(self, loop: A.For, flat: bool) -> bool:
        """Can the body change, in place, the list the loop runs over (or, unless its elements are
        `flat` values, a list inside it)?"""
        roots = self.roots(loop.iter, deep=not flat)
        if not roots:
            return False
        changed = self.changed(loop.body)
        if roots & changed:
            return True
        if ANY_STATE in roots and any(r[0] != "var" for r in changed):
            return True
        return ANY_STATE in changed and any(r[0] != "var" for r in roots)


def changed_names(body: tuple[A.Stmt, ...]) -> set[str]:
    """The variables a block may give another value or change in place (by their names)."""
    found: set[str] = set()
    for s in body:
        target = s.target if isinstance(s, (A.Assign, A.Add, A.Remove, A.Shuffle)) else \
            s.source if isinstance(s, A.Draw) else None
        while isinstance(target, (A.Attr, A.Index)):
            target = target.obj
        if isinstance(target, A.Name):
            found.add(target.name)
        for block in A.child_blocks(s):
            found |= changed_names(block)
    return found
