"""Twin states that differ only in what a seat may not see: a hidden item may change for another,
never for one whose back (what its kind declares every seat can tell of it) shows something else."""

from __future__ import annotations

from typing import Any

from interpreter.core.engine import Engine
from interpreter.core.game import back_of as item_back


def back_of(engine: Engine, kind: str, item: Any) -> Any:
    """What the back of an item shows; None for a kind that declares no back."""
    backs = engine.game.item_backs(kind)
    return None if backs is None else item_back(backs, item)


def swap_alike(engine: Engine, kind: str, a: list[Any], i: int, b: list[Any], last: bool = True) -> None:
    """Swap an item of `a` (a[i], else the next one that can be) with the item of `b` nearest its end
    (its start unless `last`) that differs from it and shows the same back."""
    order = list(range(len(b) - 1, -1, -1) if last else range(len(b)))
    for k in [*range(i, len(a)), *range(i)]:
        j = next((j for j in order if b[j] != a[k] and back_of(engine, kind, b[j]) == back_of(engine, kind, a[k])), None)
        if j is not None:
            a[k], b[j] = b[j], a[k]
            return
    raise AssertionError("no two items of the same back to swap")


def reverse_alike(engine: Engine, kind: str, items: list[Any]) -> None:
    """Reverse the order of the items that show each back among the places they hold (a deck of A
    over B over C stays so)."""
    places: dict[Any, list[int]] = {}
    for k, item in enumerate(items):
        places.setdefault(back_of(engine, kind, item), []).append(k)
    for held in places.values():
        values = [items[k] for k in held]
        for k, item in zip(held, reversed(values)):
            items[k] = item
