"""The statistics of `compare` against values worked out by hand (or read from closed forms and
printed tables) on tiny fixed samples; each test's comment shows the working."""
from __future__ import annotations

import math

import pytest

from cardrules.interpreter import inference as st


def close(x: float, y: float, tolerance: float = 1e-4) -> bool:
    return abs(x - y) <= tolerance


def test_t_tails_match_closed_forms_and_tables():
    # df 1 is the Cauchy: P(|T| > 1) = 1 - 2 atan(1)/pi = 0.5
    assert close(st.t_two_sided(1.0, 1), 0.5, 1e-9)
    # df 2: P(|T| > t) = 1 - t / sqrt(2 + t^2); t = 2: 1 - 2/sqrt(6) = 0.183503
    assert close(st.t_two_sided(2.0, 2), 1 - 2 / math.sqrt(6), 1e-9)
    # printed t tables: t(0.975, 4) = 2.7764, t(0.975, 10) = 2.2281, t(0.995, 30) = 2.7500
    assert close(st.t_quantile(0.975, 4), 2.7764)
    assert close(st.t_quantile(0.975, 10), 2.2281)
    assert close(st.t_quantile(0.995, 30), 2.7500)
    assert st.t_two_sided(0.0, 7) == pytest.approx(1.0)


def test_chi_square_and_the_incomplete_gamma():
    # df 2: P(X > x) = exp(-x/2); df 1, x = 3.841459: 0.05 (the table's 5% point)
    assert close(st.chi_square_upper(10.0, 2), math.exp(-5.0), 1e-12)
    assert close(st.chi_square_upper(3.841459, 1), 0.05, 1e-6)
    # a large x goes through the continued fraction: df 4, P(X > x) = exp(-x/2) (1 + x/2); x = 30
    assert close(st.chi_square_upper(30.0, 4), math.exp(-15.0) * 16.0, 1e-12)


def test_chi_square_of_equal_shares():
    # observed 10, 20, 30; expected 20 each: (100 + 0 + 100) / 20 = 10 on 2 df, p = exp(-5) = 0.006738
    result = st.chi_square_equal([10, 20, 30])
    assert result.statistic == pytest.approx(10.0) and result.df == 2
    assert close(result.p_value, 0.0067379)
    assert st.chi_square_equal([25, 25, 25, 25]).p_value == pytest.approx(1.0)


def test_mean_with_its_t_interval():
    # 1..5: mean 3, sd sqrt(2.5) = 1.58114, se 0.70711; t(0.975, 4) = 2.77645: 3 -+ 1.96324
    e = st.mean_ci([1, 2, 3, 4, 5])
    assert e.value == 3 and close(e.sd, 1.58114)
    assert close(e.low, 1.03676) and close(e.high, 4.96324)


def test_wilson_interval():
    # 5 of 10, z = 1.95996: scale 1 + z^2/10 = 1.38415; centre (0.5 + 0.19207)/1.38415 = 0.5;
    # half z sqrt(0.025 + 0.0096037)/1.38415 = 0.26341: 0.23659 .. 0.76341
    e = st.wilson(5, 10)
    assert close(e.low, 0.23659) and close(e.high, 0.76341)
    # 0 of 10: centre = half = (z^2/20)/1.38415 = 0.13876: 0 .. 0.27753, never below 0
    e = st.wilson(0, 10)
    assert close(e.low, 0.0, 1e-12) and close(e.high, 0.27753)


def test_welch():
    # a = 1, 2, 3; b = 4, 5, 6: both variances 1, se^2 = 1/3 + 1/3, t = 3/sqrt(2/3) = 3.67423;
    # df = (2/3)^2 / ((1/3)^2/2 + (1/3)^2/2) = 4. For df 4, F(t) = 1/2 + (3/8) u (1 - w/12) with
    # u = t/sqrt(1 + t^2/4) = 1.75660, w = t^2/(1 + t^2/4) = 3.08571: F = 0.98934, p = 0.02131;
    # the interval: 3 -+ 2.77645 * 0.81650 = 0.73304 .. 5.26696
    test = st.welch([1, 2, 3], [4, 5, 6])
    assert test.difference == 3 and close(test.statistic, 3.67423)
    assert close(test.p_value, 0.02131)
    assert close(test.low, 0.73304) and close(test.high, 5.26696)
    # unequal variances: a = 1, 2, 3, 4 (var 5/3), b = 2, 4, 6, 8 (var 20/3): se^2 = 5/12 + 20/12 =
    # 2.08333, t = 2.5/1.44338 = 1.73205; df = 2.08333^2/((5/12)^2/3 + (20/12)^2/3) = 4.41176
    test = st.welch([1, 2, 3, 4], [2, 4, 6, 8])
    assert close(test.statistic, 1.73205)
    # df 4.41 lies between 4 and 5, so p lies between their p-values; for df 4, F(sqrt 3) = 1/2 + (3/8)
    # 1.30931 (1 - 1.71429/12) = 0.92085, p = 0.15830
    assert close(st.t_two_sided(math.sqrt(3), 4), 0.15830)
    assert st.t_two_sided(math.sqrt(3), 5) < test.p_value < st.t_two_sided(math.sqrt(3), 4)


def test_welch_on_constant_samples():
    assert st.welch([2, 2], [2, 2]).p_value == 1.0
    assert st.welch([2, 2], [3, 3]).p_value == 0.0


def test_two_proportions():
    # 30/100 vs 50/100: pooled 0.4, se0 = sqrt(0.4 * 0.6 * 0.02) = 0.069282, z = 0.2/0.069282 = 2.88675,
    # p = 2 Phi(-2.88675) = 0.003892; Wald interval 0.2 -+ 1.95996 sqrt(0.0021 + 0.0025) = 0.06707 .. 0.33293
    test = st.two_proportions(30, 100, 50, 100)
    assert close(test.statistic, 2.88675) and close(test.p_value, 0.003892)
    assert close(test.low, 0.06707) and close(test.high, 0.33293)
    assert st.two_proportions(0, 10, 0, 10).p_value == 1.0


def test_effect_sizes():
    # a = 1, 2, 3; b = 4, 5, 6: pooled sd 1, d = 3
    assert st.cohens_d([1, 2, 3], [4, 5, 6]) == pytest.approx(3.0)
    # h = 2 asin sqrt 0.5 - 2 asin sqrt 0.25 = pi/2 - pi/3 = pi/6
    assert st.cohens_h(0.25, 0.5) == pytest.approx(math.pi / 6)


def test_holm():
    # sorted 0.01, 0.03, 0.04: 3 * 0.01 = 0.03; 2 * 0.03 = 0.06; 1 * 0.04 = 0.04, raised to 0.06
    assert st.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert st.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
