"""How far a Monte Carlo run lies from the exact answer, in standard errors.

The exact engine is the sharpest oracle the vector kernel has for duels: every probability
is known, so each sampled share is a binomial count with a known standard error. A
difference of ``sigmas`` standard errors in any one of the quantities compared fails, with
a message naming the quantity, both values and the z score. (At 10^6 trials, 4 SE is 0.2
points of a 50% outcome: that is the shift the comparison can detect.)
"""

from __future__ import annotations

import math

import numpy as np


def _z(observed: float, exact: float, n: int) -> float:
    se = math.sqrt(max(exact * (1 - exact), 1e-300) / n)
    return (observed - exact) / se


def disagreements(exact, sampled, sigmas: float = 4.0) -> list[str]:
    """The quantities of the sampled ``RunResult`` more than ``sigmas`` standard errors from
    the exact ``RunResult``: each outcome, each fighter's final status, the share of fights
    decided by each round, first down, and the mean length. Empty when all agree."""
    n = sampled.trials
    out = []

    def check(label: str, obs: float, ex: float) -> None:
        if ex <= 0 or ex >= 1:
            if abs(obs - ex) > 0:     # an impossible event happened, or a sure one did not
                out.append(f"{label}: sampled {obs:.6f}, exact {ex:.6g} (impossible/certain)")
            return
        z = _z(obs, ex, n)
        if abs(z) > sigmas:
            out.append(f"{label}: sampled {obs:.6f}, exact {ex:.6f} (z = {z:+.2f})")

    for k, p in exact.outcomes.items():
        check(f"outcome {k!r}", sampled.outcomes.get(k, 0.0), p)
    for name, st in exact.fighter_status.items():
        mine = sampled.fighter_status.get(name, {})
        for status, p in st.items():
            check(f"{name} {status}", mine.get(status, 0.0), p)
    for name, p in exact.first_down.items():
        check(f"first down {name!r}", sampled.first_down.get(name, 0.0), p)
    ex_rounds = np.asarray(exact.tally.rounds, dtype=float)
    mc_rounds = np.asarray(sampled.tally.rounds, dtype=float) / n
    ex_cdf, mc_cdf = np.cumsum(ex_rounds), np.cumsum(mc_rounds)
    for r in range(1, min(ex_cdf.size, 31)):
        if 1e-9 < ex_cdf[r] < 1 - 1e-9:
            check(f"decided by round {r}", float(mc_cdf[r]), float(ex_cdf[r]))
    values = np.arange(ex_rounds.size)
    mean = float(values @ ex_rounds)
    sd = math.sqrt(max(float(values ** 2 @ ex_rounds) - mean ** 2, 1e-300))
    obs = float(values @ mc_rounds)
    z = (obs - mean) / (sd / math.sqrt(n))
    if abs(z) > sigmas:
        out.append(f"mean rounds: sampled {obs:.4f}, exact {mean:.4f} (z = {z:+.2f})")
    return out
