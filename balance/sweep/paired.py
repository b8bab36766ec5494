"""Paired comparisons under common random numbers: how much does a change move a number?

Both versions of a fight (say, without and with plate) play the same trials from the very same
random streams, and the difference is analysed per trial: the interval of the mean
difference uses the variance of the per-trial differences, which common dice make far smaller
than the variance of two independent runs. Sums are kept as integers per block, so more
trials merge exactly (whole blocks, like every other run).

Metrics, per trial: ``win`` (the side won), ``draw``, ``survival`` (share of the side's
fighters not dead at the end), ``standing`` (share standing at the end), ``rounds``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from balance import rules
from balance.engine.loop import BlockOutcome, simulate
from balance.engine.run import block_rng, block_sizes
from balance.engine.status import DEAD, DRAW, STANDING
from balance.errors import OptionError
from balance.io.scenario import LoadedScenario, load_scenario

METRICS = ("win", "draw", "survival", "standing", "rounds")
SIDE_METRICS = ("win", "survival", "standing")
PAIRED_BLOCK_TRIALS = 16_384
_KEY = (0x5EED, 0xC0DE)          # the stream key of a comparison's trials (any fixed key)


@dataclass(frozen=True)
class Paired:
    """Integer sums of a metric over trials played by both versions with the same dice."""

    metric: str
    side: str | None
    scale_a: int                 # per-trial values are counts; divide by these (side sizes)
    scale_b: int
    seed: int
    trials: int = 0
    blocks: int = 0
    sum_a: int = 0
    sum_b: int = 0
    sum_aa: int = 0
    sum_bb: int = 0
    sum_ab: int = 0

    @property
    def a(self) -> float:
        """Mean of the metric in the first version."""
        return self.sum_a / self.scale_a / self.trials

    @property
    def b(self) -> float:
        return self.sum_b / self.scale_b / self.trials

    @property
    def diff(self) -> float:
        """Mean of (second - first): positive when the change raises the metric."""
        return self.b - self.a

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """Paired interval of :attr:`diff` (normal approximation; n is in the thousands)."""
        return self._interval(level, self._var_diff())

    def independent_interval(self, level: float = 0.95) -> tuple[float, float]:
        """What two independent runs of the same size would give, for comparison."""
        return self._interval(level, self._var("a") + self._var("b"))

    @property
    def variance_ratio(self) -> float:
        """How many times less variance the pairing gives than independent runs."""
        v = self._var_diff()
        return (self._var("a") + self._var("b")) / v if v > 0 else math.inf

    def _var(self, which: str) -> float:
        n = self.trials
        s, ss, k = (self.sum_a, self.sum_aa, self.scale_a) if which == "a" else \
            (self.sum_b, self.sum_bb, self.scale_b)
        return max((ss - s * s / n) / (n - 1), 0.0) / (k * k) if n > 1 else math.inf

    def _var_diff(self) -> float:
        n = self.trials
        if n < 2:
            return math.inf
        ka, kb = self.scale_a, self.scale_b
        sum_d2 = self.sum_bb / kb ** 2 - 2 * self.sum_ab / (ka * kb) + self.sum_aa / ka ** 2
        mean = self.diff
        return max((sum_d2 - n * mean * mean) / (n - 1), 0.0)

    def _interval(self, level: float, var: float) -> tuple[float, float]:
        from scipy.stats import norm

        half = float(norm.ppf(0.5 + level / 2)) * math.sqrt(var / self.trials)
        return (self.diff - half, self.diff + half)


def compare(a: LoadedScenario | str | os.PathLike | Mapping[str, Any],
            b: LoadedScenario | str | os.PathLike | Mapping[str, Any], *, metric: str = "win",
            side: str | None = None, trials: int = 100_000, seed: int = 0,
            more: Paired | None = None) -> Paired:
    """Play both fights from the same random streams and compare ``metric`` trial by trial.

    ``side`` names the side for ``win``, ``survival`` and ``standing`` (default: the first).
    Trials run in whole blocks of 16,384. Pass an earlier result as ``more`` to add trials
    up to ``trials`` without replaying the blocks it already has.
    """
    la = a if isinstance(a, LoadedScenario) else load_scenario(a)
    lb = b if isinstance(b, LoadedScenario) else load_scenario(b)
    if la.ruleset != lb.ruleset:
        raise OptionError(f"cannot compare a {la.ruleset} fight with a {lb.ruleset} fight")
    if metric not in METRICS:
        raise OptionError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    system = rules.get(la.ruleset)
    fa, fb = system.compile(la.model, la.tables), system.compile(lb.model, lb.tables)
    index = _side_index(side, fa.side_names, fb.side_names) if metric in SIDE_METRICS else None
    if more is None:
        more = Paired(metric, fa.side_names[index] if index is not None else None,
                      _scale(metric, fa, index), _scale(metric, fb, index), seed)
    sizes = block_sizes(-(-trials // PAIRED_BLOCK_TRIALS) * PAIRED_BLOCK_TRIALS,
                        PAIRED_BLOCK_TRIALS)
    out = more
    for blk in range(more.blocks, len(sizes)):
        xa = _values(metric, simulate(system, fa, sizes[blk], block_rng(seed, blk, _KEY)), fa,
                     index)
        xb = _values(metric, simulate(system, fb, sizes[blk], block_rng(seed, blk, _KEY)), fb,
                     index)
        out = replace(out, trials=out.trials + sizes[blk], blocks=blk + 1,
                      sum_a=out.sum_a + int(xa.sum()), sum_b=out.sum_b + int(xb.sum()),
                      sum_aa=out.sum_aa + int((xa * xa).sum()),
                      sum_bb=out.sum_bb + int((xb * xb).sum()),
                      sum_ab=out.sum_ab + int((xa * xb).sum()))
    return out


def _values(metric: str, out: BlockOutcome, fight: Any, side: int | None) -> np.ndarray:
    """The per-trial metric as int64 counts."""
    if metric == "win":
        return (out.winner == side).astype(np.int64)
    if metric == "draw":
        return (out.winner == DRAW).astype(np.int64)
    if metric == "rounds":
        return out.rounds.astype(np.int64)
    members = np.flatnonzero(fight.side_of == side)
    status = out.status[members]
    keep = status != DEAD if metric == "survival" else status == STANDING
    return keep.sum(axis=0).astype(np.int64)


def _scale(metric: str, fight: Any, side: int | None) -> int:
    if metric in ("survival", "standing"):
        return int((fight.side_of == side).sum())
    return 1


def _side_index(side: str | None, names_a: tuple[str, ...], names_b: tuple[str, ...]) -> int:
    if side is None:
        return 0
    if side not in names_a or side not in names_b:
        raise OptionError(f"side {side!r} is not in both fights (sides: {', '.join(names_a)})")
    if names_a.index(side) != names_b.index(side):
        raise OptionError(f"side {side!r} sits at a different place in the two fights")
    return names_a.index(side)
