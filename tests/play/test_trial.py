"""Trial games (what validate plays): everything a person would see is built, and its failures found."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from interpreter.core.engine import Engine
from interpreter.load.loader import load_game
from interpreter.play import trial
from interpreter.play.trial import every_trial, sample_trials, trial_game, trial_games
from lang_helpers import engine, write_game

END = "    end winners seats\n"
BOARD = {"nodes": [{"id": 1, "cells": [[0, 0]]}, {"id": 2, "cells": [[0, 1]]}], "edges": [[1, 2]]}


def test_a_shipped_game_plays_to_its_end_with_every_screen() -> None:
    e = Engine(load_game("downtown"))
    assert trial_game(e, 4, 0, 20_000) is None


def test_a_prompt_that_cannot_be_written_is_a_screen_finding_at_the_choose(tmp_path: Path) -> None:
    e = engine(tmp_path, "phase main:\n    let names = [\"a\"]\n    for i in range(2):\n"
                         "        choose x from [1, 2] by seats[0] \"{names[i]}?\"\n        log \"{x}\"\n" + END)
    found = trial_game(e, 1, 0, 100)
    assert found is not None and found.code == "screen" and found.decisions == 1
    assert "the prompt" in found.message and "out of range" in found.message
    assert found.span is not None and (found.span.line, found.span.column) == (4, 42)


def test_a_failing_display_formula_is_named_and_placed(tmp_path: Path) -> None:
    rules = ("formula lbl(n: node) = \"{10 // (n.id - 2)}\"\n\nphase main:\n"
             "    choose x from [1, 2] by seats[0]\n    log \"{x}\"\n" + END)
    write_game(tmp_path, rules, board=BOARD)
    game_yaml = tmp_path / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + "display: {label: lbl}\n", encoding="utf-8")
    found = trial_game(Engine(load_game(str(tmp_path))), 1, 0, 100)
    assert found is not None and found.code == "screen", found
    assert "display label formula 'lbl'" in found.message and "division by zero" in found.message
    assert found.span is not None and found.span.line == 1


def test_a_rule_that_fails_is_a_runtime_finding(tmp_path: Path) -> None:
    e = engine(tmp_path, "phase main:\n    choose x from [0, 1] by seats[0]\n    log \"{10 // x}\"\n" + END)
    found = [trial_game(e, 1, seed, 100) for seed in range(6)]
    assert {f.code if f else None for f in found} == {"runtime", None}


def test_a_rule_failing_inside_a_one_line_formula_is_placed_in_the_formula(tmp_path: Path) -> None:
    # One-expression formulas run inlined at their calls: the finding still points into the formula.
    rules = ("formula fifth(l: list[int]) = l[5]\n\nphase main:\n    choose x from [[1, 2], [1, 2, 3, 4, 5, 6]] by seats[0]\n"
             "    let a = fifth(x)\n    log \"{a}\"\n" + END)
    e = engine(tmp_path, rules)
    found = [f for f in (trial_game(e, 1, seed, 100) for seed in range(8)) if f is not None]
    assert found, "some seed picks the short list"
    for f in found:
        assert f.code == "runtime" and f.span is not None
        assert (f.span.line, f.span.column) == (1, 31), f
        assert f.message == "a list index is out of range, in a formula called at line 5"


def test_a_rule_failing_in_its_own_statement_keeps_its_place(tmp_path: Path) -> None:
    rules = ("formula first(l: list[int]) = l[0]\n\nphase main:\n    choose x from [[1, 2], [3]] by seats[0]\n"
             "    log \"{first(x) + x[1]}\"\n" + END)
    found = [f for f in (trial_game(engine(tmp_path, rules), 1, seed, 100) for seed in range(8)) if f is not None]
    assert found and all(f.span is not None and f.span.line == 5 and f.message == "a list index is out of range"
                         for f in found), found


def test_a_game_that_never_ends_is_found_at_the_cap(tmp_path: Path) -> None:
    e = engine(tmp_path, "phase main:\n    while true:\n        choose x from [1, 2] by seats[0]\n"
                         "        log \"{x}\"\n" + END)
    found = trial_game(e, 1, 0, 50)
    assert found is not None and (found.code, found.severity, found.decisions) == ("no-end", "error", 50)


def test_the_order_covers_every_seat_count_before_a_second_seed(tmp_path: Path) -> None:
    e = engine(tmp_path, "phase main:\n    choose x from [1, 2] by seats[0]\n    log \"{x}\"\n" + END)
    trials = every_trial([e], 2)
    assert trials == [(0, seats, 0) for seats in range(1, 5)] + [(0, seats, 1) for seats in range(1, 5)]
    report = trial_games([e], trials, 100)
    assert report.played == 2 * 4 and report.findings == []


def test_validate_s_few_games_are_spread_over_the_seat_counts_and_never_timed(tmp_path: Path) -> None:
    e = engine(tmp_path, "phase main:\n    choose x from [1, 2] by seats[0]\n    log \"{x}\"\n" + END)
    assert sample_trials([e], 2) == [(0, 1, 0), (0, 3, 0)]
    assert sample_trials([e], 9) == every_trial([e], 1)   # no more games than seat counts at seed 0


def test_games_shared_over_processes_report_what_one_process_reports(tmp_path: Path) -> None:
    # Some seeds fail: after a seat count's first finding, its later games are skipped either way.
    e = engine(tmp_path, "phase main:\n    choose x from [0, 1] by seats[0]\n    log \"{10 // x}\"\n" + END)
    trials = every_trial([e], 5)
    alone = trial_games([e], trials, 100, jobs=1)
    shared = trial_games([e], trials, 100, jobs=2)
    assert alone.findings and alone.played < len(trials)
    assert shared == alone


def test_a_bots_formula_that_fails_on_a_seats_own_position_is_a_finding(tmp_path: Path) -> None:
    # A bot reads a failing formula as "unknown" (it cannot know another seat's hidden cards), so
    # without this a broken evaluation left every bot judging blind, and validate said nothing.
    rules = ("formula position(s: seat) = s.money // (s.money - s.money)\n\nphase main:\n"
             "    choose x from [1, 2] by seats[0]\n    log \"{x}\"\n" + END)
    write_game(tmp_path, rules, seat={"money": ("int", 3)}, extra={"bots": {"evaluation": "position"}})
    found = trial_game(Engine(load_game(str(tmp_path))), 1, 0, 100)
    assert found is not None and found.code == "screen", found
    assert "the bots' formula 'position'" in found.message and "division by zero" in found.message
    assert found.span is not None and found.span.line == 1


def test_a_bots_formula_that_holds_is_no_finding(tmp_path: Path) -> None:
    rules = ("formula position(s: seat) = s.money * 2\n\nphase main:\n"
             "    choose x from [1, 2] by seats[0]\n    log \"{x}\"\n" + END)
    write_game(tmp_path, rules, seat={"money": ("int", 3)}, extra={"bots": {"evaluation": "position"}})
    assert trial_game(Engine(load_game(str(tmp_path))), 1, 0, 100) is None


@pytest.mark.timeout(300)
def test_a_killed_worker_changes_nothing_in_the_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    e = engine(tmp_path, "phase main:\n    choose x from [0, 1] by seats[0]\n    log \"{10 // x}\"\n" + END)
    trials = every_trial([e], 5)
    alone = trial_games([e], trials, 100, jobs=1)
    marker = tmp_path / "killed"
    played = trial.trial_game

    def dying(*args: Any) -> Any:
        if not marker.exists():     # the first trial's worker, as `kill -9` or the out-of-memory killer would
            marker.write_text("killed once")
            os.kill(os.getpid(), signal.SIGKILL)
        return played(*args)
    monkeypatch.setattr(trial, "trial_game", dying)
    assert trial_games([e], trials, 100, jobs=2) == alone
    assert marker.exists()
