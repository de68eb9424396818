"""What both research interfaces share: the engine of a game, the size of its action space, returns.

Actions are option indexes: action k answers a decision with its k-th legal option, in the order
the engine lists them (the order of the rules' option list). The option ids say what each index
means at a given decision (`lot:7`, `count:2`); the same index means different things at
different decisions, as in OpenSpiel's own games, and a mask says which indexes are legal.

No rule file says how many options a decision may offer (they are computed while playing), so
the fixed size of the action space is found by a seeded survey: random games are played at the
requested number of seats and the largest option count seen, with a margin, is the size. The
same survey bounds the number of chance outcomes and the length of a game, and gathers the texts
that text-valued fields and options take (the tensors' vocabularies). The survey's seed is fixed:
the same game at the same number of seats gets the same bounds whatever seed it is played from.
A decision that offers
more options than the space holds raises ActionSpaceTooSmall, which says what to pass instead;
`max_actions=` sets the size by hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.engine import Engine
from ..core.game import Game
from ..load.loader import load_game
from .encoding import text_paths, texts_in
from .kept import KeptByValue

SURVEY_GAMES = 8
MARGIN = 2            # the survey's largest figures are doubled: a game not surveyed may go further
KEPT_IDS = 50_000     # option ids of list and map values kept per game (see OptionIds)
KEPT_LISTS = 20_000   # lists of option ids kept per game, by the options they name (see OptionIds)


class ActionSpaceTooSmall(ValueError):
    """A decision offers more options than the fixed action space holds."""


def engine_of(game: str | Path | Game | Engine, variant: str | None = None) -> Engine:
    """An engine of its own for a shipped game's name, a game folder, a loaded game or an engine's game."""
    if isinstance(game, Engine):
        return Engine(game.game)
    if isinstance(game, Game):
        return Engine(game)
    return Engine(load_game(str(game), variant))


def check_players(engine: Engine, players: int | None) -> int:
    """The number of seats to play (the game's smallest when not given), checked against the game."""
    g = engine.game
    players = g.min_seats if players is None else players
    if not g.min_seats <= players <= g.max_seats:
        raise ValueError(f"{g.title} is for {g.min_seats} to {g.max_seats} seats, not {players}")
    return players


class _Recorder:
    """A chance hook that leaves every outcome as drawn and remembers the sizes: faces and shuffles."""

    def __init__(self) -> None:
        self.largest = 0
        self.count = 0

    def roll(self, faces: list[Any], k: int) -> int:
        self.largest = max(self.largest, len(faces))
        self.count += 1
        return k

    def shuffled(self, state: dict[str, Any], items: list[Any]) -> None:
        self.largest = max(self.largest, len(items))
        self.count += max(0, len(items) - 1)


@dataclass(frozen=True)
class Survey:
    """The largest figures seen in seeded random games, each with the margin applied."""

    options: int          # options of one decision
    chance_outcomes: int  # faces of a roll, or elements of a shuffled list
    decisions: int        # answers in one game
    chance_steps: int     # chance outcomes drawn in one game (a shuffle of n elements draws n - 1)
    texts: dict[str, tuple[str, ...]]   # per text-valued field or choice (see encoding.text_paths): values seen


def survey(engine: Engine, players: int, seed: int = 0, games: int = SURVEY_GAMES) -> Survey:
    """Play seeded random games and return the largest option count, chance sizes and lengths, doubled,
    and the texts seen in text-valued fields and options."""
    recorder = _Recorder()
    paths = text_paths(engine)
    seen: dict[str, set[str]] = {key: set() for key in paths}
    probe = Engine(engine.game)
    probe.chance = recorder
    options = decisions = steps = 0
    for n in range(games):
        pick = random.Random(seed * 1_000_003 + n)
        recorder.count = 0
        state = probe.new_game(players, seed + n)
        while state["result"] is None:
            seat = probe.first_open_seat(state)
            count = probe.option_count(state, seat)
            options = max(options, count)
            if paths:
                _gather_texts(state, seen)
            probe.apply_index(state, seat, pick.randrange(count))
        decisions = max(decisions, state["decisions"])
        steps = max(steps, recorder.count)
    return Survey(max(2, options * MARGIN), max(2, recorder.largest * MARGIN), max(1, decisions * MARGIN),
                  steps * MARGIN, {key: tuple(sorted(found)) for key, found in seen.items()})


def _gather_texts(state: dict[str, Any], seen: dict[str, set[str]]) -> None:
    """Add the texts of the state's text-valued fields and of the open choice's options to `seen`."""
    for key, found in seen.items():
        where, _, name = key.partition(".")
        if where == "global":
            texts_in(state["global"][name], found)
        elif where == "seat":
            texts_in(state["seat"][name], found)
        elif where == "node":
            texts_in(state["node"][name], found)
        elif where == "item":
            kind, _, field = name.partition(".")
            texts_in(state["components"][kind][field], found)
        elif state["pending"] is not None and state["pending"]["spec"] == int(name):
            texts_in(state["pending"]["options"], found)


# The survey's seed: fixed, so that a game's bounds do not depend on the seed it is played from.
SURVEY_SEED = 0


def too_many(count: int, size: int) -> ActionSpaceTooSmall:
    """The error for a decision with more options than the action space."""
    return ActionSpaceTooSmall(f"this decision offers {count} options, more than the action space's {size}: "
                               f"pass max_actions={count} (or more)")


class OptionIds:
    """The ids of a choice's options (`Engine.option_text`), kept once made.

    The engine keeps the id of a number or a text; the id of a list or a map (a move written
    `piece:cell:way`) it makes again each time, and at every decision of an agent that reads every
    option's id that cost more than the decision. Here they are kept by their marshalled value, which
    tells apart values that == would not (1 and true, a list and a tuple).
    """

    def __init__(self, engine: Engine):
        self.engine = engine
        self.kept: KeptByValue[str] = KeptByValue(KEPT_IDS)
        self.lists: KeptByValue[tuple[str, ...]] = KeptByValue(KEPT_LISTS)

    def of(self, spec: int, value: Any) -> str:
        """The id of one option of choice `spec`."""
        if type(value) is not list and type(value) is not dict:
            return self.engine.option_text(spec, value)
        return self.kept.get(spec, value, lambda: self.engine.option_text(spec, value))

    def all(self, spec: int, values: Sequence[Any]) -> list[str]:
        """The ids of choice `spec`'s options, in order (a new list each call)."""
        # A decision's options are often offered again (the same cards, the same moves): their ids are
        # kept as a whole too, by the list.
        if type(values) is not list:
            return [self.of(spec, v) for v in values]
        return list(self.lists.get(spec, values, lambda: tuple([self.of(spec, v) for v in values])))


def win_returns(state: dict[str, Any]) -> list[float]:
    """Each seat's return: 1 for a winner, 0 otherwise (and 0 for all in a game cut short)."""
    result = state["result"]
    winners = set(result["winners"]) if result else set()
    return [1.0 if s in winners else 0.0 for s in range(state["seats"])]
