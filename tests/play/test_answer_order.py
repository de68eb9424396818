"""Who answers next: the bots answer a secret choice after every human, any other choice first."""

from __future__ import annotations

from interpreter.core.decision import Decision
from interpreter.play.answer_order import bots_to_answer


def decision(seats: tuple[int, ...], secret: bool) -> Decision:
    return Decision("pick", seats, secret, simultaneous=len(seats) > 1, prompts={}, choices={})


def test_bots_wait_in_a_secret_choice_while_a_human_has_to_answer() -> None:
    assert bots_to_answer(decision((0, 1, 2), secret=True), {1, 2}) == []


def test_bots_answer_a_secret_choice_once_every_human_has() -> None:
    assert bots_to_answer(decision((1, 2), secret=True), {1, 2}) == [1, 2]


def test_bots_answer_an_open_choice_first() -> None:
    assert bots_to_answer(decision((0, 1, 2), secret=False), {2, 1}) == [1, 2]


def test_nobody_to_answer_when_no_bot_is_asked() -> None:
    assert bots_to_answer(decision((0, 3), secret=False), {1, 2}) == []
