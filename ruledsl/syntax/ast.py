"""Frozen syntax-tree nodes of the rules language; every node keeps its source span."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..diagnostics import Span


@dataclass(frozen=True)
class Node:
    """Base of every syntax node."""

    span: Span


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Bool(Node):
    value: bool


@dataclass(frozen=True)
class NoneLit(Node):
    pass


@dataclass(frozen=True)
class Template(Node):
    """A string literal; `{expr}` parts are interpolated (a plain string has no parts)."""

    parts: tuple[Union[str, "Expr"], ...]

    @property
    def is_plain(self) -> bool:
        return all(isinstance(p, str) for p in self.parts)

    @property
    def text(self) -> str:
        return "".join(p for p in self.parts if isinstance(p, str))


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Attr(Node):
    obj: "Expr"
    name: str
    name_span: Span


@dataclass(frozen=True)
class Index(Node):
    obj: "Expr"
    index: "Expr"


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple["Expr", ...]
    name_span: Span


@dataclass(frozen=True)
class BinOp(Node):
    """Arithmetic (+ - * // %), comparison (== != < <= > >= in, not in) or logic (and, or)."""

    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Not(Node):
    operand: "Expr"


@dataclass(frozen=True)
class Neg(Node):
    operand: "Expr"


@dataclass(frozen=True)
class IfExp(Node):
    cond: "Expr"
    then: "Expr"
    orelse: "Expr"


@dataclass(frozen=True)
class ListLit(Node):
    items: tuple["Expr", ...]


@dataclass(frozen=True)
class TupleLit(Node):
    """A fixed-length group of values of possibly different types: (piece, cell, "east")."""

    items: tuple["Expr", ...]


@dataclass(frozen=True)
class ListComp(Node):
    elt: "Expr"
    var: str
    iter: "Expr"
    cond: "Expr | None"


@dataclass(frozen=True)
class MapLit(Node):
    pairs: tuple[tuple["Expr", "Expr"], ...]


@dataclass(frozen=True)
class MapComp(Node):
    key: "Expr"
    value: "Expr"
    var: str
    iter: "Expr"
    cond: "Expr | None"


Expr = Union[Num, Bool, NoneLit, Template, Name, Attr, Index, Call, BinOp, Not, Neg, IfExp,
             ListLit, TupleLit, ListComp, MapLit, MapComp]

# ----------------------------------------------------------------- statements


@dataclass(frozen=True)
class Let(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class Assign(Node):
    target: Expr
    op: str  # "=", "+=", "-="
    value: Expr


@dataclass(frozen=True)
class If(Node):
    branches: tuple[tuple[Expr, tuple["Stmt", ...]], ...]
    orelse: tuple["Stmt", ...]


@dataclass(frozen=True)
class For(Node):
    var: str
    iter: Expr
    body: tuple["Stmt", ...]


@dataclass(frozen=True)
class While(Node):
    cond: Expr
    body: tuple["Stmt", ...]


@dataclass(frozen=True)
class Choose(Node):
    """A decision: one seat picks (`by s`) or every listed seat picks at once (`by each s in xs`)."""

    var: str
    options: Expr
    by: Expr
    each_var: str | None
    secret: bool
    prompt: Template | None
    # How each option reads for people; the choice's variable names the option inside it.
    label: Template | None = None
    # What each option means (a price, an effect), shown beside its label; never typed.
    detail: Template | None = None


@dataclass(frozen=True)
class Roll(Node):
    """`roll face from die_faces`: one element of the list, drawn with the game's seeded generator.

    With a count (`roll 2 faces from die_faces`) the variable holds a list of that many draws.
    """

    var: str
    source: Expr
    count: Expr | None = None


@dataclass(frozen=True)
class ExprStmt(Node):
    """A value alone on a line (`score(s)`, `x == 3`): always reported, since it does nothing."""

    expr: Expr


@dataclass(frozen=True)
class Run(Node):
    phase: str
    args: tuple[Expr, ...]
    name_span: Span


@dataclass(frozen=True)
class RunAbility(Node):
    """`run on_activate of card with you`: the ability's code written in the item's own file."""

    ability: str
    target: Expr
    args: tuple[Expr, ...]
    name_span: Span


@dataclass(frozen=True)
class Return(Node):
    value: Expr | None


@dataclass(frozen=True)
class End(Node):
    winners: Expr


@dataclass(frozen=True)
class Log(Node):
    kind: str
    fields: tuple[tuple[str, Expr], ...]
    text: Template
    to: Expr | None


@dataclass(frozen=True)
class Pay(Node):
    """`pay AMOUNT from TARGET` (negative=False) or `gain AMOUNT to TARGET` (negative=True is pay)."""

    amount: Expr
    target: Expr
    is_payment: bool
    up_to: bool = False  # `pay up to AMOUNT from ...`: as much of the amount as the seat has


@dataclass(frozen=True)
class Keep(Node):
    """`let n = run roll_dice(s)`, `paid = pay up to rent from s.money`: a statement that gives a value,
    and where the value goes (`op` is "let", with `target` the new variable's Name, or "=", "+=", "-=")."""

    target: Expr
    op: str
    stmt: "Run | RunAbility | Pay"


@dataclass(frozen=True)
class Shuffle(Node):
    target: Expr


@dataclass(frozen=True)
class Draw(Node):
    var: str
    source: Expr


@dataclass(frozen=True)
class Add(Node):
    value: Expr
    target: Expr


@dataclass(frozen=True)
class Remove(Node):
    value: Expr
    target: Expr


@dataclass(frozen=True)
class Pass(Node):
    pass


@dataclass(frozen=True)
class Break(Node):
    pass


Stmt = Union[Let, Assign, If, For, While, Choose, Roll, Run, RunAbility, Return, End, Log, Pay, Shuffle,
             Draw, Add, Remove, Pass, Break, ExprStmt, Keep]

# ------------------------------------------------------------------ top level


@dataclass(frozen=True)
class Param(Node):
    name: str
    type_text: str


@dataclass(frozen=True)
class Formula(Node):
    """A pure, named computation: either `= expr` or a block of lets/ifs ending in returns."""

    name: str
    params: tuple[Param, ...]
    expr: Expr | None
    body: tuple[Stmt, ...]
    name_span: Span


@dataclass(frozen=True)
class Phase(Node):
    name: str
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    name_span: Span


@dataclass(frozen=True)
class RulesFile(Node):
    formulas: tuple[Formula, ...]
    phases: tuple[Phase, ...]


def child_blocks(s: Stmt) -> list[tuple[Stmt, ...]]:
    """The blocks of statements directly inside a statement (the branches of an if, a loop's body)."""
    if isinstance(s, If):
        return [body for _, body in s.branches] + [s.orelse]
    if isinstance(s, (For, While)):
        return [s.body]
    if isinstance(s, Keep):
        # The statement that gives the value: walkers looking for `run` find it there.
        return [(s.stmt,)]
    return []
