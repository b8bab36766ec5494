"""Two-player zero-sum games given by a payoff matrix: the equilibrium by linear programming,
domination (pure and mixed, strict and weak), restricted play and intransitive cycles.

``M[i, j]`` is the row player's payoff (a win rate) when it plays option ``i`` and the
opponent plays ``j``; the row player maximises it, the opponent minimises it. A round robin
pooled over both seatings, with a draw as half a win, is *symmetric constant-sum*
(``M + M.T == 1``): then the row player's optimal mixes are exactly the game's symmetric
equilibria, and the value is 1/2. Every function takes plain float arrays (no NaN) and
imports scipy only when called.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

TOL = 1e-9            # payoffs closer than this are equal
RANGE_TOL = 1e-7      # the optimal set: mixes within this of the value (the LP's precision)
SAME_WEIGHT = 1e-4    # weight ranges narrower than this are one equilibrium (LP round-off)


@dataclass(frozen=True)
class Equilibrium:
    """An equilibrium of the game and how unique it is.

    ``mix`` is the row player's optimal (maximin) mix, ``opponent`` the column player's
    (minimax) mix; in a symmetric constant-sum game ``opponent`` is ``mix``. ``payoff[i]`` is
    option i's payoff against ``opponent``; ``low``/``high`` bound each option's weight over
    all optimal mixes (equal when the equilibrium is unique).
    """

    mix: NDArray[np.float64]
    opponent: NDArray[np.float64]
    value: float
    payoff: NDArray[np.float64]
    low: NDArray[np.float64]
    high: NDArray[np.float64]
    symmetric: bool

    @property
    def unique(self) -> bool:
        return bool(np.all(self.high - self.low <= SAME_WEIGHT))

    def gap(self, matrix: NDArray[np.float64]) -> float:
        """How far from an equilibrium (0 at one): the best reply's gain over the guarantee."""
        return exploitability(matrix, self.mix, self.opponent)


@dataclass(frozen=True)
class Domination:
    """Option ``option`` is dominated by the mix ``by`` (one weight per option; a pure
    dominator has one weight of 1). ``margins[j]`` is how much better the dominator does
    against opponent option j; ``strict``: better against every j, else weakly (never worse,
    sometimes better)."""

    option: int
    by: NDArray[np.float64]
    margins: NDArray[np.float64]
    strict: bool

    @property
    def pure(self) -> bool:
        return int(np.count_nonzero(self.by)) == 1


def is_symmetric(matrix: NDArray[np.float64], tol: float = 1e-9) -> bool:
    """True for a symmetric constant-sum game: ``M[i, j] + M[j, i] == 1`` for every pair."""
    m = np.asarray(matrix, dtype=float)
    return bool(np.allclose(m + m.T, 1.0, rtol=0, atol=tol))


def maximin(matrix: NDArray[np.float64], *,
            forbid: int | None = None) -> tuple[NDArray[np.float64], float]:
    """The row player's optimal mix and its guaranteed payoff, by linear programming:
    maximise v subject to ``x @ M[:, j] >= v`` for every column j, x a probability vector.
    ``forbid`` keeps one option's weight at zero (restricted play)."""
    from scipy.optimize import linprog

    m = np.asarray(matrix, dtype=float)
    n, k = m.shape
    cost = np.zeros(n + 1)
    cost[-1] = -1.0                                        # maximise v
    a_ub = np.hstack([-m.T, np.ones((k, 1))])              # v - x @ M[:, j] <= 0
    a_eq = np.append(np.ones(n), 0.0)[None, :]
    bounds = [(0.0, 0.0) if i == forbid else (0.0, 1.0) for i in range(n)] + [(None, None)]
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(k), A_eq=a_eq, b_eq=[1.0], bounds=bounds,
                  method="highs")
    if not res.success:                                    # cannot happen for a finite matrix
        raise ArithmeticError(f"the equilibrium LP failed: {res.message}")
    x = _clean(res.x[:n])
    x, v = _polish(m, x)
    return x, v


def solve(matrix: NDArray[np.float64]) -> Equilibrium:
    """The game's equilibrium: both players' optimal mixes, the value, each option's payoff
    against the opponent's mix, and each option's weight range over all optimal mixes."""
    m = np.asarray(matrix, dtype=float)
    x, v = maximin(m)
    symmetric = is_symmetric(m)
    y = x if symmetric else maximin(1.0 - m.T)[0]          # the opponent maximises 1 - M
    low, high = weight_ranges(m, v)
    same = high - low <= SAME_WEIGHT      # the LP's round-off is not a second equilibrium
    low, high = np.where(same, x, np.minimum(low, x)), np.where(same, x, np.maximum(high, x))
    return Equilibrium(x, y, v, m @ y, low, high, symmetric)


