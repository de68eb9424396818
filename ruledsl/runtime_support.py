"""Helpers that generated rule code calls: safe, game-agnostic, with errors a designer can read."""

from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Protocol

if TYPE_CHECKING:
    from .types import Type


class RuleRuntimeError(Exception):
    """A rule did something impossible while running (empty draw, division by zero, ...)."""


# Limits on what rules may make (docs/language.md, "Limits"): each is a rule error when passed.
RANGE_LIMIT = 100_000            # numbers in one range()
LIST_LIMIT = 100_000             # elements of a list
TEXT_LIMIT = 100_000             # characters of a text
NUMBER_LIMIT = 10 ** 18          # size of a whole number computed by the rules (a billion billion)
# Work allowed between two decisions (see ruledsl/budget/cost.py), and how deep phases that may wait can
# run each other.
STEP_BUDGET = 2_000_000
MAX_DEPTH = 200


class Budgeted(Protocol):
    """What the counting helpers need of the runtime: its step counter, and the error it raises."""

    steps: int

    def out_of_steps(self) -> None: ...  # noqa: E704


def list_length(value: Any) -> int:
    """The length of a list, 0 for any other value."""
    return len(value) if type(value) is list else 0


def count(c: Budgeted, items: Any, k: Any) -> Any:
    """Charge len(items) * k steps for visiting a list whose length is known only now."""
    c.steps -= len(items) * k
    if c.steps < 0:
        c.out_of_steps()
    return items


def cat(c: Budgeted, a: list[Any], b: list[Any]) -> list[Any]:
    """`a + b` of lists: counted, and refused past the size limit."""
    n = len(a) + len(b)
    if n > LIST_LIMIT:
        raise RuleRuntimeError(f"a list of {n:,} elements is over the limit of {LIST_LIMIT:,}")
    c.steps -= n
    if c.steps < 0:
        c.out_of_steps()
    return a + b


def text_cat(c: Budgeted, a: str, b: str) -> str:
    """`a + b` of texts: counted, and refused past the size limit."""
    n = len(a) + len(b)
    if n > TEXT_LIMIT:
        raise RuleRuntimeError(f"a text of {n:,} characters is over the limit of {TEXT_LIMIT:,}")
    c.steps -= n
    if c.steps < 0:
        c.out_of_steps()
    return a + b


def number(value: int) -> int:
    """A whole number the rules computed, refused when it is past the limit."""
    if -NUMBER_LIMIT <= value <= NUMBER_LIMIT:
        return value
    raise RuleRuntimeError("a whole number past the limit of 10^18 (a billion billion): "
                           "does a rule multiply or add without end?")


# The content of a kept value's cell before its first computation (see ruledsl/opt/hoist.py).
UNSET = object()


def keep(cell: list[Any], value: Any) -> Any:
    """Put a computed value in its cell, and return it."""
    cell[0] = value
    return value


def deep_copy(value: Any) -> Any:
    """Copy plain data so that no two places in the state share a list or map."""
    if type(value) is list:
        if all(type(v) in (int, str, bool) or v is None for v in value):
            return value[:]
        return marshal.loads(marshal.dumps(value))
    if type(value) in (dict, tuple):
        return marshal.loads(marshal.dumps(list(value) if type(value) is tuple else value))
    return value


def draw(pile: list[Any]) -> Any:
    """Take the first (top) element of a list."""
    if not pile:
        raise RuleRuntimeError("draw from an empty list")
    return pile.pop(0)


def remove(items: list[Any], value: Any) -> None:
    """Remove the first occurrence of value."""
    try:
        items.remove(value)
    except ValueError:
        raise RuleRuntimeError("remove: the value is not in the list") from None


def rmax(items: Iterable[Any], *more: Any) -> Any:
    """max() of a non-empty list, or of several values."""
    if len(more) == 1:
        # The usual `best = max(best, x)` of a loop: no list to build (ties keep the first, as max does).
        return more[0] if more[0] > items else items
    values = list(items) if not more else [items, *more]
    if not values:
        raise RuleRuntimeError("max of an empty list")
    return max(values)


def rmin(items: Iterable[Any], *more: Any) -> Any:
    """min() of a non-empty list, or of several values."""
    if len(more) == 1:
        return more[0] if more[0] < items else items
    values = list(items) if not more else [items, *more]
    if not values:
        raise RuleRuntimeError("min of an empty list")
    return min(values)


def rrange(c: Budgeted, a: int, b: int | None = None) -> list[int]:
    """range as a list, counted, refusing absurd sizes."""
    lo, hi = (0, a) if b is None else (a, b)
    if hi - lo > RANGE_LIMIT:
        raise RuleRuntimeError(f"range of {hi - lo} numbers is over the limit of {RANGE_LIMIT}")
    if hi > lo:
        c.steps -= hi - lo
        if c.steps < 0:
            c.out_of_steps()
    return list(range(lo, hi))


def unique(items: list[Any]) -> list[Any]:
    """The items without repeats, in first-seen order, in one pass."""
    try:
        return list(dict.fromkeys(items))
    except TypeError:  # lists (tuples of the rules) as items: compared by a frozen copy
        first: dict[Any, int] = {}
        for i, item in enumerate(items):
            first.setdefault(_frozen(item), i)
        return [items[i] for i in sorted(first.values())]


