"""Compiled rules running in the engine: pauses at `choose`, errors that point at the rule, value
semantics, formula inlining and determinism. Every test plays a tiny game built in tmp_path."""

from __future__ import annotations

import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import interpreter.core.runtime as runtime_module
from interpreter.core.decision import Decision, NotYourTurn, Result
from interpreter.core.engine import Engine
from interpreter.core.errors import RuleError
from interpreter.core.state import to_json
from lang_helpers import LINE_BOARD, RULES_FILE, engine
from ruledsl.runtime_support import STEP_BUDGET

MONEY = {"money": {"type": "int", "initial": 10, "ledger": True}}


def rules_error(e: Engine, seats: int = 2, answers: tuple[str, ...] = ()) -> RuleError:
    """Start a game, give the answers, and return the RuleError that must follow."""
    with pytest.raises(RuleError) as info:
        st = e.new_game(seats, seed=1)
        for a in answers:
            st = e.apply(st, a)
    return info.value


def where(err: RuleError) -> tuple[str, int, int]:
    assert err.span is not None, err.message
    return Path(err.span.file).name, err.span.line, err.span.column


def decision(e: Engine, st: dict[str, Any]) -> Decision:
    d = e.pending(st)
    assert isinstance(d, Decision), d
    return d


def ids(d: Decision, seat: int) -> list[str]:
    return [o.id for o in d.options(seat)]


# -------------------------------------------------------------- choose


def test_choose_pauses_and_resumes_with_the_answer_bound(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let bonus = 10
            choose x from [1, 2, 3] by seats[1] "Pick a number, {seats[1]} (bonus {bonus})"
            total = x + bonus
            end winners [seats[1]]
        """, global_={"total": ("int", 0)})
    st = e.new_game(2, seed=1)
    d = decision(e, st)
    assert d.name == "x"
    assert d.seats == (1,)
    assert not d.simultaneous and not d.secret
    assert ids(d, 1) == ["x:1", "x:2", "x:3"]
    assert [o.label for o in d.options(1)] == ["1", "2", "3"]
    assert d.prompt(1) == "Pick a number, Ben (bonus 10)"
    assert st["global"]["total"] == 0  # nothing after the choose has run
    assert st["result"] is None

    done = e.apply(st, "x:3", seat=1)
    assert done["global"]["total"] == 13  # the answer and the local from before the pause
    result = e.pending(done)
    assert isinstance(result, Result) and result.winners == (1,)


def test_choose_in_a_loop_asks_each_seat_in_turn(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let total = 0
            for s in seats:
                choose n from [1, 2, 3] by s "{s}: how many?"
                total += n
                s.score = n
            sum_all = total
            end winners seats
        """, seat={"score": ("int", 0)}, global_={"sum_all": ("int", 0)})
    st = e.new_game(3, seed=1)
    seen = []
    for answer in ("n:2", "n:3", "n:1"):
        d = decision(e, st)
        seen.append((d.seats, d.prompt(d.seats[0])))
        st = e.apply(st, answer)
    assert seen == [((0,), "Ana: how many?"), ((1,), "Ben: how many?"), ((2,), "Chloé: how many?")]
    assert st["seat"]["score"] == [2, 3, 1]
    assert st["global"]["sum_all"] == 6
    assert e.is_over(st)


def test_choose_inside_a_run_phase_with_parameters(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            run ask(seats[1], 5)
            run ask(seats[0], 7)
            end winners seats
        phase ask(who: seat, base: int):
            choose extra from [0, 1] by who "{who}"
            who.score = base + extra
        """, seat={"score": ("int", 0)})
    st = e.new_game(2, seed=1)
    assert decision(e, st).seats == (1,)
    st = e.apply(st, "extra:1")
    assert decision(e, st).seats == (0,)
    st = e.apply(st, "extra:0")
    assert st["seat"]["score"] == [7, 6]
    assert e.is_over(st)


def test_while_loop_with_choose_and_break(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let count = 0
            while true:
                choose go from [true, false] by seats[0] "again?"
                if not go:
                    break
                count += 1
            rounds = count
            end winners seats
        """, global_={"rounds": ("int", 0)})
    st = e.new_game(1, seed=1)
    assert ids(decision(e, st), 0) == ["go:yes", "go:no"]
    for answer in ("go:yes", "go:yes", "go:yes", "go:no"):
        st = e.apply(st, answer)
    assert st["global"]["rounds"] == 3
    assert e.is_over(st)


