"""A formula reads each global field once per call (exprgen binds it at the top of the formula):
what it reads is always the field as it is when the formula is called, also after a phase changed
the field in place or gave it a new value, both when people answer and when bots do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lang_helpers import engine

GAME = """\
formula top() = deck[0] + round

formula both(k: int):
    let total = 0
    for i in range(k):
        total += top() + deck[len(deck) - 1] * round
    return total

phase main:
    for r in range(3):
        choose n from [1, 2] by seats[0] "how many?"
        log seen(t=top(), b=both(n)) "{top()} {both(n)}"
        round += n
        deck[0] = deck[0] * 10
        deck = deck + [round]
    end winners seats
"""


def test_a_formula_sees_every_change_a_phase_made_to_a_global(tmp_path: Path) -> None:
    eng = engine(tmp_path, GAME, global_={"round": ("int", 0), "deck": ("list[int]", [1, 2])})
    expected = []
    deck, rnd = [1, 2], 0
    for n in (2, 1, 2):
        top = deck[0] + rnd
        expected.append(f"{top} {n * (top + deck[-1] * rnd)}")
        rnd += n
        deck[0] *= 10
        deck = deck + [rnd]

    stepped = eng.new_game(1, 5)
    for option in ("n:2", "n:1", "n:2"):
        stepped = eng.apply(stepped, option)
    assert [e["text"] for e in stepped["log"]] == expected

    answers = iter([1, 0, 1])

    def pick(state: dict[str, Any], seat: int, options: list[Any]) -> int:
        return next(answers)
    played = eng.play(1, 5, [pick])
    assert [e["text"] for e in played["log"]] == expected
