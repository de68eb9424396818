"""Intervals and tests checked against textbook values and, on synthetic data, against their coverage."""

from __future__ import annotations

import math
import random

import pytest

from interpreter.analysis.statistics import (
    Moments,
    holm,
    incomplete_beta,
    paired_difference,
    quantiles,
    t_quantile,
    t_two_sided_p,
    welch_difference,
    wilson,
)


def test_wilson_matches_published_values() -> None:
    # Newcombe (1998), table I: 81/263 -> 0.2553 to 0.3662; and the classic 5/10.
    lo, hi = wilson(81, 263)
    assert lo == pytest.approx(0.2553, abs=5e-4) and hi == pytest.approx(0.3662, abs=5e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=5e-4)
    # A seat that never wins still gets an upper bound; no trials say nothing.
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_student_t_quantiles_and_tails() -> None:
    assert t_quantile(1) == pytest.approx(12.706, abs=1e-3)
    assert t_quantile(10) == pytest.approx(2.228, abs=1e-3)
    assert t_quantile(30) == pytest.approx(2.042, abs=1e-3)
    assert t_quantile(10**6) == pytest.approx(1.960, abs=1e-3)
    assert t_two_sided_p(2.228, 10) == pytest.approx(0.05, abs=1e-4)
    assert t_two_sided_p(0.0, 5) == pytest.approx(1.0)
    assert incomplete_beta(2, 3, 0.4) == pytest.approx(0.5248, abs=1e-4)


def test_wilson_covers_the_true_rate_95_percent_of_the_time() -> None:
    rng = random.Random(1)
    for p, n in ((0.25, 40), (0.05, 200), (0.5, 15)):
        hits = 0
        runs = 2000
        for _ in range(runs):
            k = sum(rng.random() < p for _ in range(n))
            lo, hi = wilson(k, n)
            hits += lo <= p <= hi
        assert 0.92 <= hits / runs <= 0.985, (p, n, hits / runs)


def test_t_interval_covers_the_true_mean_95_percent_of_the_time() -> None:
    rng = random.Random(2)
    hits = 0
    runs = 2000
    for _ in range(runs):
        m = Moments()
        for _ in range(12):
            m = m.add(rng.gauss(10.0, 3.0))
        ci = m.interval()
        assert ci is not None
        hits += ci[0] <= 10.0 <= ci[1]
    assert 0.93 <= hits / runs <= 0.97


def test_moments_of_whole_numbers_are_exact() -> None:
    m = Moments()
    for x in (10**9 + 1, 10**9 + 2, 10**9 + 3):
        m = m.add(x)
    assert m.mean == 10**9 + 2 and m.variance == 1.0
    a = Moments().add(1).add(2)
    assert a.merged(Moments().add(3)) == Moments().add(1).add(2).add(3)
    assert Moments().interval() is None and Moments().add(4).interval() == (4, 4)


def test_paired_difference_of_known_data() -> None:
    diffs = [1.0, 2.0, 3.0, 4.0]
    d = paired_difference(4, sum(diffs), sum(x * x for x in diffs))
    assert d is not None and d.estimate == 2.5
    half = 3.182446 * math.sqrt((5 / 3) / 4)
    assert d.interval == pytest.approx((2.5 - half, 2.5 + half), abs=1e-5)
    same = paired_difference(50, 0.0, 0.0)
    assert same is not None and same.interval == (0.0, 0.0) and same.p == 1.0


def test_welch_difference_on_separated_samples() -> None:
    a, b = Moments(), Moments()
    for x in range(20):
        a = a.add(x)
        b = b.add(x + 30)
    d = welch_difference(a, b)
    assert d is not None and d.estimate == 30 and d.p < 1e-10 and d.interval[0] > 20


def test_holm_rejects_step_by_step() -> None:
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert holm([0.2, 0.5]) == [False, False]
    # Twenty true nulls at p = 0.03 each: one at a time would 'find' all twenty; Holm finds none.
    assert not any(holm([0.03] * 20))


def test_quantiles_of_a_histogram() -> None:
    q = quantiles({1: 3, 2: 1, 5: 6})
    assert q == {"min": 1, "p10": 1, "p25": 1, "median": 5, "p75": 5, "p90": 5, "max": 5}
    assert quantiles({}) is None
