"""A line-up of bots by name: the one place where a bot's name becomes an agent."""

from __future__ import annotations

from typing import Any, Sequence

from ..agents import (
    AGENTS,
    DEFAULT_BOT,
    Agent,
    CustomPlayerError,
    UnknownBot,
    check_bot,
    is_custom,
    make_agent,
    normal_name,
    split_name,
)
from ..core.engine import Engine
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
    """The names `--bots` accepts, the default first."""
    return [DEFAULT_BOT, *sorted(k for k in AGENTS if k != DEFAULT_BOT)]


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
    """`--bots` as one name per seat: one name fills every seat; default the default bot. With the game,
    a `NAME:PROFILE` must name one of its bot profiles; a custom player (`FILE.py:CLASS`) keeps its case
    and its class is loaded here, so a mistake shows before any game is played."""
    names = [normal_name(n) for n in (text or DEFAULT_BOT).split(",")]
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


def untrained(lineup: Sequence[str], engine: Engine, given: bool = True) -> str | None:
    """Why the learned bots of a line-up cannot play this game (it has no value trained on its
    rules), with what to do; None when they can, or when the line-up has none."""
    from ..agents.value import ValueFileError, learned_value

    if not any(_kind(name) == DEFAULT_BOT for name in lineup):
        return None
    try:
        learned_value(engine)
    except ValueFileError as err:
        why = str(err)
    else:
        return None
    default = "" if given else f" ('{DEFAULT_BOT}' is the default of --bots)"
    return f"{why}{default}; or choose other bots, e.g. --bots greedy"


def all_random(lineup: Sequence[str]) -> bool:
    """True when every seat is a random bot: the figures then say how the rules play at random."""
    return all(_kind(name) == "random" for name in lineup)


def _kind(name: str) -> str | None:
    """The kind of bot a line-up name seats (None for a designer's own player)."""
    return None if is_custom(name) else split_name(name)[0]
