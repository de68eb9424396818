"""The type of a name or expression of the rules language, as far as an editor can tell it cheaply.

Used to offer, after `x.`, only the fields and attributes of x's type (a card's after `c.` for an
item, a seat's after `s.`). Types are texts as written in the rules (`seat`, `node`, `list[card]`,
a component kind); "" when unknown, and an unknown type filters nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from ruledsl.syntax import ast as A

from ..core.game import Game

Env = Mapping[str, str]   # the types of the locals visible at a place, by name
_LIST = re.compile(r"list\[(.+)\]\??$")
_CHAIN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*\.\s*$")


def element(t: str) -> str:
    """The type of a list's elements ("" when not a list)."""
    found = _LIST.match(t.strip())
    return found.group(1) if found else ""


def base(t: str) -> str:
    """A type without its `?` (a field that may hold none holds a value of that type otherwise)."""
    return t.strip().rstrip("?")


def receiver(before: str) -> list[str] | None:
    """The names of the chain just before a '.' ending a text (`s.hand.` gives [s, hand]), or None."""
    found = _CHAIN.search(before)
    return [part.strip() for part in found.group(1).split(".")] if found else None


class Types:
    """The types of a game's fields, attributes, tables and formulas, from the loaded game."""

    def __init__(self, game: Game | None):
        self.game = game

    def member(self, owner: str, name: str) -> str:
        """The type of a field or attribute of a value of type `owner` ("" when unknown)."""
        world = self.game.world if self.game is not None else None
        owner = base(owner)
        if world is None:
            return ""
        if owner == "seat":
            f = world.seat_fields.get(name)
        elif owner == "node":
            f = world.node_fields.get(name)
            if f is None and name in world.node_attrs:
                return str(world.node_attrs[name])
        elif owner in world.components:
            component = world.components[owner]
            if name in component.attrs:
                return str(component.attrs[name])
            f = component.fields.get(name)
        else:
            return ""
        return str(f.type) if f is not None else ""

    def plain(self, name: str) -> str:
        """The type of a game-wide name: a global field, table, collection or constant."""
        world = self.game.world if self.game is not None else None
        if name == "seats":
            return "list[seat]"
        if name == "nodes":
            return "list[node]"
        if world is None:
            return ""
        if name in world.global_fields:
            return str(world.global_fields[name].type)
        if name in world.tables:
            return str(world.tables[name][0])
        for kind, component in world.components.items():
            if component.collection == name:
                return f"list[{kind}]"
        return ""

    def formula(self, name: str) -> str:
        """What a formula gives ("" for an unknown one)."""
        program = self.game.program if self.game is not None else None
        found = program.formula_types.get(name) if program is not None else None
        return str(found[1]) if found is not None else ""

    def chain(self, names: list[str], env: Env) -> str:
        """The type of `a.b.c` written with names: a local, or a game-wide name, then members."""
        if not names:
            return ""
        t = env.get(names[0]) or self.plain(names[0])
        for name in names[1:]:
            t = self.member(t, name) if t else ""
        return t

    def expr(self, e: A.Expr | None, env: Env) -> str:
        """The type of an expression of the rules language ("" when this cannot tell)."""
        if isinstance(e, A.Name):
            return env.get(e.name) or self.plain(e.name) or self.formula(e.name)
        if isinstance(e, A.Attr):
            owner = self.expr(e.obj, env)
            return self.member(owner, e.name) if owner else ""
        if isinstance(e, A.Call):
            return self.formula(e.name)
        if isinstance(e, A.Index):
            return element(self.expr(e.obj, env))
        return ""


def declared_type(statement: A.Stmt, types: Types, env: Env, expr: Callable[[A.Expr, Env], str] | None = None) -> str:
    """The type of the variable a statement makes, as far as it can be told."""
    of = expr or types.expr
    if isinstance(statement, A.Let):
        return of(statement.value, env)
    if isinstance(statement, A.For):
        return element(of(statement.iter, env))
    if isinstance(statement, A.Choose):
        return element(of(statement.options, env))
    if isinstance(statement, A.Draw):
        return element(of(statement.source, env))
    return ""