def weight_ranges(matrix: NDArray[np.float64],
                  value: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each option's least and greatest weight over every optimal mix of the row player
    (two LPs per option over the set of mixes that guarantee ``value``)."""
    from scipy.optimize import linprog

    m = np.asarray(matrix, dtype=float)
    n = m.shape[0]
    low, high = np.zeros(n), np.ones(n)
    for i in range(n):
        for sign, out in ((1.0, low), (-1.0, high)):
            cost = np.zeros(n)
            cost[i] = sign
            for slack in (TOL, RANGE_TOL):      # the value is exact; allow the LP round-off
                res = linprog(cost, A_ub=-m.T, b_ub=np.full(m.shape[1], slack - value),
                              A_eq=np.ones((1, n)), b_eq=[1.0], bounds=[(0.0, 1.0)] * n,
                              method="highs")
                if res.success:
                    out[i] = float(res.x[i])
                    break
    low, high = np.clip(low, 0, 1), np.clip(high, 0, 1)
    return low, high


def exploitability(matrix: NDArray[np.float64], mix: NDArray[np.float64],
                   opponent: NDArray[np.float64]) -> float:
    """``max_i (M y)_i - min_j (x M)_j``: zero exactly when (x, y) is an equilibrium."""
    m = np.asarray(matrix, dtype=float)
    return float(np.max(m @ opponent) - np.min(mix @ m))


def restricted_play(matrix: NDArray[np.float64]) -> NDArray[np.float64]:
    """The value each option's absence leaves the row player: the best guaranteed payoff of
    a player forbidden that option while the opponent may still use it (Jaffe et al. 2012)."""
    m = np.asarray(matrix, dtype=float)
    if m.shape[0] < 2:
        return np.full(m.shape[0], np.nan)
    return np.array([maximin(m, forbid=i)[1] for i in range(m.shape[0])])


def dominations(matrix: NDArray[np.float64]) -> list[Domination]:
    """Every dominated option: each pure dominator, and a dominating mix where no pure
    option dominates strictly. Margins are compared over every opponent option."""
    m = np.asarray(matrix, dtype=float)
    n = m.shape[0]
    out: list[Domination] = []
    for a in range(n):
        strict_pure = False
        for b in range(n):
            if b == a:
                continue
            d = m[b] - m[a]
            if np.all(d > TOL) or (np.all(d >= -TOL) and np.any(d > TOL)):
                strict = bool(np.all(d > TOL))
                strict_pure |= strict
                out.append(Domination(a, np.eye(n)[b], d, strict))
        if not strict_pure and n > 2:
            found = _mixed_dominator(m, a)
            if found is not None and not found.pure:
                if not any(o.option == a and not o.strict for o in out) or found.strict:
                    out.append(found)
    return out


def _mixed_dominator(m: NDArray[np.float64], a: int) -> Domination | None:
    """A mix of the other options that dominates ``a`` strictly (the largest worst margin),
    else weakly (the largest total margin), by linear programming; None if there is none."""
    from scipy.optimize import linprog

    n = m.shape[0]
    others = [k for k in range(n) if k != a]
    p = m[others]                                          # (n-1, n)
    # strict: maximise eps with y @ p[:, j] - m[a, j] >= eps
    cost = np.zeros(len(others) + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-p.T, np.ones((n, 1))])
    a_eq = np.append(np.ones(len(others)), 0.0)[None, :]
    res = linprog(cost, A_ub=a_ub, b_ub=-m[a], A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, 1)] * len(others) + [(None, None)], method="highs")
    if res.success and -res.fun > TOL:
        return _domination(m, a, others, res.x[:-1], strict=True)
    if not res.success or -res.fun < -TOL:
        return None
    # weak: never worse, and the largest total margin
    res = linprog(-p.sum(axis=1), A_ub=-p.T, b_ub=-m[a] + TOL, A_eq=np.ones((1, len(others))),
                  b_eq=[1.0], bounds=[(0, 1)] * len(others), method="highs")
    if not res.success:
        return None
    found = _domination(m, a, others, res.x, strict=False)
    ok = np.all(found.margins >= -TOL) and np.any(found.margins > TOL)
    return found if ok else None


def _domination(m: NDArray[np.float64], a: int, others: list[int], y: NDArray[np.float64],
                *, strict: bool) -> Domination:
    by = np.zeros(m.shape[0])
    by[others] = _clean(y)
    margins = by @ m - m[a]
    return Domination(a, by, margins, strict and bool(np.all(margins > TOL)))


def cycles(beats: NDArray[np.bool_]) -> list[tuple[int, int, int]]:
    """Every intransitive triple (a beats b, b beats c, c beats a), each listed once, from
    its first option in index order."""
    b = np.asarray(beats, dtype=bool)
    tri = b[:, :, None] & b[None, :, :] & b.T[:, None, :]  # [a, b, c]: a>b, b>c, c>a
    return [(int(i), int(j), int(k)) for i, j, k in np.argwhere(tri) if i < j and i < k]


def _clean(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """A probability vector with the LP's round-off removed (exact zeros, sum exactly 1)."""
    x = np.where(np.asarray(x, dtype=float) > TOL, x, 0.0)
    return x / x.sum()


def _polish(m: NDArray[np.float64], x: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
    """Refine the LP's vertex to machine precision: on its support S and binding columns T,
    solve ``x_S @ M[S, T] = v``, ``sum x_S = 1`` exactly; keep the LP's answer if the
    refined one is not a valid optimal mix."""
    v = float(np.min(x @ m))
    support = np.flatnonzero(x > 0)
    binding = np.flatnonzero(x @ m <= v + RANGE_TOL)
    k = support.size
    lhs = np.zeros((binding.size + 1, k + 1))
    lhs[:-1, :k] = m[np.ix_(support, binding)].T
    lhs[:-1, k] = -1.0
    lhs[-1, :k] = 1.0
    rhs = np.zeros(binding.size + 1)
    rhs[-1] = 1.0
    sol, *_ = np.linalg.lstsq(lhs, rhs, rcond=None)
    refined = np.zeros_like(x)
    refined[support] = sol[:k]
    if np.any(refined < 0) or not np.allclose(lhs @ sol, rhs, rtol=0, atol=1e-12):
        return x, v
    refined = _clean(refined)
    v2 = float(np.min(refined @ m))
    return (refined, v2) if v2 >= v - 1e-12 else (x, v)
