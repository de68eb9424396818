"""The typing rules of expressions: each expression's type from the types of its parts, and the
type diagnostics, with the notes saying where a type comes from (`provenance.py`).

The type-checking walk (`exprwalk.py`) asks these rules for every node's type; the built-ins' own
rules are named in their registry entries (`ruledsl/builtins.py`).
"""

from __future__ import annotations

import json
from typing import Callable, Mapping

from ..builtins import BUILTINS
from ..check.scope import Scope, Var
from ..diagnostics import DiagnosticBag, Related, Span, an, copies_hint, did_you_mean
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
from ..world import DataSource, Field, World
from .provenance import EVERY, Origin, explain

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

    The walk (`ExprWalk`) asks the rule here for each node's type once its parts are done, in the
    order the rules are written. A rule gives None when it reported an error that leaves the
    expression without a type (checking goes on as if nothing were known of it).
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

    def _field_or_attr(self, e: A.Attr, label: str, fields: Mapping[str, Field], attrs: Mapping[str, Type],
                       values: Mapping[str, tuple[object, ...]], sources: Mapping[str, DataSource],
                       none_has: str, owners_have: str) -> Type | None:
        """`x.name` on a board node or an item: one of its state fields, or a fixed attribute from the data."""
        declared = fields.get(e.name)
        if declared is not None:
            self._trace(e, Origin(label, field=declared))
            return declared.type
        if e.name in attrs:
            self.fixed[id(e)] = (f"{none_has} {e.name}", values[e.name])
            source = sources.get(e.name)
            self._trace(e, Origin(label, source, (EVERY,)) if source is not None else None)
            return attrs[e.name]
        return self.err(e.name_span, "unknown-field", f"{owners_have} no field or attribute '{e.name}'",
                        did_you_mean(e.name, list(fields) + list(attrs)))

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
            return self._field_or_attr(e, label, w.node_fields, w.node_attrs, w.node_attr_values,
                                       w.node_attr_sources, "no board node has", "board nodes have")
        component = w.components.get(t.kind)
        if component is not None:
            return self._field_or_attr(e, label, component.fields, component.attrs, component.attr_values,
                                       component.attr_sources, f"no {component.name} has", an(component.name) + " has")
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
            if _empty_list(e.left):
                return tb
            if _empty_list(e.right):
                return ta
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
        """`a if c else b` (the condition checked as one): both branches of one kind of value. A branch
        that is `[]` is a list of the other branch's elements (a list of `any` would make every use of
        an element a guess)."""
        if _empty_list(e.then) and tb.kind == "list":
            return tb
        if _empty_list(e.orelse) and ta.kind == "list":
            return ta
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

    def builtin(self, e: A.Call, args: list[Type], scope: Scope) -> Type | None:
        """A call of a built-in, its values of these types: the built-in's own rule (`builtin_types.py`)."""
        return BUILTINS[e.name].rule(self, e, args, scope)


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


def _empty_list(e: A.Expr) -> bool:
    """Whether `e` is written `[]`: a list whose elements take their type from what it meets."""
    return isinstance(e, A.ListLit) and not e.items