def test_if_elif_else_branches_that_wait(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            choose path from ["a", "b", "c"] by seats[0]
            if path == "a":
                choose x from [1, 2] by seats[0]
                got = x
            elif path == "b":
                choose y from [10, 20] by seats[1]
                got = y
            else:
                got = 100
            got += 1
            end winners seats
        """, global_={"got": ("int", 0)})
    outcomes = {}
    for path, answers in (("a", [("x:2", 0)]), ("b", [("y:10", 1)]), ("c", [])):
        st = e.new_game(2, seed=1)
        st = e.apply(st, f"path:{path}", seat=0)
        for answer, seat in answers:
            assert decision(e, st).seats == (seat,)
            st = e.apply(st, answer, seat=seat)
        assert e.is_over(st)
        outcomes[path] = st["global"]["got"]
    assert outcomes == {"a": 3, "b": 11, "c": 101}


def test_break_out_of_a_loop_that_waits(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            for s in seats:
                choose stop from [false, true] by s
                if stop:
                    break
                add s to asked
            end winners seats
        """, global_={"asked": ("list[seat]", [])})
    st = e.new_game(4, seed=1)
    for answer in ("stop:no", "stop:no", "stop:yes"):
        st = e.apply(st, answer)
    assert e.is_over(st)
    assert st["global"]["asked"] == [0, 1]


def test_return_from_a_phase_that_waits(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            run turn
            log "after"
            end winners seats
        phase turn:
            choose go from [true, false] by seats[0]
            if not go:
                return
            log "went"
        """)
    st = e.apply(e.new_game(1, seed=1), "go:no")
    assert [x["text"] for x in st["log"]] == ["after"]
    st = e.apply(e.new_game(1, seed=1), "go:yes")
    assert [x["text"] for x in st["log"]] == ["went", "after"]


def test_nested_loops_that_wait_keep_their_positions(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let r = 0
            while r < 2:
                r += 1
                for s in seats:
                    choose n from [1, 2] by s "round {r}"
                    add r * 10 + n to picks
            end winners seats
        """, global_={"picks": ("list[int]", [])})
    st = e.new_game(2, seed=1)
    prompts = []
    for answer in ("n:1", "n:2", "n:2", "n:1"):
        d = decision(e, st)
        prompts.append((d.seats[0], d.prompt(d.seats[0])))
        st = e.apply(st, answer)
    assert prompts == [(0, "round 1"), (1, "round 1"), (0, "round 2"), (1, "round 2")]
    assert st["global"]["picks"] == [11, 12, 22, 21]


def test_choose_with_a_single_option_does_not_ask(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            choose x from [5] by seats[0]
            total = x
            end winners seats
        """, global_={"total": ("int", 0)})
    st = e.new_game(2, seed=1)
    assert e.is_over(st)
    assert st["global"]["total"] == 5
    assert st["decisions"] == 0


def test_choose_each_collects_every_answer_before_going_on(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            choose pick from ["a", "b"] by each s in seats secret "Vote, {s}"
            for s in seats:
                s.word = pick[s]
            end winners seats
        """, seat={"word": ("str", "")})
    st = e.new_game(3, seed=1)
    d = decision(e, st)
    assert d.simultaneous and d.secret
    assert d.seats == (0, 1, 2)
    assert d.prompt(2) == "Vote, Chloé"

    st = e.apply(st, "pick:b", seat=2)
    assert decision(e, st).seats == (0, 1)
    assert st["seat"]["word"] == ["", "", ""]  # nothing runs until all have answered
    with pytest.raises(NotYourTurn):
        e.apply(st, "pick:a", seat=2)
    st = e.apply(st, "pick:a", seat=0)
    assert decision(e, st).seats == (1,)
    assert st["seat"]["word"] == ["", "", ""]
    st = e.apply(st, "pick:b", seat=1)
    assert st["seat"]["word"] == ["a", "b", "b"]
    assert e.is_over(st)


