"""Checked names: a text written in the rules where a name is expected must be one of the names.

`active_cards(p, "purpel", total)` validates as types (a text is a text), but no card is purple.
This pass follows every text of the rules (see nameterms.py): a formula's parameter compared with
the cards' `colour` holds colours, so a text passed to it must be a colour; a field declared
`list[landmark]` holds landmarks, so `"amusment_park" in s.built` is checked against the names
game.yaml declares. It runs after the checker, over the same trees, and only reports.

What is checked (each a *use*): a text compared with `==`/`!=`, looked for with `in`, removed,
used as a key, passed to a formula, phase or ability, or stored in a state field. Texts the rules
make themselves (in a `let`, a list, a returned value) become names of their class. A class is
checked when its names are known: from data or a declaration (complete), or from a field's initial
value (then only comparisons are checked: a field holds whatever the rules store in it). A class
that also receives texts the pass cannot see (joined texts, `str(...)`) is not checked unless
declared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..builtins import BUILTINS
from ..diagnostics import Diagnostic, Related, Span, copies_hint, did_you_mean
from ..program import AbilityCode
from ..syntax import ast as A
from ..types import Type, TypeSyntaxError, parse_type
from ..world import Field, NameSet, World
from .datanames import check_table_names
from .nameterms import (
    Names,
    Source,
    Term,
    as_text,
    column,
    element,
    from_data,
    key_of,
    list_of,
    opaque,
    text,
    unify,
    value_of,
)

STORE, TEST, ARG, FIELD = "store", "test", "arg", "field"
CODE = "unknown-value"
_LISTED = 12  # at most this many names are listed in a hint
_JOINED = "the names expected there come from here"
# Which of a class's sources an error names: the most telling first.
_SOURCE_ORDER = ("declared", "item", "node", "edge", "values", "keys", "field")


@dataclass
class _Use:
    """A text written in the rules where a name of `term`'s class is expected."""

    text: str
    span: Span
    term: Term
    role: str
    flowed: bool  # its names come from elsewhere (a parameter, a variable): a note says where


@dataclass
class NameReport:
    """What the pass found: its diagnostics, and the names each `choose` variable's options can be
    (for the option ids of scenario files; a variable whose options are not such names is left out)."""

    diagnostics: list[Diagnostic]
    options: dict[str, tuple[str, ...]]


class _Env:
    """Local variables: a block and its enclosing blocks."""

    def __init__(self, parent: "_Env | None" = None):
        self.parent = parent
        self.vars: dict[str, Term] = {}

    def lookup(self, name: str) -> Term | None:
        env: _Env | None = self
        while env is not None:
            if name in env.vars:
                return env.vars[name]
            env = env.parent
        return None

    def child(self) -> "_Env":
        return _Env(self)


