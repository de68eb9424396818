"""The compiler's analysis passes, each on its own: purity, mutation, folding, cost, phase work.

And what they change when the rules run: the same game, only faster (the goldens check the shipped
games; these check the corner cases on tiny ones).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from interpreter.analysis.simulate import play_bots
from interpreter.core.decision import Decision
from interpreter.core.engine import Engine
from lang_helpers import LINE_BOARD, engine, parse_ok, phase_body
from ruledsl.budget.charge import PhaseWork, Region
from ruledsl.budget.cost import Cost, FormulaWork
from ruledsl.diagnostics import Span
from ruledsl.opt.folding import UNKNOWN, Known, condition_value, dead_branches, evaluate, fixed_value, per_node, plain
from ruledsl.opt.mutation import Mutations, changed_names
from ruledsl.opt.purity import fields_read, memoised, state_free
from ruledsl.syntax import ast as A
from ruledsl.syntax.parser import parse_expression
from ruledsl.types import BOOL, INT, STR, list_of
from ruledsl.world import Component, Field, World

SPAN = Span("x.rules", 1, 1)


def world(**tables: Any) -> World:
    """Three nodes (a road, two shops), seat field `money`, global `deck`, items `card` (a-1, a-2)."""
    card = Component("card", ("a-1", "a-2"), {"cost": INT}, {"cost": (3, 5)}, {"held": Field("held", BOOL, SPAN)},
                     "cards")
    return World(seat_fields={"money": Field("money", INT, SPAN)}, global_fields={"deck": Field("deck", list_of(INT), SPAN)},
                 node_fields={"owner": Field("owner", INT, SPAN)}, node_attrs={"kind": STR},
                 node_attr_values={"kind": ("road", "shop", "shop"), "id": (1, 2, 3)}, node_ids=(1, 2, 3),
                 adjacency=((1,), (0, 2), (1,)), tables={k: (INT, v) for k, v in tables.items()},
                 components={"card": card})


def expr(text: str) -> A.Expr:
    tree, diags = parse_expression(text, "x")
    assert tree is not None, diags
    return tree


def tables_of(w: World) -> Any:
    return lambda name: w.tables[name][1] if name in w.tables else UNKNOWN


# ------------------------------------------------------------------ purity


def formulas(source: str) -> dict[str, A.Formula]:
    return {f.name: f for f in parse_ok(source).formulas}


def test_state_free_formulas_read_only_fixed_data() -> None:
    fs = formulas("""\
        formula shops() = [n for n in nodes if n.kind == "shop"]
        formula near(n: node) = [m for m in neighbours(n) if m.kind == "shop"]
        formula owned() = [n for n in nodes if n.owner == 0]
        formula rich(s: seat) = s.money > 3
        formula names() = ["{s}" for s in seats]
        formula via(n: node) = len(near(n)) + len(owned())
        formula both(n: node) = len(near(n)) + len(shops())
        """)
    assert state_free(fs, world()) == {"shops", "near", "both"}


def test_the_fields_a_formula_reads_include_those_of_the_formulas_it_calls() -> None:
    # What decides whether a bot's evaluation reads the same from every seat's view (features.py).
    fs = formulas("""\
        formula rich(s: seat) = s.money > 3
        formula cards_of(s: seat) = len([c for c in cards if c.held]) + len(deck)
        formula worth(s: seat) = (1 if rich(s) else 0) + via(s)
        formula via(s: seat) = len([n for n in nodes if n.owner == s]) + again(s)
        formula again(s: seat) = 0 if s.money > 9 else via(s)
        formula local(s: seat):
            let deck = 3
            return deck + [money for money in [1, 2]][0]
        formula fixed(n: node) = [m for m in neighbours(n) if m.kind == "shop"]
        """)
    reads = fields_read(fs, world())
    assert reads["rich"] == {"money"} and reads["cards_of"] == {"held", "deck"}
    assert reads["worth"] == reads["via"] == reads["again"] == {"money", "owner"}   # called, recursion included
    assert reads["local"] == frozenset() and reads["fixed"] == frozenset()   # locals and fixed data only


def test_only_formulas_that_work_and_take_plain_values_are_remembered() -> None:
    fs = formulas("""\
        formula near(n: node) = [m for m in neighbours(n) if m.kind == "shop"]
        formula cheap(n: node) = n.kind == "shop"
        formula of_list(xs: list[int]) = [x for x in xs if x > 1]
        formula of_card(c: card) = [x for x in cards if x == c]
        """)
    assert memoised(fs, world()) == {"near", "of_card"}


def test_a_value_of_fixed_data_per_node_is_a_table_only_when_every_node_has_one() -> None:
    w = world(price={"road": 1, "shop": 3}, cheap={"road": 1}, kinds=["shop"])
    bodies = {"kind_of": (["m"], expr('"shop" if m.kind == "shop" else "road"'))}.get
    assert per_node(expr("price[kind_of(n)]"), "n", w, tables_of(w), bodies) == (1, 3, 3)
    assert per_node(expr("n.kind in kinds"), "n", w, tables_of(w), bodies) == (False, True, True)
    assert per_node(expr("cheap[n.kind]"), "n", w, tables_of(w), bodies) is None  # a shop has none: it fails as it runs
    assert per_node(expr("n.owner == 1"), "n", w, tables_of(w), bodies) is None   # the state


# ------------------------------------------------------------------ mutation


def loop(source: str) -> A.For:
    s = phase_body(source)[0]
    assert isinstance(s, A.For)
    return s


@pytest.mark.parametrize("source,copy", [
    ("for x in deck:\n    pass", False),
    ("for x in deck:\n    add x to deck", True),
    ("for x in deck:\n    remove x from deck", True),
    ("for x in deck:\n    draw y from deck", True),
    ("for x in deck:\n    let others = [1]\n    add x to others", False),
    ("for x in deck:\n    deck = []", False),                    # a new list: the old one is unchanged
    ("for x in deck:\n    run tidy", True),                      # a phase may change any state
    ("for x in [y for y in deck]:\n    add 1 to deck", False),   # a new list of plain values
    ("for x in f(deck):\n    add 1 to other", False),            # a formula's list, a variable changed
    ("for x in f(deck):\n    add 1 to deck", True),              # ... it may be deck itself
])
def test_a_loop_copies_its_list_only_when_its_body_may_change_it(source: str, copy: bool) -> None:
    assert Mutations(world(), {"f"}).loop_needs_copy(loop(source), flat=True) is copy


def test_a_remembered_formula_s_list_is_changed_by_no_rule() -> None:
    source = "for x in f(card):\n    add x to deck\n    run tidy"
    assert Mutations(world(), {"f"}).loop_needs_copy(loop(source), flat=True) is True
    assert Mutations(world(), {"f"}, frozenset({"f"})).loop_needs_copy(loop(source), flat=True) is False
    assert Mutations(world(), {"f"}, frozenset({"f"})).loop_needs_copy(loop(source), flat=False) is False


def test_lists_of_lists_are_copied_when_an_inner_list_may_change() -> None:
    source = "for x in [y for y in piles]:\n    add 1 to piles[0]"
    assert Mutations(world(), set()).loop_needs_copy(loop(source), flat=True) is False
    assert Mutations(world(), set()).loop_needs_copy(loop(source), flat=False) is True


def test_only_table_data_may_be_shared() -> None:
    m = Mutations(world(rows={"a": 1}), {"f"})
    assert m.table_data(expr("rows[k]"), lambda name: False)
    assert m.table_data(expr("max(rows[k], rows[j])"), lambda name: False)  # one of them
    assert m.table_data(expr("rows[k] if x else rows[j]"), lambda name: False)
    assert not m.table_data(expr("rows[k]"), lambda name: name == "rows")   # a local of that name
    assert not m.table_data(expr("deck"), lambda name: False)               # state
    assert not m.table_data(expr("rows[k] if x else deck"), lambda name: False)
    assert not m.table_data(expr("f(rows)"), lambda name: False)              # a formula may read state


def test_a_let_shares_table_data_unless_it_changes_its_value(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        formula first(k: str):
            let row = rows[k]
            return row.xs[0]

        formula grown(k: str):
            let row = rows[k]
            add 9 to row.xs
            return len(row.xs)

        phase main:
            choose k from ["a", "b"] by seats[0]
            log seen(first=first(k), grown=grown(k), again=grown(k), size=len(rows[k].xs)) "{first(k)}"
            end winners seats
        """, tables={"rows": {"a": {"xs": [1, 2]}, "b": {"xs": [3]}}})
    assert e.program.source.count("_dc(") == 1  # `grown` copies the row it changes; `first` shares its row
    play_both(e)
    state, _ = play_bots(e, 2, 1)
    data = state["log"][-1]["data"]
    assert data["grown"] == data["again"] == data["size"] + 1  # the table itself never changed


