"""What is made from a plain-data value, kept by that value so that it is made once."""

from __future__ import annotations

import marshal
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class KeptByValue(Generic[T]):
    """Things made from values, kept by (a tag, the value marshalled), up to `cap` of them.

    The marshalled value tells apart values that == would not (1 and true, a list and a tuple); a value
    that is not plain data is not kept: what is made from it is made every time.
    """

    def __init__(self, cap: int):
        self.cap = cap
        self.kept: dict[tuple[Hashable, bytes], T] = {}

    def get(self, tag: Hashable, value: Any, make: Callable[[], T]) -> T:
        """What `make` makes from `value` (under `tag`), kept from the first time."""
        try:
            key = (tag, marshal.dumps(value))
        except ValueError:   # not plain data
            return make()
        found = self.kept.get(key)
        if found is None:
            found = make()
            if len(self.kept) < self.cap:
                self.kept[key] = found
        return found
