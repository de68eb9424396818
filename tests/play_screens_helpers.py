"""Shared bits of the screen tests: seeded bot games stopped at chosen points, and screens as text."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from rich.cells import cell_len

from interpreter.agents import RandomAgent, bot_seed
from interpreter.core.engine import Engine
from interpreter.core.view import view
from interpreter.load.loader import load_game
from interpreter.play.screen import Screens

GAMES = ("downtown", "london", "city", "examples/harbour")


def engine_of(game: str) -> Engine:
    """A fresh engine of a shipped game (or the example)."""
    return Engine(load_game(game))


def positions(engine: Engine, seats: int, seed: int, every: int = 1,
              until: Callable[[dict[str, Any]], bool] | None = None) -> Iterator[dict[str, Any]]:
    """The states of a seeded bot game at every `every`-th decision (the live state: copy to keep)."""
    state = engine.new_game(seats, seed)
    bots = [RandomAgent(bot_seed(seed, i)) for i in range(seats)]
    k = 0
    while state["result"] is None:
        if k % every == 0:
            yield state
        if until is not None and until(state):
            return
        seat = engine.first_open_seat(state)
        engine.apply_index(state, seat, bots[seat].pick(engine, state, seat))
        k += 1
    yield state


def screen_text(engine: Engine, state: dict[str, Any], seat: int | None, width: int = 80,
                before: dict[str, Any] | None = None, everything: bool = False) -> list[str]:
    """The main screen of `seat` as plain lines."""
    screens = Screens(engine, strict=True)
    return [line.plain for line in screens.main(view(engine, state, seat), seat, before, width, everything)]


def widest(lines: list[str]) -> int:
    """The widest line, in terminal cells."""
    return max((cell_len(line) for line in lines), default=0)
