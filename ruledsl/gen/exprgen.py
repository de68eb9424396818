"""Type-check an expression and generate the Python expression that computes it."""

from __future__ import annotations

import json
import re
from typing import Callable

from ..budget import cost
from ..budget.cost import SEARCH_STEPS, Charges, FormulaWork
from ..budget.exprcost import PAID, ExprCostMixin
from ..builtins import BUILTINS
from ..check.provenance import EVERY, Origin, explain
from ..diagnostics import DiagnosticBag, Related, Span, an, copies_hint, did_you_mean
from ..opt.bounds import Calls, bound
from ..opt.folding import UNKNOWN, Resolve, evaluate, fixed_value, literal, per_node, plain
from ..opt.hoist import Hoister
from ..opt.purity import memo_read, walk
from ..runtime_support import NUMBER_LIMIT, make_formatter
from ..syntax import ast as A
from ..types import (
    ANY,
    BOOL,
    INT,
    NODE,
    NONE,
    SEAT,
    STR,
    Type,
    assignable,
    list_of,
    map_of,
    tuple_of,
    type_of_data,
    unify,
)
from ..world import World
from .scope import Scope, Var

Code = tuple[str, Type]
BAD: Code = ("None", ANY)

CONSTANTS = ("seats", "nodes")
# Words a designer brings from other languages, with what this one says instead (message, hint).
_WORDS_OF_OTHER_LANGUAGES = {
    "continue": ("the rules language has no 'continue'",
                 "put the rest of the loop under 'if not (...):', or visit only the wanted elements: "
                 "for x in [x for x in xs if ...]"),
    "this": ("'this' is the item whose ability is running: only an ability's code has it",
             "in a phase or formula, name the item with a parameter: phase use(c: {kind})"),
}
KEYWORDS = {"true", "false", "none", "and", "or", "not", "in", "if", "else", "for", "let", "phase",
            "formula", "run", "return", "end", "winners", "log", "pay", "gain", "shuffle", "draw",
            "add", "remove", "choose", "from", "by", "each", "secret", "pass", "break", "while",
            "elif", "to", "roll"}


