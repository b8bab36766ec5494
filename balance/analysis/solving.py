"""``solve``: the value of a field that brings a side's metric to a target.

"What long sword damage makes this duel 50/50?" The metric (a side's win probability, mean
rounds, mean fighters dead, ...) is taken to move one way as the field grows. The search
spends trials where the crossing is:

1. **Bracket.** With ``range`` the two ends are tried; without it (integer fields) values at
   doubling steps either side of the scenario's own value, until the metric is on both sides
   of the target (a value the loader rejects ends that direction).
2. **Bisect.** Each midpoint is played in doubling blocks until its interval excludes the
   target (the level split over the looks, Bonferroni, so a point is put on the wrong side
   rarely), or up to ``trials``; at full trials the estimate's side decides.
3. **Interval.** The bracketing values and the nearest values whose 95% intervals exclude the
   target are played to full trials; the values consistent with the target at 95% run from
   where the upper interval band crosses it to where the lower band does (linear between
   the values played).

Every value is played from the same random streams (common random numbers), so estimates at
different values differ by the field's effect, not by different dice, and the bracketing
is steady. The scalar details live in :class:`Solution`.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from balance.analysis import words
from balance.analysis.panel import BLOCK_TRIALS, Moments, Runner, bad_value, pool
from balance.analysis.progress import Progress
from balance.analysis.subject import Subject
from balance.errors import OptionError
from balance.sweep.paths import FieldPath, show
from balance.sweep.rows import reach_lines

MAX_DOUBLINGS = 12       # bracketing without a range: steps 1, 2, 4, ... 2048 either way
FLOAT_STEPS = 256        # a float field's resolution: its range / this


@dataclass(frozen=True)
class Point:
    """One value tried: trials played, the metric's estimate and 95% interval."""

    value: int | float
    trials: int
    estimate: float
    ci95: tuple[float, float]
    text: str | None = None     # a dice field's value as dice (its ladder position's)

    def to_dict(self) -> dict[str, Any]:
        out = {"value": self.value, "trials": self.trials, "estimate": words.num(self.estimate),
               "ci95": [words.num(v) for v in self.ci95]}
        return out | ({"text": self.text} if self.text is not None else {})

    def shown(self) -> str:
        """The value, with its dice beside a dice field's ladder position: ``3 (1D6+3)``."""
        return words.value(self.value) + (f" ({self.text})" if self.text else "")