def test_choose_each_answers_for_a_seat_with_one_option(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            choose pick from (["only"] if s == seats[1] else ["a", "b"]) by each s in seats
            for s in seats:
                s.word = pick[s]
            end winners seats
        """, seat={"word": ("str", "")})
    st = e.new_game(3, seed=1)
    d = decision(e, st)
    assert d.seats == (0, 2)
    assert d.options(1) == ()
    st = e.apply(st, "pick:b", seat=2)
    st = e.apply(st, "pick:a", seat=0)
    assert st["seat"]["word"] == ["a", "only", "b"]


def test_choose_each_over_some_seats_leaves_the_others_none(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            choose pick from [1, 2] by each s in [seats[0], seats[2]]
            got = [-1 if pick[s] == none else pick[s] for s in seats]
            end winners seats
        """, global_={"got": ("list[int]", [])})
    st = e.new_game(3, seed=1)
    assert decision(e, st).seats == (0, 2)
    st = e.apply(st, "pick:2", seat=0)
    st = e.apply(st, "pick:1", seat=2)
    assert st["global"]["got"] == [2, -1, 1]


def test_choose_each_with_one_option_for_everyone_does_not_ask(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            choose pick from [7] by each s in seats
            got = [pick[s] for s in seats]
            end winners seats
        """, global_={"got": ("list[int]", [])})
    st = e.new_game(2, seed=1)
    assert e.is_over(st)
    assert st["global"]["got"] == [7, 7]


def test_choose_with_no_option_points_at_the_choose(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let n = 5
            choose x from [k for k in [1, 2] if k > n] by seats[0]
            end winners seats
        """)
    err = rules_error(e)
    assert where(err) == (RULES_FILE, 3, 5)
    assert "no legal option for 'x'" in err.message and "Ana" in err.message


def test_choose_each_with_no_option_for_one_seat(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            choose x from ([] if s == seats[1] else [1, 2]) by each s in seats
            end winners seats
        """)
    err = rules_error(e)
    assert where(err) == (RULES_FILE, 2, 5)
    assert "no legal option for 'x'" in err.message and "Ben" in err.message


# ---------------------------------------------------------- runaway loops


def test_endless_loop_is_stopped_and_named(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let n = 1
            while true:
                n += 1
            end winners seats
        """)
    outcome: dict[str, BaseException] = {}

    def start() -> None:
        try:
            e.new_game(2, seed=1)
        except BaseException as problem:  # reported below
            outcome["error"] = problem

    worker = threading.Thread(target=start, daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "the endless loop was not stopped"
    assert time.monotonic() - started < 60
    err = outcome["error"]
    assert isinstance(err, RuleError)
    assert where(err) == (RULES_FILE, 3, 5)
    assert "loop" in err.message and f"{STEP_BUDGET:,} steps" in err.message


def test_endless_loop_in_a_resumable_phase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime_module, "STEP_BUDGET", 1000)
    e = engine(tmp_path, """\
        phase main:
            choose x from [1, 2] by seats[0]
            let n = x
            while n > 0:
                n += 1
            end winners seats
        """)
    err = rules_error(e, answers=("x:1",))
    assert where(err) == (RULES_FILE, 4, 5)
    assert "1,000 steps" in err.message


def test_step_budget_counts_iterations_of_for_loops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime_module, "STEP_BUDGET", 50)
    e = engine(tmp_path, """\
        phase main:
            for i in range(10):
                for j in range(10):
                    pass
            end winners seats
        """)
    err = rules_error(e)
    # The inner loop uses up the budget; it is the one named.
    assert where(err) == (RULES_FILE, 3, 9)


def test_step_budget_is_renewed_for_every_decision(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime_module, "STEP_BUDGET", 30)
    e = engine(tmp_path, """\
        phase main:
            let total = 0
            for s in [seats[0], seats[0], seats[0]]:
                choose x from [1, 2] by s
                for i in range(20):
                    total += x
            sum_all = total
            end winners seats
        """, global_={"sum_all": ("int", 0)})
    st = e.new_game(1, seed=1)
    for _ in range(3):
        st = e.apply(st, "x:2")
    assert st["global"]["sum_all"] == 120


# ------------------------------------------------------------ rule errors


