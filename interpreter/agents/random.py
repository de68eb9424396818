"""Bots that answer decisions. They see only their seat's view of the options."""

from __future__ import annotations

from typing import Any, Protocol

from ..core import rng
from ..core.engine import Engine
from .seeding import DECISION_MIX, MASK, decision_stream


class Agent(Protocol):
    """Anything that picks an option for a seat."""

    def pick(self, engine: Engine, state: dict[str, Any], seat: int) -> int:
        """The index of the chosen option among the seat's legal options."""
        ...


class RandomAgent:
    """Uniformly random among the legal options.

    Each pick is drawn from the bot's seed and the number of decisions made so far, not from a
    running generator: a game resumed from its journal gets the same bot answers it would have had.
    """

    name = "random"

    def __init__(self, seed: int):
        self.seed = rng.seed_state(seed)

    def pick(self, engine: Engine, state: dict[str, Any], seat: int) -> int:
        """A random legal option."""
        return self.pick_among(state, engine.option_count(state, seat))

    def picker(self, state: dict[str, Any], seat: int, options: list[Any]) -> int:
        """The same pick as an agent-mode picker (`Engine.play`, `Engine.playout`)."""
        # pick_among and decision_stream written out: this runs at every decision of a simulation.
        return rng.next_u64(self.seed ^ (state["decisions"] * DECISION_MIX & MASK))[1] % len(options)

    def pick_among(self, state: dict[str, Any], n: int) -> int:
        """A uniform index below n, from the bot's seed and the number of decisions so far."""
        _, bits = rng.next_u64(decision_stream(self.seed, state))
        return bits % n