@dataclass(frozen=True)
class Solution:
    """The answer of :func:`solve` (``to_dict`` is the ``balance solve --json`` object)."""

    path: str
    side: str | None
    metric: str
    target: float
    value: int | float
    crossing: float
    interval: tuple[float, float]
    estimate: float
    ci95: tuple[float, float]
    below: Point | None
    above: Point | None
    integer: bool
    trials: int
    seed: int
    scenario: str
    evaluations: list[Point] = field(default_factory=list)
    label: str = ""             # a short name (knight.skills.single_weapon)
    text: str | None = None     # a dice field's answer as dice (``value`` is its position)
    reach: tuple[dict[str, Any], ...] = ()   # who a table field's change reaches
    notes: tuple[str, ...] = ()              # how it was played (trials rounded up)
    exact: bool = False         # every value answered by the exact engine (no sampling)

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "path": self.path, "label": self.label or self.path,
                "engine": "exact" if self.exact else "vector",
                "for": self.side,
                "metric": self.metric, "target": self.target, "value": self.value,
                **({"text": self.text} if self.text is not None else {}),
                "interval": [words.num(v) for v in self.interval],
                "estimate": words.num(self.estimate), "ci95": [words.num(v) for v in self.ci95],
                "crossing": words.num(self.crossing), "integer": self.integer,
                "bracket": [p.to_dict() for p in (self.below, self.above) if p is not None],
                "trials": None if self.exact else self.trials,
                "seed": None if self.exact else self.seed,
                "evaluations": [p.to_dict() for p in self.evaluations],
                "reach": list(self.reach), "notes": list(self.notes)}

    def to_frame(self):
        """Every value played, in order, as a pandas DataFrame: value, trials, estimate and
        95% interval, and whether it is one of the two bracketing values (full trials)."""
        import pandas as pd

        bracket = {p.value for p in (self.below, self.above) if p is not None}
        frame = pd.DataFrame([{"value": p.value, "trials": p.trials, "estimate": p.estimate,
                               "ci_low": p.ci95[0], "ci_high": p.ci95[1],
                               "bracket": p.value in bracket} for p in self.evaluations],
                             columns=["value", "trials", "estimate", "ci_low", "ci_high",
                                      "bracket"])
        frame.attrs.update({"path": self.path, "label": self.label or self.path,
                            "target": self.target, "answer": self.value,
                            "crossing": self.crossing, "interval": self.interval,
                            "metric": self.metric, "for": self.side, "seed": self.seed})
        return frame

    def _exact_text(self, lines: list[str], value: str, what: str, fmt) -> str:
        """The answer when every value was solved exactly: no intervals, the exact crossing
        (linear between the bracketing values of an integer field)."""
        lines.append(f"  value      {value}   ({what} {fmt(self.estimate)}, exact)")
        between = ("linear between the two values either side" if self.integer
                   else "bisected on the exact curve")
        lines.append(f"  crossing   {self.crossing:.4g}   (where the exact curve crosses the "
                     f"target: {between})")
        if self.integer and self.below is not None and self.above is not None:
            lines += ["", "  bracketing values:"]
            for p in sorted((self.below, self.above), key=lambda p: p.value):
                lines.append(f"    {p.shown():>8}  {fmt(p.estimate)}  (exact)")
        lines += ["", f"  {len(self.evaluations)} evaluations, each exact (the exact engine: "
                      "a Markov chain of the duel, no sampling, no seed)"]
        return "\n".join(lines + reach_lines(self.reach) + [f"  note: {n}" for n in self.notes])

    def to_text(self) -> str:
        what = words.what(self.metric, self.side)
        fmt = words.fmt(self.metric)
        lines = [f"{self.scenario}: {self.label or self.path} for {what} = "
                 f"{fmt(self.target)}", ""]
        value = words.value(self.value) + (f" ({self.text})" if self.text else "")
        if self.exact:
            return self._exact_text(lines, value, what, fmt)
        lines.append(f"  value      {value}   ({what} {fmt(self.estimate)} "
                     f"[{fmt(self.ci95[0])}, {fmt(self.ci95[1])}])")
        lines.append(f"  crossing   {self.crossing:.3g}   (where the estimates cross the target)")
        lo, hi = self.interval
        lines.append(f"  interval   [{words.value(lo)}, {words.value(hi)}]   (values "
                     "consistent with the target at 95%)")
        if not self.ci95[0] <= self.target <= self.ci95[1] and self.below and self.above:
            lines.append(f"  (no value tried is consistent with the target at 95%: the metric "
                         f"jumps across it between {self.below.shown()} and "
                         f"{self.above.shown()})")
        if self.integer and self.below is not None and self.above is not None:
            lines += ["", "  bracketing values:"]
            for p in sorted((self.below, self.above), key=lambda p: p.value):
                lines.append(f"    {p.shown():>8}  {fmt(p.estimate)} [{fmt(p.ci95[0])}, "
                             f"{fmt(p.ci95[1])}]  ({p.trials:,} trials)")
        total = sum(p.trials for p in self.evaluations)
        lines += ["", f"  {len(self.evaluations)} evaluations, {total:,} trials in all, "
                      f"common random numbers, seed {self.seed}"]
        return "\n".join(lines + reach_lines(self.reach) + [f"  note: {n}" for n in self.notes])


