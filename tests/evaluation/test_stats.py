"""t95 against exact quantiles of Student's t (reference values: scipy.stats.t.ppf(0.975, df), 6 decimals)."""

import pytest

from tressette_env.evaluation.stats import t95

EXACT = {
    1: 12.706205, 2: 4.302653, 3: 3.182446, 5: 2.570582, 10: 2.228139, 20: 2.085963, 29: 2.045230,
    30: 2.042272, 31: 2.039513, 32: 2.036933, 33: 2.034515, 35: 2.030108, 40: 2.021075, 45: 2.014103,
    50: 2.008559, 60: 2.000298, 75: 1.992102, 100: 1.983972, 120: 1.979930, 150: 1.975905,
    200: 1.971896, 300: 1.967903, 500: 1.964720, 1000: 1.962339, 10000: 1.960201, 100000: 1.959988,
}  # fmt: skip
Z975 = 1.959964


@pytest.mark.parametrize("df", [d for d in EXACT if d > 30])
def test_beyond_30_within_1e6_of_the_exact_quantile(df):
    # The reference values are rounded to 6 decimals (5e-7); the series itself is within 3e-8.
    assert t95(df) == pytest.approx(EXACT[df], abs=1e-6)


@pytest.mark.parametrize("df", [d for d in EXACT if d <= 30])
def test_the_table_is_the_exact_quantile_rounded_to_3_decimals(df):
    assert t95(df) == pytest.approx(EXACT[df], abs=5e-4)


def test_decreasing_towards_the_normal_quantile():
    values = [t95(df) for df in range(1, 5001)] + [t95(10**k) for k in range(4, 10)]
    assert all(a > b for a, b in zip(values[:-1], values[1:], strict=True))
    assert t95(10**9) == pytest.approx(Z975, abs=1e-6)
    # No jump where the table hands over to the series: the exact step from 30 to 31 is 0.002759.
    assert t95(30) - t95(31) == pytest.approx(EXACT[30] - EXACT[31], abs=6e-4)
