"""Bounds (ruledsl/opt/bounds.py): a sum or product that can never pass the number limit is computed
without its check, and one that can still is checked where it is computed."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.core.errors import RuleError
from lang_helpers import engine, expr
from ruledsl.opt.bounds import LENGTH_BOUND, Calls, bound
from ruledsl.opt.folding import UNKNOWN
from ruledsl.runtime_support import NUMBER_LIMIT

TABLES = {"factor": 3, "prices": [1, 2, 40]}
FORMULAS = {"twice": (["x"], expr("x * 2")), "size": (["l"], expr("len(l) + 1")), "loop": (["x"], expr("loop(x) + 1"))}


def _calls(builtins: tuple[str, ...] = ("len", "count", "sum")) -> Calls:
    return Calls(lambda call: call.name in builtins and call.name not in FORMULAS,
                 lambda call: FORMULAS.get(call.name),
                 lambda name: TABLES.get(name, UNKNOWN))


def _bound(source: str, calls: Calls | None = None) -> int | None:
    return bound(expr(source), lambda name: TABLES.get(name, UNKNOWN), calls or _calls())


def test_fixed_values_counts_and_their_sums_are_bounded() -> None:
    assert _bound("2 * 4") == 8
    assert _bound("-factor * 2") == 6
    assert _bound("len(l) * (2 if w else 1)") == 2 * LENGTH_BOUND
    assert _bound("sum([2 if b else 1 for s in seats if s.k == k])") == 2 * LENGTH_BOUND
    assert _bound("sum([1, factor, 5])") == 9
    assert _bound("size(l) * 3") == 3 * (LENGTH_BOUND + 1)  # followed into a formula of one expression
    assert _bound("4 * len(seats)") <= NUMBER_LIMIT  # type: ignore[operator]


def test_anything_read_from_the_state_or_a_parameter_is_unbounded() -> None:
    for source in ("s.money + 1", "x * 2", "twice(3)", "sum([s.money for s in seats])", "len(l) * s.money",
                   "prices[i] * 2", "sum(l)"):
        assert _bound(source) is None, source
    # A formula named like a built-in is the formula; a formula calling itself ends.
    assert _bound("len(l)", _calls(builtins=())) is None
    assert _bound("loop(1)") is None
    # A comprehension's variable is never the table it may be named after.
    assert _bound("sum([factor for factor in l])") is None


RULES = """\
phase main:
    let n = 4 * len(seats)
    let votes = sum([2 if s.score > 0 else 1 for s in seats])
    s0.score += n + votes
    s0.score += votes * votes
    for r in range(70):
        s0.score = s0.score * 2 + votes
    end winners seats
"""


def test_a_bounded_sum_has_no_check_and_a_runaway_one_is_still_stopped_at_its_place(tmp_path: Path) -> None:
    e = engine(tmp_path, RULES.replace("s0", "seats[0]"), seat={"score": ("int", 0)})
    source = e.program.source
    assert "_num(" in source and "(4 * len(c.seats))" in source and "_num((4 * len(" not in source
    assert "_num(sum(" not in source
    with pytest.raises(RuleError, match="past the limit") as stopped:
        e.new_game(2, 1)
    assert stopped.value.span is not None and stopped.value.span.line == 7  # the doubling, as before


def test_formulas_calling_each_other_twice_over_are_given_up_on_quickly() -> None:
    formulas = {"f0": (["n"], expr("1 + 1"))} | {f"f{k}": (["n"], expr(f"f{k - 1}(n) + f{k - 1}(n)"))
                                                  for k in range(1, 41)}
    calls = Calls(lambda call: False, lambda call: formulas.get(call.name), lambda name: UNKNOWN)
    assert bound(expr("f40(1)"), lambda name: UNKNOWN, calls) is None
    assert bound(expr("f3(1)"), lambda name: UNKNOWN, calls) == 16


ONE_EACH = """\
phase main:
    let boosted = [false for s in seats]
    let zeros = [0 for s in seats if s.score == 0]
    boosted[1] = true
    for s in seats:
        s.score = 2 if boosted[s] else 1
    end winners [s for s in seats if boosted[s]]
"""


def test_a_fixed_value_per_seat_is_made_at_once_and_each_stays_its_own(tmp_path: Path) -> None:
    e = engine(tmp_path, ONE_EACH, seat={"score": ("int", 0)})
    assert "[False] * c.nseats" in e.program.source
    assert "[0] * c.nseats" not in e.program.source  # (a filtered one is made element by element)
    state = e.new_game(3, 1)
    assert state["seat"]["score"] == [1, 2, 1] and state["result"] == {"winners": [1]}