def test_draw_from_an_empty_list(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            draw x from deck
            log "{x}"
            end winners seats
        """, global_={"deck": ("list[int]", [])})
    err = rules_error(e)
    assert where(err) == (RULES_FILE, 2, 5)
    assert "draw from an empty list" in err.message


def test_draw_takes_the_top_of_the_list(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            draw x from deck
            drawn = x
            end winners seats
        """, global_={"deck": ("list[int]", [4, 5, 6]), "drawn": ("int", 0)})
    st = e.new_game(1, seed=1)
    assert st["global"] == {"deck": [5, 6], "drawn": 4}


def test_pay_more_than_a_seat_has(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            pay 4 from seats[1].money
            pay 7 from seats[1].money
            end winners seats
        """, seat=MONEY)
    err = rules_error(e)
    assert where(err) == (RULES_FILE, 3, 5)
    assert "Ben cannot pay 7 money: has 6" in err.message


def test_pay_a_negative_amount(tmp_path: Path) -> None:
    e = engine(tmp_path, "phase main:\n    pay 0 - 3 from seats[0].money\n    end winners seats\n", seat=MONEY)
    err = rules_error(e)
    assert where(err) == (RULES_FILE, 2, 5)
    assert "negative" in err.message


def test_pay_and_gain_keep_the_ledger(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            pay 4 from seats[1].money
            gain 9 to seats[0].money
            gain 1 to seats[1].money
            end winners seats
        """, seat=MONEY)
    st = e.new_game(2, seed=1)
    assert st["seat"]["money"] == [19, 7]
    assert st["ledger"]["money"] == [[0, 4], [9, 1]]


def test_division_by_zero_points_at_the_line(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let zero = len(deck)
            let x = 10 // zero
            log "{x}"
            end winners seats
        """, global_={"deck": ("list[int]", [])})
    err = rules_error(e)
    assert where(err)[:2] == (RULES_FILE, 3)
    assert "division by zero" in err.message


def test_index_out_of_range_points_at_the_line(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let xs = [1, 2]
            log "{xs[5]}"
            end winners seats
        """)
    err = rules_error(e)
    assert where(err)[:2] == (RULES_FILE, 3)
    assert "index is out of range" in err.message


def test_error_inside_a_block_formula_points_into_the_formula(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        formula first(xs: list[int]):
            let n = len(xs)
            return xs[n]
        phase main:
            log "{first(deck)}"
            end winners seats
        """, global_={"deck": ("list[int]", [1])})
    err = rules_error(e)
    assert where(err)[:2] == (RULES_FILE, 3)


def test_start_phase_ending_without_winners(tmp_path: Path) -> None:
    e = engine(tmp_path, "phase main:\n    pass\n")
    err = rules_error(e)
    assert "end winners" in err.message and "'main'" in err.message


# ---------------------------------------------------- statements at work


def test_return_leaves_the_phase_early(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            run part
            end winners seats
        phase part:
            count += 1
            if count > 0:
                return
            count += 100
        """, global_={"count": ("int", 0)})
    assert e.new_game(1, seed=1)["global"]["count"] == 1


def test_if_elif_else_and_for_with_break(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        formula kind(n: int) = "small" if n < 3 else "big"
        phase main:
            for n in [1, 3, 5, 7, 9]:
                if n == 1:
                    add "one" to out
                elif kind(n) == "small":
                    add "never" to out
                elif n > 6:
                    break
                else:
                    add kind(n) to out
            end winners seats
        """, global_={"out": ("list[str]", [])})
    assert e.new_game(1, seed=1)["global"]["out"] == ["one", "big", "big"]


def test_log_records_kind_data_seats_text_and_audience(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            for n in nodes:
                if n.colour == "blue":
                    log found(seat=seats[1], lot=n, all=[1, 2]) "{seats[1]} finds lot {n} ({n.colour})" to seats[1]
            log "plain"
            end winners [seats[1], seats[1], seats[0]]
        """, board={"nodes": [{"id": 10, "colour": "red"}, {"id": 20, "colour": "blue"}], "edges": []})
    st = e.new_game(2, seed=1)
    found, plain = st["log"]
    assert found == {"kind": "found", "text": "Ben finds lot 20 (blue)", "seats": [1],
                     "data": {"seat": 1, "lot": 20, "all": [1, 2]}, "to": [1]}
    assert plain["kind"] == "note" and plain["to"] is None and plain["text"] == "plain"
    assert st["result"] == {"winners": [0, 1]}