class ExprTypes:
    """The typing rules of expressions: each expression's type from its parts' types, with the type
    diagnostics (and the notes saying where a type comes from) reported on the way.

    The generator (`Expressions`) walks the tree and, at each node, asks the rule here for the
    node's type once its parts are done, in the order the rules are written; it makes code only
    for what the rule accepted. A rule gives None when it reported an error that leaves the
    expression without a type (the generator then writes a placeholder and checking goes on).
    """

    def __init__(self, world: World, diags: DiagnosticBag, formula_names: Callable[[], list[str]],
                 inline_body: Callable[[str], tuple[list[str], A.Expr] | None]):
        self.world = world
        self.diags = diags
        self.formula_names = formula_names
        self.inline_body = inline_body
        # Expressions (by id) that read a fixed attribute column: what it is, and its values.
        self.fixed: dict[int, tuple[str, tuple[object, ...]]] = {}
        # Expressions (by span) whose type comes from data or a declaration, and variables (by
        # id) made from one: where a type error about them can point (see provenance.py).
        self.origins: dict[Span, Origin] = {}
        # Calls (by span) of one-expression formulas: the formula, and where its value is made.
        self.made: dict[Span, tuple[str, Span]] = {}
        self._var_origins: dict[int, Origin] = {}

    # ------------------------------------------------------------------ helpers
    def err(self, span: Span, code: str, message: str, hint: str | None = None,
            related: tuple[Related, ...] = ()) -> Type | None:
        """Record an error; gives None: the expression has no type, and checking goes on."""
        self.diags.error(span, code, message, hint, related)
        return None

    def check(self, t: Type, kinds: tuple[str, ...], span: Span, what: str) -> bool:
        """Is t one of the kinds? Reports a type mismatch otherwise."""
        if t.kind in kinds or t.kind == "any":
            return True
        want = " or ".join(kinds)
        self.err(span, "type", f"{what} must be {want}, not {t}", related=self.explain(span, t))
        return False

    def explain(self, span: Span, t: Type, declared: bool = True) -> tuple[Related, ...]:
        """Notes for a type error about the value at `span`: where its type `t` was written
        (`declared`: by a field's declaration too, not only by the values of data)."""
        if span in self.made:
            name, made = self.made[span]
            return (Related(made, f"`{name}` gives {an(t)}: its value is made here"),)
        origin = self.origins.get(span)
        if origin is None or (origin.field is not None and not declared):
            return ()
        return explain(origin, t)

    def carry(self, var: Var | None, value: A.Expr) -> None:
        """A variable made from data keeps the data's origin (`let n = shops_at_start`)."""
        origin = self.origins.get(value.span)
        if var is not None and origin is not None:
            self._var_origins[id(var)] = origin.named(var.name)

    def _trace(self, e: A.Expr, origin: Origin | None) -> None:
        if origin is not None:
            self.origins[e.span] = origin

    def no_shadow(self, name: str, span: Span, scope: Scope) -> None:
        """Names may not hide another visible name: a common source of silent mistakes."""
        if name in KEYWORDS:
            self.err(span, "reserved-word", f"'{name}' is a word of the language and cannot name a variable")
        elif scope.lookup(name) is not None:
            self.err(span, "shadowed-name", f"'{name}' is already a variable here; pick another name")
        elif (name in self.world.global_fields or name in self.world.tables or name in CONSTANTS
              or any(c.collection == name for c in self.world.components.values())):
            self.err(span, "shadowed-name", f"'{name}' already names game data; pick another name")

    def _check_value(self, read: A.Expr, other: A.Expr) -> None:
        """`lot.shape == "squre"`: a fixed attribute compared with a value no node or item has."""
        fixed = self.fixed.get(id(read))
        value = _literal(other)
        if fixed is None or value is _UNKNOWN:
            return
        what, values = fixed
        if any(v == value for v in values):
            return
        if any(isinstance(v, (list, tuple, dict)) for v in values):
            return
        shown = sorted({str(v) for v in values if v is not None})
        self.diags.error(other.span, "unknown-value", f"{what} {value!r}", _among(value, shown, "the values are"))

    def _check_key(self, obj: A.Expr, key: object, span: Span, scope: Scope) -> None:
        """`price["skyscraper"]`: a key written in the rules that the table does not have."""
        name, value = self._table_value(obj, scope)
        if name is None:
            return
        if isinstance(value, dict):
            if key in value:
                return
            self.diags.error(span, "unknown-key", f"table {name} has no entry {key!r}",
                             _among(key, [str(k) for k in value], "its keys are"))
        elif isinstance(value, list) and isinstance(key, int) and not -len(value) <= key < len(value):
            self.diags.error(span, "unknown-key", f"table {name} has {len(value)} entries: "
                             f"{key} is not a position in it", f"positions run from 0 to {len(value) - 1}")

    def _check_index(self, e: A.Index, scope: Scope) -> None:
        """`_check_key` for an index written as a literal (`price["house"]`, `steps[3]`)."""
        key = _literal(e.index)
        if key is not _UNKNOWN:
            self._check_key(e.obj, key, e.index.span, scope)

    def _table_value(self, e: A.Expr, scope: Scope) -> tuple[str | None, object]:
        """The fixed value of a table, or of a part of one picked with literal keys."""
        if isinstance(e, A.Name):
            if scope.lookup(e.name) is None and e.name in self.world.tables:
                return e.name, self.world.tables[e.name][1]
            return None, None
        if isinstance(e, (A.Index, A.Attr)):
            name, value = self._table_value(e.obj, scope)
            key = _literal(e.index) if isinstance(e, A.Index) else e.name
            if name is None:
                return None, None
            if key is _UNKNOWN:
                # A row picked at run time: when every row is a map, a key must be in one of them.
                rows = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else []
                if rows and all(isinstance(r, dict) for r in rows):
                    return f"{name}[...]", {k: None for r in rows for k in r}
                return None, None
            label = f"{name}[{json.dumps(key)}]" if isinstance(e, A.Index) else f"{name}.{key}"
            if isinstance(value, dict) and key in value:
                return label, value[key]
            if isinstance(value, list) and isinstance(key, int) and -len(value) <= key < len(value):
                return label, value[key]
        return None, None

    def _known(self, e: A.Attr | A.Index, t: Type, scope: Scope) -> Type:
        """The type of a part of a table that mixes kinds of values (`rule.min` in a map of texts and
        numbers), when the rules pick it with keys written in them: the type of that very value."""
        if t.kind != "any":
            return t
        label, value = self._table_value(e, scope)
        if label is None or "[...]" in label or value is None:
            return t
        return type_of_data(value)

    def _trace_part(self, e: A.Attr | A.Index, key: object) -> None:
        """A part of data read with a key (`prices.bare`, `steps[2]`) or one picked at run time."""
        parent = self.origins.get(e.obj.span)
        if parent is not None:
            step = EVERY if key is _UNKNOWN else key
            self._trace(e, parent.part(_label(e), step))

    # ------------------------------------------------------------- the rules
    def literal(self, e: A.Num | A.Bool | A.NoneLit | A.Template) -> Type:
        """A number, yes/no, none or text written in the rules."""
        if isinstance(e, A.Num):
            return INT
        if isinstance(e, A.Bool):
            return BOOL
        if isinstance(e, A.NoneLit):
            return NONE
        return STR

    def condition(self, e: A.Expr, t: Type, what: str = "a condition") -> Type:
        """A yes/no: a condition, the operand of `not`."""
        self.check(t, ("bool",), e.span, what)
        return BOOL

    def name(self, e: A.Name, scope: Scope) -> Type | None:
        """A variable, a global field, a table, `seats`, `nodes` or a collection of items."""
        var = scope.lookup(e.name)
        if var is not None:
            var.used = True
            self._trace(e, self._var_origins.get(id(var)))
            return var.type
        w = self.world
        if e.name in w.global_fields:
            self._trace(e, Origin(e.name, field=w.global_fields[e.name]))
            return w.global_fields[e.name].type
        if e.name in w.tables:
            t, _ = w.tables[e.name]
            source = w.table_sources.get(e.name)
            self._trace(e, Origin(e.name, source) if source is not None else None)
            return t
        if e.name == "seats":
            return list_of(SEAT)
        if e.name == "nodes":
            return list_of(NODE)
        for component in w.components.values():
            if e.name == component.collection:
                return list_of(Type(component.name))
        if e.name in BUILTINS or e.name in self.formula_names():
            return self.err(e.span, "unknown-name", f"'{e.name}' is a function: call it with ( )")
        if e.name in _WORDS_OF_OTHER_LANGUAGES:
            message, hint = _WORDS_OF_OTHER_LANGUAGES[e.name]
            kind = next(iter(w.components), "card")
            return self.err(e.span, "unknown-name", message, hint.format(kind=kind))
        candidates = (list(scope.names()) + list(w.global_fields) + list(w.tables) + list(CONSTANTS)
                      + [c.collection for c in w.components.values()])
        return self.err(e.span, "unknown-name", f"no variable, state field or table called '{e.name}'",
                        did_you_mean(e.name, candidates))

    def attr(self, e: A.Attr, t: Type, scope: Scope) -> Type | None:
        """`x.name` on a value of type t: a seat's, node's or item's field or attribute, a map's entry."""
        w = self.world
        label = f"{_label(e.obj)}.{e.name}"
        if t.kind == "seat":
            f = w.seat_fields.get(e.name)
            if f is None:
                if e.name == "name":
                    return STR
                return self.err(e.name_span, "unknown-field", f"seats have no field '{e.name}'",
                                did_you_mean(e.name, list(w.seat_fields)))
            self._trace(e, Origin(label, field=f))
            return f.type
        if t.kind == "node":
            nf = w.node_fields.get(e.name)
            if nf is not None:
                self._trace(e, Origin(label, field=nf))
                return nf.type
            if e.name in w.node_attrs:
                self.fixed[id(e)] = (f"no board node has {e.name}", w.node_attr_values[e.name])
                source = w.node_attr_sources.get(e.name)
                self._trace(e, Origin(label, source, (EVERY,)) if source is not None else None)
                return w.node_attrs[e.name]
            return self.err(e.name_span, "unknown-field", f"board nodes have no field or attribute '{e.name}'",
                            did_you_mean(e.name, list(w.node_fields) + list(w.node_attrs)))
        component = w.components.get(t.kind)
        if component is not None:
            cf = component.fields.get(e.name)
            if cf is not None:
                self._trace(e, Origin(label, field=cf))
                return cf.type
            if e.name in component.attrs:
                self.fixed[id(e)] = (f"no {component.name} has {e.name}", component.attr_values[e.name])
                source = component.attr_sources.get(e.name)
                self._trace(e, Origin(label, source, (EVERY,)) if source is not None else None)
                return component.attrs[e.name]
            return self.err(e.name_span, "unknown-field", f"{an(component.name)} has no field or attribute '{e.name}'",
                            did_you_mean(e.name, list(component.fields) + list(component.attrs)))
        if t.kind == "map":
            if t.args[0].kind not in ("str", "any"):
                return self.err(e.name_span, "type", f"'.{e.name}' needs a map with text keys; use [ ] here")
            self._check_key(e.obj, e.name, e.name_span, scope)
            self._trace_part(e, e.name)
            return self._known(e, t.args[1], scope)
        if t.kind == "any":
            return self._known(e, ANY, scope)
        return self.err(e.span, "type", f"a value of type {t} has no field '{e.name}'")

    def index(self, e: A.Index, t: Type, it: Type, scope: Scope) -> Type | None:
        """`x[i]` on a value of type t with an index of type it: a tuple, list or map."""
        if t.kind == "tuple":
            if isinstance(e.index, A.Num):
                if not 0 <= e.index.value < len(t.args):
                    return self.err(e.index.span, "type", f"{an(t)} has positions 0 to {len(t.args) - 1}")
                return t.args[e.index.value]
            self.check(it, ("int",), e.index.span, "a tuple position")
            elem: Type = NONE
            for a in t.args:
                elem = unify(elem, a)
            return elem
        if t.kind == "list":
            self.check(it, ("int", "seat"), e.index.span, "a list index")
            self._check_index(e, scope)
            self._trace_part(e, _literal(e.index))
            return self._known(e, t.args[0], scope)
        if t.kind == "map":
            if not assignable(t.args[0], it):
                return self.err(e.index.span, "type", f"this map's keys are {t.args[0]}, not {it}",
                                related=self.explain(e.index.span, it))
            self._check_index(e, scope)
            self._trace_part(e, _literal(e.index))
            return self._known(e, t.args[1], scope)
        if t.kind == "any":
            return self._known(e, ANY, scope)
        return self.err(e.span, "type", f"a value of type {t} cannot be indexed with [ ]")

    def binary(self, e: A.BinOp, ta: Type, tb: Type) -> Type:
        """Both sides' types known: the operator's own rule (`_OPERATORS`); any other is arithmetic."""
        return _OPERATORS.get(e.op, ExprTypes._arithmetic)(self, e, ta, tb)

    def _logic(self, e: A.BinOp, ta: Type, tb: Type) -> Type:
        """`and`, `or`: two bools."""
        self.check(ta, ("bool",), e.left.span, f"the left side of '{e.op}'")
        self.check(tb, ("bool",), e.right.span, f"the right side of '{e.op}'")
        return BOOL

    def _equality(self, e: A.BinOp, ta: Type, tb: Type) -> Type:
        """`==`, `!=`: any two values; a warning when they can never be equal."""
        op = e.op
        kinds = {ta.kind, tb.kind}
        things = kinds & ({"node"} | set(self.world.components))
        if things and kinds & {"int", "str"}:
            thing = sorted(things)[0]
            self.diags.warning(e.span, "type", f"{an(thing)} is not its id: comparing {ta} with {tb} is "
                               "always " + ("false" if op == "==" else "true"),
                               f"compare its id instead, e.g. x.id == {'7' if thing == 'node' else chr(34) + 'a-b' + chr(34)}")
        elif kinds == {"seat", "int"}:
            pass  # seats are numbered from 0: `s == 0` is the first seat
        elif not kinds & {"any", "none"} and len(kinds) == 2:
            self.diags.warning(e.span, "type", f"comparing {ta} with {tb} is always "
                               + ("false" if op == "==" else "true"))
        else:
            self._check_value(e.left, e.right)
            self._check_value(e.right, e.left)
        return BOOL

    def _ordering(self, e: A.BinOp, ta: Type, tb: Type) -> Type:
        """`<`, `<=`, `>`, `>=`: two numbers or two texts."""
        op = e.op
        left_ok = self.check(ta, ("int", "str"), e.left.span, f"the left side of '{op}'")
        right_ok = self.check(tb, ("int", "str"), e.right.span, f"the right side of '{op}'")
        if left_ok and right_ok and ta.kind != tb.kind and "any" not in (ta.kind, tb.kind):
            # The side whose type comes from the values of data is the likely mistake.
            data = self.explain(e.left.span, ta, False) + self.explain(e.right.span, tb, False)
            self.err(e.span, "type", f"'{op}' compares {ta} with {tb}: compare two numbers or two texts",
                     related=data or self.explain(e.left.span, ta) + self.explain(e.right.span, tb))
        return BOOL

    def _membership(self, e: A.BinOp, ta: Type, tb: Type) -> Type:
        """`in`, `not in`: a value and a list or map."""
        self.check(tb, ("list", "map"), e.right.span, f"the right side of '{e.op}'")
        if isinstance(e.right, A.ListLit):
            for item in e.right.items:
                self._check_value(e.left, item)
        return BOOL

    def _plus(self, e: A.BinOp, ta: Type, tb: Type) -> Type:
        """`+` of two lists, of two texts, else of numbers."""
        if ta.kind == "list" or tb.kind == "list":
            self.check(ta, ("list",), e.left.span, "the left side of '+'")
            self.check(tb, ("list",), e.right.span, "the right side of '+'")
            return unify(ta, tb)
        if ta.kind == "str" and tb.kind == "str":
            return STR
        return self._arithmetic(e, ta, tb)

    def _arithmetic(self, e: A.BinOp, ta: Type, tb: Type) -> Type:
        """`+`, `-`, `*`, `//`, `%` of two numbers."""
        self.check(ta, ("int",), e.left.span, f"the left side of '{e.op}'")
        self.check(tb, ("int",), e.right.span, f"the right side of '{e.op}'")
        return INT

    def negated(self, e: A.Neg, t: Type) -> Type:
        """`-x`: a number."""
        self.check(t, ("int",), e.span, "a negated value")
        return INT

    def conditional(self, e: A.IfExp, ta: Type, tb: Type) -> Type | None:
        """`a if c else b` (the condition checked as one): both branches of one kind of value."""
        if disagree(ta, tb):
            # unify would make the value `any`, and the mistake would surface where it is used,
            # in Python's words, or only in play: it is made here.
            return self.err(e.span, "type", f"the two branches of this 'if ... else' give different kinds of "
                            f"value: {an(ta)} and {an(tb)}", "give both branches the same type",
                            related=self.explain(e.then.span, ta) + self.explain(e.orelse.span, tb))
        return unify(ta, tb)

    def list_of_elements(self, types: list[Type]) -> Type:
        """A list written element by element, or made by a comprehension: a list of their common type."""
        elem: Type | None = None
        for t in types:
            elem = t if elem is None else unify(elem, t)
        return list_of(elem if elem is not None else ANY)

    def tuple_of_elements(self, types: list[Type]) -> Type:
        """A tuple written element by element: a tuple of their types."""
        return tuple_of(*types)

    def map_key(self, key: A.Expr, t: Type) -> None:
        """A key of a map written in the rules: a text."""
        self.check(t, ("str",), key.span, "a map key")

    def map_of_values(self, types: list[Type]) -> Type:
        """A map written pair by pair, or made by a comprehension: text keys, values of a common type."""
        vt: Type | None = None
        for t in types:
            vt = t if vt is None else unify(vt, t)
        return map_of(STR, vt if vt is not None else ANY)

    def comprehension(self, var: str, iter_: A.Expr, t: Type, span: Span, scope: Scope) -> Type:
        """`for var in iter_` in a comprehension, iter_ of type t: the variable's type."""
        self.check(t, ("list",), iter_.span, "what a comprehension runs over")
        self.no_shadow(var, span, scope)
        return t.elem if t.kind == "list" else ANY

    def formula_call(self, e: A.Call, params: list[Type]) -> bool:
        """A call of a formula taking these types: as many values as it takes? (Also noted: where the
        value of a one-expression formula is made.)"""
        body = self.inline_body(e.name)
        if body is not None:
            self.made[e.span] = (e.name, body[1].span)
        if len(e.args) != len(params):
            self.err(e.span, "arity", f"'{e.name}' takes {len(params)} value(s), got {len(e.args)}")
            return False
        return True

    def formula_argument(self, e: A.Call, i: int, arg: A.Expr, want: Type, t: Type) -> None:
        """The value number i of a formula's call: of the type of its parameter."""
        if not assignable(want, t):
            self.err(arg.span, "type", f"value {i} of '{e.name}' must be {want}, not {t}",
                     related=self.explain(arg.span, t))

    def builtin_call(self, e: A.Call) -> bool:
        """A call that names no formula: a built-in, with as many values as it takes?"""
        if e.name not in BUILTINS:
            self.err(e.name_span, "unknown-name", f"no function or formula called '{e.name}'",
                     did_you_mean(e.name, list(BUILTINS) + self.formula_names()))
            return False
        spec = BUILTINS[e.name]
        if not spec.fewest <= len(e.args) <= spec.most:
            self.err(e.span, "arity", f"'{e.name}' takes {spec.arity} value(s), got {len(e.args)}")
            return False
        return True


