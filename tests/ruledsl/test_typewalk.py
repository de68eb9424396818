"""The type-checking walk (check/typewalk.py, stmtwalk.py, exprwalk.py, typerecord.py) on its own: it
reports every diagnostic before any code is made, records each expression's type, and the code
generation that follows asks no typing rule."""

from __future__ import annotations

from typing import Any

import pytest

from lang_helpers import parse_ok
from ruledsl.check.exprtypes import ExprTypes
from ruledsl.check.exprwalk import ExprWalk
from ruledsl.compiler import FIRST_RUN_PASSES, PASSES, Compiler
from ruledsl.diagnostics import Span
from ruledsl.syntax import ast as A
from ruledsl.types import INT, SEAT, STR, Type, list_of
from ruledsl.world import Field, World

SPAN = Span("game.yaml", 1, 1)


def compiler(rules: str) -> Compiler:
    """A compiler of these rules, for seats with a number `money`, and a table `prices`."""
    world = World(seat_fields={"money": Field("money", INT, SPAN)}, global_fields={}, node_fields={},
                  node_attrs={}, node_attr_values={}, node_ids=(1,), adjacency=((),),
                  tables={"prices": (list_of(INT), [2, 3])})
    return Compiler(world, [parse_ok(rules)], "main", SPAN)


def walk_only(c: Compiler) -> list[tuple[int, str, str]]:
    """Run the passes up to the type-checking walk, none after; its diagnostics (line, code, message)."""
    for step in PASSES:
        step.run(c)
        if step.name == "type checking walk":
            return [(d.span.line, d.code, d.message) for d in c.diags.items]
    raise AssertionError("no type checking walk")


def test_the_walk_alone_reports_a_broken_formula_and_makes_no_code() -> None:
    c = compiler("""\
        formula worth(s: seat):
            let total = s.money + "a"
            return totl

        phase main:
            log info "{worth(seats[0])}"
            end winners seats
        """)
    assert walk_only(c) == [
        (2, "type", "the right side of '+' must be int, not str"),
        (3, "unknown-name", "no variable, state field or table called 'totl'"),
    ]
    assert c.functions == [] and c.exprs.consts == {} and c.formula_done == {}


def test_diagnostics_come_in_the_order_the_rules_are_met() -> None:
    # A formula is checked where a call of it is first met: its problem comes between the phase's.
    c = compiler("""\
        phase main:
            let a = nope1
            let b = half(1)
            let c = nope3
            log info "{a} {b} {c}"
            end winners seats

        formula half(n: int) = nope2 // 2
        """)
    assert [message.split("'")[1] for _, code, message in walk_only(c) if code == "unknown-name"] == \
        ["nope1", "nope2", "nope3"]


def test_the_type_of_each_expression_is_recorded() -> None:
    c = compiler("""\
        formula doubled(n: int) = [p * n for p in prices if p > 2]

        phase main:
            let names = [s.name for s in seats]
            for price in doubled(2):
                log info "{price} {names}"
            end winners seats
        """)
    assert walk_only(c) == []
    record = c.walk.record
    body = c.formulas["doubled"].expr
    assert isinstance(body, A.ListComp) and isinstance(body.cond, A.BinOp)
    assert record.type_of(body) == list_of(INT)
    assert record.bound(body) == INT                      # the comprehension's variable
    assert record.type_of(body.elt) == INT and record.type_of(body.cond) == Type("bool")
    assert c.formula_checked["doubled"] == ([INT], list_of(INT))
    let, loop, _ = c.phases["main"].body
    assert isinstance(let, A.Let) and isinstance(loop, A.For) and isinstance(loop.iter, A.Call)
    assert record.type_of(let.value) == list_of(STR) and record.bound(let) == list_of(STR)
    assert record.call(loop.iter) == (([INT], list_of(INT)), True)
    assert record.bound(loop) == INT                       # the loop's variable


def test_a_variable_whose_type_is_settled_later_is_recorded_with_it() -> None:
    # `let xs = []` gets its element type from the first value added: later reads see it.
    c = compiler("""\
        phase main:
            let xs = []
            add seats[0] to xs
            let first = xs[0]
            log info "{first}"
            end winners seats
        """)
    assert walk_only(c) == []
    _, _, first, _, _ = c.phases["main"].body
    assert isinstance(first, A.Let) and isinstance(first.value, A.Index)
    assert c.walk.record.type_of(first.value.obj) == list_of(SEAT)
    assert c.walk.record.bound(first) == SEAT


def test_no_code_is_made_for_rules_with_errors() -> None:
    c = compiler("""\
        phase main:
            let x = 1 + true
            end winners seats
        """)
    program, diags = c.compile()
    assert program is None and [d.code for d in diags] == ["type", "unused"]
    assert c.functions == [] and c.phase_compiled == set()


def _refused(*_: Any, **__: Any) -> Any:
    raise AssertionError("the code generation asked a typing rule or the walk")


def test_the_code_generation_asks_no_typing_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    c = compiler("""\
        formula best(xs: list[int]) = max(xs) if len(xs) > 0 else 0

        phase main:
            let total = 0
            for s in seats:
                choose n from [0] + [x for x in prices if x > best([1])] by s label "{n} coins"
                total += n
                pay n from s.money
            let kept = run score(total)
            log info "{kept}"
            end winners [seats[0]]

        phase score(t: int):
            return t * 2
        """)
    assert walk_only(c) == []
    for cls in (ExprTypes, ExprWalk):
        for name, member in vars(cls).items():
            if callable(member) and not name.startswith("__"):
                monkeypatch.setattr(cls, name, _refused)
    for step in PASSES[[p.name for p in PASSES].index("type checking walk") + 1:]:
        step.run(c)
    for step in FIRST_RUN_PASSES:  # the agent path's direct functions, and the assembly
        step.run(c)
    assert c.diags.items == []
    assert {"_P0", "_P0_d", "_P1"} <= {f.name for f in c.functions}


def test_a_formula_first_met_where_an_empty_list_gets_its_type_is_still_checked() -> None:
    # `let xs = []` takes its element type from the first value stored, looked up before that value
    # is checked: a formula first called there must report its problems all the same.
    c = compiler("""\
        formula broken(n: int) = [n + nope]

        phase main:
            let xs = []
            xs = broken(1)
            log info "{len(xs)}"
            end winners seats
        """)
    assert walk_only(c) == [(1, "unknown-name", "no variable, state field or table called 'nope'")]