class NameCheck:
    """Follows the texts of a game's rules and checks the texts written where names are expected."""

    def __init__(self, world: World, formulas: Mapping[str, A.Formula], phases: Mapping[str, A.Phase],
                 abilities: Mapping[tuple[str, str], tuple[AbilityCode, tuple[str | None, ...]]]):
        self.world = world
        self.formulas = formulas
        self.phases = phases
        self.abilities = abilities
        self.sets: Mapping[str, NameSet] = world.name_sets
        self.recording = False
        self.uses: list[_Use] = []
        self.chooses: list[tuple[str, Term]] = []
        self.params: dict[tuple[str, str], list[Term]] = {}
        self.results: dict[tuple[str, str], Term] = {}
        self.data: dict[tuple[str, ...], Term] = {}
        self.fields = {owner: {name: self._field(f) for name, f in fields.items()}
                       for owner, fields in (("seat", world.seat_fields), ("global", world.global_fields),
                                             ("node", world.node_fields))}
        for kind, component in world.components.items():
            self.fields[kind] = {name: self._field(f) for name, f in component.fields.items()}

    # ------------------------------------------------------------------ run
    def run(self, already: frozenset[Span] = frozenset()) -> NameReport:
        """Walk the rules twice (the second time every value's shape is known) and report.

        `already`: places another check has reported (the checker's `unknown-value` and
        `unknown-key`), not reported twice.
        """
        for self.recording in (False, True):
            for name, formula in self.formulas.items():
                env = self._enter("formula", name, formula.params)
                if formula.expr is not None:
                    self._flow(formula.expr, self.results[("formula", name)], STORE, env)
                else:
                    self._block(formula.body, env, ("formula", name))
            for name, phase in self.phases.items():
                self._block(phase.body, self._enter("phase", name, phase.params), ("phase", name))
        in_data = [d for d in check_table_names(self.data.values(), self.world) if d.span not in already]
        return NameReport(self._report(already) + in_data, self._options())

    def _enter(self, kind: str, name: str, params: tuple[A.Param, ...]) -> _Env:
        """The variables a formula's or phase's body starts with: its parameters."""
        env = _Env()
        for p, t in zip(params, self._params_of(kind, name, params)):
            env.vars[p.name] = t
        return env

    def _params_of(self, kind: str, name: str, params: tuple[A.Param, ...]) -> list[Term]:
        """The terms of a formula's or phase's parameters (made when first met, with its result's)."""
        key = (kind, name)
        if key not in self.params:
            self.params[key] = [self._of_type(self._parse(p.type_text)) for p in params]
            self.results[key] = Term()
        return self.params[key]

    # ------------------------------------------------------------- terms of the game
    def _parse(self, type_text: str) -> Type | None:
        try:
            return parse_type(type_text, self.world.components, self.sets)
        except TypeSyntaxError:
            return None  # reported by the checker

    def _of_type(self, t: Type | None) -> Term:
        if t is None or t.kind in ("any", "none"):
            return Term()
        if t.kind == "str":
            found = self.sets.get(t.names)
            return text(Names(declared=set(found.values), sources=[Source("declared", found.name)])
                        if found is not None else None)
        if t.kind == "list":
            return list_of(self._of_type(t.args[0]))
        if t.kind in ("map", "tuple"):
            return Term(t.kind, [self._of_type(a) for a in t.args])
        return opaque(t.kind)

    def _field(self, f: Field) -> Term:
        term = self._of_type(f.type)
        self._initial(term, f.initial, Source("field", f.name))
        return term

    def _initial(self, term: Term, value: object, source: Source) -> None:
        """The texts a field starts with are names its class can hold."""
        root = term.find()
        if isinstance(value, str) and root.shape == "str" and root.names is not None:
            root.names.initial.add(value)
            if source not in root.names.sources:
                root.names.sources.append(source)
        elif isinstance(value, list) and root.shape in ("list", "tuple"):
            for i, item in enumerate(value):
                part = root.args[0] if root.shape == "list" else root.args[i] if i < len(root.args) else None
                if part is not None:
                    self._initial(part, item, source)
        elif isinstance(value, dict) and root.shape == "map":
            for k, v in value.items():
                self._initial(root.args[0], k, source)
                self._initial(root.args[1], v, source)

    def _declare(self, term: Term, holder: tuple[str, ...]) -> Term:
        """Mark data that game.yaml says holds names of a set (a table's keys or texts, an attribute)."""
        for ns in self.sets.values():
            listed = holder[1] in ns.tables if holder[0] == "table" else holder[1:] in ns.attributes
            if not listed:
                continue
            root = term.find()
            target = root.args[0] if holder[0] == "table" and root.shape in ("map", "list") else root
            while target.find().shape == "list":
                target = target.find().args[0]
            names = as_text(target)
            if names is not None:
                names.declared |= set(ns.values)
                names.sources.insert(0, Source("declared", ns.name))
        return term

    def _table(self, name: str) -> Term:
        key = ("table", name)
        if key not in self.data:
            self.data[key] = self._declare(from_data(self.world.tables[name][1], Source("values", name)), key)
        return self.data[key]

    def _attribute(self, kind: str, name: str) -> Term:
        key = ("attribute", kind, name)
        if key not in self.data:
            if kind == "node":
                values, source = self.world.node_attr_values[name], Source("node", name)
            else:
                values, source = self.world.components[kind].attr_values[name], Source("item", name, kind)
            self.data[key] = self._declare(column(values, source), key)
        return self.data[key]

    def _edge(self, name: str) -> Term:
        key = ("edge", name)
        if key not in self.data:
            values = [pair[1] for per_node in self.world.edges.get(name, ()) for pair in per_node]
            self.data[key] = column(values, Source("edge", name))
        return self.data[key]

    # ------------------------------------------------------------------ uses
    def _use(self, value: str, span: Span, term: Term, role: str, flowed: bool = True) -> None:
        names = as_text(term)
        if names is None or value == "":
            return
        if role == STORE:
            names.stores.add(value)
        elif self.recording:
            self.uses.append(_Use(value, span, term, role, flowed))

    def _flow(self, e: A.Expr, into: Term, role: str, env: _Env) -> None:
        """The value of `e` goes into `into`: texts written in it are uses of that role."""
        literal = _text(e)
        if literal is not None:
            self._use(literal, e.span, into, role)
        elif isinstance(e, A.ListLit) and (elem := element(into)) is not None:
            for item in e.items:
                self._flow(item, elem, role, env)
        elif isinstance(e, A.IfExp):
            self._expr(e.cond, env)
            self._flow(e.then, into, role, env)
            self._flow(e.orelse, into, role, env)
        else:
            unify(self._expr(e, env), into, Related(e.span, _JOINED))

    # ----------------------------------------------------------- statements
    def _block(self, stmts: tuple[A.Stmt, ...], env: _Env, fn: tuple[str, str]) -> None:
        for s in stmts:
            self._stmt(s, env, fn)

    def _stmt(self, s: A.Stmt, env: _Env, fn: tuple[str, str]) -> None:
        if isinstance(s, A.Let):
            made = Term()
            self._flow(s.value, made, STORE, env)
            env.vars[s.name] = made
        elif isinstance(s, A.Assign):
            role = FIELD if self._in_state(s.target, env) else STORE
            target = self._target(s.target, role, env)
            if s.op == "=":
                self._flow(s.value, target, role, env)
            else:
                self._expr(s.value, env)
        elif isinstance(s, A.Keep):
            given = self._gives(s.stmt, env)
            if s.op == "let" and isinstance(s.target, A.Name):
                env.vars[s.target.name] = given
            elif s.op == "=":
                role = FIELD if self._in_state(s.target, env) else STORE
                unify(self._target(s.target, role, env), given, Related(s.span, _JOINED))
        elif isinstance(s, A.If):
            for cond, body in s.branches:
                self._expr(cond, env)
                self._block(body, env.child(), fn)
            self._block(s.orelse, env.child(), fn)
        elif isinstance(s, A.While):
            self._expr(s.cond, env)
            self._block(s.body, env.child(), fn)
        elif isinstance(s, A.For):
            inner = env.child()
            inner.vars[s.var] = element(self._expr(s.iter, env)) or Term()
            self._block(s.body, inner, fn)
        elif isinstance(s, A.Choose):
            self._choose(s, env)
        elif isinstance(s, (A.Roll, A.Draw)):
            elem = element(self._expr(s.source, env)) or Term()
            if isinstance(s, A.Roll) and s.count is not None:
                self._expr(s.count, env)
                elem = list_of(elem)
            env.vars[s.var] = elem
        elif isinstance(s, (A.Add, A.Remove)):
            into = element(self._expr(s.target, env))
            if into is None:
                self._expr(s.value, env)
            elif isinstance(s, A.Remove):
                self._flow(s.value, into, TEST, env)
            else:
                self._flow(s.value, into, FIELD if self._in_state(s.target, env) else STORE, env)
        elif isinstance(s, (A.Run, A.RunAbility, A.Pay)):
            self._gives(s, env)
        elif isinstance(s, A.Return) and s.value is not None:
            self._flow(s.value, self.results[fn], STORE, env)
        elif isinstance(s, A.End):
            self._expr(s.winners, env)
        elif isinstance(s, A.Log):
            for _, value in s.fields:
                self._expr(value, env)
            self._expr(s.text, env)
            if s.to is not None:
                self._expr(s.to, env)
        elif isinstance(s, A.Shuffle):
            self._expr(s.target, env)
        elif isinstance(s, A.ExprStmt):
            self._expr(s.expr, env)

    def _gives(self, s: A.Run | A.RunAbility | A.Pay, env: _Env) -> Term:
        """Run, run an ability or pay: the arguments' texts are uses; the term of the value given."""
        if isinstance(s, A.Pay):
            self._expr(s.amount, env)
            self._expr(s.target, env)
            return opaque("int")
        if isinstance(s, A.Run):
            phase = self.phases.get(s.phase)
            if phase is None:
                return Term()
            self._arguments(s.args, self._params_of("phase", s.phase, phase.params), env)
            return self.results[("phase", s.phase)]
        kind = self._expr(s.target, env).find().shape
        bodies = {body for (owner, ability), (_, names) in self.abilities.items()
                  if ability == s.ability and (kind is None or owner == kind) for body in names
                  if body is not None and body in self.phases}
        for body in sorted(bodies):
            self._arguments(s.args, self._params_of("phase", body, self.phases[body].params)[1:], env)
        if not bodies:
            for arg in s.args:
                self._expr(arg, env)
        return Term()

    def _arguments(self, args: tuple[A.Expr, ...], params: list[Term], env: _Env) -> None:
        for arg, param in zip(args, params):
            self._flow(arg, param, ARG, env)

    def _choose(self, s: A.Choose, env: _Env) -> None:
        self._expr(s.by, env)
        inner = env
        if s.each_var is not None:
            inner = env.child()
            inner.vars[s.each_var] = opaque("seat")
        options = self._expr(s.options, inner)
        if s.prompt is not None:
            self._expr(s.prompt, inner)
        elem = element(options) or Term()
        if s.label is not None:  # in the label, the variable names the option being labelled
            labelled = inner.child()
            labelled.vars[s.var] = elem
            self._expr(s.label, labelled)
        env.vars[s.var] = elem if s.each_var is None else list_of(elem)
        if self.recording:
            self.chooses.append((s.var, elem))

    def _target(self, target: A.Expr, role: str, env: _Env) -> Term:
        """The term of an assignment's target: a key written there adds an entry to a map."""
        if isinstance(target, (A.Index, A.Attr)):
            key = _text(target.index) if isinstance(target, A.Index) else target.name
            obj = self._expr(target.obj, env).find()
            if obj.shape == "map" and key is not None:
                span = target.index.span if isinstance(target, A.Index) else target.name_span
                self._use(key, span, obj.args[0], role, flowed=False)
                return value_of(obj, key) or Term()
        return self._expr(target, env)

    def _in_state(self, target: A.Expr, env: _Env) -> bool:
        """Is this assignment or add target a state field, or a part of one?"""
        while isinstance(target, (A.Attr, A.Index)):
            if isinstance(target, A.Attr) and (owner := self._expr(target.obj, env).find().shape) in self.fields:
                return target.name in self.fields[owner]  # an attribute cannot be assigned: reported elsewhere
            target = target.obj
        return isinstance(target, A.Name) and env.lookup(target.name) is None \
            and target.name in self.world.global_fields

    # ----------------------------------------------------------- expressions
    def _expr(self, e: A.Expr, env: _Env) -> Term:
        # The most common kinds of node first (the kinds are distinct: the order decides nothing else).
        if isinstance(e, A.Name):
            return self._name(e, env)
        if isinstance(e, A.Attr):
            return self._attr(e, env)
        if isinstance(e, A.BinOp):
            return self._binop(e, env)
        if isinstance(e, A.Call):
            return self._call(e, env)
        if isinstance(e, A.Num):
            return opaque("int")
        if isinstance(e, A.Template):
            for part in e.parts:
                if not isinstance(part, str):
                    self._expr(part, env)
            made = text()
            if e.is_plain:
                self._use(e.text, e.span, made, STORE)
            else:
                as_text(made).open = True  # type: ignore[union-attr]
            return made
        if isinstance(e, A.Index):
            return self._index(e, env)
        if isinstance(e, (A.Bool, A.Not)):
            if isinstance(e, A.Not):
                self._expr(e.operand, env)
            return opaque("bool")
        if isinstance(e, A.Neg):
            self._expr(e.operand, env)
            return opaque("int")
        if isinstance(e, A.IfExp):
            result = Term()
            self._flow(e, result, STORE, env)
            return result
        if isinstance(e, (A.ListLit, A.MapLit)):
            if isinstance(e, A.ListLit):
                made = list_of(Term())
                self._flow(e, made, STORE, env)
                return made
            made = Term("map", [Term(), Term()])
            for k, v in e.pairs:
                self._flow(k, made.args[0], STORE, env)
                self._flow(v, made.args[1], STORE, env)
            return made
        if isinstance(e, A.TupleLit):
            parts = [Term() for _ in e.items]
            for item, slot in zip(e.items, parts):
                self._flow(item, slot, STORE, env)
            return Term("tuple", parts)
        if isinstance(e, (A.ListComp, A.MapComp)):
            inner = env.child()
            inner.vars[e.var] = element(self._expr(e.iter, env)) or Term()
            if e.cond is not None:
                self._expr(e.cond, inner)
            if isinstance(e, A.ListComp):
                return list_of(self._expr(e.elt, inner))
            return Term("map", [self._expr(e.key, inner), self._expr(e.value, inner)])
        return Term()

    def _name(self, e: A.Name, env: _Env) -> Term:
        local = env.lookup(e.name)
        if local is not None:
            return local
        w = self.world
        if e.name in w.global_fields:
            return self.fields["global"][e.name]
        if e.name in w.tables:
            return self._table(e.name)
        if e.name in ("seats", "nodes"):
            return list_of(opaque(e.name[:-1]))
        for component in w.components.values():
            if e.name == component.collection:
                return list_of(opaque(component.name))
        return Term()

    def _attr(self, e: A.Attr, env: _Env) -> Term:
        obj = self._expr(e.obj, env)
        owner = obj.find().shape
        if owner == "map":
            self._use(e.name, e.name_span, obj.find().args[0], TEST, flowed=False)
            return value_of(obj, e.name) or Term()
        if owner is None or owner not in self.fields:
            return Term()
        if e.name in self.fields[owner]:
            return self.fields[owner][e.name]
        if owner == "seat" and e.name == "name":
            made = text(Names(open=True))
            return made
        if owner == "node" and e.name in self.world.node_attr_values:
            return self._attribute("node", e.name)
        component = self.world.components.get(owner)
        if component is not None and e.name in component.attr_values:
            return self._attribute(owner, e.name)
        return Term()

    def _index(self, e: A.Index, env: _Env) -> Term:
        obj = self._expr(e.obj, env).find()
        if obj.shape == "tuple":
            self._expr(e.index, env)
            if isinstance(e.index, A.Num) and 0 <= e.index.value < len(obj.args):
                return obj.args[e.index.value]
            return Term()
        if obj.shape == "map":
            literal = _text(e.index)
            self._flow(e.index, obj.args[0], TEST, env)
            return value_of(obj, literal) or Term()
        self._expr(e.index, env)
        return (element(obj) if obj.shape == "list" else None) or Term()

    def _binop(self, e: A.BinOp, env: _Env) -> Term:
        if e.op in ("==", "!="):
            self._meet(e.left, e.right, e.span, env)
            return opaque("bool")
        if e.op in ("in", "not in"):
            if isinstance(e.right, A.ListLit):
                for item in e.right.items:
                    self._meet(e.left, item, e.span, env)
                return opaque("bool")
            where = key_of(self._expr(e.right, env))
            if where is None:
                self._expr(e.left, env)
            else:
                self._flow(e.left, where, TEST, env)
            return opaque("bool")
        left, right = self._expr(e.left, env), self._expr(e.right, env)
        shapes = {left.find().shape, right.find().shape}
        if e.op == "+" and "list" in shapes:
            unify(left, right)
            return left
        if e.op == "+" and "str" in shapes:
            return text(Names(open=True))
        if e.op == "+" and shapes == {None}:
            return Term()  # known when the rules are walked again
        return opaque("bool" if e.op in ("and", "or", "<", "<=", ">", ">=") else "int")

    def _meet(self, a: A.Expr, b: A.Expr, span: Span, env: _Env) -> None:
        """`a == b`: a text on one side is a use of the other side's class; else the classes join."""
        ta, tb = _text(a), _text(b)
        if ta is not None and tb is not None:
            return
        if ta is not None or tb is not None:
            literal, other = (a, b) if ta is not None else (b, a)
            self._use(_text(literal) or "", literal.span, self._expr(other, env), TEST, not self._data(other, env))
            return
        unify(self._expr(a, env), self._expr(b, env), Related(span, _JOINED))

    def _data(self, e: A.Expr, env: _Env) -> bool:
        """Does the expression read fixed data directly (an attribute, a table or a part of one)?"""
        if isinstance(e, A.Attr):
            owner = self._expr(e.obj, env).find().shape
            return (owner in self.fields and e.name not in self.fields[owner]) or self._data(e.obj, env)
        if isinstance(e, A.Index):
            return self._data(e.obj, env)
        return isinstance(e, A.Name) and env.lookup(e.name) is None and e.name in self.world.tables

    def _call(self, e: A.Call, env: _Env) -> Term:
        name, args = e.name, e.args
        if name in self.formulas:
            self._arguments(args, self._params_of("formula", name, self.formulas[name].params), env)
            return self.results[("formula", name)]
        if name in ("exits", "follow") and len(args) >= 2:
            attr = _text(args[1])
            self._expr(args[0], env)
            edge = self._edge(attr) if attr is not None and attr in self.world.edges else Term()
            if name == "follow" and len(args) == 3:
                self._flow(args[2], edge, TEST, env)
                return opaque("node")
            return list_of(Term("tuple", [opaque("node"), edge]))
        if name == "unique_by" and args:
            return self._expr(args[0], env)
        terms = [self._expr(a, env) for a in args]
        if name in BUILTINS and BUILTINS[name].keeps_elements and terms:
            return terms[0]
        if name in ("max", "min") and len(terms) == 1:
            return element(terms[0]) or Term()
        if name == "index" and len(args) == 2 and (elem := element(terms[0])) is not None:
            self._flow(args[1], elem, TEST, env)
        if name == "get" and len(args) == 3 and terms[0].find().shape == "map":
            self._flow(args[1], terms[0].find().args[0], TEST, env)
            result = terms[0].find().args[1]
            self._flow(args[2], result, STORE, env)
            return result
        if name == "keys" and terms and terms[0].find().shape == "map":
            return list_of(terms[0].find().args[0])
        if name == "str":
            return text(Names(open=True))
        plain = BUILTINS[name].plain_result if name in BUILTINS else None
        if plain is not None and (name not in ("max", "min") or len(args) == 2):
            shape, inner = plain
            return list_of(opaque(inner)) if shape == "list" else opaque(shape)
        return Term()

    # ---------------------------------------------------------------- report
    def _report(self, already: frozenset[Span]) -> list[Diagnostic]:
        by_class: dict[int, list[_Use]] = {}
        for use in self.uses:
            by_class.setdefault(id(use.term.find()), []).append(use)
        found: dict[Span, Diagnostic] = {}
        for uses in by_class.values():
            root = uses[0].term.find()
            names = root.names
            if names is None or (not names.declared and (names.open or not names.known)):
                continue
            complete = bool(names.declared or names.data)
            given = {u.text for u in uses if u.role == ARG}
            tested = {u.text for u in uses if u.role == TEST}
            stored = {u.text for u in uses if u.role == FIELD}
            base = names.data | names.declared | names.initial | names.stores
            for use in uses:
                if use.span in already or use.span in found or (not complete and use.role != TEST):
                    continue
                # A text the rules both pass and test for is a value of their own, like a stored one.
                allowed = base | (given if use.role == TEST else tested if use.role == ARG else set())
                if not complete:
                    allowed |= given | stored
                if use.text not in allowed:
                    found[use.span] = self._diagnostic(use, names, allowed)
        return sorted(found.values(), key=lambda d: (d.span.file, d.span.line, d.span.column))

    def _diagnostic(self, use: _Use, names: Names, allowed: set[str]) -> Diagnostic:
        source = sorted(names.sources, key=lambda s: _SOURCE_ORDER.index(s.kind))[0]
        shown = sorted(allowed)
        hint = copies_hint(use.text, shown) or did_you_mean(use.text, shown) or (
            f"the names here are {', '.join(shown)}" if len(shown) <= _LISTED else None)
        notes: list[Related] = []
        joined = use.term.joined()
        if use.flowed and joined is not None:
            notes.append(joined)
        declared = self.sets.get(source.name) if source.kind == "declared" else None
        if declared is not None:
            notes.append(Related(declared.span, f"the names of '{declared.name}' are declared here"))
        return Diagnostic(use.span, CODE, source.missing(use.text), "error", hint, tuple(notes))

    def _options(self) -> dict[str, tuple[str, ...]]:
        result: dict[str, set[str] | None] = {}
        for var, elem in self.chooses:
            root = elem.find()
            names = root.names
            checked = names is not None and (names.declared or (names.data and not names.open))
            if var in result and result[var] is None:
                continue
            if not checked or names is None:
                result[var] = None
                continue
            result[var] = (result.get(var) or set()) | names.data | names.declared | names.initial | names.stores
        return {var: tuple(sorted(values)) for var, values in result.items() if values is not None}


def _text(e: A.Expr) -> str | None:
    """A text written as it is (no braces), else None."""
    return e.text if isinstance(e, A.Template) and e.is_plain else None


def check_names(world: World, formulas: Mapping[str, A.Formula], phases: Mapping[str, A.Phase],
                abilities: Mapping[tuple[str, str], tuple[AbilityCode, tuple[str | None, ...]]],
                already: frozenset[Span] = frozenset()) -> NameReport:
    """Check the texts the rules write where names are expected (see the module docstring)."""
    return NameCheck(world, formulas, phases, abilities).run(already)