def _frozen(value: Any) -> Any:
    if type(value) is list:
        return tuple(_frozen(v) for v in value)
    if type(value) is dict:
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value


def unique_by(items: Iterable[Any], column: Any) -> list[Any]:
    """The items whose value in `column` (indexed by item) was not seen before: one of each kind."""
    seen: list[Any] = []
    kept: list[Any] = []
    for item in items:
        key = column[item]
        if key not in seen:
            seen.append(key)
            kept.append(item)
    return kept


def pay(c: Any, seat: int, field: str, amount: int, up_to: bool) -> int:
    """`pay` whose amount is kept: with `up_to`, as much of it as the seat has (never below 0)."""
    if up_to and amount > 0:
        amount = min(amount, max(c.S[field][seat], 0))
    c.transfer(seat, field, amount, True)
    return amount


def reversed_list(items: list[Any]) -> list[Any]:
    """`reversed(list)`: a new list, back to front."""
    return items[::-1]


def index_of(items: list[Any], value: Any) -> int:
    """Position of value in the list."""
    try:
        return items.index(value)
    except ValueError:
        raise RuleRuntimeError("index: the value is not in the list") from None


def div(a: int, b: int) -> int:
    """Whole-number division."""
    if b == 0:
        raise RuleRuntimeError("division by zero")
    return a // b


def mod(a: int, b: int) -> int:
    """Remainder."""
    if b == 0:
        raise RuleRuntimeError("remainder of a division by zero")
    return a % b


Formatter = Callable[[Any, list[str]], str]
Identifier = Callable[[Any], str]


def make_formatter(t: "Type", node_ids: tuple[Any, ...],
                   component_ids: Mapping[str, tuple[Any, ...]] | None = None) -> Formatter:
    """A function giving a value's display text from its static type (seat names, node ids...)."""
    kind = t.kind
    if component_ids and kind in component_ids:
        ids = component_ids[kind]
        return lambda v, names: "none" if v is None else str(ids[v])
    if kind == "seat":
        return lambda v, names: "none" if v is None else str(names[v])
    if kind == "node":
        return lambda v, names: "none" if v is None else str(node_ids[v])
    if kind == "bool":
        return lambda v, names: "none" if v is None else ("yes" if v else "no")
    if kind == "list":
        inner = make_formatter(t.args[0], node_ids, component_ids)
        if t.args[0].kind == "list":  # a list of lists keeps its groups visible: [a, b], [c]
            return lambda v, names: "none" if v is None else ", ".join(f"[{inner(x, names)}]" for x in v)
        return lambda v, names: "none" if v is None else ", ".join(inner(x, names) for x in v)
    if kind == "tuple":
        parts = [make_formatter(a, node_ids, component_ids) for a in t.args]
        # A part that is none says nothing to a person: ("stop", none) reads "stop".
        return lambda v, names: "none" if v is None else " ".join(
            f(x, names) for f, x in zip(parts, v) if x is not None)
    if kind == "map":
        key = make_formatter(t.args[0], node_ids, component_ids)
        value = make_formatter(t.args[1], node_ids, component_ids)
        return lambda v, names: "none" if v is None else ", ".join(
            f"{key(k, names)}: {value(x, names)}" for k, x in v.items())
    return lambda v, names: "none" if v is None else str(v)


def make_identifier(t: "Type", node_ids: tuple[Any, ...],
                    component_ids: Mapping[str, tuple[Any, ...]] | None = None) -> Identifier:
    """A function giving a value's stable text inside an option id (`r4c3`, `7`, `yes`, ...)."""
    kind = t.kind
    if component_ids and kind in component_ids:
        ids = component_ids[kind]
        return lambda v: "none" if v is None else str(ids[v])
    if kind == "node":
        return lambda v: "none" if v is None else str(node_ids[v])
    if kind == "bool":
        return lambda v: "none" if v is None else ("yes" if v else "no")
    if kind in ("list", "tuple"):
        parts = [make_identifier(a, node_ids, component_ids) for a in t.args] if kind == "tuple" else []
        inner = make_identifier(t.args[0], node_ids, component_ids) if kind == "list" else None
        if inner is not None:
            return lambda v: "none" if v is None else "+".join(inner(x) for x in v)
        return lambda v: "none" if v is None else ":".join(f(x) for f, x in zip(parts, v))
    return lambda v: "none" if v is None else str(v)


def follow(exits: Iterable[Any], value: Any) -> int | None:
    """The first node reached by an edge whose attribute equals value, or None."""
    for node, attr in exits:
        if attr == value:
            return int(node)
    return None


def make_data(t: "Type", ids: Mapping[str, tuple[Any, ...]]) -> Callable[[Any], Any] | None:
    """A function turning a value into log data with ids in place of indexes; None when no part needs it."""
    if t.kind in ids:
        kind_ids = ids[t.kind]
        return lambda v: None if v is None else kind_ids[v]
    parts = [make_data(a, ids) for a in t.args]
    if not any(parts):
        return None
    if t.kind == "list" and parts[0] is not None:
        inner = parts[0]
        return lambda v: None if v is None else [inner(x) for x in v]
    if t.kind == "tuple":
        fs = [f or (lambda x: x) for f in parts]
        return lambda v: None if v is None else [f(x) for f, x in zip(fs, v)]
    if t.kind == "map":
        value = parts[1] or (lambda x: x)
        return lambda v: None if v is None else {k: value(x) for k, x in v.items()}
    return None
