"""The command line explains itself, refuses bad arguments in one line, and goes quiet on a closed pipe."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import build_parser
from play_helpers import ROOT, cli

COMMANDS = sorted(next(a for a in build_parser()._actions if a.dest == "command").choices)  # type: ignore[arg-type]


def test_version() -> None:
    run = cli("--version")
    assert run.returncode == 0 and re.fullmatch(r"cityrules \d+\.\d+\.\d+\n", run.stdout)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_of_every_command_has_help_with_its_default_and_the_command_shows_examples(
        command: str) -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    p = sub.choices[command]  # type: ignore[index]
    for action in p._actions:
        if action.dest == "help":
            continue
        assert action.help, f"{command} {action.option_strings or action.dest} has no help"
        if action.option_strings:
            assert "default" in action.help, f"{command} {action.option_strings} does not say its default"
    text = cli(command, "--help").stdout
    assert f"cityrules {command}" in text.split("\nexamples:\n", 1)[1]


def test_games_lists_seat_ranges_and_variants() -> None:
    lines = cli("games").stdout.splitlines()
    assert any(re.match(r"city +City \(2-6 seats; variants: advanced, advanced-3-laps", line) for line in lines)
    assert any(re.match(r"downtown +Downtown \(3-6 seats\)", line) for line in lines)


@pytest.mark.parametrize("args, expected", [
    (["simulate", "--bots", "random", "downtown", "-n", "-5"], "argument -n: -5 is too small: a number of games, at least 1"),
    (["simulate", "--bots", "random", "downtown", "-n", "0"], "argument -n: 0 is too small"),
    (["simulate", "--bots", "random", "downtown", "-n", "١"], "argument -n: '١' is not a number of games"),
    (["simulate", "--bots", "random", "downtown", "--cap", "0"], "argument --cap: 0 is too small"),
    (["simulate", "--bots", "random", "downtown", "--cap", "-1"], "argument --cap: -1 is too small"),
    (["simulate", "--bots", "random", "downtown", "--cap", "-5"], "argument --cap: -5 is too small"),
    (["simulate", "--bots", "random", "downtown", "--players", "0"], "argument --players: 0 is too small"),
    (["simulate", "--bots", "random", "downtown", "--players", "9"], "Downtown is for 3 to 6 players, not 9"),
    (["simulate", "--bots", "random", "downtown", "--seed", "x"], "argument --seed: 'x' is not the first seed"),
    (["validate", "downtown", "--fuzz", "-1"], "argument --fuzz: -1 is too small"),
    (["play", "downtown", "--seats", "human,bot,bot", "--cap", "0"], "argument --cap: 0 is too small"),
    (["play", "downtown", "--seats", "human,bot,bot", "--names", "Ana,,Ben"], "--names holds an empty name"),
    (["play", "downtown", "--seats", "human,bot,bot", "--names", "Ana,Ben,ana"],
     "--names gives two seats the name 'Ana'"),
    (["play", "downtown", "--seats", "human,bot,bot", "--names", "Ana,Ben"], "--names gives 2 name(s) for 3 seats"),
    (["play", "downtown", "--seats", "human,bot,bot", "--names", "Ana,B\x1b[2Jen,Cy"], "holds control characters"),
    (["play", "downtown", "--seats", "human,alien,bot"], "unknown seat kind 'alien'"),
    (["play", "downtown", "--seats", ""], "unknown seat kind ''"),
    (["play", "downtown", "--seats", "human,bot"], "Downtown is for 3 to 6 seats, --seats lists 2"),
    (["play", "city", "--variant", "advance"], "City has no variant 'advance' (choices: advanced, "),
    (["simulate", "--bots", "random", "downtown", "--variant", "x"], "Downtown has no variant 'x' (choices: none"),
    (["play", "--resume", "latest", "downtown"], "--resume takes the game"),
    (["play", "no-such-game"], "no game 'no-such-game'"),
])
def test_bad_arguments_are_one_line_usage_errors(args: list[str], expected: str, tmp_path: Path) -> None:
    run = cli(*args, stdin="quit\n", env={"XDG_STATE_HOME": str(tmp_path)})
    assert run.returncode == 2, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr
    assert expected in run.stderr, run.stderr
    assert not (tmp_path / "cityrules").exists() or not list((tmp_path / "cityrules").rglob("*.json"))


@pytest.mark.parametrize("args", [
    ["games"],
    ["--help"],
    ["play", "--help"],
    ["validate", "games/downtown", "games/city", "games/london"],
    ["validate", "games/downtown", "--format", "json"],
    ["simulate", "--bots", "random", "downtown", "-n", "3", "--json"],
    ["simulate", "--bots", "random", "downtown", "-n", "3"],
    ["replay", "JOURNAL"],
    ["replay", "JOURNAL", "--json"],
    ["test", "downtown", "-v"],
    ["new", "NEWGAME"],
    ["play", "downtown", "--seats", "random,random,random", "--journal", "NEW"],
    ["play", "--resume"],
])
def test_no_command_prints_a_traceback_when_its_output_is_closed(args: list[str], tmp_path: Path) -> None:
    journal = tmp_path / "j.json"
    assert cli("simulate", "--bots", "random", "downtown", "-n", "1", "--journals", str(tmp_path)).returncode == 0
    made = next(tmp_path.glob("*.json"))
    args = [str(made) if a == "JOURNAL" else str(journal) if a == "NEW" else str(tmp_path / "g") if a == "NEWGAME"
            else a for a in args]
    child = subprocess.Popen([sys.executable, "-m", "interpreter.cli", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={"XDG_STATE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # the reader is gone before the first line: like `| head -0`
    err = child.stderr.read().decode()
    assert child.wait(timeout=120) == 0, err
    assert err == "", err


def test_play_needs_a_keyboard_and_a_screen_for_a_human(tmp_path: Path) -> None:
    for closed in ("0<&-", "1>&-"):
        run = subprocess.run(f"{sys.executable} -m interpreter.cli play downtown --seats human,bot,bot "
                             f"--journal {tmp_path / closed[0]}.json {closed}", shell=True, cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and "Traceback" not in run.stderr
        assert ("standard input is closed" if closed[0] == "0" else "standard output is closed") in run.stderr
    # Bots alone need neither.
    run = subprocess.run(f"{sys.executable} -m interpreter.cli play downtown --seats random,random,random "
                         f"--journal {tmp_path / 'bots.json'} 0<&- 1>&-", shell=True, cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stderr == ""


def test_a_game_that_never_ends_stops_at_the_cap_as_unfinished(tmp_path: Path) -> None:
    (tmp_path / "game.yaml").write_text(
        "name: forever\ntitle: Forever\nseats: {min: 2, max: 2}\nrules: [main.rules]\nstart: main\n"
        "state:\n  seat:\n    score: {type: int, initial: 0}\n", encoding="utf-8")
    (tmp_path / "main.rules").write_text(
        "phase main:\n    while true:\n        choose x from [1, 2] by seats[0]\n        seats[0].score += x\n"
        "    end winners seats\n", encoding="utf-8")
    sim = cli("simulate", "--bots", "random", str(tmp_path), "-n", "1", "--json", timeout=120)
    assert sim.returncode == 0 and '"unfinished": 1' in sim.stdout
    play = cli("play", str(tmp_path), "--seats", "random,random", "--journal", str(tmp_path / "j.json"), timeout=120)
    assert play.returncode == 0
    assert "did not end within 20000 decisions: stopped, unfinished, and saved" in play.stdout
    assert f"cityrules play --resume {tmp_path / 'j.json'} --cap 40000" in play.stdout