# Each binary operator's typing rule; any other operator is arithmetic.
_OPERATORS: dict[str, Callable[[ExprTypes, A.BinOp, Type, Type], Type]] = {
    "and": ExprTypes._logic, "or": ExprTypes._logic,
    "==": ExprTypes._equality, "!=": ExprTypes._equality,
    "<": ExprTypes._ordering, "<=": ExprTypes._ordering, ">": ExprTypes._ordering, ">=": ExprTypes._ordering,
    "in": ExprTypes._membership, "not in": ExprTypes._membership, "+": ExprTypes._plus,
}


def _label(e: A.Expr) -> str:
    """How the rules wrote a read of data, for a note: `lot.shape`, `prices.bare`, `price[...]`."""
    if isinstance(e, A.Name):
        return e.name
    if isinstance(e, A.Attr):
        return f"{_label(e.obj)}.{e.name}"
    if isinstance(e, A.Index):
        key = _literal(e.index)
        return f"{_label(e.obj)}[{'...' if key is _UNKNOWN else json.dumps(key)}]"
    if isinstance(e, A.Call):
        return f"{e.name}(...)"
    return "..."


_UNKNOWN = object()


def _literal(e: A.Expr) -> object:
    """The value of a number or plain text written in the rules, else _UNKNOWN."""
    if isinstance(e, A.Num):
        return e.value
    if isinstance(e, A.Neg) and isinstance(e.operand, A.Num):
        return -e.operand.value
    if isinstance(e, A.Template) and e.is_plain:
        return e.text
    return _UNKNOWN


