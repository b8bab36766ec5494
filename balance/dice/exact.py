"""Exact probability mass functions over integer outcomes, for dice sums and comparisons.

A :class:`Pmf` is an immutable value: a lowest outcome and a float64 array of probabilities
for consecutive outcomes. Sums and differences of independent pmfs are convolutions. These
exact answers are the oracle the samplers are tested against and what ``balance dice`` prints.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Mapping

import numpy as np
from numpy.typing import ArrayLike, NDArray

from balance.errors import OptionError

#: Above this many multiply-adds (about 0.2 s of np.convolve) a convolution uses the FFT.
DIRECT_CONVOLVE_LIMIT = 2_000_000_000

#: Default tail mass below which the infinite drift distribution is cut off.
DRIFT_TAIL = 1e-16


def _convolve(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """Full convolution of two probability arrays.

    Small inputs use np.convolve (sums of non-negative products, accurate to a few ulps even
    in far tails). Large ones use the real FFT, whose error is about 1e-16 of the total mass:
    probabilities far below that are rounding noise there, and negative noise is clipped to 0.
    """
    if a.size * b.size <= DIRECT_CONVOLVE_LIMIT:
        return np.convolve(a, b)
    n = a.size + b.size - 1
    nfft = 1 << (n - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(a, nfft) * np.fft.rfft(b, nfft), nfft)[:n]
    return np.clip(out, 0.0, 1.0)


class Pmf:
    """Distribution of an integer-valued random variable with finite support.

    Stored as ``min_outcome`` and ``probs``, a read-only float64 array with ``probs[i]`` the
    probability of ``min_outcome + i``; zero-probability ends are trimmed off. ``+`` and
    ``-`` combine *independent* variables (or shift by an int); ``-pmf`` negates.
    """

    __slots__ = ("_lo", "_p")
    _lo: int
    _p: NDArray[np.float64]

    def __init__(self, min_outcome: int, probs: ArrayLike):
        """Validate and build: probs must be 1-D, finite, non-negative and sum to 1 (1e-9)."""
        try:
            lo = operator.index(min_outcome)
        except TypeError:
            raise OptionError(f"min_outcome must be an integer, got {min_outcome!r}") from None
        p = np.array(probs, dtype=np.float64)
        if p.ndim != 1 or p.size == 0:
            raise OptionError(f"probs must be a non-empty 1-D array, got shape {p.shape}")
        if not np.all(np.isfinite(p)) or np.any(p < 0):
            raise OptionError("probs must be finite and non-negative")
        if abs(p.sum() - 1.0) > 1e-9:
            raise OptionError(f"probs must sum to 1, not {p.sum()!r}")
        self._init(lo, p)

    def _init(self, lo: int, p: NDArray[np.float64]) -> None:
        nonzero = np.flatnonzero(p)
        first, last = int(nonzero[0]), int(nonzero[-1])
        p = p[first:last + 1]
        p.flags.writeable = False
        object.__setattr__(self, "_lo", lo + first)
        object.__setattr__(self, "_p", p)

    @classmethod
    def _trusted(cls, lo: int, p: NDArray[np.float64]) -> Pmf:
        """Build from an array we computed ourselves (owned, already a valid pmf)."""
        pmf = object.__new__(cls)
        pmf._init(lo, p)
        return pmf

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Pmf is immutable")

    def __reduce__(self) -> tuple:
        """Pickle (and copy) through ``_trusted``: sweeps send compiled fights to workers."""
        return (Pmf._trusted, (self._lo, np.array(self._p)))

    # ----------------------------------------------------------------- construction
    @classmethod
    def constant(cls, value: int) -> Pmf:
        """The outcome ``value`` with probability 1."""
        return cls._trusted(operator.index(value), np.ones(1))

    @classmethod
    def die(cls, m: int) -> Pmf:
        """One fair die with faces 1..m (a dM)."""
        m = operator.index(m)
        if m < 1:
            raise OptionError(f"a die needs at least 1 face, got {m}")
        return cls._trusted(1, np.full(m, 1.0 / m))

    @classmethod
    def ndm(cls, n: int, m: int) -> Pmf:
        """Sum of n dice with m faces (NdM), by convolution with repeated doubling."""
        n = operator.index(n)
        if n < 0:
            raise OptionError(f"number of dice must not be negative, got {n}")
        total, base = cls.constant(0), cls.die(m)
        while n:
            if n & 1:
                total = total + base
            n >>= 1
            if n:
                base = base + base
        return total

    @classmethod
    def d20(cls) -> Pmf:
        """One d20: 1..20 uniform."""
        return cls.die(20)

    @classmethod
    def d100(cls) -> Pmf:
        """Percentile dice: 1..100 uniform."""
        return cls.die(100)

    @classmethod
    def drift(cls, tail: float = DRIFT_TAIL) -> Pmf:
        """The Ymlad drift die: P(0) = 1/3, P(+k) = P(-k) = (2/3)(1/3)**k for k >= 1.

        The support is infinite, so it is truncated at the smallest K with
        P(|X| > K) = 2 (1/3)**(K+1) below ``tail`` (K = 34 for the default 1e-16). The cut
        mass is dropped, not redistributed, so the kept probabilities are the exact ones.
        """
        if not 0 < tail < 1:
            raise OptionError(f"tail must be in (0, 1), got {tail!r}")
        k_max = 1
        while 2 * 3.0 ** -(k_max + 1) >= tail:
            k_max += 1
        side = (2 / 3) * (1 / 3) ** np.arange(1, k_max + 1, dtype=np.float64)
        return cls._trusted(-k_max, np.concatenate([side[::-1], [1 / 3], side]))

    @classmethod
    def from_dict(cls, probs: Mapping[int, float]) -> Pmf:
        """Build from an ``{outcome: probability}`` mapping (missing outcomes are 0)."""
        if not probs:
            raise OptionError("a pmf needs at least one outcome")
        keys = [operator.index(k) for k in probs]
        lo = min(keys)
        p = np.zeros(max(keys) - lo + 1)
        for k, v in zip(keys, probs.values(), strict=True):
            p[k - lo] += v
        return cls(lo, p)

    # ---------------------------------------------------------------------- access
    @property
    def min_outcome(self) -> int:
        """Lowest outcome with non-zero probability."""
        return self._lo

    @property
    def max_outcome(self) -> int:
        """Highest outcome with non-zero probability."""
        return self._lo + self._p.size - 1

    @property
    def outcomes(self) -> NDArray[np.int64]:
        """int64 array min_outcome..max_outcome, aligned with :attr:`probs`."""
        return np.arange(self._lo, self._lo + self._p.size, dtype=np.int64)

    @property
    def probs(self) -> NDArray[np.float64]:
        """Read-only float64 probabilities, aligned with :attr:`outcomes`."""
        return self._p

    def __iter__(self) -> Iterator[tuple[int, float]]:
        """``(outcome, probability)`` pairs in ascending order, zero probabilities skipped."""
        for i in np.flatnonzero(self._p):
            yield self._lo + int(i), float(self._p[i])

    def to_dict(self) -> dict[int, float]:
        """``{outcome: probability}`` in ascending order, zero probabilities skipped."""
        return dict(self)

    def __repr__(self) -> str:
        return (f"Pmf(outcomes {self.min_outcome}..{self.max_outcome}, "
                f"mean={self.mean():.6g}, sd={self.sd():.6g})")

    # ---------------------------------------------------------------- statistics
    def mean(self) -> float:
        """Expected value."""
        return float(np.dot(self.outcomes.astype(np.float64), self._p))

    def sd(self) -> float:
        """Standard deviation."""
        dev = self.outcomes.astype(np.float64) - self.mean()
        return math.sqrt(max(float(np.dot(dev * dev, self._p)), 0.0))

    def at_least(self) -> NDArray[np.float64]:
        """Survival table: P(X >= x) for each x in :attr:`outcomes` (summed from the tail,
        so small tail probabilities keep their precision)."""
        return np.cumsum(self._p[::-1])[::-1]

    def p_at_least(self, other: Pmf | int) -> float:
        """P(X >= Y) for this X and an independent Y (a Pmf or a constant)."""
        other = _as_pmf(other)
        survival = np.append(self.at_least(), 0.0)
        idx = np.clip(other.outcomes - self._lo, 0, self._p.size)
        return min(1.0, float(np.dot(other.probs, survival[idx])))

    # ---------------------------------------------------------------- arithmetic
    def __add__(self, other: Pmf | int) -> Pmf:
        if isinstance(other, Pmf):
            return Pmf._trusted(self._lo + other._lo, _convolve(self._p, other._p))
        try:
            shift = operator.index(other)
        except TypeError:
            return NotImplemented
        return Pmf._trusted(self._lo + shift, self._p.copy())

    __radd__ = __add__

    def __neg__(self) -> Pmf:
        return Pmf._trusted(-self.max_outcome, self._p[::-1].copy())

    def __sub__(self, other: Pmf | int) -> Pmf:
        if isinstance(other, Pmf):
            return self + (-other)
        try:
            return self + (-operator.index(other))
        except TypeError:
            return NotImplemented

    def __rsub__(self, other: int) -> Pmf:
        return (-self) + other


def _as_pmf(value: Pmf | int) -> Pmf:
    return value if isinstance(value, Pmf) else Pmf.constant(value)