def test_shuffle_uses_the_seeded_generator(tmp_path: Path) -> None:
    e = engine(tmp_path, "phase main:\n    shuffle deck\n    end winners seats\n",
               global_={"deck": ("list[int]", list(range(20)))})
    a = e.new_game(1, seed=7)["global"]["deck"]
    b = e.new_game(1, seed=7)["global"]["deck"]
    c = e.new_game(1, seed=8)["global"]["deck"]
    assert a == b
    assert sorted(a) == list(range(20))
    assert a != list(range(20)) and a != c


# ------------------------------------------------------------ value semantics


def test_let_copies_a_list_so_the_original_does_not_change(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let a = deck
            add 9 to a
            let b = a
            remove 1 from b
            sizes = [len(deck), len(a), len(b)]
            end winners seats
        """, global_={"deck": ("list[int]", [1, 2]), "sizes": ("list[int]", [])})
    st = e.new_game(1, seed=1)
    assert st["global"]["deck"] == [1, 2]
    assert st["global"]["sizes"] == [2, 3, 2]


def test_let_copies_maps_and_seat_fields(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let m = stock
            m["a"] = 5
            let h = seats[0].hand
            add 7 to h
            let nested = piles
            add 3 to nested["x"]
            end winners seats
        """, global_={"stock": ("map[str, int]", {"a": 1}), "piles": ("map[str, list[int]]", {"x": [1]})},
                 seat={"hand": ("list[int]", [])})
    st = e.new_game(2, seed=1)
    assert st["global"]["stock"] == {"a": 1}
    assert st["global"]["piles"] == {"x": [1]}
    assert st["seat"]["hand"] == [[], []]


def test_let_copies_nested_lists_all_the_way_down(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let g = grid
            add 9 to g[0]
            g[1][0] = 7
            let rows = [grid[0], grid[1]]
            add 8 to rows[1]
            let picked = [row for row in grid]
            add 6 to picked[0]
            let named = {"first": grid[0]}
            add 5 to named["first"]
            let flat = [len(row) for row in grid]
            add 4 to flat
            end winners seats
        """, global_={"grid": ("list[list[int]]", [[1], [2]])})
    st = e.new_game(1, seed=1)
    assert st["global"]["grid"] == [[1], [2]]


def test_assigning_one_field_to_another_copies(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            backup = deck
            add 3 to deck
            seats[0].hand = deck
            add 4 to seats[0].hand
            end winners seats
        """, global_={"deck": ("list[int]", [1]), "backup": ("list[int]", [])},
                 seat={"hand": ("list[int]", [])})
    st = e.new_game(1, seed=1)
    assert st["global"] == {"deck": [1, 3], "backup": [1]}
    assert st["seat"]["hand"] == [[1, 3, 4]]


def test_phase_arguments_are_copies(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let a = deck
            run grow(a)
            run grow(deck)
            add 5 to a
            size = len(a)
            end winners seats
        phase grow(xs: list[int]):
            add 100 to xs
        """, global_={"deck": ("list[int]", [1, 2]), "size": ("int", 0)})
    st = e.new_game(1, seed=1)
    assert st["global"]["deck"] == [1, 2]
    assert st["global"]["size"] == 3


def test_tables_are_not_shared_with_variables(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let p = prices
            add 9 to p
            let q = prices
            size = len(q)
            end winners seats
        """, tables={"prices": [1, 2]}, global_={"size": ("int", 0)})
    st = e.new_game(1, seed=1)
    assert st["global"]["size"] == 2
    assert e.new_game(1, seed=1)["global"]["size"] == 2  # nor between games


