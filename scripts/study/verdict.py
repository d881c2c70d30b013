"""The lecture's one way to compare two shapes: the difference of their means with its
intervals, and the word a page may use for it.

Every claim test and every sentence that says "ahead", "behind", "equivalent" or "not resolved"
comes from ``compare``:

- the difference is a's mean minus b's (bits per character: lower is better, so a negative
  difference means a needed fewer bits), with its 95 % and 90 % intervals from Welch's t
  (sample standard deviations, Welch-Satterthwaite degrees of freedom);
- "ahead" (a needed fewer bits) or "behind" only when the 95 % interval excludes 0;
- "equivalent" only when the 90 % interval lies inside ``±margin``, a margin declared before the
  runs it judges (two one-sided tests at 5 %);
- otherwise "not resolved": the seeds cannot tell.

``slope`` reads a trend across budgets the same way: a difference's change per doubling of the
budget, with its 95 % interval.

Pure Python and NumPy: the prose checks (``make check-docs``) import it without torch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# Declared before the tuned study's final runs: with 5 seeds a side and seed-to-seed spreads of
# about 0.01 bpc, the smallest difference these runs can detect is about 0.024 bpc.
MARGIN = 0.025
# The interval that decides "ahead" and "behind", and the one that decides "equivalent" (two
# one-sided tests at 5 % each): §01 states both levels.
LEVEL, EQUIVALENCE_LEVEL = 0.95, 0.90


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b)."""
    if x <= 0.0 or x >= 1.0:
        return 0.0 if x <= 0.0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution's CDF at ``t`` with ``df`` (real, > 0) degrees of freedom."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (bisection)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p: expected a probability in (0, 1), got {p}")
    if not df > 0:
        raise ValueError(f"df: expected a number > 0, got {df}")
    lo, hi = -1e6, 1e6
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if t_cdf(mid, df) < p else (lo, mid)
    return 0.5 * (lo + hi)


@dataclass(frozen=True)
class Comparison:
    """a's mean minus b's, with its intervals, and the word for it."""

    diff: float
    ci95: tuple[float, float]
    ci90: tuple[float, float]
    df: float
    margin: float
    n: tuple[int, int]

    @property
    def apart(self) -> bool:
        """Do the seeds tell the two apart? Only when the 95 % interval excludes 0."""
        return self.ci95[1] < 0 or self.ci95[0] > 0

    @property
    def verdict(self) -> str:
        """"ahead" (a needed fewer bits), "behind", "equivalent" or "not resolved"."""
        if self.apart:
            return "ahead" if self.diff < 0 else "behind"
        if -self.margin < self.ci90[0] and self.ci90[1] < self.margin:
            return "equivalent"
        return "not resolved"

    def as_dict(self) -> dict:
        return {"diff": self.diff, "ci95": list(self.ci95), "ci90": list(self.ci90),
                "df": self.df, "margin": self.margin, "n": list(self.n),
                "verdict": self.verdict}


def _sample(name: str, values) -> np.ndarray:
    x = np.asarray([float(v) for v in values])
    if x.size < 2:
        raise ValueError(f"{name}: expected at least 2 seeds' values, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name}: expected finite values, got {x.tolist()}")
    return x


def compare(a, b, margin: float = MARGIN) -> Comparison:
    """Shape a against shape b, from each seed's score (lower is better)."""
    x, y = _sample("a", a), _sample("b", b)
    va, vb = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    se = math.sqrt(va + vb)
    diff = float(x.mean() - y.mean())
    if se == 0.0:  # identical seeds on both sides: the interval is the point
        return Comparison(diff, (diff, diff), (diff, diff), math.inf, margin, (x.size, y.size))
    df = (va + vb) ** 2 / (va**2 / (x.size - 1) + vb**2 / (y.size - 1))

    def interval(level):
        half = t_quantile(0.5 + level / 2, df) * se
        return (diff - half, diff + half)

    return Comparison(diff, interval(LEVEL), interval(EQUIVALENCE_LEVEL), float(df), margin,
                      (x.size, y.size))


def slope(budgets, comparisons: list[Comparison]) -> dict:
    """A difference's trend across budgets: its change per doubling of the budget, weighted by
    each budget's precision, with a 95 % interval on the fewest degrees of freedom among the
    budgets' comparisons (cautious: each budget has only its own seeds)."""
    x = np.log2(np.asarray(budgets, dtype=float))
    if x.size < 2 or x.size != len(comparisons):
        raise ValueError(f"budgets: expected one budget per comparison, at least 2, got "
                         f"{x.size} budgets for {len(comparisons)} comparisons")
    d = np.array([c.diff for c in comparisons])
    # each difference's variance, back from its 95 % interval
    var = np.array([((c.ci95[1] - c.diff) / t_quantile(0.975, c.df)) ** 2
                    if math.isfinite(c.df) else 0.0 for c in comparisons])
    w = 1.0 / np.maximum(var, 1e-12)
    xm = np.sum(w * x) / np.sum(w)
    sxx = np.sum(w * (x - xm) ** 2)
    b = float(np.sum(w * (x - xm) * (d - np.sum(w * d) / np.sum(w))) / sxx)
    half = t_quantile(0.975, min(c.df for c in comparisons)) / math.sqrt(sxx)
    return {"per_doubling": b, "ci95": [b - half, b + half],
            "resolved": bool(b - half > 0 or b + half < 0)}
