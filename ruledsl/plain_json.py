"""Plain data as JSON text, for caches: reading it back builds values, never runs code.

JSON has lists, text-keyed objects, text, numbers, true, false and null. The cached values also
hold tuples, maps with other keys and frozen dataclasses (syntax-tree nodes, spans), so every
JSON object written here carries a one-key tag saying which of those it is:

    {"(": [...]}            a tuple
    {"[": [[k, v], ...]}    a map (a key that is a list is read back as a tuple)
    {"@": "Name", "f": [...]}   a dataclass, by name, from the classes the reader allows

Reading builds only those: an unknown tag or class name is an error (`ValueError`), and no name
in the text is ever looked up anywhere but in the dictionary of allowed classes.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Callable, Iterable


def _fields(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


class Codec:
    """Turns values made of plain data and the given dataclasses into JSON text and back."""

    def __init__(self, classes: Iterable[type]):
        self.classes: dict[str, type] = {c.__name__: c for c in classes}
        self.fields = {c: _fields(c) for c in self.classes.values()}

    def dumps(self, value: Any) -> str:
        """The value as JSON text (ASCII: lone surrogates survive); raises TypeError for what it cannot write."""
        return json.dumps(self._encode(value), ensure_ascii=True, separators=(",", ":"),
                          check_circular=False, allow_nan=False)

    def loads(self, text: str | bytes) -> Any:
        """The value written by `dumps`; raises ValueError for text it did not write."""
        try:
            return json.loads(text, object_hook=self._decode)
        except (KeyError, TypeError, RecursionError, UnicodeDecodeError) as err:
            raise ValueError(f"not a cached value: {err}") from err

    def _encode(self, value: Any) -> Any:
        if value is None or isinstance(value, (str, bool, int, float)):
            return value
        if isinstance(value, tuple):
            return {"(": [self._encode(v) for v in value]}
        if isinstance(value, list):
            return [self._encode(v) for v in value]
        if isinstance(value, dict):
            return {"[": [[self._encode(k), self._encode(v)] for k, v in value.items()]}
        names = self.fields.get(type(value))
        if names is None:
            raise TypeError(f"cannot cache a {type(value).__name__}")
        return {"@": type(value).__name__, "f": [self._encode(getattr(value, n)) for n in names]}

    def _decode(self, obj: dict[str, Any]) -> Any:
        # Called for every JSON object of a cache file: the commonest forms are tested first.
        if len(obj) == 2:
            fields = obj.get("f")
            cls = self.classes[obj["@"]]  # KeyError: a class this reader does not allow
            if isinstance(fields, list):
                return cls(*fields)
        elif len(obj) == 1:
            body = obj.get("(")
            if isinstance(body, list):
                return tuple(body)
            body = obj.get("[")
            if isinstance(body, list):
                return {_key(k): v for k, v in body}
        raise ValueError(f"not a cached value: an object with keys {sorted(obj)[:4]}")


def _key(k: Any) -> Any:
    return tuple(k) if isinstance(k, list) else k


def dataclasses_of(module_vars: dict[str, Any], keep: Callable[[type], bool] = lambda c: True) -> list[type]:
    """The dataclasses defined in a module (pass `vars(module)`)."""
    return [c for c in module_vars.values()
            if isinstance(c, type) and dataclasses.is_dataclass(c) and keep(c)]