@pytest.mark.parametrize("wait", ["", 'choose y from [1, 2] by seats[0]\n'])
def test_for_loop_runs_over_the_list_as_it_was(tmp_path: Path, wait: str) -> None:
    """Same result whether or not the loop waits for a decision (a resumable loop)."""
    body = textwrap.indent("remove x from deck\n" + wait + "add x to seen\n", " " * 8)
    e = engine(tmp_path, "phase main:\n    for x in deck:\n" + body + "    end winners seats\n",
               global_={"deck": ("list[int]", [1, 2, 3, 4]), "seen": ("list[int]", [])})
    st = e.new_game(1, seed=1)
    while not e.is_over(st):
        st = e.apply(st, "y:1")
    assert st["global"] == {"deck": [], "seen": [1, 2, 3, 4]}


@pytest.mark.parametrize("wait", ["", 'choose y from [1, 2] by seats[0]\n'])
def test_for_loop_over_nested_lists_sees_them_as_they_were(tmp_path: Path, wait: str) -> None:
    body = textwrap.indent("add len(row) to sizes\nadd 9 to grid[1]\n" + wait, " " * 8)
    e = engine(tmp_path, "phase main:\n    for row in grid:\n" + body + "    end winners seats\n",
               global_={"grid": ("list[list[int]]", [[1], [2]]), "sizes": ("list[int]", [])})
    st = e.new_game(1, seed=1)
    while not e.is_over(st):
        st = e.apply(st, "y:1")
    assert st["global"]["sizes"] == [1, 1]
    assert st["global"]["grid"] == [[1], [2, 9, 9]]


def test_for_loop_over_a_formula_result_is_a_snapshot_too(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        formula pile() = deck
        formula pile_of(xs: list[int]) = xs
        phase main:
            for x in pile():
                remove x from deck
                add x to seen
            deck = [5, 6]
            for x in pile_of(deck):
                remove x from deck
                add x to seen
            end winners seats
        """, global_={"deck": ("list[int]", [1, 2, 3, 4]), "seen": ("list[int]", [])})
    st = e.new_game(1, seed=1)
    assert st["global"] == {"deck": [], "seen": [1, 2, 3, 4, 5, 6]}


# ------------------------------------------------------------ formula inlining


INLINE_RULES = """\
    formula worth(s: seat, k: int) = s.score * k + len(s.hand) + bonus[k]
    formula two() = 2
    phase main:
        for s in seats:
            add worth(s, 2) to plain
            add worth(s, two()) to called
            add worth(seats[s], 1 + 1) to mixed
        end winners seats
    """


def test_formula_gives_the_same_result_inlined_and_called(tmp_path: Path) -> None:
    e = engine(tmp_path, INLINE_RULES, seat={"score": ("int", 3), "hand": ("list[int]", [1, 1])},
               global_={"plain": ("list[int]", []), "called": ("list[int]", []), "mixed": ("list[int]", [])},
               tables={"bonus": [0, 10, 20]})
    st = e.new_game(2, seed=1)
    g = st["global"]
    assert g["plain"] == [28, 28]
    assert g["called"] == g["plain"] and g["mixed"] == g["plain"]


def test_formula_with_plain_read_arguments_is_inlined(tmp_path: Path) -> None:
    e = engine(tmp_path, INLINE_RULES, seat={"score": ("int", 3), "hand": ("list[int]", [1, 1])},
               global_={"plain": ("list[int]", []), "called": ("list[int]", []), "mixed": ("list[int]", [])},
               tables={"bonus": [0, 10, 20]})
    program = e.game.program
    lines = program.source.splitlines()

    def generated_for(rule_line: int) -> str:
        return "\n".join(t for t, sp in zip(lines, program.line_spans) if sp is not None and sp.line == rule_line)

    # Line 5 passes plain reads: the body is in place, no call to the formula's function.
    assert "len(" in generated_for(5) and "_F" not in generated_for(5)
    # Lines 6 and 7 pass a call or an operation: the formula's function is called.
    assert "_F" in generated_for(6)
    assert "_F" in generated_for(7)


def test_a_failing_formula_fails_the_same_way_inlined_or_called(tmp_path: Path) -> None:
    messages = []
    for arg in ("deck", "deck + []"):  # a plain read is inlined; an operation is passed to a call
        e = engine(tmp_path, f"""\
            formula sixth(xs: list[int]) = xs[5]
            phase main:
                log "{{sixth({arg})}}"
                end winners seats
            """, global_={"deck": ("list[int]", [1])})
        err = rules_error(e)
        assert err.span is not None and Path(err.span.file).name == RULES_FILE
        messages.append(err.message)
    assert messages == ["a list index is out of range"] * 2


def test_inlined_formula_with_a_comprehension_keeps_names_apart(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        formula above(xs: list[int], n: int) = [x for x in xs if x > n]
        phase main:
            for x in [1, 2]:
                add len(above(deck, x)) to out
            add len(above(deck, 1 + 1)) to out
            end winners seats
        """, global_={"deck": ("list[int]", [1, 2, 3]), "out": ("list[int]", [])})
    assert e.new_game(1, seed=1)["global"]["out"] == [2, 1, 1]


