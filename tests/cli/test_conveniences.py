"""Small conveniences: --bots a,b,c seats three; a question that starts with the seat's name is not prefixed again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.core.decision import Decision
from interpreter.play.frame import question_lines
from lang_helpers import engine


def test_a_list_of_bots_gives_the_number_of_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "downtown", "--bots", "random,random,greedy", "-n", "2", "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"] == 3 and data["bots"] == ["random", "random", "greedy"]
    assert main(["simulate", "downtown", "--bots", "random", "-n", "2", "--jobs", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seats"] == 4            # one name: the usual default
    assert main(["simulate", "downtown", "--bots", "random,random,random", "--players", "4", "-n", "2"]) == 2
    assert "--bots lists 3 bots for 4 seats" in capsys.readouterr().err  # --players still rules
    assert main(["simulate", "downtown", "--bots", ",".join(["random"] * 7), "-n", "2"]) == 2
    assert "Downtown is for 3 to 6 players, not 7" in capsys.readouterr().err


@pytest.mark.parametrize("prompt, shown", [
    ('"{s}, build where?"', "Ana, build where?"),            # starts with the name: not said twice
    ('"build where?"', "Ana: build where?"),
    ('"{s}a: a name that only starts alike?"', "Ana: Anaa: a name that only starts alike?"),
])
def test_a_question_names_its_seat_once(prompt: str, shown: str, tmp_path: Path) -> None:
    e = engine(tmp_path, f"phase main:\n    for s in seats:\n        choose x from [1, 2] by s {prompt}\n"
                         "        log \"{x}\"\n    end winners seats\n")
    state = e.new_game(2, 0, ["Ana", "Ben"])
    decision = e.pending(state)
    assert isinstance(decision, Decision)
    head = question_lines(decision, 0, "Ana", 80)[0].plain
    assert head == "\n" + shown
