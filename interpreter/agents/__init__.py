"""Bots: agents that pick an option for a seat, from what that seat may see.

`make_agent(name, seed, **options)` builds one by name: `random`, `greedy`, `mcts`, or `bot` (the
default bot: every option played to the end of its phase and judged by the game's learned value);
`name:profile` picks one of the game's bot profiles (`mcts:builder`); `FILE.py:CLASS` or
`package.module:CLASS` seats a designer's own player (custom.py).
"""

from __future__ import annotations

from typing import Any, Callable

from ruledsl.printable import printable

from ..core.game import Game
from .custom import CustomAgent, CustomPlayerError, is_custom, load_player
from .greedy import GreedyAgent
from .learned import ValueAgent
from .mcts import MCTSAgent
from .random import Agent, RandomAgent
from .seeding import bot_seed

# The bot of batches (simulate, compare, report, tune) unless `--bots` says otherwise: cheap and
# competent, from the game's learned value (docs/bots.md).
DEFAULT_BOT = "bot"
# The opponents `play` seats by default, and the bot behind `hint`: the strongest within about a second.
STRONG_BOT = "mcts"

AGENTS: dict[str, Callable[..., Agent]] = {"bot": ValueAgent, "random": RandomAgent, "greedy": GreedyAgent,
                                           "mcts": MCTSAgent}
# Options each kind of bot accepts (the others are ignored, so one set of options fits a line-up).
_OPTIONS = {"bot": ("profile",), "random": (), "greedy": ("samples", "tries", "horizon", "profile"),
            "mcts": ("budget", "think", "profile", "playout", "exploration")}


class UnknownBot(ValueError):
    """A bot name that is not one of AGENTS."""


def normal_name(name: str) -> str:
    """A bot's name as written in line-ups and journals: lower case, but a custom player's kept as given
    (its file and class name are case-sensitive)."""
    name = name.strip()
    return name if is_custom(name) else name.lower()


def split_name(name: str) -> tuple[str, str | None]:
    """`mcts:builder` -> ("mcts", "builder"). Not for custom players."""
    kind, _, profile = name.strip().lower().partition(":")
    if kind not in AGENTS:
        known = ", ".join(AGENTS)
        raise UnknownBot(f"unknown bot '{printable(name.strip())}' (bots: {known}; or your own player: "
                         "FILE.py:CLASS or package.module:CLASS)")
    if profile and kind == "random":
        raise UnknownBot(f"'{printable(name.strip())}': the random bot has no profiles (it reads no evaluation)")
    return kind, profile or None


def parse_lineup(text: str, game: Game, seats: int) -> list[str]:
    """`mcts` (every seat) or `mcts,random,greedy:builder,...` (one per seat), checked against the game.

    Raises ValueError with a message for people when a name, a profile or the count is wrong.
    """
    names = [normal_name(n) for n in text.split(",") if n.strip()]
    for name in names:
        check_bot(name, game)
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise ValueError(f"--bots names {len(names)} bots for {seats} seats: give one name, or one per seat")
    return names


def check_bot(name: str, game: Game) -> None:
    """Raise UnknownBot when the name is not a bot, or names a profile the game does not declare; a custom
    player's class is loaded (CustomPlayerError when it cannot be)."""
    if is_custom(name):
        load_player(name)
        return
    _, profile = split_name(name)
    if profile is not None and profile not in game.bots.profiles:
        known = ", ".join(game.bots.profiles) or "none"
        raise UnknownBot(f"{printable(game.title)} has no bot profile '{printable(profile)}' (its profiles: {known})")


def make_agent(name: str, seed: int, **options: Any) -> Agent:
    """A bot by name (`random`, `greedy`, `mcts`, `bot`, with `:profile` for a game's profile), or a custom
    player (`FILE.py:CLASS`, `package.module:CLASS`: built with the seed; bot options do not apply)."""
    if is_custom(name):
        return CustomAgent(name, seed)
    kind, profile = split_name(name)
    if profile is not None:
        options["profile"] = profile
    accepted = {k: v for k, v in options.items() if k in _OPTIONS[kind] and v is not None}
    return AGENTS[kind](seed, **accepted)


__all__ = ["AGENTS", "DEFAULT_BOT", "STRONG_BOT", "Agent", "CustomAgent", "CustomPlayerError", "GreedyAgent",
           "MCTSAgent", "RandomAgent", "UnknownBot", "ValueAgent", "bot_seed", "check_bot", "is_custom", "make_agent",
           "normal_name", "parse_lineup", "split_name"]
