"""simulate's figures and flags as a designer meets them: text, JSON, progress, Ctrl-C, restrictions."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "interpreter.cli"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_names_what_it_covers_and_gives_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--bots", "random", "downtown", "-n", "16", "--players", "3", "--seed", "4", "--json",
                       "--jobs", "2")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "downtown" and data["variant"] is None and data["seats"] == 3
    assert data["names"] == ["Ana", "Ben", "Chloé"] and data["bots"] == ["random"] * 3
    assert data["seeds"] == {"first": 4, "last": 19, "asked": 16, "played": [[4, 19]]}
    assert data["tool"] == "cityrules" and data["version"]
    for rate, (lo, hi) in zip(data["win_rate"], data["win_rate_ci"]):
        assert lo <= rate <= hi
    assert data["win_rate_total"] == pytest.approx(sum(data["win_rate"]), abs=1e-3)
    for key in ("first_seat_advantage", "margin", "rounds", "decisions", "lead_changes", "options_per_decision"):
        assert data[key]["ci"] is not None, key
    assert data["economy"] and {"field", "phase", "seat", "paid", "paid_ci", "gained", "gained_ci"} <= set(
        data["economy"][0])
    assert any(o["id"] == "use_lobby:yes" and o["win_rate_ci"] for o in data["options"])


def test_text_says_plainly_why_win_rates_pass_100(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--bots", "random", "downtown", "-n", "60", "--jobs", "1")
    assert code == 0
    data_line = next(line for line in out.splitlines() if "Shared wins" in line)
    assert "every winner counts, so the win rates add up to" in data_line
    assert "First-seat advantage:" in out and "95 % CI" in out
    assert "Economy" in out and "pay_out" in out and "Lead changes per game" in out


def test_restriction_errors_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--bots", "random", "downtown", "-n", "2", "--restrict", "7:use_lobby:yes")
    assert code == 2 and "there is no seat 7 in a 4-player game" in err
    code, _, err = run(capsys, "simulate", "--bots", "random", "downtown", "-n", "2", "--restrict", "use_lobby")
    assert code == 2 and "write SEAT:PATTERN" in err
    code, _, err = run(capsys, "simulate", "downtown", "-n", "2", "--bots", "random,wizard")
    assert code == 2 and "unknown bot 'wizard'" in err


def test_restriction_that_leaves_no_option_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--bots", "random", "downtown", "-n", "2", "--jobs", "1", "--restrict", "1:side:*")
    assert code == 0
    assert "Restriction left a seat no option" in out and "those decisions were played freely" in out


def read_terminal(master: int, until: Callable[[str], bool], seen: str = "") -> str:
    """What a child wrote to the terminal `master` reads, until `until(text)` or the child closes it."""
    while not until(seen):
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        seen += chunk.decode("utf-8", "replace")
    return seen


def test_ctrl_c_stops_the_batch_and_reports_what_finished() -> None:
    # Ctrl-C once the progress bar shows finished games, however long the first ones take on a busy machine.
    master, slave = os.openpty()
    proc = subprocess.Popen([*CLI, "simulate", "--bots", "random", "london", "-n", "5000", "--jobs", "2", "--json"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=slave, text=True, start_new_session=True)
    os.close(slave)
    shown = read_terminal(master, lambda text: re.search(r"\b[1-9]\d*/5000\b", text) is not None)
    assert re.search(r"\b[1-9]\d*/5000\b", shown), shown
    os.killpg(proc.pid, signal.SIGINT)      # as a terminal's Ctrl-C does: the whole process group
    out, _ = proc.communicate(timeout=60)
    err = read_terminal(master, lambda text: False)
    os.close(master)
    assert proc.returncode == 130, err
    assert "interrupted:" in err and "of 5000 games finished" in err and "Traceback" not in err
    data = json.loads(out)
    assert data["interrupted"] is True and 0 < data["games"] < 5000
    assert sum(b - a + 1 for a, b in data["seeds"]["played"]) == data["games"]


def test_progress_bar_on_a_terminal() -> None:
    master, slave = os.openpty()
    proc = subprocess.Popen([*CLI, "simulate", "--bots", "random", "downtown", "-n", "300", "--jobs", "1"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.communicate(timeout=60)
    os.close(master)
    assert proc.returncode == 0
    text = seen.decode("utf-8", "replace")
    assert "games" in text and "/300" in text and ("-:--:--" in text or "0:00:" in text)


def test_no_progress_bar_when_stderr_is_not_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--bots", "random", "downtown", "-n", "5", "--jobs", "1")
    assert code == 0 and err == ""


@pytest.mark.parametrize("game", ["downtown", "city", "london"])
def test_every_figure_for_every_shipped_game(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--bots", "random", game, "-n", "6", "--jobs", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 6 and len(data["win_rate_ci"]) == data["seats"]
    for key in ("first_seat_advantage", "margin", "rounds", "decisions", "lead_changes", "options_per_decision"):
        assert data[key] is not None and data[key]["ci"] is not None, key
    assert all(s["quantiles"] for s in data["score"]) and data["rounds"]["histogram"]
    assert data["lead_changes"]["by_round"]
    assert data["options"] and all(o["win_rate_ci"] for o in data["options"] if o["seat_games"])
    assert data["economy"], "every shipped game has a ledger field"
    # The text says the same in words.
    code, text, _ = run(capsys, "simulate", "--bots", "random", game, "-n", "6", "--jobs", "1")
    for words in ("95 % CI", "Shared wins", "First-seat advantage", "Winning margin", "Game length",
                  "Lead changes per game", "Unfinished games", "Options (", "Economy ("):
        assert words in text, (game, words)
