"""Bots' randomness: every pick draws from the bot's seed and the decision count, never from a
running generator, so a game resumed from its journal gets the same bot answers."""

from __future__ import annotations

from typing import Any

from ..core import rng

DECISION_MIX = 0x2545F4914F6CDD1D
MASK = (1 << 64) - 1


def bot_seed(game_seed: int, seat: int) -> int:
    """Each bot's own seed, derived from the game's seed."""
    return game_seed * 7919 + seat * 104729 + 1


def decision_stream(seed_state: int, state: dict[str, Any]) -> int:
    """The generator state a bot starts a decision from: its seed mixed with the decision count."""
    decisions: int = state["decisions"]
    return seed_state ^ (decisions * DECISION_MIX & MASK)


def mix(a: int, b: int) -> int:
    """A generator state for sub-stream `b` of stream `a` (the same pair gives the same state)."""
    _, bits = rng.next_u64(a ^ (b * DECISION_MIX & MASK))
    return bits
