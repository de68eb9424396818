"""What the engine asks for (a Decision) and how a game ends (a Result)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """One legal answer: a stable text id (`lot:7`), a label for people, and what it means (`detail`)."""

    id: str
    label: str
    value: Any = field(compare=False, default=None)
    detail: str = field(compare=False, default="")


@dataclass(frozen=True)
class Decision:
    """Somebody must choose. `seats` lists the seats that still have to answer."""

    name: str
    seats: tuple[int, ...]
    secret: bool
    simultaneous: bool
    prompts: dict[int, str]
    choices: dict[int, tuple[Option, ...]]

    def options(self, seat: int) -> tuple[Option, ...]:
        """The legal options of one seat (empty for a seat that is not asked)."""
        return self.choices.get(seat, ())

    def prompt(self, seat: int) -> str:
        """The question put to a seat."""
        return self.prompts.get(seat, "")


@dataclass(frozen=True)
class Result:
    """The end of a game: the winners and every seat's final score fields."""

    winners: tuple[int, ...]
    scores: dict[str, list[Any]]
    turns: int


class IllegalChoice(Exception):
    """A choice the engine refuses; the message quotes what was given and why."""


class NotYourTurn(IllegalChoice):
    """The seat is not among those being asked."""


class UnknownOption(IllegalChoice):
    """The text is not one of the legal option ids."""


class GameOver(IllegalChoice):
    """The game has ended; nothing more can be applied."""


# A game still running after this many decisions is stopped and reported as unfinished, so that
# rules that never end cannot hang a simulation or an all-bot session. The shipped games take a few
# hundred decisions; a designer with a longer game raises it with --cap.
DEFAULT_CAP = 20_000
