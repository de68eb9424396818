"""The match runner of the benchmarks (bench_match.py): seats rotated, figures that do not depend
on --jobs, Wilson intervals; and the scripted Downtown player it measures bots against."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))
import bench_match  # noqa: E402
from interpreter.agents import bot_seed, make_agent, value as value_module  # noqa: E402
from interpreter.core.engine import Engine  # noqa: E402
from interpreter.load.loader import load_game  # noqa: E402
from matches import Match, _percentile, _read_value, questions, summary, wilson  # noqa: E402

PLANNER = f"{BENCH / 'scripted' / 'downtown.py'}:Planner"


def test_wilson_intervals_are_the_textbook_ones() -> None:
    assert wilson(12, 12) == pytest.approx((0.7575, 1.0), abs=1e-4)
    assert wilson(0, 12) == pytest.approx((0.0, 0.2425), abs=1e-4)
    low, high = wilson(10, 20)
    assert low == pytest.approx(0.2993, abs=1e-4) and high == pytest.approx(0.7007, abs=1e-4)


def test_the_bot_changes_seat_every_game_and_jobs_change_nothing() -> None:
    match = Match("downtown", None, 3, "random", PLANNER, 4, 50)
    alone = bench_match.run(match, 1)
    shared = bench_match.run(match, 2)
    assert [o.seat for o in alone] == [0, 1, 2, 0]
    strip = [(o.index, o.seat, o.finished, o.won, o.score, len(o.cpu)) for o in alone]
    assert strip == [(o.index, o.seat, o.finished, o.won, o.score, len(o.cpu)) for o in shared]
    data = summary(match, alone)
    assert data["games"] == 4 and data["fair_share"] == pytest.approx(1 / 3, abs=1e-4)
    assert data["ratio"] == pytest.approx(data["win_rate"] * 3, abs=1e-3)
    assert data["decisions"] == sum(len(o.cpu) for o in alone) > 0


def test_the_printed_figures_end_with_a_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench_match.main(["--game", "downtown", "--players", "3", "--bot", "random", "--games", "2"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0 and out[0] == "downtown, 3 players: random vs 2 x downtown.py:Planner"
    data = json.loads(out[-1])
    assert data["against"] == PLANNER and data["games"] == 2 and 0 <= data["score_at_most_zero"] <= 1
    assert any(line.startswith("  wins ") and "95 % Wilson" in line for line in out)


def test_the_trained_value_is_read_before_any_decision_is_timed() -> None:
    # Reading the file costs tens of milliseconds once per process: charged to the first decision,
    # it made the match's "max per decision" a figure of the loading, not of the bot.
    engine = Engine(load_game("downtown"))
    assert engine not in value_module._LOADED
    _read_value(engine)
    assert isinstance(value_module._LOADED[engine], value_module.LearnedValue)   # kept with the engine
    assert _percentile([float(k) for k in range(1, 101)], 0.99) == 99.0
    assert _percentile([5.0], 0.99) == 5.0


def test_handed_questions_are_answered_by_the_scripted_player_for_the_bots_seat() -> None:
    engine = Engine(load_game("downtown"))
    every = tuple(questions(engine))
    assert "parcels" in every and len(every) == len(set(every))
    handed = bench_match.run(Match("downtown", None, 3, "random", PLANNER, 2, 50, handed=every), 1)
    assert all(o.cpu == [] for o in handed)         # nothing left for the bot to answer
    for o in handed:
        # The same game with a scripted player, seeded as the stand-in is, in the bot's seat.
        seed = 50 + o.index
        agents = [make_agent(PLANNER, bot_seed(seed, 3 if s == o.seat else s)) for s in range(3)]
        state = engine.new_game(3, seed)
        while state["result"] is None:
            seat = engine.first_open_seat(state)
            engine.apply_index(state, seat, agents[seat].pick(engine, state, seat))
        assert o.won == (o.seat in state["result"]["winners"])
        assert o.score == state["seat"][engine.game.score_field][o.seat]
    summary_line = summary(Match("downtown", None, 3, "random", PLANNER, 2, 50, handed=("parcels",)), handed)
    assert summary_line["handed"] == ["parcels"]


def test_an_unknown_question_to_hand_is_one_line_naming_the_questions(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench_match.main(["--game", "downtown", "--bot", "random", "--hand", "parcels,bogus"])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("bench_match: --hand bogus: Downtown asks no such question; its questions are ")
    assert "parcels" in err[0]


def test_a_wrong_scripted_player_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = bench_match.main(["--game", "downtown", "--bot", "random", "--against", f"{BENCH / 'matches.py'}:Nope"])
    err = capsys.readouterr().err.splitlines()
    assert code == 2 and len(err) == 1 and "has no class 'Nope'" in err[0]


def test_the_scripted_downtown_player_votes_for_what_makes_its_parcels_pay() -> None:
    engine = Engine(load_game("downtown"))
    agent = make_agent(PLANNER, 0)
    planner = agent.player
    board = planner.board
    # Its two parcels stand on a housing lot; one neighbour of that lot is being zoned.
    home = board.index[2]
    voted = next(n for n in board.neighbours[home])
    view = {"seat": 0, "names": ["A", "B", "C", "D"],
            "node": {"plaque": [None] * 24, "markers": [[] for _ in range(24)], "paid": [False] * 24}}
    view["node"]["plaque"][home] = "housing"
    view["node"]["markers"][home] = [0, 0]
    scores = planner.kind_scores(view, voted, ["housing", "industry", "commerce"])
    assert scores["industry"] < scores["commerce"] and scores["industry"] < scores["housing"]
    assert engine.game.node_ids[home] == 2  # the board file and the engine agree on the lots


def test_the_scripted_downtown_player_only_buys_what_can_fill_in_the_last_round() -> None:
    planner = make_agent(PLANNER, 0).player
    board = planner.board
    lot = board.index[8]
    view = {"seat": 0, "names": ["A", "B", "C", "D"], "seats": {"money": [40] * 4, "markers": [15] * 4},
            "node": {"plaque": ["park"] * 24, "markers": [[] for _ in range(24)], "paid": [False] * 24}}
    view["node"]["plaque"][lot] = "housing"
    assert planner.offers(view, lot) == []  # every lot built: a lot left unfilled would pay nothing
    view["node"]["markers"][lot] = [1, 1]
    assert [count for _, count in planner.offers(view, lot)] == [2]
