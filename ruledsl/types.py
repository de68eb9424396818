"""The value types of the rules language and the checks between them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Collection


@dataclass(frozen=True)
class Type:
    """A value type. `kind` is one of int, bool, str, seat, node, none, any, list, map, tuple."""

    kind: str
    args: tuple["Type", ...] = ()
    nullable: bool = False
    # A text holding a name of a set declared in game.yaml (`landmark`): "" for any text. Checked by
    # the names pass (namecheck.py) only: wherever types are compared, a `landmark` is a str.
    names: str = field(default="", compare=False)

    def __str__(self) -> str:
        if self.kind == "list":
            text = f"list[{self.args[0]}]"
        elif self.kind == "map":
            text = f"map[{self.args[0]}, {self.args[1]}]"
        elif self.kind == "tuple":
            text = "tuple[" + ", ".join(str(a) for a in self.args) + "]"
        else:
            text = self.kind
        return text + ("?" if self.nullable and self.kind not in ("none", "any") else "")

    @property
    def elem(self) -> "Type":
        """Element type of a list (any for anything else)."""
        return self.args[0] if self.kind == "list" else ANY

    def or_none(self) -> "Type":
        """The same type, allowing none."""
        return replace(self, nullable=True)

    def strict(self) -> "Type":
        """The same type without none."""
        return replace(self, nullable=False)


INT = Type("int")
BOOL = Type("bool")
STR = Type("str")
SEAT = Type("seat")
NODE = Type("node")
NONE = Type("none", (), True)
ANY = Type("any", (), True)
SCALARS = {"int": INT, "bool": BOOL, "str": STR, "seat": SEAT, "node": NODE}


def list_of(t: Type) -> Type:
    """list[t]."""
    return Type("list", (t,))


def map_of(k: Type, v: Type) -> Type:
    """map[k, v]."""
    return Type("map", (k, v))


def tuple_of(*items: Type) -> Type:
    """tuple[a, b, ...]."""
    return Type("tuple", tuple(items))


MAX_TYPE_DEPTH = 32
"""How deeply a written type may nest (`list[list[...]]`); the checks on types recurse."""


class TypeSyntaxError(ValueError):
    """A type written in a rules or YAML file that does not parse."""


_TOKEN = re.compile(r"\s*(\w+|\[|\]|,|\?)")


def parse_type(text: str, kinds: Collection[str] = (), names: Collection[str] = ()) -> Type:
    """Parse `int`, `str?`, `list[node]`, `map[str, list[seat]]`, ...; `kinds` are component kinds,
    `names` the name sets of the game (each a kind of text: `list[landmark]`)."""
    tokens = [m.group(1) for m in _TOKEN.finditer(text)]
    if "".join(tokens) != "".join(text.split()):
        raise TypeSyntaxError(f"'{text}' is not a type")
    pos = 0

    def take(depth: int = 1) -> Type:
        nonlocal pos
        if depth > MAX_TYPE_DEPTH:
            raise TypeSyntaxError(f"the type nests more than {MAX_TYPE_DEPTH} levels deep")
        if pos >= len(tokens):
            raise TypeSyntaxError(f"'{text}' ends too early")
        word = tokens[pos]
        pos += 1
        if word in SCALARS:
            t = SCALARS[word]
        elif word in kinds:
            t = Type(word)
        elif word in names:
            t = Type("str", names=word)
        elif word in ("list", "map", "tuple"):
            if pos >= len(tokens) or tokens[pos] != "[":
                raise TypeSyntaxError(f"'{word}' needs its element type in brackets, e.g. {word}[int]"
                                      if word == "list" else "map needs key and value types, e.g. map[str, int]")
            pos += 1
            inner = [take(depth + 1)]
            while pos < len(tokens) and tokens[pos] == ",":
                pos += 1
                inner.append(take(depth + 1))
            if pos >= len(tokens) or tokens[pos] != "]":
                raise TypeSyntaxError(f"missing ']' in '{text}'")
            pos += 1
            if word == "list" and len(inner) != 1:
                raise TypeSyntaxError("list takes one element type")
            if word == "map" and (len(inner) != 2 or inner[0].kind not in ("str", "int")):
                raise TypeSyntaxError("map takes a key type (str or int) and a value type")
            if word == "tuple":
                t = tuple_of(*inner)
            else:
                t = list_of(inner[0]) if word == "list" else map_of(inner[0], inner[1])
        else:
            raise TypeSyntaxError(f"unknown type '{word}' (types: int, bool, str, seat, node, list[...], "
                                  "map[...], tuple[...])")
        if pos < len(tokens) and tokens[pos] == "?":
            pos += 1
            t = t.or_none()
        return t

    result = take()
    if pos != len(tokens):
        raise TypeSyntaxError(f"unexpected '{tokens[pos]}' in type '{text}'")
    return result


def assignable(target: Type, value: Type) -> bool:
    """Can a value of type `value` be stored where `target` is expected?"""
    if target.kind == "any" or value.kind == "any":
        return True
    if value.kind == "none":
        return target.nullable
    if value.nullable and not target.nullable:
        # A nullable value flows anywhere; `none` checks happen at run time.
        pass
    if target.kind != value.kind:
        return False
    if target.kind == "list":
        return value.args[0].kind == "none" or assignable(target.args[0], value.args[0])
    if target.kind == "map":
        return assignable(target.args[0], value.args[0]) and assignable(target.args[1], value.args[1])
    if target.kind == "tuple":
        return len(target.args) == len(value.args) and all(assignable(a, b) for a, b in zip(target.args, value.args))
    return True


def unify(a: Type, b: Type) -> Type:
    """The type that holds values of both a and b (any when they have nothing in common)."""
    if a.kind == "none":
        return b.or_none()
    if b.kind == "none":
        return a.or_none()
    if a.kind == "any" or b.kind == "any":
        return ANY
    if a.kind != b.kind:
        return ANY
    nullable = a.nullable or b.nullable
    if a.kind == "list":
        return Type("list", (unify(a.args[0], b.args[0]),), nullable)
    if a.kind == "map":
        return Type("map", (unify(a.args[0], b.args[0]), unify(a.args[1], b.args[1])), nullable)
    if a.kind == "tuple":
        if len(a.args) != len(b.args):
            return ANY
        return Type("tuple", tuple(unify(x, y) for x, y in zip(a.args, b.args)), nullable)
    return Type(a.kind, (), nullable)


def type_of_data(value: object) -> Type:
    """Infer the type of plain YAML data (used for tables and node attributes)."""
    if value is None:
        return NONE
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return STR
    if isinstance(value, list):
        elem: Type | None = None
        for item in value:
            t = type_of_data(item)
            elem = t if elem is None else unify(elem, t)
        return list_of(elem if elem is not None else ANY)
    if isinstance(value, dict):
        key: Type | None = None
        val: Type | None = None
        for k, v in value.items():
            kt, vt = type_of_data(k), type_of_data(v)
            key = kt if key is None else unify(key, kt)
            val = vt if val is None else unify(val, vt)
        return map_of(key.strict() if key is not None else STR, val if val is not None else ANY)
    return ANY
