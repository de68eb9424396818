"""The first-seat advantage is measured from the seat that really starts; option figures say they are associations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli import main
from lang_helpers import write_game

# The rules draw who starts; the seat that starts always wins (and seat 0 starts only a third of the time).
DRAWN_START = '''phase main:
    roll first from seats
    for s in seats_from(first):
        choose x from [1, 2] by s "a number?"
        if s == first and x > 0:
            s.score += 10
    end winners [first]
'''


def test_the_advantage_of_the_seat_the_rules_draw_to_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_game(tmp_path, DRAWN_START, seat={"score": ("int", 0)}, seats=(3, 3), extra={"summary": {"score": "score"}})
    assert main(["simulate", str(tmp_path), "--bots", "random", "-n", "30", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first = data["first_seat_advantage"]
    assert first["value"] == 1.0                  # seat 0's own advantage would be about 0
    assert sum(first["starters"]) == 30 and all(first["starters"]) and first["starters"] != [30, 0, 0]
    assert first["starters"] == data["wins"]      # the starter is the winner, game by game
    assert "associations, not causes" in data["options_note"]
    assert main(["simulate", str(tmp_path), "--bots", "random", "-n", "30", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "the seat that starts (Ana " in text and "is favoured" in text
    assert "associations, not causes" in text


def test_a_game_seat_0_always_starts_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--bots", "random", "downtown", "-n", "8", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["first_seat_advantage"]["starters"] == [8, 0, 0, 0]