def test_inlined_formulas_in_a_choose_each(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        formula affordable(s: seat, n: int) = n <= s.money
        phase main:
            choose n from [k for k in [1, 5, 12] if affordable(s, k)] by each s in seats
            for s in seats:
                pay n[s] from s.money
            end winners seats
        """, seat={"money": {"type": "int", "initial": 6, "ledger": True}})
    st = e.new_game(2, seed=1)
    d = decision(e, st)
    assert ids(d, 0) == ["n:1", "n:5"]
    st = e.apply(st, "n:5", seat=0)
    st = e.apply(st, "n:1", seat=1)
    assert st["seat"]["money"] == [1, 5]


# ------------------------------------------------------------ determinism


DETERMINISM_RULES = """\
    phase main:
        shuffle deck
        while len(deck) > 0:
            for s in seats:
                if len(deck) > 0:
                    choose keep from [true, false] by s "Keep {deck[0]}?"
                    draw card from deck
                    if keep:
                        add card to s.hand
                        s.score += card
        let best = max([s.score for s in seats])
        end winners [s for s in seats if s.score == best]
    """


def play(e: Engine, seed: int, pick: int) -> list[str]:
    """Play to the end, answering option `pick` (or the last); the JSON state after every step."""
    st = e.new_game(3, seed=seed)
    states = [to_json(st)]
    while not e.is_over(st):
        d = decision(e, st)
        seat = d.seats[0]
        options = d.options(seat)
        st = e.apply(st, options[min(pick, len(options) - 1)].id, seat=seat)
        states.append(to_json(st))
    return states


def test_same_seed_and_choices_give_the_same_state(tmp_path: Path) -> None:
    e = engine(tmp_path, DETERMINISM_RULES, seat={"hand": ("list[int]", []), "score": ("int", 0)},
               global_={"deck": ("list[int]", list(range(1, 13)))})
    first = play(e, seed=5, pick=0)
    again = play(e, seed=5, pick=0)
    assert len(first) == 13
    assert first == again
    # A fresh engine for the same game, too.
    assert play(Engine(e.game), seed=5, pick=0) == first
    # ... while another seed or other choices lead elsewhere.
    assert play(e, seed=6, pick=0)[-1] != first[-1]
    assert play(e, seed=5, pick=1)[-1] != first[-1]


def test_apply_never_changes_its_input(tmp_path: Path) -> None:
    e = engine(tmp_path, DETERMINISM_RULES, seat={"hand": ("list[int]", []), "score": ("int", 0)},
               global_={"deck": ("list[int]", list(range(1, 13)))})
    st = e.new_game(3, seed=2)
    while not e.is_over(st):
        before = to_json(st)
        d = decision(e, st)
        new = e.apply(st, d.options(d.seats[0])[0].id, seat=d.seats[0])
        assert to_json(st) == before
        assert to_json(new) != before
        st = new


def test_apply_of_a_choose_each_answer_never_changes_its_input(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            choose pick from [1, 2] by each s in seats
            for s in seats:
                s.score = pick[s]
            end winners seats
        """, seat={"score": ("int", 0)})
    st = e.new_game(2, seed=1)
    before = to_json(st)
    half = e.apply(st, "pick:2", seat=1)
    assert to_json(st) == before
    mid = to_json(half)
    done = e.apply(half, "pick:1", seat=0)
    assert to_json(half) == mid
    assert done["seat"]["score"] == [1, 2]


