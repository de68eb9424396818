"""Generate the Python expression that computes an expression of the rules.

Every expression was checked before, by the type-checking walk (`check/typewalk.py`, whose
`check/exprwalk.py` asks the typing rules of `check/exprtypes.py` for every node and reports the
type diagnostics); the code generation walks it again, reads each node's recorded type, and
writes, folds, hoists and counts the work of its code. It asks no typing rule and reports nothing.
"""

from __future__ import annotations

import re
from typing import Callable

from ..budget import cost
from ..budget.cost import SEARCH_STEPS, Charges, FormulaWork
from ..budget.exprcost import PAID, ExprCostMixin
from ..builtins import BUILTINS
from ..check.scope import Scope, Var
from ..check.typerecord import TypeRecord
from ..opt.bounds import Calls, bound
from ..opt.folding import UNKNOWN, Resolve, evaluate, fixed_value, literal, per_node, plain, scope_resolver
from ..opt.hoist import Hoister
from ..opt.purity import memo_read, walk
from ..runtime_support import NUMBER_LIMIT, make_formatter
from ..syntax import ast as A
from ..types import Type
from ..world import World

Code = tuple[str, Type]


class Expressions(ExprCostMixin):
    """Code generation for expressions against one game's World, from the types the type-checking
    walk recorded (`record`); `formula_function` gives the function of a formula, compiling it the
    first time it is met."""

    def __init__(self, world: World, record: TypeRecord, formula_function: Callable[[str], str],
                 inline_body: Callable[[str], tuple[list[str], A.Expr] | None] = lambda name: None,
                 check_only: bool = False):
        self.world = world
        self.record = record
        self.formula_function = formula_function
        self.check_only = check_only   # no code is wanted: what only improves it is skipped
        self.inline_body = inline_body
        self.inline_depth = 0
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
        return scope_resolver(scope, self.world)

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

    def cond(self, e: A.Expr, scope: Scope) -> str:
        """The code of a yes/no."""
        return self.expr(e, scope)[0]

    def expr(self, e: A.Expr, scope: Scope) -> Code:
        """The code of an expression the type walk has checked, and its recorded type."""
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
            return (self.checked_number(result[0], scope), result[1])
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

    def checked_number(self, code: str, scope: Scope) -> str:
        """`code`, a whole number, refused past the number limit where it is computed. The runtime's
        test (`_num`) is written in place where Python allows `:=`: a call fewer for every sum or
        product the rules compute, the same error at the same place."""
        if self.in_iterable:
            return f"_num({code})"
        n = scope.fresh("n")
        return f"({n} if -{NUMBER_LIMIT} <= ({n} := {code}) <= {NUMBER_LIMIT} else _num({n}))"

    def _hashable(self, t: Type) -> bool:
        """Are the values of this type Python values that a set holds (whole numbers, texts, seats,
        nodes, items, none), equal in a set exactly when equal in a list?"""
        return t.kind in ("int", "str", "bool", "seat", "node", "none") or t.kind in self.world.components

    def _type(self, e: A.Expr) -> Type:
        """e's type, as the walk recorded it (code is made only of rules the walk found without
        errors, so every expression has one)."""
        t = self.record.type_of(e)
        assert t is not None, "code made of an expression the type walk left without a type"
        return t

    def _Num(self, e: A.Num, scope: Scope) -> Code:
        if abs(e.value) > NUMBER_LIMIT:  # refused when it is reached, at its place in the rules
            return (f"_num({int(e.value)})", self._type(e))
        return (str(int(e.value)), self._type(e))

    def _Bool(self, e: A.Bool, scope: Scope) -> Code:
        return ("True" if e.value else "False", self._type(e))

    def _NoneLit(self, e: A.NoneLit, scope: Scope) -> Code:
        return ("None", self._type(e))

    def _Template(self, e: A.Template, scope: Scope) -> Code:
        return (self.template(e, scope), self._type(e))

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
        t = self._type(e)
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
        t = self._type(e)
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
        codes = [self.expr(item, scope)[0] for item in e.items]
        return ("[" + ", ".join(codes) + "]", self._type(e))

    def _Index(self, e: A.Index, scope: Scope) -> Code:
        obj, _ = self.expr(e.obj, scope)
        idx, _ = self.expr(e.index, scope)
        t = self._type(e)
        return (f"{obj}[{idx}]", t)

    def _BinOp(self, e: A.BinOp, scope: Scope) -> Code:
        """Both sides generated, then the operator's code (`_BINARY`)."""
        arith = e.op in ("+", "-", "*")
        self._in_arith = arith
        left = self.expr(e.left, scope)
        self._in_arith = arith
        if e.op in ("in", "not in"):
            self._member = left[1]
            right = self.read(e.right, scope)
        else:
            right = self.expr(e.right, scope)
        return (_BINARY.get(e.op, Expressions._arithmetic)(self, e, left, right, scope), self._type(e))

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
        if op in ("//", "%") and _NONZERO.fullmatch(b):
            return f"({a} {op} {b})"   # by a number written in the rules (or fixed data) that is not 0
        if op == "//":
            return f"_div({a}, {b})"
        if op == "%":
            return f"_mod({a}, {b})"
        return f"({a} {op} {b})"

    def _Not(self, e: A.Not, scope: Scope) -> Code:
        code, _ = self.expr(e.operand, scope)
        return (f"(not {code})", self._type(e))

    def _Neg(self, e: A.Neg, scope: Scope) -> Code:
        # Not an operand of + - *: nothing above checks the number, so a sum or product under the
        # minus keeps its own check (-(n * n) in a loop would otherwise grow without limit).
        code, _ = self.expr(e.operand, scope)
        return (f"(-{code})", self._type(e))

    def _IfExp(self, e: A.IfExp, scope: Scope) -> Code:
        c, _ = self.expr(e.cond, scope)
        a, _ = self.expr(e.then, scope)
        b, _ = self.expr(e.orelse, scope)
        t = self._type(e)
        return (f"({a} if {c} else {b})", t)

    def _ListLit(self, e: A.ListLit, scope: Scope) -> Code:
        codes = [self.expr(item, scope)[0] for item in e.items]
        return ("[" + ", ".join(codes) + "]", self._type(e))

    def _comprehension(self, e: A.ListComp | A.MapComp, scope: Scope) -> tuple[Scope, str, str, str]:
        """Start a comprehension: its scope, variable, list and condition (see _end_comprehension)."""
        self.in_iterable += 1
        try:
            it, _ = self.read(e.iter, scope)
        finally:
            self.in_iterable -= 1
        inner = Scope(scope, scope.persistent, scope.counter)
        v = inner.declare(e.var, self.record.bound(e), "comp", e.span, comp=True)
        v.used = True
        self.hoister.repeat += 1  # the condition and the element are computed once per element
        self.charges.begin()      # ... and so is their work
        condition = f" if {self.expr(e.cond, inner)[0]}" if e.cond is not None else ""
        return inner, v.code, it, condition

    def _end_comprehension(self, iter_: A.Expr, var: str, it: str, condition: str, scope: Scope) -> str:
        """Count the comprehension's work (its elements times the work per element); its clause."""
        self.hoister.repeat -= 1
        per = self.charges.end()
        return f" for {var} in {self.counted(iter_, it, scope, per)}{condition}"

    def _ListComp(self, e: A.ListComp, scope: Scope) -> Code:
        reader = self._this_reader
        inner, var, it, condition = self._comprehension(e, scope)
        elt, _ = self.expr(e.elt, inner)
        clause = self._end_comprehension(e.iter, var, it, condition, scope)
        if clause == f" for {var} in c.seats" and _CONSTANT.match(elt):
            code = f"[{elt}] * c.nseats"  # (one value per seat that nothing can change in place)
        else:
            code = f"[{elt}{clause}]"
        return (self._folded(e, scope, reader) or code, self._type(e))

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
        codes = []
        for k, v in e.pairs:
            kc, _ = self.expr(k, scope)
            vc, _ = self.expr(v, scope)
            codes.append(f"{kc}: {vc}")
        return ("{" + ", ".join(codes) + "}", self._type(e))

    def _MapComp(self, e: A.MapComp, scope: Scope) -> Code:
        inner, var, it, condition = self._comprehension(e, scope)
        kc, _ = self.expr(e.key, inner)
        vc, _ = self.expr(e.value, inner)
        clause = self._end_comprehension(e.iter, var, it, condition, scope)
        return (f"{{{kc}: {vc}{clause}}}", self._type(e))

    # ---------------------------------------------------------------- calls
    def _Call(self, e: A.Call, scope: Scope) -> Code:
        reader = self._this_reader
        sig, accepted = self.record.call(e)
        assert accepted, "code made of a call the type walk refused"
        if sig is not None:
            params, ret = sig
            fn = self.formula_function(e.name)
            codes = [self.expr(arg, scope)[0] for arg in e.args]
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
        reading = BUILTINS[e.name].reads_list
        args = [self.read(a, scope) if reading else self.expr(a, scope) for a in e.args]
        return self._builtin(e, args, scope)

    def _inline(self, e: A.Call, codes: list[str], params: list[Type], scope: Scope, reader: bool) -> str | None:
        """The body of a one-expression formula with its arguments in place, when that is safe.

        Calls cost more than most formula bodies. Only arguments that are plain reads are
        substituted, so nothing is evaluated more often than the rules say in a way that matters.
        Its types and diagnostics come from the formula's own walk, never from an inlined copy.
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
        self.inline_depth += 1
        self.charges.begin()
        try:
            # The body's types are those its formula's own walk recorded: the parameters have the
            # same types here.
            code, _ = self.read(body, inner) if reader else self.expr(body, inner)
        finally:
            self.inline_depth -= 1
            work = self.charges.end()
        self.charges.charge_cost(work)
        self.known_sizes[id(e)] = self.size_of(body, code, inner)  # the call's list is the body's
        return f"({code})"

    def _builtin(self, e: A.Call, args: list[Code], scope: Scope) -> Code:
        """A built-in's work charged by its work class, then its code (builtins.py)."""
        self._builtin_calls[id(e)] = e
        spec = BUILTINS[e.name]
        a0, t0 = args[0]
        if spec.makes_value and t0.kind in ("list", "map"):
            args = [(self.counted(e.args[0], a0, scope), t0)] + args[1:]  # a new value as long as its list
        elif spec.searches_list and t0.kind in ("list", "map") and self.size_of(e.args[0], a0, scope) != PAID:
            self.charges.charge(SEARCH_STEPS)  # reads its list (a new one was counted) and makes nothing
        t = self._type(e)
        return (spec.code(self, e, args, scope), t)


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


# Code of a whole number other than 0: a division or remainder by it needs no check.
_NONZERO = re.compile(r"-?[1-9]\d*|\(-[1-9]\d*\)")


def _plain_read(e: A.Expr) -> bool:
    """A cheap expression without calls: safe to repeat where an inlined body uses it."""
    if isinstance(e, (A.Name, A.Num, A.Bool, A.NoneLit)):
        return True
    if isinstance(e, A.Attr):
        return _plain_read(e.obj)
    if isinstance(e, A.Index):
        return _plain_read(e.obj) and _plain_read(e.index)
    return False
