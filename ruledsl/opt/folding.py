"""Constant folding: values the rules read from fixed game data, known when the rules are compiled.

Tables are fixed for a compiled game (a variant's tables already replaced the defaults), so
`prices.bare[1]`, `cards_per_hand` or a variant's switch `advanced_rules` have one value for every game the
program plays. Reads of them with literal keys are written into the generated code as Python
literals (`repr` of a plain value, never rule text), and conditions made only of such values are
decided once: a branch that can never run is not generated for the agent path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..syntax import ast as A

if TYPE_CHECKING:
    from ..check.scope import Scope
    from ..world import World

# The value of an expression that is not fixed.
UNKNOWN = object()

# Plain values that can be written as Python literals.
_PLAIN = (int, str, bool, type(None))


# The fixed value a name has where it is read (a table's, or a literal argument's), else UNKNOWN.
Resolve = Callable[[str], object]
# A one-expression formula's parameter names and body, or None (see Expressions.inline_body).
Bodies = Callable[[str], "tuple[list[str], A.Expr] | None"]
# Boards up to this many nodes get tables of per-node values (see per_node).
PER_NODE_LIMIT = 4096


def scope_resolver(scope: "Scope", world: "World") -> Resolve:
    """What folding needs to know of the names seen from `scope`: a table's value, or a variable's
    when it is a literal argument of an inlined formula (a variable hides a table of its name)."""
    def resolve(name: str) -> object:
        var = scope.lookup(name)
        if var is None:
            return world.tables[name][1] if name in world.tables else UNKNOWN
        return var.fixed[0] if var.fixed is not None else UNKNOWN
    return resolve


def fixed_value(e: A.Expr, resolve: Resolve) -> object:
    """The value of a read of fixed data with literal keys (`bonus[1].well`), or UNKNOWN."""
    if isinstance(e, A.Name):
        return resolve(e.name)
    if isinstance(e, A.Num):
        return e.value
    if isinstance(e, A.Bool):
        return e.value
    if isinstance(e, A.Template) and e.is_plain:
        return e.text
    if isinstance(e, (A.Attr, A.Index)):
        container = fixed_value(e.obj, resolve)
        if container is UNKNOWN:
            return UNKNOWN
        key = e.name if isinstance(e, A.Attr) else fixed_value(e.index, resolve)
        if isinstance(container, dict) and isinstance(key, _PLAIN) and key in container:
            return container[key]
        if isinstance(container, (list, tuple)) and type(key) is int and -len(container) <= key < len(container):
            return container[key]
    return UNKNOWN


def literal(value: object) -> str | None:
    """Python source for a plain value (number, text, yes/no, none), or None for anything else."""
    if type(value) in _PLAIN:
        return repr(value)
    return None


def condition_value(e: A.Expr, resolve: Resolve) -> object:
    """True or False when a condition depends on fixed data only, else UNKNOWN.

    `and`/`or` are decided as soon as one side decides them (`chains and in_chain(shop)` is
    false when `chains` is), as the rules evaluate them.
    """
    if isinstance(e, A.Not):
        inner = condition_value(e.operand, resolve)
        return UNKNOWN if inner is UNKNOWN else not inner
    if isinstance(e, A.BinOp) and e.op in ("and", "or"):
        left = condition_value(e.left, resolve)
        if left is not UNKNOWN and bool(left) == (e.op == "or"):
            return left
        right = condition_value(e.right, resolve)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        return right
    value = fixed_value(e, resolve)
    return value if type(value) is bool else UNKNOWN


def dead_branches(s: A.If, resolve: Resolve) -> list[bool]:
    """For each branch of an `if` (the `else` last), whether it can never run in this game: its
    condition is false, or an earlier condition is always true. Conditions read only fixed data
    here, such as a variant's switch; an unknown one leaves its branch alive."""
    dead = []
    taken = False
    for cond, _ in s.branches:
        value = condition_value(cond, resolve)
        dead.append(taken or value is False)
        taken = taken or value is True
    dead.append(taken)
    return dead


def live_blocks(s: A.Stmt, resolve: Resolve) -> list[tuple[A.Stmt, ...]]:
    """`ast.child_blocks`, without the branches that can never run."""
    if isinstance(s, A.If):
        blocks = [body for _, body in s.branches] + [s.orelse]
        return [b for b, d in zip(blocks, dead_branches(s, resolve)) if not d]
    return A.child_blocks(s)


