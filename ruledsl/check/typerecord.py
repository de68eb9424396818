"""What the type-checking walk found for each expression node, kept for the code generation to read.

A node is looked up by its id; the record holds the node itself too, so that no id is reused while
the record lives. A node walked again (a target or a value whose type is first asked alone, before
it is checked where it stands) has the type of its latest walk, the one in its place in the rules.
"""

from __future__ import annotations

from ..syntax import ast as A
from ..types import Type

# A formula's signature as the walk met it: its parameters' types and its result's type.
Signature = tuple[list[Type], Type]


class TypeRecord:
    """Each expression node's type (None: its typing rule reported an error that leaves it none),
    what each call names and whether it was given as many values as it takes, the type of the
    variable each comprehension or statement makes, and the types of parameters as written."""

    def __init__(self) -> None:
        self._types: dict[int, tuple[A.Expr, Type | None]] = {}
        self._calls: dict[int, tuple[A.Call, Signature | None, bool]] = {}
        self._bound: dict[int, tuple[A.Expr | A.Stmt, Type]] = {}
        self._params: dict[int, tuple[tuple[A.Param, ...], list[Type]]] = {}

    def note(self, e: A.Expr, t: Type | None) -> Type | None:
        """Record e's type; gives it back."""
        self._types[id(e)] = (e, t)
        return t

    def note_call(self, e: A.Call, formula: Signature | None, accepted: bool) -> None:
        """Record what a call names (a formula's signature, None for a built-in or an unknown name)
        and whether it has as many values as that takes."""
        self._calls[id(e)] = (e, formula, accepted)

    def note_bound(self, e: A.Expr | A.Stmt, t: Type) -> None:
        """Record the type of the variable a comprehension or a statement (`let`, `for`, `choose`,
        `draw`, `roll`) makes."""
        self._bound[id(e)] = (e, t)

    def note_params(self, params: tuple[A.Param, ...], types: list[Type]) -> None:
        """Record the types of a formula's or phase's parameters."""
        self._params[id(params)] = (params, types)

    def type_of(self, e: A.Expr) -> Type | None:
        """The type of a walked node."""
        node, t = self._types[id(e)]
        assert node is e, "the node was not walked"
        return t

    def call(self, e: A.Call) -> tuple[Signature | None, bool]:
        """What a walked call names (a formula's signature or None), and whether its values were accepted."""
        node, formula, accepted = self._calls[id(e)]
        assert node is e, "the call was not walked"
        return formula, accepted

    def bound(self, e: A.Expr | A.Stmt) -> Type:
        """The type of the variable a walked comprehension or statement makes."""
        node, t = self._bound[id(e)]
        assert node is e, "the node was not walked"
        return t

    def params(self, params: tuple[A.Param, ...]) -> list[Type]:
        """The types of walked parameters."""
        node, types = self._params[id(params)]
        assert node is params, "the parameters were not walked"
        return types

    def __contains__(self, e: A.Expr) -> bool:
        found = self._types.get(id(e))
        return found is not None and found[0] is e
