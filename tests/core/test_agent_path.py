"""The agent path (`Engine.play`, `Engine.playout`): bots answer inside the rules, nothing pauses.

The shipped games are checked against stored journals (tests/games/test_golden_journals.py); these
tests check the API itself on Downtown and on tiny games.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from interpreter.agents import RandomAgent, bot_seed
from interpreter.analysis.simulate import play_bots
from interpreter.core.decision import Decision
from interpreter.core.engine import MAX_DEPTH, BotError, Engine
from interpreter.core.errors import RuleError
from interpreter.core.state import copy_state
from interpreter.core.view import view
from interpreter.load.loader import load_game
from lang_helpers import engine as tiny


@pytest.fixture(scope="module")
def downtown() -> Engine:
    return Engine(load_game("downtown"))


def pickers(seats: int, seed: int) -> list[Any]:
    return [RandomAgent(bot_seed(seed, s)).picker for s in range(seats)]


def test_a_capped_game_stops_unfinished_at_the_cap(downtown: Engine) -> None:
    state = downtown.play(4, 3, pickers(4, 3), max_decisions=25)
    assert state["result"] is None and state["decisions"] == 25
    assert state["pending"] is None and state["stack"] == []
    assert view(downtown, state, 0)["pending"] is None


def test_the_journal_holds_every_answer_and_the_log_can_be_left_out(downtown: Engine) -> None:
    choices: list[tuple[int, str]] = []
    state = downtown.play(3, 5, pickers(3, 5), journal=choices, log=False)
    assert state["log"] == [] and len(choices) == state["decisions"] > 0
    again = downtown.new_game(3, 5)
    for seat, option in choices:
        downtown.apply_inplace(again, option, seat)
    assert again["result"] == state["result"] and again["seat"] == state["seat"]


def test_a_picker_answering_out_of_range_is_refused(downtown: Engine) -> None:
    with pytest.raises(BotError, match="picked option 99"):
        downtown.play(3, 1, [lambda st, seat, options: 99] * 3)

    def broken(st: dict[str, Any], seat: int, options: list[Any]) -> int:
        raise KeyError("oops")

    with pytest.raises(BotError, match="KeyError"):
        downtown.play(3, 1, [broken] * 3)


def test_a_playout_continues_from_any_decision_and_leaves_copies_alone(downtown: Engine) -> None:
    _, record = play_bots(downtown, 4, 9, keep_journal=True)
    assert record.journal is not None
    state = downtown.new_game(4, 9)
    for seat, option in record.journal.choices[:40]:
        downtown.apply_inplace(state, option, seat)
    before = copy_state(state)
    rest: list[tuple[int, str]] = []
    copy = copy_state(state)
    downtown.playout(copy, pickers(4, 9), journal=rest)
    assert state == before, "the playout changed the state it was not given"
    assert record.journal.choices[40:] == rest and copy["result"] == record.journal.result


def test_pickers_may_look_at_other_states_through_the_engine(downtown: Engine) -> None:
    other = downtown.new_game(4, 1)
    base = pickers(4, 2)

    def curious(state: dict[str, Any], seat: int, options: list[Any]) -> int:
        assert isinstance(downtown.pending(other), Decision)  # another state, the engine's own runtime
        view(downtown, other, seat)
        return int(base[seat](state, seat, options))

    plain = downtown.play(4, 2, base)
    nosy = downtown.play(4, 2, [curious] * 4)
    assert nosy["seat"] == plain["seat"] and nosy["log"] == plain["log"]


def test_phases_that_wait_and_run_themselves_stop_at_the_same_depth_both_ways(tmp_path: Path) -> None:
    e = tiny(tmp_path, """\
        phase main:
            run dig(0)
            end winners seats

        phase dig(n: int):
            choose x from [1, 2] by seats[0]
            depth = n
            run dig(n + 1)
        """, global_={"depth": ("int", 0)}, seats=(1, 1))
    assert "c.depth" in e.program.code.source  # counted: `dig` runs itself (ruledsl/check/callgraph.py)
    with pytest.raises(RuleError) as slow:
        state = e.new_game(1, 1)
        while True:
            e.apply_inplace(state, e.option_id(state, 0, 0), 0)
    with pytest.raises(RuleError) as fast:
        e.play(1, 1, [lambda st, seat, options: 0])
    assert f"more than {MAX_DEPTH} deep" in slow.value.message
    assert (slow.value.message, slow.value.span) == (fast.value.message, fast.value.span)


def test_turn_order_from_any_seat_number(downtown: Engine) -> None:
    c = downtown.runtime
    c.bind(downtown.new_game(4, 1))
    assert c.seats_from(0) == [0, 1, 2, 3] and c.seats_from(2) == [2, 3, 0, 1] and c.seats_from(3) == [3, 0, 1, 2]
    # A number that is no seat (rules may compute one) gives what it always gave: the numbers up to it.
    assert c.seats_from(6) == [0, 1, 2, 3, 4, 5] and c.seats_from(-1) == [-1, 0, 1, 2, 3]
    assert c.seats_from(1) is not c.seats_from(1) and c.seats_from(0) is not c.seats


def test_every_game_starts_from_its_own_copy_of_the_data(downtown: Engine) -> None:
    a = downtown.new_game(3, 1)
    b = downtown.play(3, 2, pickers(3, 2))
    c = downtown.new_game(3, 1)
    assert a == c and a["node"]["markers"][0] is not c["node"]["markers"][0]
    assert a["global"]["supply"] is not c["global"]["supply"] and b["global"]["supply"] != c["global"]["supply"]
    fresh = downtown.new_game(5, 1)
    assert len(fresh["seat"]["money"]) == 5 and fresh["seat"]["money"] == [30] * 5


def test_one_option_is_taken_without_a_decision_and_none_is_an_error_on_both_paths(tmp_path: Path) -> None:
    # The agent path takes a single option at the choice itself, without calling the runtime.
    e = tiny(tmp_path, """\
        phase main:
            let left = [5]
            let p = seats[0]
            choose a from left by p
            choose b from [x for x in [1, 2, 3] if x > 2] by p
            choose c from [a, b] by p
            total = a + b + c
            let none_left = [x for x in left if x > a]
            choose d from none_left by p
            end winners seats
        """, global_={"total": ("int", 0)}, seats=(1, 1))
    source = e.program.code.source
    # Both forms of the inline: options in a variable, and options computed first into one.
    assert re.search(r"\(_l\d+\[0\] if len\(_l\d+\) == 1 else c\.ask\(", source)
    assert re.search(r"\(_o\d+\[0\] if len\(_o\d+\) == 1 else c\.ask\(", source)
    asked: list[list[Any]] = []

    def first(st: dict[str, Any], seat: int, options: list[Any]) -> int:
        asked.append(options)
        return 0

    with pytest.raises(RuleError) as fast:
        e.play(1, 1, [first])
    assert asked == [[5, 3]]  # only the choice with two options reached the picker
    state = e.new_game(1, 1)
    assert e.option_count(state, 0) == 2
    with pytest.raises(RuleError) as slow:
        e.apply_inplace(state, e.option_id(state, 0, 0), 0)
    assert "no legal option for 'd'" in fast.value.message
    assert (slow.value.message, slow.value.span) == (fast.value.message, fast.value.span)