def solve(scenario: str | os.PathLike | Mapping[str, Any] | Subject, vary: str, target: float,
          *, side: str | None = None, metric: str = "win",
          range: tuple[float, float] | None = None, trials: int | None = None,
          seed: int | None = None, block_trials: int = BLOCK_TRIALS,
          tolerance: float | None = None, executor: str | Executor = "local",
          scheduler: str | None = None, workers: int | None = None,
          progress: bool = False, engine: str = "auto") -> Solution:
    """The value of ``vary`` that brings ``side``'s ``metric`` to ``target``.

    ``trials`` is the most trials any one value gets (default: the scenario's; whole blocks
    of ``block_trials``). ``range`` bounds the search (required for a non-integer field);
    ``tolerance`` is a non-integer field's resolution (default: the range / 256).
    ``engine``: ``auto`` (default) solves each value exactly where the exact engine covers
    the scenario (a duel: the crossing is then found on the exact curve, with no interval of
    noise), ``exact`` insists, ``vector`` samples (docs/exact.md).
    """
    subject = Subject.load(scenario)
    path = subject.resolve(vary, "--vary")
    start = subject.numeric(path, "--vary")
    if isinstance(target, bool) or not isinstance(target, int | float) or \
            not math.isfinite(target):
        raise OptionError(f"--target must be a number, got {target!r}")
    _check_target(target, metric)
    integer = isinstance(start, int)
    if range is not None:
        lo, hi = sorted(range)
        if integer and not (float(lo).is_integer() and float(hi).is_integer()):
            raise OptionError(f"--range: {show(path)} is an integer field; give whole numbers")
        lo, hi = (int(lo), int(hi)) if integer else (float(lo), float(hi))
        if lo == hi:
            raise OptionError("--range: LO and HI must differ")
    elif not integer:
        raise OptionError(f"--range LO HI is needed for {show(path)}, a non-integer field")
    with pool(executor, scheduler, workers) as executor_, \
            Progress(f"solve {subject.name_of(path)}", enabled=progress) as bar:
        runner = Runner(subject, metric=metric, side=side, seed=seed,
                        block_trials=block_trials, executor=executor_, on_trials=bar.trials,
                        engine=engine)
        cap = runner.blocks_for(subject.base.model.trials if trials is None else trials)
        search = _Search(runner, path, float(target), cap, integer, bar)
        if range is not None:
            search.limits = (lo, hi)
            for v in (lo, hi):
                why = bad_value(runner, ((path, v),))
                if why:
                    raise OptionError(f"--range: {show(path)} = {v} is not a valid value: {why}")
            low, high = search.bracket_range(lo, hi)
        else:
            low, high = search.bracket_out(start)
        resolution = 1 if integer else (tolerance or (high - low) / FLOAT_STEPS)
        low, high = search.bisect(low, high, resolution)
        answer = search.answer(low, high, resolution, side_name=runner.side_name
                               if runner.side is not None else None)
    exact = all(m.exact for m in search.points.values())
    return dataclasses.replace(answer, reach=tuple(r for r in [subject.reach(path)] if r),
                               notes=() if exact else runner.notes(), exact=exact)