def test_a_rolled_face_of_table_data_is_shared_unless_its_name_changes_it(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase look:
            roll face from die
            log looked(face=face) "{face}"

        phase grow:
            roll face from die
            add 9 to face
            log grown(face=face) "{face}"

        phase main:
            for i in range(6):
                run look
                run grow
            end winners seats
        """, tables={"die": [[1, 2], [3]]})
    source = e.program.source
    assert source.count("c.roll(") == source.count("c.roll(_K0)[:]") + 1  # only `look` shares its face
    play_both(e)
    state, _ = play_bots(e, 2, 1)
    looked = [ev["data"]["face"] for ev in state["log"] if ev["kind"] == "looked"]
    grown = [ev["data"]["face"] for ev in state["log"] if ev["kind"] == "grown"]
    assert all(face in ([1, 2], [3]) for face in looked) and len(looked) == 6  # the die never changed
    assert all(face in ([1, 2, 9], [3, 9]) for face in grown) and len(grown) == 6


def test_changed_names() -> None:
    body = phase_body("let a = [1]\nlet b = [2]\nif true:\n    add 3 to a\nb[0] = 4\nlet c = 1\nc += 1")
    assert changed_names(body) == {"a", "b", "c"}


# ------------------------------------------------------------------ folding


def test_fixed_values_of_tables_with_literal_keys() -> None:
    w = world(prices={"bare": [0, 2, 5]}, size=4)
    resolve = tables_of(w)
    assert fixed_value(expr("prices.bare[2]"), resolve) == 5
    assert fixed_value(expr("size"), resolve) == 4
    assert fixed_value(expr("prices.bare[9]"), resolve) is UNKNOWN
    assert fixed_value(expr("deck[0]"), resolve) is UNKNOWN


def test_conditions_on_fixed_switches_and_dead_branches() -> None:
    w = world(advanced=False, on=True)
    resolve = tables_of(w)
    assert condition_value(expr("advanced and deck[0] > 1"), resolve) is False
    assert condition_value(expr("on or deck[0] > 1"), resolve) is True
    assert condition_value(expr("on and deck[0] > 1"), resolve) is UNKNOWN
    s = phase_body("if advanced:\n    pass\nelif on:\n    pass\nelse:\n    pass")[0]
    assert isinstance(s, A.If)
    assert dead_branches(s, resolve) == [True, False, True]


def test_comprehensions_of_fixed_data_are_computed_when_compiling() -> None:
    w = world(kinds=["shop", "road"])
    resolve = tables_of(w)
    shops = evaluate(expr('[n for n in nodes if n.kind == kinds[0]]'), {}, w, resolve)
    assert shops is not None and plain(shops) == [1, 2]
    costly = evaluate(expr("[c for c in cards if c.cost > 4]"), {}, w, resolve)
    assert costly is not None and plain(costly) == [1]
    assert evaluate(expr("[n for n in nodes if n.owner == 0]"), {}, w, resolve) is None   # state
    assert evaluate(expr("[x for x in deck]"), {}, w, resolve) is None                    # state
    assert evaluate(expr("[n for n in nodes if n == 1]"), {}, w, resolve) is None         # a node is not a number
    assert evaluate(expr("[n for n in nodes if kinds[7] == n.kind]"), {}, w, resolve) is None  # fails as it runs
    assert isinstance(evaluate(expr("nodes"), {}, w, resolve), Known)


# ------------------------------------------------------------------ cost and regions


def test_cost_times_a_length() -> None:
    assert Cost(2).times(3).static == 9
    assert Cost(0, ["len(a)"]).times("len(b)").terms == ["len(b) * (1 + (len(a)))"]
    assert Cost().times("len(b)").terms == ["len(b)"]


def test_formula_work_with_the_arguments_of_a_call() -> None:
    work = FormulaWork(3, ["len(_f0[_l1])", "len(V['deck'])"], ["_l1", "_l2"])
    assert work.used_params() == {"_l1"}
    assert work.at_call(["_l9", "_c3"]) == ["len(_f0[(_l9)])", "len(V['deck'])"]


def test_a_region_takes_terms_that_read_only_what_exists_when_it_starts() -> None:
    region = Region(frozenset({"_l1", "L['you']"}))
    assert region.takes("len(_f0[_l1])") and region.takes("len(L['you'])") and region.takes("len(V['deck'])")
    assert not region.takes("len(_l2)") and not region.takes("len(L['hand'])")
    assert not Region(None).takes("len(V['deck'])")


def test_phase_work_is_charged_where_phases_run_except_for_those_that_charge_themselves() -> None:
    own = {"a": Region(steps=5, runs=Counter({"b": 2})), "b": Region(steps=3), "c": Region(steps=1, runs=Counter({"c": 1}))}
    work = PhaseWork(own, {"a"}, {"a": {"b"}, "b": set(), "c": {"c"}})
    assert work.of("b") == 4 and work.of("a") == 1 + 5 + 2 * 4
    assert work.runs(Counter({"a": 1, "b": 3, "c": 1})) == 12  # a and c (a cycle) charge themselves
    assert work.resolve("c.steps -= 7 + " + PhaseWork.mark(Counter({"b": 2}))) == "c.steps -= 7 + 8"
    assert work.resolve("c.steps -= " + PhaseWork.entry("a")) == "c.steps -= 14"
    assert work.resolve("c.steps -= " + PhaseWork.entry("b")) == "c.steps -= 0"


# ------------------------------------------------------------------ the same games, faster


def play_both(e: Engine, seats: int = 2, seeds: range = range(6)) -> None:
    """Bots through the agent path and through pending/apply make the same games."""
    for seed in seeds:
        fast, record = play_bots(e, seats, seed, keep_journal=True)
        assert record.journal is not None
        slow = e.new_game(seats, seed, record.journal.names)
        for seat, option in record.journal.choices:
            assert isinstance(e.pending(slow), Decision)
            e.apply_inplace(slow, option, seat)
        assert slow["log"] == fast["log"] and slow["seat"] == fast["seat"] and slow["global"] == fast["global"]


def test_a_branch_on_a_switch_that_is_off_does_not_make_a_phase_wait(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            run step
            choose x from [1, 2] by seats[0]
            run step
            end winners seats

        phase step:
            total += 1
            if expert:
                choose y from [1, 2] by seats[0]
                total += y
        """, global_={"total": ("int", 0)}, tables={"expert": False})
    assert not e.program.phases["step"].resumable and e.program.phases["main"].resumable
    play_both(e)


