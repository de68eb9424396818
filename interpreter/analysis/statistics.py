"""Intervals and tests for balance figures: Wilson for rates, Student's t for means, Holm for many.

Pure Python on purpose: the figures of `simulate` must not need numpy. Every function takes
counts or sums (never raw samples), so a batch can be tallied in pieces and merged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

Z95 = 1.959963984540054   # the standard normal's 97.5 % point
LEVEL = 0.95


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % by default); (0, 1) when there are no trials.

    Chosen over the textbook p ± z·se because it stays inside [0, 1] and keeps its coverage for
    small counts and rates near 0 or 1 (a seat that never wins still gets a sensible upper bound).
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for numerator in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                          -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


@lru_cache(maxsize=512)
def t_quantile(df: float, level: float = LEVEL) -> float:
    """The t value that leaves (1 - level) / 2 in each tail (2.228 for df 10 at 95 %)."""
    alpha = 1 - level
    lo, hi = 0.0, 1.0
    while t_two_sided_p(hi, df) > alpha:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


@dataclass(frozen=True)
class Moments:
    """Count, sum and sum of squares of a quantity measured once per game (mergeable)."""

    n: int = 0
    total: float = 0
    squares: float = 0

    def add(self, x: float) -> "Moments":
        """These moments with one more value."""
        return Moments(self.n + 1, self.total + x, self.squares + x * x)

    def merged(self, other: "Moments") -> "Moments":
        """The moments of both samples together."""
        return Moments(self.n + other.n, self.total + other.total, self.squares + other.squares)

    @property
    def mean(self) -> float | None:
        """The sample mean (None without values)."""
        return self.total / self.n if self.n else None

    @property
    def variance(self) -> float:
        """The unbiased sample variance (0 with fewer than two values)."""
        if self.n < 2:
            return 0.0
        if isinstance(self.total, int) and isinstance(self.squares, int):
            # Exact for whole numbers: no cancellation between two large sums.
            return (self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1))
        return max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))

    def interval(self) -> tuple[float, float] | None:
        """Student's t 95 % interval of the mean (None without values; a point with one value)."""
        return mean_interval(self.n, self.mean, self.variance)


def mean_interval(n: int, mean: float | None, variance: float) -> tuple[float, float] | None:
    """The t interval of a mean from its sample size and variance."""
    if mean is None or n <= 0:
        return None
    if n < 2:
        return (mean, mean)
    half = t_quantile(n - 1) * math.sqrt(variance / n)
    return (mean - half, mean + half)


@dataclass(frozen=True)
class Difference:
    """A difference B - A with its 95 % interval and the two-sided p-value of 'no difference'."""

    estimate: float
    interval: tuple[float, float]
    p: float
    method: str


def paired_difference(n: int, diff_total: float, diff_squares: float) -> Difference | None:
    """Paired t on per-game differences (common random numbers: game i of A and of B share a seed)."""
    m = Moments(n, diff_total, diff_squares)
    if m.mean is None:
        return None
    mean = m.mean
    var = m.variance
    if n < 2:
        return Difference(mean, (mean, mean), 1.0, "paired t")
    if var == 0:
        # Every game differs by the same amount: no noise at all.
        return Difference(mean, (mean, mean), 1.0 if mean == 0 else 0.0, "paired t")
    se = math.sqrt(var / n)
    half = t_quantile(n - 1) * se
    return Difference(mean, (mean - half, mean + half), t_two_sided_p(mean / se, n - 1), "paired t")


def welch_difference(a: Moments, b: Moments) -> Difference | None:
    """Welch's t for B's mean minus A's, for samples that are not paired."""
    if a.mean is None or b.mean is None or a.n < 2 or b.n < 2:
        return None
    estimate = b.mean - a.mean
    va, vb = a.variance / a.n, b.variance / b.n
    se2 = va + vb
    if se2 == 0:
        return Difference(estimate, (estimate, estimate), 1.0 if estimate == 0 else 0.0, "Welch t")
    df = se2 * se2 / (va * va / (a.n - 1) + vb * vb / (b.n - 1))
    se = math.sqrt(se2)
    half = t_quantile(df) * se
    return Difference(estimate, (estimate - half, estimate + half), t_two_sided_p(estimate / se, df), "Welch t")


def holm(p_values: Sequence[float], alpha: float = 1 - LEVEL) -> list[bool]:
    """Holm's step-down correction: which hypotheses are rejected with a family-wise error of alpha."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    rejected = [False] * len(p_values)
    m = len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (m - rank):
            break
        rejected[i] = True
    return rejected


def quantiles(histogram: Mapping[Any, int],
              points: Iterable[float] = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)) -> dict[str, float] | None:
    """Quantiles of a distribution given as value -> count (lower value at ties: no interpolation)."""
    total = sum(histogram.values())
    if not total:
        return None
    values = sorted(histogram)
    out: dict[str, float] = {}
    for q in points:
        rank = min(total - 1, max(0, math.ceil(q * total) - 1))
        seen = 0
        for v in values:
            seen += histogram[v]
            if seen > rank:
                out[_quantile_name(q)] = v
                break
    return out


def _quantile_name(q: float) -> str:
    if q == 0:
        return "min"
    if q == 1:
        return "max"
    if q == 0.5:
        return "median"
    return f"p{round(q * 100)}"