class Known:
    """A value computed when compiling, with what it is: a board node, an item of a component kind
    (their indexes), or plain data."""

    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value: object):
        self.kind = kind
        self.value = value


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def evaluate(e: A.Expr, env: dict[str, Known], world: "World", resolve: Resolve,
             bodies: Bodies | None = None) -> Known | None:
    """The value of an expression made only of fixed data (the board's nodes and attributes, the
    items of a kind and theirs, tables, literals), computed now: a comprehension such as
    `[n for n in nodes if n.kind == "shop"]` is the same list in every game. None when `e` reads
    anything else (the state, a variable of the rules) or does what this evaluator does not.
    `bodies` gives the one-expression formulas it may compute too."""
    try:
        return _Folder(world, resolve, bodies).value(e, env)
    except (KeyError, IndexError, TypeError, ValueError):  # it would fail when run: let it, there
        return None


class _Folder:
    """`evaluate`, one method per kind of expression (`_STEPS`); each gives None for what it cannot compute."""

    def __init__(self, world: "World", resolve: Resolve, bodies: Bodies | None):
        self.world = world
        self.resolve = resolve
        self.bodies = bodies

    def value(self, e: A.Expr, env: dict[str, Known]) -> Known | None:
        step = _STEPS.get(type(e))
        return step(self, e, env) if step is not None else None

    def name(self, e: A.Name, env: dict[str, Known]) -> Known | None:
        if e.name in env:
            return env[e.name]
        world = self.world
        if e.name == "nodes" and self.resolve(e.name) is UNKNOWN:
            return Known("data", [Known("node", i) for i in range(len(world.node_ids))])
        for component in world.components.values():
            if e.name == component.collection:
                return Known("data", [Known(component.name, i) for i in range(len(component.ids))])
        value = self.resolve(e.name)
        return None if value is UNKNOWN else Known("data", value)

    def literal(self, e: A.Num | A.Bool, env: dict[str, Known]) -> Known | None:
        return Known("data", e.value)

    def none(self, e: A.NoneLit, env: dict[str, Known]) -> Known | None:
        return Known("data", None)

    def template(self, e: A.Template, env: dict[str, Known]) -> Known | None:
        return Known("data", e.text) if e.is_plain else None

    def attr(self, e: A.Attr, env: dict[str, Known]) -> Known | None:
        """An attribute of a node or an item (never a field: fields change), or a key of fixed data."""
        obj = self.value(e.obj, env)
        if obj is None:
            return None
        world = self.world
        if obj.kind == "node":
            if e.name in world.node_fields or e.name not in world.node_attr_values:
                return None
            return Known("data", world.node_attr_values[e.name][_index(obj)])
        kind = world.components.get(obj.kind)
        if kind is not None:
            if e.name in kind.fields or e.name not in kind.attr_values:
                return None
            return Known("data", kind.attr_values[e.name][_index(obj)])
        if isinstance(obj.value, dict):
            return Known("data", obj.value[e.name])
        return None

    def index(self, e: A.Index, env: dict[str, Known]) -> Known | None:
        obj, key = self.value(e.obj, env), self.value(e.index, env)
        if obj is None or key is None or obj.kind != "data" or key.kind != "data":
            return None
        item = obj.value[key.value]  # type: ignore[index]
        return item if isinstance(item, Known) else Known("data", item)

    def not_(self, e: A.Not, env: dict[str, Known]) -> Known | None:
        inner = self.value(e.operand, env)
        return None if inner is None or type(inner.value) is not bool else Known("data", not inner.value)

    def binop(self, e: A.BinOp, env: dict[str, Known]) -> Known | None:
        if e.op in ("and", "or"):
            return self.logic(e, env)
        if e.op in _COMPARE:
            return self.compare(e, env)
        if e.op in ("in", "not in"):
            return self.member(e, env)
        return None  # arithmetic is left to the code (and its number checks)

    def logic(self, e: A.BinOp, env: dict[str, Known]) -> Known | None:
        left = self.value(e.left, env)
        if left is None or type(left.value) is not bool:
            return None
        if left.value == (e.op == "or"):
            return left
        right = self.value(e.right, env)
        return None if right is None or type(right.value) is not bool else right

    def compare(self, e: A.BinOp, env: dict[str, Known]) -> Known | None:
        left, right = self.value(e.left, env), self.value(e.right, env)
        if left is None or right is None or left.kind != right.kind:
            return None
        return Known("data", _COMPARE[e.op](left.value, right.value))

    def member(self, e: A.BinOp, env: dict[str, Known]) -> Known | None:
        left, right = self.value(e.left, env), self.value(e.right, env)
        if left is None or right is None or left.kind != "data" or type(left.value) not in _PLAIN \
                or not isinstance(right.value, (list, tuple)) or any(isinstance(v, Known) for v in right.value):
            return None
        return Known("data", (left.value in right.value) == (e.op == "in"))

    def if_exp(self, e: A.IfExp, env: dict[str, Known]) -> Known | None:
        test = self.value(e.cond, env)
        if test is None or test.kind != "data" or test.value is not None and type(test.value) is not bool:
            return None  # (a missing attribute, none, counts as false where the code tests it)
        return self.value(e.then if test.value else e.orelse, env)

    def call(self, e: A.Call, env: dict[str, Known]) -> Known | None:
        """A one-expression formula of `bodies`, its body computed on its arguments (tables only besides)."""
        if self.bodies is None:
            return None
        found = self.bodies(e.name)
        if found is None or len(found[0]) != len(e.args):
            return None
        args = [self.value(a, env) for a in e.args]
        if any(a is None for a in args):
            return None
        world, resolve = self.world, self.resolve
        tables: Resolve = lambda name: resolve(name) if name in world.tables else UNKNOWN  # noqa: E731
        inner = _Folder(world, tables, self.bodies)
        return inner.value(found[1], {n: a for n, a in zip(found[0], args) if a is not None})

    def list_comp(self, e: A.ListComp, env: dict[str, Known]) -> Known | None:
        items = self.value(e.iter, env)
        if items is None or not isinstance(items.value, list):
            return None
        out = []
        for item in items.value:
            known = item if isinstance(item, Known) else Known("data", item)
            bound = dict(env)
            bound[e.var] = known
            if e.cond is not None:
                test = self.value(e.cond, bound)
                if test is None or type(test.value) is not bool:
                    return None
                if not test.value:
                    continue
            value = self.value(e.elt, bound)
            if value is None:
                return None
            out.append(value)
        return Known("data", out)


