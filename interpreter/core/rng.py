"""A small seeded generator whose whole state is one integer, so it lives inside the game state."""

from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a seed (any integer)."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """splitmix64: returns (new state, 64 random bits); identical on every platform."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) without modulo bias."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:  # next_u64 written out: this runs at every roll and every shuffled element
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        x = z ^ (z >> 31)
        if x < limit:
            return state, x % n


def shuffle(state: int, items: list[Any]) -> int:
    """Fisher-Yates shuffle in place, each place drawn by `below`; returns the new generator state."""
    span = 1 << 64
    for i in range(len(items) - 1, 0, -1):
        # `below(state, i + 1)` written out: a bot shuffles the cards it has not seen at every sample.
        limit = span - span % (i + 1)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                break
        j = x % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state
