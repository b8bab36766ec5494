"""Variants of one scenario played from common random numbers, and their paired statistics.

A :class:`Moments` holds, for K variants played on the same trials, the integer sums of each
variant's per-trial values and of every pair's products. From them come each variant's mean
and interval, and the interval of any difference *analysed as paired*: its variance is that
of the per-trial differences, which shared dice make smaller than two independent runs'.
A :class:`Runner` plays blocks of variants on an executor (in parallel, one job a block) and
merges them in block order, so the numbers never depend on the executor or the worker count.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, ClassVar

import numpy as np

from balance import rules
from balance.analysis.subject import Subject
from balance.analysis.task import (
    METRICS,
    SIDE_METRICS,
    BlockJob,
    exact_value,
    run_block,
    scale,
)
from balance.errors import MAX_SEED, MAX_TRIALS, OptionError, ScenarioError, check_count
from balance.sweep.executors import in_order
from balance.sweep.paths import FieldPath

BLOCK_TRIALS = 16_384
BINARY = ("win", "draw")
ENGINES = ("auto", "exact", "vector")
"""A question's engine: ``auto`` (default) answers exactly when the exact engine covers every
version of the scenario (balance.exact; duels), else by Monte Carlo; ``exact`` insists;
``vector`` always samples."""
Changes = tuple[tuple[FieldPath, Any], ...]


def z_value(level: float = 0.95) -> float:
    """The two-sided normal quantile of ``level`` (1.96 for 95%)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


@dataclass
class Moments:
    """Integer moment sums of K variants over the same trials (see the module docstring)."""

    exact: ClassVar[bool] = False      # sampled sums, not the exact engine's values

    metric: str
    scales: tuple[int, ...]
    trials: int = 0
    blocks: int = 0
    s: np.ndarray = field(default=None)
    ss: np.ndarray = field(default=None)

    def __post_init__(self) -> None:
        k = len(self.scales)
        if self.s is None:
            self.s = np.zeros(k, dtype=np.int64)
            self.ss = np.zeros((k, k), dtype=np.int64)

    def mean(self, k: int = 0) -> float:
        return float(self.s[k]) / self.scales[k] / self.trials if self.trials else math.nan

    def means(self) -> list[float]:
        return [self.mean(k) for k in range(len(self.scales))]

    def cov(self) -> np.ndarray:
        """The covariance matrix of the K mean estimates (per-trial covariance / n)."""
        n = self.trials
        k = np.asarray(self.scales, dtype=float)
        if n < 2:
            return np.full(self.ss.shape, math.inf)
        mean = self.s / k / n
        prod = self.ss / np.outer(k, k)
        return (prod - n * np.outer(mean, mean)) / (n - 1) / n

    def interval(self, k: int = 0, level: float = 0.95) -> tuple[float, float]:
        """The interval of variant k's mean: Wilson for a probability, normal otherwise."""
        n, m = self.trials, self.mean(k)
        z = z_value(level)
        if n == 0:
            return (-math.inf, math.inf)
        if self.metric in BINARY:
            return wilson(m, n, z)
        half = z * math.sqrt(max(float(self.cov()[k, k]), 0.0))
        return (m - half, m + half)

    def contrast(self, weights: Sequence[float], level: float = 0.95
                 ) -> tuple[float, tuple[float, float], float]:
        """``sum w_k mean_k`` with its paired interval and standard error."""
        w = np.asarray(weights, dtype=float)
        value = float(w @ np.asarray(self.means()))
        se = math.sqrt(max(float(w @ self.cov() @ w), 0.0))
        half = z_value(level) * se
        return value, (value - half, value + half), se

    def diff(self, base: int, other: int, level: float = 0.95
             ) -> tuple[float, tuple[float, float], float]:
        """``mean[other] - mean[base]``, its paired interval and standard error."""
        w = np.zeros(len(self.scales))
        w[other] += 1
        w[base] -= 1
        return self.contrast(w, level)

    def add(self, block: Any) -> None:
        self.trials += block.size
        self.blocks += 1
        self.s = self.s + block.s
        self.ss = self.ss + block.ss