# Which method computes each kind of expression; any other kind is not computed.
_STEPS: dict[type, Callable[[_Folder, Any, dict[str, Known]], Known | None]] = {
    A.Name: _Folder.name, A.Num: _Folder.literal, A.Bool: _Folder.literal, A.NoneLit: _Folder.none,
    A.Template: _Folder.template, A.Attr: _Folder.attr, A.Index: _Folder.index, A.Not: _Folder.not_,
    A.BinOp: _Folder.binop, A.IfExp: _Folder.if_exp, A.Call: _Folder.call, A.ListComp: _Folder.list_comp,
}


def per_node(e: A.Expr, var: str, world: "World", resolve: Resolve, bodies: Bodies) -> tuple[object, ...] | None:
    """The plain value of `e` for each board node given to the variable `var` (by node index), when
    `e` reads nothing else but fixed data, and computing it succeeds for every node: a table the
    generated code can read instead (`buy_price[kind_of(shop)]` in a list of shops). None otherwise."""
    if len(world.node_ids) > PER_NODE_LIMIT:
        return None
    values = []
    for i in range(len(world.node_ids)):
        known = evaluate(e, {var: Known("node", i)}, world, resolve, bodies)
        if known is None or known.kind != "data" or type(known.value) not in _PLAIN:
            return None
        values.append(known.value)
    return tuple(values)


def _index(known: Known) -> int:
    """The index of a node or an item."""
    if type(known.value) is not int:
        raise TypeError("not a node or an item")
    return known.value


def plain(known: Known) -> object:
    """The value as the generated code holds it (nodes and items by their indexes), or UNKNOWN for
    anything that is not a list of plain values."""
    if not isinstance(known.value, list):
        return UNKNOWN
    values = [v.value if isinstance(v, Known) else v for v in known.value]
    return values if all(type(v) in _PLAIN for v in values) else UNKNOWN
