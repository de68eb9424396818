"""A line-up of bots by name: the one place where a bot's name becomes an agent."""

from __future__ import annotations

from typing import Any, Sequence

from ..agents import AGENTS, Agent, CustomPlayerError, UnknownBot, check_bot, make_agent, normal_name
from ..core.game import Game

# Bots in the order a skill-gap figure prefers them: the strongest that this build has.
_STRONG = ("mcts", "greedy")


class LineupError(ValueError):
    """A `--bots` list that does not fit the game."""


def make_bot(name: str, seed: int, options: dict[str, Any] | None = None) -> Agent:
    """The agent called `name` (`mcts:PROFILE` for a game's profile), seeded, with the batch's bot
    options such as the search budget (the only call that builds a batch's bots)."""
    return make_agent(name, seed, **(options or {}))


def known_bots() -> list[str]:
    """The names `--bots` accepts (`bot` is the default bot of play)."""
    return ["bot", *sorted(AGENTS)]


def strongest_bot() -> str | None:
    """A bot stronger than random if this build has one (for the skill-gap figure), else None."""
    return next((name for name in _STRONG if name in AGENTS), None)


def _check(name: str, game: Game | None) -> None:
    try:
        if game is not None:
            check_bot(name, game)
        else:
            make_bot(name, 0)
    except (UnknownBot, CustomPlayerError) as err:
        raise LineupError(f"--bots: {err}") from None


def parse_lineup(text: str | None, seats: int, game: Game | None = None) -> tuple[str, ...]:
    """`--bots` as one name per seat: one name fills every seat; default random bots. With the game,
    a `NAME:PROFILE` must name one of its bot profiles; a custom player (`FILE.py:CLASS`) keeps its case
    and its class is loaded here, so a mistake shows before any game is played."""
    names = [normal_name(n) for n in (text or "random").split(",")]
    if any(not n for n in names):
        raise LineupError(f"--bots '{text}': an empty name in the list")
    for name in dict.fromkeys(names):
        _check(name, game)
    if len(names) == 1:
        return tuple(names * seats)
    if len(names) != seats:
        raise LineupError(f"--bots lists {len(names)} bots for {seats} seats: give one name, or one per seat")
    return tuple(names)


def rotated(lineup: Sequence[str], seed: int) -> tuple[str, ...]:
    """The line-up turned by the seed, so that over a batch every bot sits at every seat equally."""
    seats = tuple(lineup)
    k = seed % len(seats)
    return seats[-k:] + seats[:-k] if k else seats
