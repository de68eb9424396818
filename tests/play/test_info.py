"""`info NAME` on every kind of item attribute and table entry, in words; and text the designer wrote
on several lines shown on several lines, while other control characters stay escaped."""

from __future__ import annotations

import json
from pathlib import Path

from play_helpers import cli

GAME = """name: rolls
title: Rolls
seats: {min: 2, max: 2}
rules: [main.rules]
start: main
components:
  card:
    file: cards.yaml
    collection: all_cards
tables:
  payouts: {wheat: {1: 1, 2: 1}, forest: {5: 1}}
  faces: [[1], [2, 3]]
  open: true
  mark: "\\e[2J"
state:
  seat:
    score: {type: int, initial: 0}
"""
CARDS = """items:
  - {id: wheat, name: Wheat Field, rolls: [1], pays: {own: 1, others: 1}, text: "Line one\\nLine two"}
  - {id: ranch, name: Ranch, rolls: [2, 3], pays: {own: 1, others: 0}, text: "", copies: 2}
"""
RULES = """phase main:
    let m = mark
    choose x from [1, 2] by seats[0] "Pick a number,\\nthen wait.{m}"
    log "{seats[0]} picks {x}\\nand waits"
    end winners seats
"""


def _play(folder: Path, typed: list[str]) -> str:
    (folder / "game.yaml").write_text(GAME, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (folder / "main.rules").write_text(RULES, encoding="utf-8")
    run = cli("play", str(folder), "--seats", "human,random", "--journal", str(folder / "j.json"),
              stdin="\n".join(typed) + "\n")
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run.stdout


def test_info_shows_list_and_map_attributes_in_words(tmp_path: Path) -> None:
    out = _play(tmp_path, ["info Ranch", "info wheat", "quit"])
    # Two copies alike, though their attributes are a list and a map (which could not be compared).
    assert "Ranch  (card 2 copies: ranch-1, ranch-2)\n    pays:\n      own: 1\n      others: 0\n" \
           "    rolls: 2, 3\n" in out
    # A text written on two lines shows on two.
    assert "    text: Line one\n      Line two\n" in out
    assert "[2, 3]" not in out and '{"own"' not in out


def test_info_shows_every_table_and_entry_in_words(tmp_path: Path) -> None:
    out = _play(tmp_path, ["info payouts", "info payouts.wheat", "info payouts.wheat.2", "info forest", "info faces",
                           "info open", "quit"])
    assert "payouts (a table of the game's data):\n    wheat — 1: 1, 2: 1\n    forest — 5: 1\n" in out
    assert "payouts.wheat (an entry of a table of the game's data):\n    1: 1\n    2: 1\n" in out
    assert "payouts.wheat.2 (an entry of a table of the game's data):\n    1\n" in out
    assert "payouts.forest (an entry of the table payouts):\n    5: 1\n" in out  # found by its key alone
    assert "faces (a table of the game's data):\n    0: 1\n    1: 2, 3\n" in out
    assert "open (a table of the game's data):\n    yes\n" in out
    assert "Nothing is called" not in out


def test_new_lines_written_in_a_question_or_log_line_show_as_new_lines_other_controls_escaped(
        tmp_path: Path) -> None:
    out = _play(tmp_path, ["1"])
    assert "Ana: Pick a number,\n  then wait.\\x1b[2J\n" in out
    assert "\\x0a" not in out and "\x1b" not in out
    journal = json.loads((tmp_path / "j.json").read_text())
    assert journal["choices"] == [[0, "x:1"]]
    assert "  Ana picks 1\n  and waits" in out
