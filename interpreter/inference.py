"""Statistical inference for comparing games: confidence intervals, tests and effect sizes.

Pure functions on plain numbers, standard library only. The t and chi-square distributions come
from the regularized incomplete beta and gamma functions (continued fractions and series as in
Numerical Recipes, ch. 6.2 and 6.4); the normal from `statistics.NormalDist`. Two-sided tests
throughout; confidence intervals at `LEVEL` unless asked otherwise.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist, fmean, stdev

LEVEL = 0.95
_EPS = 1e-15
_TINY = 1e-300
_MAX_ITERATIONS = 500
_NORMAL = NormalDist()


@dataclass(frozen=True)
class Estimate:
    """A mean (or a proportion) with its confidence interval."""

    value: float
    low: float
    high: float
    sd: float  # the sample's standard deviation (0.0 for a proportion)
    n: int


@dataclass(frozen=True)
class Test:
    """The difference b - a, its confidence interval, the test statistic and its p-value."""

    difference: float
    low: float
    high: float
    statistic: float
    p_value: float


# ---------------------------------------------------------------- special functions


def incomplete_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must lie in [0, 1], not {x}")
    if x in (0.0, 1.0):
        return x
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):  # the continued fraction converges fast here; else use the symmetry
        return front * _beta_fraction(x, a, b) / a
    return 1.0 - front * _beta_fraction(1.0 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of the incomplete beta, by the modified Lentz method."""
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_ITERATIONS):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h


def incomplete_gamma_upper(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    if x < 0 or a <= 0:
        raise ValueError(f"needs a > 0 and x >= 0, not a={a}, x={x}")
    if x == 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1.0:  # the series for P converges fast here
        term = total = 1.0 / a
        k = a
        for _ in range(_MAX_ITERATIONS):
            k += 1.0
            term *= x / k
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        return 1.0 - total * math.exp(log_front)
    b = x + 1.0 - a  # else the continued fraction for Q (modified Lentz)
    c, d = 1.0 / _TINY, 1.0 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        numerator = -i * (i - a)
        b += 2.0
        d = numerator * d + b
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = b + numerator / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        if abs(d * c - 1.0) < _EPS:
            break
    return h * math.exp(log_front)


# ---------------------------------------------------------------- distributions


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return incomplete_beta(df / (df + t * t), df / 2.0, 0.5)


@lru_cache(maxsize=1024)  # intervals ask again and again for the same few (level, n - 1)
def t_quantile(p: float, df: float) -> float:
    """The t with P(T <= t) = p, for p in (0.5, 1): Newton's method from the normal quantile,
    kept inside a shrinking bracket (a step that leaves it bisects instead)."""
    tail = 1.0 - p  # the upper tail wanted
    low, high = 0.0, 1.0
    while t_two_sided(high, df) / 2.0 > tail:
        high *= 2.0
    t = min(max(_NORMAL.inv_cdf(p), low), high)
    log_density = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    for _ in range(100):
        excess = t_two_sided(t, df) / 2.0 - tail  # > 0: t is too small
        if excess > 0:
            low = t
        else:
            high = t
        density = math.exp(log_density - (df + 1) / 2 * math.log1p(t * t / df))
        step = t + excess / density
        t = step if low < step < high else (low + high) / 2.0
        if abs(excess) < 1e-14 or high - low < 1e-12 * max(1.0, high):
            break
    return t


def chi_square_upper(x: float, df: float) -> float:
    """P(X >= x) for the chi-square distribution with `df` degrees of freedom."""
    return incomplete_gamma_upper(df / 2.0, x / 2.0)


def _z(level: float) -> float:
    return _NORMAL.inv_cdf(0.5 + level / 2.0)


# ---------------------------------------------------------------- estimates


def mean_ci(xs: Sequence[float], level: float = LEVEL) -> Estimate:
    """The sample mean with its t-based confidence interval (a point for fewer than two values)."""
    n = len(xs)
    if n == 0:
        raise ValueError("no values")
    mean = fmean(xs)
    sd = stdev(xs) if n > 1 else 0.0
    half = t_quantile(0.5 + level / 2.0, n - 1) * sd / math.sqrt(n) if n > 1 else 0.0
    return Estimate(mean, mean - half, mean + half, sd, n)


def wilson(successes: float, n: int, level: float = LEVEL) -> Estimate:
    """A proportion with its Wilson score interval, which stays inside [0, 1] and is right
    near 0 and 1 where the normal approximation is not. `successes` may be fractional (a tie
    shared between winners)."""
    if n <= 0:
        raise ValueError("no trials")
    p, z = successes / n, _z(level)
    scale = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / scale
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), 0.0, n)


