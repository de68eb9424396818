"""The declared evaluation (agents/evaluation.py): formulas of one seat, or of none giving every seat's
value at once, which must read the position bound now and never one judged before."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents.evaluation import Evaluation, seat_formula
from interpreter.agents.features import FeatureSpace
from interpreter.core.engine import Engine
from interpreter.core.errors import RuleError
from lang_helpers import load

RULES = """
formula wealth(s: seat) = s.money + 2 * s.points

formula every_wealth() = [wealth(s) for s in seats]

formula one_short() = [wealth(s) for s in seats if s != seats[0]]

phase main:
    for s in seats:
        choose x from [1, 2, 3] by s "Take"
        s.money += x
    end winners seats
"""
SEAT = {"money": ("int", 3), "points": ("int", 0)}


def _engine(folder: Path, evaluation: str) -> Engine:
    return Engine(load(folder, RULES, seat=SEAT, extra={"bots": {"evaluation": evaluation}}))


def test_every_seat_at_once_judges_as_the_formula_of_one_seat(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "every").mkdir()
    one, every = _engine(tmp_path / "one", "wealth"), _engine(tmp_path / "every", "every_wealth")
    by_one, by_every = Evaluation(one), Evaluation(every)
    a, b = one.new_game(3, 4), every.new_game(3, 4)
    for k in (2, 0, 1):
        assert by_every.values(b) == by_one.values(a)
        assert [by_every.value(b, s) for s in range(3)] == by_one.values(a)
        one.apply_index(a, one.first_open_seat(a), k)
        every.apply_index(b, every.first_open_seat(b), k)


def test_a_state_changed_in_place_is_judged_again(tmp_path: Path) -> None:
    """The values are kept for one binding of the runtime: the same state object, changed and bound
    again, is read again (a bot judges its copies in place, one after another)."""
    eng = _engine(tmp_path, "every_wealth")
    judge = Evaluation(eng)
    state = eng.new_game(2, 1)
    assert judge.values(state) == [3.0, 3.0]
    state["seat"]["money"][1] = 10
    assert judge.value(state, 1) == 10.0
    space = FeatureSpace(eng, evaluations={"evaluation": eng.game.bots.evaluation})
    state["seat"]["points"][0] = 5
    assert space.judged(state, None, space.evaluations) == [[13.0, 10.0]]
    state["seat"]["points"][0] = 0
    assert space.judged(state, None, space.evaluations) == [[3.0, 10.0]]


def test_a_list_of_the_wrong_length_names_the_formula(tmp_path: Path) -> None:
    eng = _engine(tmp_path, "one_short")
    state = eng.new_game(3, 1)
    eng.runtime.bind(state)
    with pytest.raises(RuleError, match="'one_short' gives 2 values for 3 seats"):
        seat_formula(eng, "one_short")(eng.runtime, 0)