def disagree(a: Type, b: Type) -> bool:
    """Do two known types have nothing in common (a list and a number)? None and any agree with all."""
    if a.kind in ("none", "any") or b.kind in ("none", "any"):
        return False
    if a.kind != b.kind:
        return True
    return len(a.args) != len(b.args) or any(disagree(x, y) for x, y in zip(a.args, b.args))


def _among(value: object, shown: list[str], intro: str) -> str | None:
    """A hint for a value that is not one of `shown`: the closest one, or all of them when few."""
    return (copies_hint(str(value), shown) or did_you_mean(str(value), shown)
            or (intro + " " + ", ".join(shown) if len(shown) <= 12 else None))


class Expressions(ExprCostMixin):
    """Expression checking and code generation against one game's World."""

    def __init__(self, world: World, diags: DiagnosticBag,
                 formula_sig: Callable[[str, Span], tuple[list[Type], Type, str] | None],
                 formula_names: Callable[[], list[str]],
                 inline_body: Callable[[str], tuple[list[str], A.Expr] | None] = lambda name: None,
                 check_only: bool = False):
        self.world = world
        self.types = ExprTypes(world, diags, formula_names, inline_body)
        self.check_only = check_only   # no code is wanted: what only improves it is skipped
        self.inline_body = inline_body
        self.inline_depth = 0
        self.formula_sig = formula_sig
        self.formula_names = formula_names
        self.consts: dict[str, object] = {}
        self.hoister = Hoister()
        self._reader = False
        self._member: Type | None = None  # the left side's type while the right side of `in` is generated
        self._this_reader = False   # `reader` of the expression being generated (see read)
        self.charges = Charges()
        self.stmt_start = 0
        self._in_arith = False      # generating an operand of + - * (see _checked_number)
        # Calls generated as built-ins, by node id (kept alive, so no id is reused): see bounds.py.
        self._builtin_calls: dict[int, A.Call] = {}
        # The names each expression reads, by node id (the node kept alive): an inlined formula's
        # body is generated at every call, and walking it again each time made checking quadratic.
        self._names_read: dict[int, tuple[A.Expr, frozenset[str]]] = {}
        self._calls = Calls(self._is_builtin, lambda call: None if self._is_builtin(call) else inline_body(call.name),
                            lambda name: world.tables[name][1] if name in world.tables else UNKNOWN)
        # Work of each formula when it is known before it runs (None: it counts its own as it runs).
        self.formula_work: dict[str, FormulaWork | None] = {}
        self.memo: set[str] = set()   # formulas whose values are remembered (purity.py)
        # > 0 while generating code that goes where Python refuses `:=` (what a comprehension runs over)
        self.in_iterable = 0
        # Inlined calls and `+` of lists (by node id): the length of the list each gives (size_of).
        self.known_sizes: dict[int, int | str | None] = {}
        # State columns (a field of every seat, node or item) by local name: `_f3` -> "N['plaque']".
        self.columns: dict[str, str] = {}
        self._column_names: dict[str, str] = {}
        self._const_names: dict[tuple[str, str], str] = {}

    # ------------------------------------------------------------------ helpers
    @property
    def diags(self) -> DiagnosticBag:
        """Where diagnostics go: the typing rules' (a walk that only repeats one gives them a bag of its own)."""
        return self.types.diags

    @diags.setter
    def diags(self, bag: DiagnosticBag) -> None:
        self.types.diags = bag

    def err(self, span: Span, code: str, message: str, hint: str | None = None,
            related: tuple[Related, ...] = ()) -> Code:
        """Record an error and return a placeholder so checking can go on."""
        self.types.err(span, code, message, hint, related)
        return BAD

    def explain(self, span: Span, t: Type, declared: bool = True) -> tuple[Related, ...]:
        """ExprTypes.explain"""
        return self.types.explain(span, t, declared)

    def carry(self, var: Var | None, value: A.Expr) -> None:
        """ExprTypes.carry"""
        self.types.carry(var, value)

    def check(self, t: Type, kinds: tuple[str, ...], span: Span, what: str) -> bool:
        """ExprTypes.check"""
        return self.types.check(t, kinds, span, what)

    def no_shadow(self, name: str, span: Span, scope: Scope) -> None:
        """ExprTypes.no_shadow"""
        self.types.no_shadow(name, span, scope)

    def const(self, group: str, key: str, value: object) -> str:
        """A module-level name holding a constant of the game (table, attribute column...)."""
        ref = self._const_names.get((group, key))
        if ref is None:
            ref = f"_K{len(self._const_names)}"
            self._const_names[(group, key)] = ref
            self.consts[ref] = value
        return ref

    def resolver(self, scope: Scope) -> Resolve:
        """What folding.py needs to know of names: the fixed value of a table or a literal argument."""
        def resolve(name: str) -> object:
            var = scope.lookup(name)
            if var is None:
                return self.world.tables[name][1] if name in self.world.tables else UNKNOWN
            return var.fixed[0] if var.fixed is not None else UNKNOWN
        return resolve

    def column(self, path: str) -> str:
        """A local name for a state column, bound once at the top of each function that reads it.

        A column (one field of every seat, node or item) is a list that lives as long as the state:
        rules change its elements, never the list itself, so one look-up per function is enough.
        A global field is bound the same way in formulas, which change nothing.
        """
        ref = self._column_names.get(path)
        if ref is None:
            ref = f"_f{len(self._column_names)}"
            self._column_names[path] = ref
            self.columns[ref] = path
        return ref

    def fmt(self, code: str, t: Type) -> str:
        """Python expression turning a value into display text."""
        tag = t.kind if t.kind != "list" else f"list:{t.elem.kind}"
        if not t.nullable:
            if tag == "int":
                return f"str({code})"
            if tag == "str":
                return code
            if tag == "seat":
                return f"c.names[{code}]"
            if tag == "node":
                return f"_nids[{code}]"
        formatter = self.const("fmt", str(t), make_formatter(t, self.world.node_ids, self.world.ids_by_kind()))
        return f"{formatter}({code}, c.names)"

    # ------------------------------------------------------------- expressions
    def read(self, e: A.Expr, scope: Scope) -> Code:
        """`expr` for a value that is only read, never kept or changed (see hoist.py)."""
        self._reader = True
        return self.expr(e, scope)

    def expr(self, e: A.Expr, scope: Scope) -> Code:
        """Check e and return (python code, type)."""
        reader, self._reader = self._reader, False
        member, self._member = self._member, None
        in_arith, self._in_arith = self._in_arith, False
        start = scope.counter[0]
        method = getattr(self, "_" + type(e).__name__)
        self._this_reader = reader
        result: Code = method(e, scope)
        if self.check_only:
            return result   # the rest only rewrites the code (bounds, per-node tables, hoisting, folding)
        kind = type(e)
        if kind is A.BinOp and not in_arith and result[1].kind == "int" and COUNT_WORK_ON() \
                and _grows(e, self.resolver(scope)) \
                and not self._bounded(bound(e, self.resolver(scope), self._calls)):
            # The whole sum or product is done: a number past the limit stops the game here.
            return (f"_num({result[0]})", result[1])
        if kind in _PER_NODE and result[1].kind in ("int", "str", "bool"):
            table = self._per_node(e, result[0], scope)
            if table is not None:
                return (table, result[1])
        if kind in _COSTLY:
            lookup = member is not None and self._hashable(member) and result[1].kind == "list" \
                and self._hashable(result[1].elem)
            return (self.hoister.consider(e, result[0], result[1], reader, start, lambda: scope.fresh("h"), lookup),
                    result[1])
        if kind is not A.Name and kind in _READS or kind is A.Name and e.name in self.world.tables:  # type: ignore[union-attr]
            # Fixed data read with literal keys: its value, written as a literal (folding.py), or
            # bound once as a constant when it is a part of a table (`prices.bare`).
            value = fixed_value(e, self.resolver(scope))
            code = literal(value)
            if code is not None:
                return (code, result[1])
            if isinstance(value, (list, tuple, dict)) and not isinstance(e, A.Name):
                return (self.const("fixed", str(id(value)), value), result[1])
        return result

    def _is_builtin(self, call: A.Call) -> bool:
        return self._builtin_calls.get(id(call)) is call

    @staticmethod
    def _bounded(most: int | None) -> bool:
        """A number proved never to pass the limit: its check can never fail (bounds.py)."""
        return most is not None and most <= NUMBER_LIMIT

    def _per_node(self, e: A.Expr, code: str, scope: Scope) -> str | None:
        """A read of a table of e's value for each board node, when e reads only fixed data and one
        node variable (folding.per_node): `buy_price[kind_of(shop)]` becomes one look-up. A none
        in the variable is left to e's own code, to fail as it would."""
        known = self._names_read.get(id(e))
        if known is None or known[0] is not e:
            known = (e, frozenset(n.name for n in walk(e) if isinstance(n, A.Name)))
            self._names_read[id(e)] = known
        found = [v for v in (scope.lookup(n) for n in known[1]) if v is not None]
        if len(found) != 1 or found[0].type.kind != "node":
            return None
        var = found[0]
        values = per_node(e, var.name, self.world, self.resolver(scope), self.inline_body)
        if values is None:
            return None
        table = self.const("per_node", repr(values), values)
        return f"({table}[{var.code}] if {var.code} is not None else {code})"

    def _hashable(self, t: Type) -> bool:
        """Are the values of this type Python values that a set holds (whole numbers, texts, seats,
        nodes, items, none), equal in a set exactly when equal in a list?"""
        return t.kind in ("int", "str", "bool", "seat", "node", "none") or t.kind in self.world.components

    def cond(self, e: A.Expr, scope: Scope, what: str = "a condition") -> str:
        """A boolean expression."""
        code, t = self.expr(e, scope)
        self.types.condition(e, t, what)
        return code

    def _Num(self, e: A.Num, scope: Scope) -> Code:
        if abs(e.value) > NUMBER_LIMIT:  # refused when it is reached, at its place in the rules
            return (f"_num({int(e.value)})", self.types.literal(e))
        return (str(int(e.value)), self.types.literal(e))

    def _Bool(self, e: A.Bool, scope: Scope) -> Code:
        return ("True" if e.value else "False", self.types.literal(e))

    def _NoneLit(self, e: A.NoneLit, scope: Scope) -> Code:
        return ("None", self.types.literal(e))

    def _Template(self, e: A.Template, scope: Scope) -> Code:
        return (self.template(e, scope), self.types.literal(e))

    def template(self, e: A.Template, scope: Scope) -> str:
        """Python expression building the text of a template."""
        pieces: list[str] = []
        for part in e.parts:
            if isinstance(part, str):
                pieces.append(repr(part))
            else:
                code, t = self.expr(part, scope)
                pieces.append(self.fmt(code, t))
        if not pieces:
            return "''"
        if len(pieces) == 1:
            return pieces[0]
        # A join, not a chain of '+': a text with thousands of parts must still compile.
        return "''.join((" + ", ".join(pieces) + ",))" if len(pieces) > 8 else "(" + " + ".join(pieces) + ")"

    def _Name(self, e: A.Name, scope: Scope) -> Code:
        t = self.types.name(e, scope)
        if t is None:
            return BAD
        var = scope.lookup(e.name)
        if var is not None:
            return (var.code, t)
        w = self.world
        if e.name in w.global_fields:
            if self.hoister.in_formula():
                # Nothing changes the state while a formula runs: one look-up per call.
                return (self.column(f"V[{e.name!r}]"), t)
            return (f"V[{e.name!r}]", t)
        if e.name in w.tables:
            return (self.const("table", e.name, w.tables[e.name][1]), t)
        if e.name == "seats":
            return ("c.seats", t)
        if e.name == "nodes":
            return (self.const("nodes", "", list(range(len(w.node_ids)))), t)
        component = next(c for c in w.components.values() if e.name == c.collection)
        return (self.const("collection", component.name, list(range(len(component.ids)))), t)

    def _Attr(self, e: A.Attr, scope: Scope) -> Code:
        obj, ot = self.expr(e.obj, scope)
        t = self.types.attr(e, ot, scope)
        if t is None:
            return BAD
        w = self.world
        if ot.kind == "seat":
            if e.name not in w.seat_fields:
                return (f"c.names[{obj}]", t)  # a seat's name
            return (f"{self.column(f'S[{e.name!r}]')}[{obj}]", t)
        if ot.kind == "node":
            if e.name in w.node_fields:
                return (f"{self.column(f'N[{e.name!r}]')}[{obj}]", t)
            column = self.const("attr", e.name, tuple(w.node_attr_values[e.name]))
            return (f"{column}[{obj}]", t)
        component = w.components.get(ot.kind)
        if component is not None:
            if e.name in component.fields:
                return (f"{self.column(f'C[{component.name!r}][{e.name!r}]')}[{obj}]", t)
            column = self.const(f"attr:{component.name}", e.name, tuple(component.attr_values[e.name]))
            return (f"{column}[{obj}]", t)
        return (f"{obj}[{e.name!r}]", t)  # a map's entry, or a part of a value of unknown type

    def _TupleLit(self, e: A.TupleLit, scope: Scope) -> Code:
        codes, types = [], []
        for item in e.items:
            code, t = self.expr(item, scope)
            codes.append(code)
            types.append(t)
        return ("[" + ", ".join(codes) + "]", self.types.tuple_of_elements(types))

    def _Index(self, e: A.Index, scope: Scope) -> Code:
        obj, ot = self.expr(e.obj, scope)
        idx, it = self.expr(e.index, scope)
        t = self.types.index(e, ot, it, scope)
        if t is None:
            return BAD
        return (f"{obj}[{idx}]", t)

    def _BinOp(self, e: A.BinOp, scope: Scope) -> Code:
        """Both sides generated, the operator's typing rule, then its code (`_BINARY`)."""
        arith = e.op in ("+", "-", "*")
        self._in_arith = arith
        left = self.expr(e.left, scope)
        self._in_arith = arith
        if e.op in ("in", "not in"):
            self._member = left[1]
            right = self.read(e.right, scope)
        else:
            right = self.expr(e.right, scope)
        t = self.types.binary(e, left[1], right[1])
        return (_BINARY.get(e.op, Expressions._arithmetic)(self, e, left, right, scope), t)

    def _logic(self, e: A.BinOp, left: Code, right: Code, scope: Scope) -> str:
        """`and`, `or`."""
        return f"({left[0]} {e.op} {right[0]})"

    def _equality(self, e: A.BinOp, left: Code, right: Code, scope: Scope) -> str:
        """`==`, `!=`: `is` when one side is none."""
        (a, _), (b, _), op = left, right, e.op
        if isinstance(e.right, A.NoneLit) or isinstance(e.left, A.NoneLit):  # only none is none
            return f"({a} {'is' if op == '==' else 'is not'} {b})"
        return f"({a} {op} {b})"

    def _ordering(self, e: A.BinOp, left: Code, right: Code, scope: Scope) -> str:
        """`<`, `<=`, `>`, `>=`."""
        return f"({left[0]} {e.op} {right[0]})"

    def _membership(self, e: A.BinOp, left: Code, right: Code, scope: Scope) -> str:
        """`in`, `not in`: a short fixed list becomes a set constant; a search is counted."""
        (a, ta), (b, tb), op = left, right, e.op
        fixed = fixed_value(e.right, self.resolver(scope))
        if ta.kind not in _CONTAINERS and isinstance(fixed, list) and 0 < len(fixed) <= 32 \
                and all(literal(v) is not None for v in fixed):
            # A short fixed list of plain values: a set literal, which Python makes a constant.
            b = "{" + ", ".join(sorted({literal(v) or "" for v in fixed})) + "}"
        elif tb.kind == "list" and self.size_of(e.right, b, scope) != PAID:
            self.charges.charge(SEARCH_STEPS)  # `in` searches the list (a new one was counted)
        return f"({a} {op} {b})"

    def _plus(self, e: A.BinOp, left: Code, right: Code, scope: Scope) -> str:
        """`+` of two lists (counted, and refused past the size limit), of two texts, else of numbers."""
        (a, ta), (b, tb) = left, right
        if ta.kind == "list" or tb.kind == "list":
            sizes = [self.size_of(x, code, scope) for x, code in ((e.left, a), (e.right, b))]
            if any(not isinstance(x, (A.ListLit, A.ListComp, A.BinOp)) and size != PAID and not isinstance(size, int)
                   for x, size in zip((e.left, e.right), sizes)) and COUNT_WORK_ON():
                # A list that may be long already (a variable, a field): counted as it is made,
                # and refused past the size limit (`x = x + x` cannot fill the memory).
                self.known_sizes[id(e)] = self.total(sizes)
                return f"_cat(c, {a}, {b})"
            for size in sizes:  # making the new list visits both (a new one was counted already)
                if size != PAID:
                    self.charges.charge(size if isinstance(size, int) else 0, size if isinstance(size, str) else None)
            self.known_sizes[id(e)] = self.total(sizes)
            return f"({a} + {b})"
        if ta.kind == "str" and tb.kind == "str":
            return f"_tcat(c, {a}, {b})" if COUNT_WORK_ON() else f"({a} + {b})"
        return self._arithmetic(e, left, right, scope)

    def _arithmetic(self, e: A.BinOp, left: Code, right: Code, scope: Scope) -> str:
        """`+`, `-`, `*`, `//`, `%` of two numbers (division and remainder by the rules' own helpers)."""
        (a, _), (b, _), op = left, right, e.op
        if op == "//":
            return f"_div({a}, {b})"
        if op == "%":
            return f"_mod({a}, {b})"
        return f"({a} {op} {b})"

    def _Not(self, e: A.Not, scope: Scope) -> Code:
        code, t = self.expr(e.operand, scope)
        return (f"(not {code})", self.types.condition(e.operand, t, "the operand of not"))

    def _Neg(self, e: A.Neg, scope: Scope) -> Code:
        # Not an operand of + - *: nothing above checks the number, so a sum or product under the
        # minus keeps its own check (-(n * n) in a loop would otherwise grow without limit).
        code, t = self.expr(e.operand, scope)
        return (f"(-{code})", self.types.negated(e, t))

    def _IfExp(self, e: A.IfExp, scope: Scope) -> Code:
        c = self.cond(e.cond, scope)
        a, ta = self.expr(e.then, scope)
        b, tb = self.expr(e.orelse, scope)
        t = self.types.conditional(e, ta, tb)
        if t is None:
            return BAD
        return (f"({a} if {c} else {b})", t)

    def _ListLit(self, e: A.ListLit, scope: Scope) -> Code:
        codes, types = [], []
        for item in e.items:
            code, t = self.expr(item, scope)
            codes.append(code)
            types.append(t)
        return ("[" + ", ".join(codes) + "]", self.types.list_of_elements(types))

    def _comprehension(self, var: str, iter_: A.Expr, cond: A.Expr | None, span: Span,
                       scope: Scope) -> tuple[Scope, str, str, str]:
        """Start a comprehension: its scope, variable, list and condition (see _end_comprehension)."""
        self.in_iterable += 1
        try:
            it, t = self.read(iter_, scope)
        finally:
            self.in_iterable -= 1
        elem = self.types.comprehension(var, iter_, t, span, scope)
        inner = Scope(scope, scope.persistent, scope.counter)
        v = inner.declare(var, elem, "comp", span, comp=True)
        v.used = True
        self.hoister.repeat += 1  # the condition and the element are computed once per element
        self.charges.begin()      # ... and so is their work
        condition = f" if {self.cond(cond, inner)}" if cond is not None else ""
        return inner, v.code, it, condition

    def _end_comprehension(self, iter_: A.Expr, var: str, it: str, condition: str, scope: Scope) -> str:
        """Count the comprehension's work (its elements times the work per element); its clause."""
        self.hoister.repeat -= 1
        per = self.charges.end()
        return f" for {var} in {self.counted(iter_, it, scope, per)}{condition}"

    def _ListComp(self, e: A.ListComp, scope: Scope) -> Code:
        reader = self._this_reader
        inner, var, it, condition = self._comprehension(e.var, e.iter, e.cond, e.span, scope)
        elt, t = self.expr(e.elt, inner)
        clause = self._end_comprehension(e.iter, var, it, condition, scope)
        if clause == f" for {var} in c.seats" and _CONSTANT.match(elt):
            code = f"[{elt}] * c.nseats"  # (one value per seat that nothing can change in place)
        else:
            code = f"[{elt}{clause}]"
        return (self._folded(e, scope, reader) or code, self.types.list_of_elements([t]))

    def _folded(self, e: A.Expr, scope: Scope, reader: bool) -> str | None:
        """A list made only of fixed data, computed now (folding.evaluate): the code reading it.

        Its work is still counted as if it were made every time (the count depends on the rules
        only). A value that may be kept gets a copy of its own.
        """
        known = evaluate(e, {}, self.world, self.resolver(scope))
        value = plain(known) if known is not None else UNKNOWN
        if not isinstance(value, list):
            self.known_sizes.pop(id(e), None)
            return None
        self.known_sizes[id(e)] = len(value)
        ref = self.const("folded", repr(value), value)
        return ref if reader else f"{ref}[:]"

    def _MapLit(self, e: A.MapLit, scope: Scope) -> Code:
        codes, types = [], []
        for k, v in e.pairs:
            kc, kt = self.expr(k, scope)
            vc, vt = self.expr(v, scope)
            self.types.map_key(k, kt)
            types.append(vt)
            codes.append(f"{kc}: {vc}")
        return ("{" + ", ".join(codes) + "}", self.types.map_of_values(types))

    def _MapComp(self, e: A.MapComp, scope: Scope) -> Code:
        inner, var, it, condition = self._comprehension(e.var, e.iter, e.cond, e.span, scope)
        kc, kt = self.expr(e.key, inner)
        self.types.map_key(e.key, kt)
        vc, vt = self.expr(e.value, inner)
        clause = self._end_comprehension(e.iter, var, it, condition, scope)
        return (f"{{{kc}: {vc}{clause}}}", self.types.map_of_values([vt]))

    # ---------------------------------------------------------------- calls
    def _Call(self, e: A.Call, scope: Scope) -> Code:
        reader = self._this_reader
        sig = self.formula_sig(e.name, e.name_span)
        if sig is not None:
            params, ret, fn = sig
            if not self.types.formula_call(e, params):
                return BAD
            codes = []
            for i, (arg, pt) in enumerate(zip(e.args, params), 1):
                code, t = self.expr(arg, scope)
                self.types.formula_argument(e, i, arg, pt, t)
                codes.append(code)
            inlined = self._inline(e, codes, params, scope, reader)
            if inlined is not None:
                return (inlined, ret)
            work = self.formula_work.get(e.name)
            if work is None:  # a formula whose work is known only as it runs counts its own
                self.charges.charge(1)
                if (e.name in self.memo and not self.hoister.repeat and not self.in_iterable
                        and all(_plain_read(a) for a in e.args)):
                    return (memo_read(self.const("memo", fn, {}), fn, codes, scope.fresh("m")), ret)
            else:
                used = work.used_params()
                terms = work.at_call(codes) if all(_plain_read(a) for a, p in zip(e.args, work.params)
                                                   if p in used) else None
                if terms is not None and all(self.ahead(t) for t in terms):
                    self.charges.charge(1 + work.static)
                    for term in terms:
                        self.charges.charge(0, term)
                else:
                    self.charges.charge(1 + work.static)
                    if work.terms:
                        fn += "_c"  # counts its own terms
            return (f"{fn}(c{''.join(', ' + x for x in codes)})", ret)
        if not self.types.builtin_call(e):
            return BAD
        reading = BUILTINS[e.name].reads_list
        args = [self.read(a, scope) if reading else self.expr(a, scope) for a in e.args]
        return self._builtin(e, args, scope)

    def _inline(self, e: A.Call, codes: list[str], params: list[Type], scope: Scope, reader: bool) -> str | None:
        """The body of a one-expression formula with its arguments in place, when that is safe.

        Calls cost more than most formula bodies. Only arguments that are plain reads are
        substituted, so nothing is evaluated more often than the rules say in a way that matters.
        Diagnostics come from the formula's own compile, never from an inlined copy.
        """
        if self.check_only:
            return None
        found = self.inline_body(e.name)
        if found is None or not INLINING or self.inline_depth >= INLINE_DEPTH or not all(_plain_read(a) for a in e.args):
            return None
        names, body = found
        if e.name in self.memo:  # a constant: computed now if it can be, else remembered as it runs
            folded = evaluate(body, {}, self.world, self.resolver(Scope(None, False)))
            value = plain(folded) if folded is not None else UNKNOWN
            if not isinstance(value, list):
                return None
        inner = Scope(None, persistent=False, counter=scope.counter)
        for name, code, t, arg in zip(names, codes, params, e.args):
            inner.vars[name] = Var(name, t, f"({code})", "param", e.span, used=True)
            value = fixed_value(arg, self.resolver(scope))
            if literal(value) is not None:
                inner.vars[name].fixed = (value,)
        saved = self.diags
        self.diags = DiagnosticBag()
        self.inline_depth += 1
        self.charges.begin()
        try:
            code, _ = self.read(body, inner) if reader else self.expr(body, inner)
            failed = self.diags.has_errors
        finally:
            self.diags = saved
            self.inline_depth -= 1
            work = self.charges.end()
        if failed:
            return None
        self.charges.charge_cost(work)
        self.known_sizes[id(e)] = self.size_of(body, code, inner)  # the call's list is the body's
        return f"({code})"

    def _builtin(self, e: A.Call, args: list[Code], scope: Scope) -> Code:
        """A built-in's work charged by its work class, then its typing rule and code (builtins.py)."""
        self._builtin_calls[id(e)] = e
        spec = BUILTINS[e.name]
        a0, t0 = args[0]
        if spec.makes_value and t0.kind in ("list", "map"):
            args = [(self.counted(e.args[0], a0, scope), t0)] + args[1:]  # a new value as long as its list
        elif spec.searches_list and t0.kind in ("list", "map") and self.size_of(e.args[0], a0, scope) != PAID:
            self.charges.charge(SEARCH_STEPS)  # reads its list (a new one was counted) and makes nothing
        return spec.code(self, e, args, scope)