def test_block_formula_with_loops_works_on_its_own_copy(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        formula trimmed_sum(xs: list[int]):
            let kept = xs
            while len(kept) > 2:
                remove kept[0] from kept
            let total = 0
            for x in kept:
                total += x
            return total
        phase main:
            out = trimmed_sum(deck)
            end winners seats
        """, global_={"deck": ("list[int]", [1, 2, 3, 4]), "out": ("int", 0)})
    st = e.new_game(1, seed=1)
    assert st["global"] == {"deck": [1, 2, 3, 4], "out": 7}


@pytest.mark.parametrize("written", ["[] if flag else [n for n in nodes]", "[n for n in nodes] if not flag else []",
                                     "[] + [n for n in nodes if not flag]"])
def test_an_empty_list_takes_the_type_of_the_list_it_meets(tmp_path: Path, written: str) -> None:
    # `[]` alone is a list of anything: beside a list of nodes it is one too, so a node's field read
    # from its elements is the node's (a list of `any` read it as a map's entry, and failed in play).
    e = engine(tmp_path, f"""\
        formula places(flag: bool) = {written}
        phase main:
            choose flag from [true, false] by seats[0]
            for n in places(flag):
                seats[0].score += n.worth
            end winners seats
        """, seat={"score": ("int", 0)}, node={"worth": ("int", 2)}, board=LINE_BOARD)
    assert e.apply(e.new_game(1, seed=1), "flag:yes")["seat"]["score"] == [0]
    assert e.apply(e.new_game(1, seed=1), "flag:no")["seat"]["score"] == [6]


def test_max_and_min_of_two_and_the_number_limit_where_python_allows_them_in_place(tmp_path: Path) -> None:
    # max and min of two values and the number limit's check are written in place (`:=`) in a
    # statement and a comprehension's element, and as calls where Python refuses `:=` (what a
    # comprehension runs over): the same values everywhere, the first of equal values kept.
    e = engine(tmp_path, """\
        formula twice(x: int) = x * x * 2
        phase main:
            let best = 0
            for x in deck:
                best = max(best, twice(x) - 20)
            out = best * 1000 + min(twice(2) + 1, twice(1) * 4 + 1)
            out2 = sum([max(x * x, 9) + min(x, twice(x)) for x in deck])
            out3 = len([x for x in range(max(len(deck) * 2, 3) * 2)])
            end winners seats
        """, global_={"deck": ("list[int]", [1, 2, 3, 4]), "out": ("int", 0), "out2": ("int", 0), "out3": ("int", 0)})
    source = e.program.source
    # In place but for the one in range's bounds (what a comprehension runs over): a call there.
    assert source.count("_max(") + source.count("_min(") == 1
    st = e.new_game(1, seed=1)
    assert st["global"]["out"] == 12 * 1000 + 9
    assert st["global"]["out2"] == (9 + 1) + (9 + 2) + (9 + 3) + (16 + 4)
    assert st["global"]["out3"] == 16


def test_division_by_a_written_number_needs_no_check_and_by_a_value_keeps_it(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            out = (-7) // 2 * 100 + (-7) % 3 * 10 + 7 % -3
            out2 = 7 // (len(deck) - 4)
            end winners seats
        """, global_={"deck": ("list[int]", [1, 2, 3, 4]), "out": ("int", 0), "out2": ("int", 0)})
    assert e.program.source.count("_div(") == 1 and "_mod(" not in e.program.source   # only the one by a value
    with pytest.raises(RuleError, match="division by zero") as stopped:
        e.new_game(1, seed=1)
    assert stopped.value.span is not None and stopped.value.span.line == 3
    e = engine(tmp_path, """\
        phase main:
            out = (-7) // 2 * 100 + (-7) % 3 * 10 + 7 % -3
            end winners seats
        """, global_={"out": ("int", 0)})
    assert e.new_game(1, seed=1)["global"]["out"] == -4 * 100 + 2 * 10 - 2   # floored, as Python's


def test_a_runaway_number_in_a_comprehension_is_stopped_at_its_place(tmp_path: Path) -> None:
    e = engine(tmp_path, """\
        phase main:
            let xs = [1]
            for r in range(70):
                xs = [max(x * x + 2, 1) for x in xs]
            end winners seats
        """)
    with pytest.raises(RuleError, match="past the limit") as stopped:
        e.new_game(1, seed=1)
    assert stopped.value.span is not None and stopped.value.span.line == 4
