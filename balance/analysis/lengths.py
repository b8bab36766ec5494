"""How long fights last: the survival curve and hazard of a rounds histogram.

``hist[r]`` counts the trials decided in round ``r`` (a draw by time counts at the round
limit, as everywhere in the lab). The survival curve is ``S(r) = P(fight still open after
round r)`` for ``r = 0, 1, ...``; since ``E[R] = sum over r >= 0 of P(R > r)``, its sum is the
mean length exactly. The hazard ``h(r) = P(decided in round r | open after round r - 1)``
says whether fights end at a steady rate (flat), speed up as wounds pile up (rising), or are
settled by the first blows (falling). Only numpy here: results and reports both use it.
"""

from __future__ import annotations

import numpy as np

# An exact (probability) histogram's entries below this are taken as empty: the chain carries
# masses like 1e-40 out to the round limit, which no report should show as "the longest
# fight lasted 60 rounds".
NEGLIGIBLE_MASS = 1e-15


def _hist(hist: np.ndarray) -> np.ndarray:
    """Integer counts as they are; an exact histogram (float masses) with negligible
    entries set to 0."""
    hist = np.asarray(hist)
    if np.issubdtype(hist.dtype, np.integer):
        return hist.astype(np.int64)
    return np.where(hist > NEGLIGIBLE_MASS, hist, 0.0)


def survival(hist: np.ndarray) -> list[float]:
    """``[S(0), S(1), ...]`` up to the last round any trial lasted (S of that round is 0
    and left out, so the list sums to the mean length)."""
    hist = _hist(hist)
    n = hist.sum()
    if n == 0:
        return []
    last = int(np.flatnonzero(hist).max())
    decided = np.cumsum(hist[:last])
    return [float(v) for v in (n - decided) / n]


def hazard(hist: np.ndarray) -> list[float | None]:
    """``[h(1), h(2), ...]``: the share of fights still open after round r - 1 that are
    decided in round r, up to the last round any trial lasted (None where none was open)."""
    hist = _hist(hist)
    n = hist.sum()
    if n == 0:
        return []
    last = int(np.flatnonzero(hist).max())
    open_after = n - np.cumsum(hist)                  # open after round r
    out: list[float | None] = []
    for r in range(1, last + 1):
        before = open_after[r - 1]
        out.append(float(hist[r]) / before if before > 0 else None)
    return out


def survival_text(hist: np.ndarray, *, width: int = 40, max_rows: int = 40) -> list[str]:
    """The survival curve as text rows, ``round  open %  bar``, one for **every** round up
    to the last with at least 0.5% of fights open, so a rhythm in the fight (unequal reach
    in Yags: the longer weapon steps back, the shorter closes, every other round) shows.
    When that is more than ``max_rows`` rounds, a compact form without bars keeps every
    round: five ``round open%`` pairs to a line."""
    curve = survival(hist)
    if not curve:
        return []
    shown = [r for r, s in enumerate(curve) if s >= 0.005] or [0]
    rows = list(range(shown[-1] + 1))
    if len(rows) <= max_rows:
        lines = [f"  {'after round':>11}  {'still open':>10}"]
        for r in rows:
            bar = "█" * round(width * curve[r])
            lines.append(f"  {r:>11}  {100 * curve[r]:9.1f}%  {bar}")
    else:
        per = 5
        lines = ["  " + "   ".join(f"{'round':>5} {'open':>6}" for _ in range(per))]
        for start in range(0, len(rows), per):
            lines.append("  " + "   ".join(f"{r:>5} {100 * curve[r]:5.1f}%"
                                           for r in rows[start:start + per]))
    if shown[-1] + 1 < len(curve):
        lines.append(f"  (after round {shown[-1] + 1} fewer than 0.5% of fights are open; the "
                     f"longest lasted {len(curve)} rounds)")
    return lines