# Exact values closer than this are the same value (floating-point noise of a chain's
# sums, far below any difference a designer could mean; 1e-12 of a probability).
EXACT_TIE = 1e-12


@dataclass
class ExactMoments(Moments):
    """The exact engine's values of K variants (``balance.exact``): each mean known, no
    sampling error, so every interval and standard error is zero. ``states``: the chain's
    states, per variant. Playing more blocks adds nothing (``Runner.extend`` leaves it)."""

    exact: ClassVar[bool] = True

    values: tuple[float, ...] = ()
    states: tuple[int, ...] = ()

    def mean(self, k: int = 0) -> float:
        return float(self.values[k])

    def cov(self) -> np.ndarray:
        k = len(self.values)
        return np.zeros((k, k))

    def interval(self, k: int = 0, level: float = 0.95) -> tuple[float, float]:
        m = self.mean(k)
        return (m, m)

    def contrast(self, weights: Sequence[float], level: float = 0.95
                 ) -> tuple[float, tuple[float, float], float]:
        value = float(np.asarray(weights, dtype=float) @ np.asarray(self.values))
        if abs(value) < EXACT_TIE:
            value = 0.0
        return value, (value, value), 0.0

    def add(self, block: Any) -> None:
        raise TypeError("exact moments take no sampled blocks")