def test_remembered_and_folded_formulas_give_the_same_games(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        formula reds() = [n for n in nodes if n.colour == "red"]
        formula around(n: node) = [m for m in neighbours(n) if m.colour != "red"]
        formula reach(n: node, k: int):
            let found = [n]
            for i in range(k):
                for x in found:
                    for m in around(x):
                        if m not in found:
                            add m to found
            return found

        phase main:
            for i in range(3):
                choose at from reds() by seats[0]
                log pick(at=at, near=reach(at, 2)) "{at}: {reach(at, 2)}"
            end winners seats
        """, board=LINE_BOARD)
    play_both(e, seats=1)


def test_a_remembered_value_is_read_the_same_wherever_it_is_used(tmp_path: Path) -> None:
    # Read in place where Python allows it (a statement, a loop's list, a formula's loop), called
    # where it does not (what a comprehension runs over, a roll's count, a comprehension's element).
    e = engine(tmp_path, """\
        formula around(n: node) = [m for m in neighbours(n) if m.colour != "red"]
        formula width(n: node) = len([m for m in neighbours(n)])
        formula reach(n: node):
            let found = []
            for m in neighbours(n):
                for x in around(m):
                    add x to found
            for y in around(n):
                add y to found
            return found

        phase main:
            for at in nodes:
                let direct = around(at)
                let inside = [m for m in around(at)]
                let nested = [len(around(m)) for m in nodes if len([x for x in around(m)]) > 0]
                roll width(at) faces from [1, 2]
                log look(n=len(direct) + len(inside) + len(reach(at)) + sum(nested) + len(faces)) "{at}"
            choose x from [1, 2] by seats[0]
            end winners seats
        """, board=LINE_BOARD)
    assert ":=" in e.program.source  # the place Python allows it reads the value in place
    play_both(e, seats=1)
    final, _ = play_bots(e, 1, 0)
    assert [event["data"]["n"] for event in final["log"] if event["kind"] == "look"] == [6, 6, 6]