class _Search:
    """The state of one solve: every value's moments, and the decisions made on them."""

    def __init__(self, runner: Runner, path: FieldPath, target: float, cap: int,
                 integer: bool, bar: Progress):
        self.runner, self.path, self.target, self.cap = runner, path, target, cap
        self.integer, self.bar = integer, bar
        self.limits: tuple[Any, Any] | None = None
        self.points: dict[int | float, Moments] = {}
        self.order: list[int | float] = []
        self.looks = _doubling(cap)
        self.level = 1 - 0.05 / len(self.looks)     # per look: 95% over all looks

    # -- playing values
    def play(self, v: int | float, blocks: int) -> Moments:
        variant = ((self.path, v),)
        if v not in self.points:
            self.points[v] = self.runner.moments([variant])
            self.order.append(v)
        m = self.points[v]
        if m.blocks < blocks:
            self.runner.extend(m, [variant], blocks)
        return m

    def side_of(self, v: int | float) -> int:
        """+1 if the metric at ``v`` is above the target, -1 below: played in doubling
        blocks until the interval excludes the target, else decided by the estimate."""
        new = v not in self.points
        before = self.points[v].trials if v in self.points else 0
        for blocks in self.looks:
            m = self.play(v, blocks)
            lo, hi = m.interval(0, self.level)
            if lo > self.target or hi < self.target:
                break
        if m.trials > before or (m.exact and new):
            self._note(v, m)
        return 1 if m.mean() >= self.target else -1

    def full(self, v: int | float) -> Moments:
        m = self.play(v, self.cap)
        return m

    def _note(self, v: int | float, m: Moments) -> None:
        fmt = words.fmt(self.runner.metric)
        lo, hi = m.interval(0)
        if m.exact:
            self.bar.step(f"{self._point(v).shown()} -> {fmt(m.mean())} (exact)")
            return
        self.bar.step(f"{self._point(v).shown()} -> {fmt(m.mean())} [{fmt(lo)}, {fmt(hi)}] "
                      f"({m.trials:,} trials)")

    # -- phase 1: a bracket
    def bracket_range(self, lo: int | float, hi: int | float) -> tuple[Any, Any]:
        s_lo, s_hi = self.side_of(lo), self.side_of(hi)
        if s_lo == s_hi:
            self._unreachable([lo, hi], f"in [{words.value(lo)}, {words.value(hi)}]")
        return lo, hi

    def bracket_out(self, start: int) -> tuple[int, int]:
        """Values at doubling steps either side of ``start`` until one is across the target.

        A direction ends at the last value the loader accepts, or once two steps in a row
        have moved the metric away from the target."""
        s0 = self.side_of(start)
        tried = [start]
        last = {1: start, -1: start}
        away = {1: 0, -1: 0}
        for k in range(MAX_DOUBLINGS):
            for d in (1, -1):
                if away[d] >= 2:
                    continue
                v = start + d * 2 ** k
                if bad_value(self.runner, ((self.path, v),)):
                    v = self._last_valid(last[d], v)
                    away[d] = 2                        # the field ends here
                    if v == last[d]:
                        continue
                tried.append(v)
                if self.side_of(v) != s0:
                    return min(last[d], v), max(last[d], v)
                gap = abs(self.points[v].mean() - self.target)
                if gap > abs(self.points[last[d]].mean() - self.target):
                    away[d] += 1
                else:
                    away[d] = 0
                last[d] = v
            if min(away.values()) >= 2:
                break
        self._unreachable(tried, f"from {min(tried)} to {max(tried)} (give --range to "
                                 "search elsewhere)")
        raise AssertionError  # _unreachable raises

    def _last_valid(self, good: int, bad: int) -> int:
        """The valid value nearest ``bad`` between ``good`` (valid) and ``bad`` (not)."""
        while abs(bad - good) > 1:
            mid = (good + bad) // 2
            if bad_value(self.runner, ((self.path, mid),)):
                bad = mid
            else:
                good = mid
        return good

    def _unreachable(self, tried: list[int | float], where: str) -> None:
        best = min(tried, key=lambda v: abs(self.points[v].mean() - self.target))
        m = self.full(best)
        fmt = words.fmt(self.runner.metric)
        lo, hi = m.interval(0)
        what = words.what(self.runner.metric, self.runner.side_name
                     if self.runner.side is not None else None)
        raise OptionError(
            f"no value of {show(self.path)} {where} brings {what} to {fmt(self.target)}: "
            f"the closest is {fmt(m.mean())} [{fmt(lo)}, {fmt(hi)}] at {self._point(best).shown()}")

    # -- phase 2: bisection
    def bisect(self, a: Any, b: Any, resolution: float) -> tuple[Any, Any]:
        sa = self.side_of(a)
        while abs(b - a) > resolution:
            m = (a + b) // 2 if self.integer else (a + b) / 2
            if m in (a, b):
                break
            if self.side_of(m) == sa:
                a = m
            else:
                b = m
        return (a, b) if a < b else (b, a)

    # -- phase 3: the answer and its interval
    def answer(self, a: Any, b: Any, resolution: float, *, side_name: str | None) -> Solution:
        ma, mb = self.full(a), self.full(b)
        crossing = _cross(a, ma.mean(), b, mb.mean(), self.target)
        if self.integer:
            value = min((a, b), key=lambda v: abs(self.points[v].mean() - self.target))
        else:
            value = crossing
        mv = self.full(value)
        lower, upper = sorted((self._edge(b, a, resolution), self._edge(a, b, resolution)))
        fmt_pts = [self._point(v) for v in self.order]
        return Solution(
            path=show(self.path), side=side_name, metric=self.runner.metric,
            target=self.target, value=value, crossing=crossing, interval=(lower, upper),
            estimate=mv.mean(), ci95=mv.interval(0), below=self._point(a),
            above=self._point(b), integer=self.integer,
            trials=self.cap * self.runner.block_trials, seed=self.runner.seed,
            scenario=self.runner.subject.base.model.name, evaluations=fmt_pts,
            label=self.runner.subject.name_of(self.path),
            text=self.runner.subject.spelled(self.path, value))

    def _excludes(self, v: Any, outside: int) -> bool:
        """Does the 95% interval at ``v`` lie wholly on the ``outside`` side of the target?"""
        lo, hi = self.full(v).interval(0)
        return hi < self.target if outside < 0 else lo > self.target

    def _edge(self, inner: Any, end: Any, resolution: float) -> float:
        """Where the values consistent with the target end beyond the bracket end ``end``
        (``inner`` is the other end): the nearest value whose interval excludes the target,
        found among the values tried (or further out), bisected against the last value that
        does not, and the interval band interpolated between the two."""
        outside = -1 if self.full(end).mean() < self.target else 1
        direction = 1 if end > inner else -1
        beyond = sorted((v for v in self.order if (v - end) * direction > 0),
                        key=lambda v: abs(v - end))
        outer = None
        for v in [end, *beyond]:
            if self._excludes(v, outside):
                outer = v
                break
            inner = v
        step = resolution if self.integer else resolution * 4
        while outer is None:
            v = inner + direction * step
            if not self._allowed(v):
                return float(inner)         # consistent up to the field's (or range's) end
            if self._excludes(v, outside):
                outer = v
            else:
                inner = v
                step *= 2
        while abs(outer - inner) > resolution:
            m = (inner + outer) // 2 if self.integer else (inner + outer) / 2
            if m in (inner, outer):
                break
            if self._excludes(m, outside):
                outer = m
            else:
                inner = m
        band = 1 if outside < 0 else 0
        return _cross(outer, self.full(outer).interval(0)[band], inner,
                      self.full(inner).interval(0)[band], self.target)

    def _allowed(self, v: Any) -> bool:
        if self.limits is not None and not self.limits[0] <= v <= self.limits[1]:
            return False
        if len(self.order) > 200:
            return False
        return bad_value(self.runner, ((self.path, v),)) is None

    def _point(self, v: Any) -> Point:
        m = self.points[v]
        return Point(v, m.trials, m.mean(), m.interval(0),
                     self.runner.subject.spelled(self.path, v))


def _doubling(cap: int) -> list[int]:
    out, b = [], 1
    while b < cap:
        out.append(b)
        b *= 2
    return [*out, cap]


def _check_target(target: float, metric: str) -> None:
    """A target the metric can never reach is a slip (``--target 50`` for 50%), not a search:
    shares run from 0 to 1, counts and rounds are never negative."""
    if metric in words.SHARES and not 0 <= target <= 1:
        hint = f" (for {target:g}% give {target / 100:g})" if 1 < target <= 100 else ""
        raise OptionError(f"--target {target:g}: {metric} is a share from 0 to 1{hint}")
    if target < 0:
        raise OptionError(f"--target {target:g}: {metric} is never negative")


def _cross(x0: float, y0: float, x1: float, y1: float, target: float) -> float:
    """Where the line through (x0, y0) and (x1, y1) meets ``target`` (clamped to [x0, x1])."""
    if y1 == y0:
        return float((x0 + x1) / 2)
    t = min(max((target - y0) / (y1 - y0), 0.0), 1.0)
    return float(x0 + t * (x1 - x0))