# Each binary operator's code (its typing rule is ExprTypes.binary); any other operator is arithmetic.
_BINARY: dict[str, Callable[[Expressions, A.BinOp, Code, Code, Scope], str]] = {
    "and": Expressions._logic, "or": Expressions._logic,
    "==": Expressions._equality, "!=": Expressions._equality,
    "<": Expressions._ordering, "<=": Expressions._ordering, ">": Expressions._ordering, ">=": Expressions._ordering,
    "in": Expressions._membership, "not in": Expressions._membership, "+": Expressions._plus,
}

# How many one-expression formulas deep calls are inlined (each inside the one before).
INLINE_DEPTH = 5
# Off, every formula is called as written: a rule that fails at run time inside a one-expression
# formula is then placed in the formula rather than at its call (see play/trial.py).
INLINING = True
_READS = (A.Name, A.Attr, A.Index)


def COUNT_WORK_ON() -> bool:  # upper case: reads the switch at compile time (see cost.COUNT_WORK)
    return cost.COUNT_WORK


# Numbers added or subtracted without a check: small fixed ones (a number cannot run away by them).
_SMALL = 1 << 31


def _grows(e: A.Expr, resolve: Resolve) -> bool:
    """Can this sum or product make a number far bigger than its parts (so it must be checked)?

    `x * y`, `x + y` and `x - y` of two numbers that are not small fixed values can double or
    square a number each time they run; `x + 1` cannot run away.
    """
    if isinstance(e, A.BinOp) and e.op in ("+", "-", "*"):
        fixed = [_small(fixed_value(side, resolve)) for side in (e.left, e.right)]
        if e.op == "*":
            return not any(f is not None and abs(f) <= 1 for f in fixed)
        return not any(f is not None for f in fixed) or any(_grows(side, resolve) for side in (e.left, e.right))
    return False


def _small(value: object) -> int | None:
    return value if type(value) is int and abs(value) <= _SMALL else None


_COSTLY = (A.ListComp, A.MapComp, A.Call)
# Code of a value that cannot be changed in place and reads nothing: a yes/no, none, a number, a text.
_CONSTANT = re.compile(r"^(?:True|False|None|-?\d+|'[^'\\]*')$")
# Expressions worth a per-node table when they read fixed data only (a single read is one already).
_PER_NODE = (A.Index, A.IfExp, A.Call, A.BinOp, A.Not)
_CONTAINERS = ("list", "map", "tuple", "any")


def _plain_read(e: A.Expr) -> bool:
    """A cheap expression without calls: safe to repeat where an inlined body uses it."""
    if isinstance(e, (A.Name, A.Num, A.Bool, A.NoneLit)):
        return True
    if isinstance(e, A.Attr):
        return _plain_read(e.obj)
    if isinstance(e, A.Index):
        return _plain_read(e.obj) and _plain_read(e.index)
    return False