def wilson(p: float, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval of a share ``p`` of ``n`` trials (closed form)."""
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(centre - half, 0.0), min(centre + half, 1.0))


class Runner:
    """Plays variants of a subject, block by block, on an executor, from one seed."""

    def __init__(self, subject: Subject, *, metric: str = "win", side: str | None = None,
                 seed: int | None = None, block_trials: int = BLOCK_TRIALS,
                 executor: Executor, on_trials: Callable[[int], None] | None = None,
                 engine: str = "auto"):
        if metric not in METRICS:
            raise OptionError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
        if engine not in ENGINES:
            raise OptionError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
        self.engine = engine
        self._exact: dict[Changes, Any] = {}
        self.exact_reason = ""          # why the last moments were not exact (auto)
        self.subject = subject
        self.metric = metric
        self.side = subject.side_index(side) if metric in SIDE_METRICS else None
        self.side_name = subject.side_names[self.side or 0]
        self.seed = _count("seed", subject.base.model.seed if seed is None else seed, 0)
        self.block_trials = _count("block_trials", block_trials, 1)
        self.executor = executor
        self.on_trials = on_trials
        self.system = rules.get(subject.ruleset)
        self._fights: dict[Changes, Any] = {}

    def fight(self, changes: Changes) -> Any:
        """The compiled fight of the subject with ``changes``; ScenarioError if invalid."""
        if changes not in self._fights:
            loaded = self.subject.variant(dict(changes))
            from balance.api import compile_scenario

            self._fights[changes] = compile_scenario(loaded)[1]
        return self._fights[changes]

    def exact_tally(self, changes: Changes) -> Any:
        """The exact engine's tally of a variant, or None (``exact_reason`` says why)."""
        if changes not in self._exact:
            from balance.exact.run import exact_or_reason

            tally, reason = exact_or_reason(self.system, self.fight(changes), self.engine)
            self._exact[changes] = (tally, reason)
        tally, reason = self._exact[changes]
        if tally is None:
            self.exact_reason = reason
        return tally

    def moments(self, variants: Sequence[Changes]) -> Moments:
        """Empty sums for ``variants`` (each a tuple of (path, value) changes), or, when the
        engine is ``exact`` or ``auto`` and the exact engine covers every variant, their exact
        values (:class:`ExactMoments`; ``engine="exact"`` refuses a variant it does not
        cover, naming why)."""
        scales = tuple(scale(self.metric, self.fight(v), self.side) for v in variants)
        if self.engine in ("exact", "auto"):
            # Every variant covered? (asked before any chain is built: one uncovered variant
            # sends them all to Monte Carlo)
            from balance.exact.run import auto_declines, coverage

            declined = auto_declines(self.system) if self.engine == "auto" else ""
            uncovered = [declined] if declined else [
                r for r in (coverage(self.system, self.fight(v)) for v in variants) if r]
            tallies = [None] if uncovered else [self.exact_tally(v) for v in variants]
            if uncovered:
                self.exact_reason = uncovered[0]
            if all(t is not None for t in tallies):
                values = tuple(exact_value(self.metric, t, self.fight(v), self.side)
                               for t, v in zip(tallies, variants, strict=True))
                return ExactMoments(self.metric, scales, values=values,
                                    states=tuple(t.states for t in tallies))
            if self.engine == "exact":
                raise OptionError(f"the exact engine cannot play this scenario: "
                                  f"{self.exact_reason} (use --engine auto or vector)")
        return Moments(self.metric, scales)

    def extend(self, moments: Moments, variants: Sequence[Changes], blocks: int) -> Moments:
        """Play blocks ``moments.blocks .. blocks - 1`` of ``variants`` and add them (exact
        moments need none: they only count the blocks as done)."""
        if moments.exact:
            moments.blocks = max(moments.blocks, blocks)
            return moments
        fights = tuple(self.fight(v) for v in variants)
        jobs = [BlockJob(self.subject.ruleset, fights, self.metric, self.side, self.seed, b,
                         self.block_trials) for b in range(moments.blocks, blocks)]
        # in block order (sums stay exact), each block counted as it comes: a serial
        # executor plays one block per result taken, so progress moves under it too
        for block in in_order(self.executor, run_block, jobs):
            moments.add(block)
            if self.on_trials is not None:
                self.on_trials(block.size * len(fights))
        return moments

    def blocks_for(self, trials: int) -> int:
        """Whole blocks holding at least ``trials`` trials (a count that is not a whole
        number of blocks is rounded up, and :meth:`notes` says so)."""
        blocks = max(1, -(-_count("trials", trials, 1) // self.block_trials))
        if blocks * self.block_trials != trials:
            self.rounded = (int(trials), blocks * self.block_trials)
        return blocks

    rounded: tuple[int, int] | None = None

    def notes(self) -> tuple[str, ...]:
        """What the answer should say about how it was played (trials rounded up)."""
        if self.rounded is None:
            return ()
        asked, played = self.rounded
        return (f"{asked:,} trials asked for, {played:,} played: every version plays whole "
                f"blocks of {self.block_trials:,} trials from the same streams",)


def _count(name: str, value: Any, minimum: int) -> int:
    """A trial count, block size or seed, checked against its range."""
    return check_count(name, value, minimum=minimum,
                       maximum=MAX_SEED if name == "seed" else MAX_TRIALS)


def bad_value(runner: Runner, changes: Changes) -> str | None:
    """Why a variant cannot be played (the loader's or compiler's message), or None."""
    try:
        runner.fight(changes)
    except ScenarioError as err:
        return "; ".join(f"{p.path}: {p.message}" if p.path else p.message
                         for p in err.problems)
    return None


class pool:
    """An executor by name (opened here and shut down after) or one the caller holds."""

    def __init__(self, executor: str | Executor, scheduler: str | None = None,
                 workers: int | None = None):
        from balance.sweep.executors import open_executor

        self.given = executor if isinstance(executor, Executor) else None
        self.ctx = None if self.given else open_executor(executor, scheduler=scheduler,
                                                          workers=workers)

    def __enter__(self) -> Executor:
        return self.given if self.given is not None else self.ctx.__enter__()[0]

    def __exit__(self, *exc: Any) -> None:
        if self.ctx is not None:
            self.ctx.__exit__(*exc)