# ---------------------------------------------------------------- tests


def welch(a: Sequence[float], b: Sequence[float], level: float = LEVEL) -> Test:
    """Welch's t test of equal means (variances not assumed equal), for b - a."""
    if len(a) < 2 or len(b) < 2:
        raise ValueError("Welch's test needs two values on each side")
    ma, mb = fmean(a), fmean(b)
    va, vb = stdev(a) ** 2 / len(a), stdev(b) ** 2 / len(b)
    difference, se2 = mb - ma, va + vb
    if se2 == 0.0:  # both sides constant: equal (no evidence) or different (certain)
        return Test(difference, difference, difference, 0.0 if difference == 0 else math.copysign(math.inf, difference),
                    1.0 if difference == 0 else 0.0)
    df = se2 * se2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    se = math.sqrt(se2)
    t = difference / se
    half = t_quantile(0.5 + level / 2.0, df) * se
    return Test(difference, difference - half, difference + half, t, t_two_sided(t, df))


def two_proportions(successes_a: float, n_a: int, successes_b: float, n_b: int, level: float = LEVEL) -> Test:
    """The z test of equal proportions (pooled under the null), for p_b - p_a, with the
    unpooled (Wald) interval of the difference."""
    if n_a <= 0 or n_b <= 0:
        raise ValueError("no trials")
    p_a, p_b = successes_a / n_a, successes_b / n_b
    pooled = (successes_a + successes_b) / (n_a + n_b)
    difference = p_b - p_a
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se0 == 0.0:  # all successes or none on both sides: nothing tells them apart
        return Test(difference, difference, difference, 0.0, 1.0)
    z = difference / se0
    half = _z(level) * math.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b)
    return Test(difference, difference - half, difference + half, z, 2.0 * _NORMAL.cdf(-abs(z)))


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    df: int
    p_value: float


def chi_square_equal(observed: Sequence[float]) -> ChiSquare:
    """Pearson's chi-square test that every category has an equal share of the total."""
    k, total = len(observed), sum(observed)
    if k < 2 or total <= 0:
        return ChiSquare(0.0, max(k - 1, 0), 1.0)
    expected = total / k
    statistic = sum((o - expected) ** 2 / expected for o in observed)
    return ChiSquare(statistic, k - 1, chi_square_upper(statistic, k - 1))


# ---------------------------------------------------------------- effect sizes and many tests


def cohens_d(a: Sequence[float], b: Sequence[float]) -> float:
    """(mean b - mean a) over the pooled standard deviation; 0 when both sides are constant
    and equal, infinite when constant and different."""
    na, nb = len(a), len(b)
    difference = fmean(b) - fmean(a)
    pooled = ((na - 1) * stdev(a) ** 2 + (nb - 1) * stdev(b) ** 2) / (na + nb - 2) if na + nb > 2 else 0.0
    if pooled == 0.0:
        return 0.0 if difference == 0 else math.copysign(math.inf, difference)
    return difference / math.sqrt(pooled)


def cohens_h(p_a: float, p_b: float) -> float:
    """The effect size of two proportions on the scale of Cohen's d: 2 asin sqrt p_b - 2 asin sqrt p_a."""
    return 2.0 * math.asin(math.sqrt(min(max(p_b, 0.0), 1.0))) - 2.0 * math.asin(math.sqrt(min(max(p_a, 0.0), 1.0)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: a family of tests whose adjusted p-values below alpha are
    false positives together with probability at most alpha."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
