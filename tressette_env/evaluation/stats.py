"""Confidence intervals for paired duplicate results (standard library only).

Example:
    >>> low, high = mean_ci95([1.0, 2.0, 3.0, 4.0])
    >>> round(low, 3), round(high, 3)
    (0.446, 4.554)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom; beyond, the normal 1.96.
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1; got {df}")
    return _T95[df - 1] if df <= len(_T95) else 1.96 + 2.4 / df  # within 0.001 of the exact value beyond 30


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """The 95% confidence interval of the mean of independent values (Student's t)."""
    n = len(values)
    if n < 2:
        raise ValueError(f"a confidence interval needs at least 2 values; got {n}")
    mean = statistics.fmean(values)
    half = t95(n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean - half, mean + half
