"""``exchange``: how many steps of one field equal one step of another in a side's odds.

"What is +1 armour worth in skill?" The scenario, the scenario with GIVE moved one step and
the scenario with TAKE moved one step play the very same trials (common random numbers).
The exchange rate is the ratio of the two paired changes, ``delta_give / delta_take``: the
steps of TAKE that move the metric as far as one step of GIVE, read locally (one step of
each, from the scenario's values; where the metric bends, a rate far from 1 is a first
guess, and ``solve`` on TAKE with the target GIVE reaches gives the exact amount).

The interval is Fieller's for a ratio of two correlated means, with their covariance from the
per-trial differences; when TAKE's own change is not clearly away from zero the ratio has no
finite interval, and the answer says so instead of printing a meaningless one.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.analysis import words
from balance.analysis.panel import BLOCK_TRIALS, Runner, bad_value, pool, z_value
from balance.analysis.progress import Progress
from balance.analysis.sensitivities import CHUNK_BLOCKS, Change, _p_value
from balance.analysis.subject import Subject
from balance.errors import OptionError
from balance.sweep.paths import show
from balance.sweep.rows import reach_lines


@dataclass(frozen=True)
class Exchange:
    """The answer of :func:`exchange` (``to_dict`` is ``balance exchange --json``)."""

    scenario: str
    side: str | None
    metric: str
    give: Change
    take: Change
    rate: float
    interval: tuple[float, float] | None
    trials: int
    seed: int
    estimate: float
    reach: tuple[dict[str, Any], ...] = ()   # who each table field's change reaches
    notes: tuple[str, ...] = ()              # how it was played (trials rounded up)
    exact: bool = False        # answered by the exact engine (no sampling)

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "for": self.side, "metric": self.metric,
                "engine": "exact" if self.exact else "vector",
                "give": self.give.to_dict(), "take": self.take.to_dict(),
                "rate": words.num(self.rate),
                "interval": None if self.interval is None else
                [words.num(v) for v in self.interval],
                "sentence": self.sentence(),
                "trials": None if self.exact else self.trials,
                "seed": None if self.exact else self.seed,
                "base": {"estimate": words.num(self.estimate)},
                "common_random_numbers": not self.exact, "reach": list(self.reach),
                "notes": list(self.notes)}

    def to_frame(self):
        """The two paired changes as a pandas DataFrame (rows ``give`` and ``take``: path,
        label, from, to, change and 95% interval, p-value); the rate and its Fieller
        interval are columns too (the same on both rows) and in ``attrs``."""
        import pandas as pd

        low, high = self.interval if self.interval is not None else (None, None)
        frame = pd.DataFrame([{"role": role, "path": c.path, "label": c.name,
                               "from": c.from_, "to": c.to, "delta": c.delta,
                               "ci_low": c.ci95[0], "ci_high": c.ci95[1],
                               "p_value": c.p_value, "rate": self.rate, "rate_low": low,
                               "rate_high": high}
                              for role, c in (("give", self.give), ("take", self.take))])
        frame.attrs.update({"scenario": self.scenario, "for": self.side,
                            "metric": self.metric, "rate": self.rate,
                            "interval": self.interval, "sentence": self.sentence(),
                            "trials": self.trials, "seed": self.seed})
        return frame

    def sentence(self) -> str:
        give_step = self.give.to - self.give.from_
        take_step = self.take.to - self.take.from_
        amount = self.rate * take_step
        if not math.isfinite(amount):
            return f"{self.take.name} moves {words.what(self.metric, self.side)} too little " \
                   "to set a rate"
        span = ""
        if self.interval is not None and not self.exact:
            lo, hi = sorted(v * take_step for v in self.interval)
            span = f" [{lo:+.2g}, {hi:+.2g}]"
        return (f"{give_step:+g} {self.give.name} is worth {amount:+.2g}{span} "
                f"{self.take.name} in {words.what(self.metric, self.side)}")

    def to_text(self) -> str:
        change = words.fmt_change(self.metric)
        unit = words.unit(self.metric)
        lines = [f"{self.scenario}: {words.what(self.metric, self.side)} "
                 f"{words.fmt(self.metric)(self.estimate)} as written", ""]
        for name, c in (("give", self.give), ("take", self.take)):
            span = "" if self.exact else f" [{change(c.ci95[0])}, {change(c.ci95[1])}]"
            lines.append(f"  {name}  {c.name} {' -> '.join(c.shown())}: "
                         f"{change(c.delta)}{span} {unit}")
        lines += ["", "  " + self.sentence()]
        if self.exact:
            if self.take.delta == 0:
                lines.append("  (the take step changes nothing: no fighter's numbers depend "
                             f"on {self.take.name}, so nothing can be traded for it)")
            lines += ["", "  rate = change(give) / change(take), exact (the exact engine: no "
                          "sampling, no interval)"]
            return "\n".join(lines + reach_lines(self.reach)
                             + [f"  note: {n}" for n in self.notes])
        if self.interval is None and self.take.delta == 0 and tuple(self.take.ci95) == (0, 0):
            lines.append("  (the take step changes no trial: no fighter's numbers depend on "
                         f"{self.take.name}, so nothing can be traded for it)")
        elif self.interval is None:
            lines.append("  (the take step's change is not clearly away from 0, so the rate has "
                         "no finite 95% interval: use a larger --step-take or more --trials)")
        lines += ["", f"  rate = change(give) / change(take), Fieller 95% interval, paired; "
                      f"{self.trials:,} trials, seed {self.seed}, common random numbers"]
        return "\n".join(lines + reach_lines(self.reach) + [f"  note: {n}" for n in self.notes])


def exchange(scenario: str | os.PathLike | Mapping[str, Any] | Subject, give: str, take: str,
             *, side: str | None = None, metric: str = "win", give_step: float = 1,
             take_step: float = 1, trials: int | None = None, seed: int | None = None,
             block_trials: int = BLOCK_TRIALS, executor: str | Executor = "local",
             scheduler: str | None = None, workers: int | None = None,
             progress: bool = False, engine: str = "auto") -> Exchange:
    """How many ``take_step`` steps of ``take`` equal ``give_step`` of ``give``.

    ``engine``: ``auto`` (default) answers exactly where the exact engine covers the
    scenario (a duel: the rate is a ratio of exact differences), ``exact`` insists,
    ``vector`` samples (docs/exact.md)."""
    subject = Subject.load(scenario)
    pg, pt = subject.resolve(give, "--give"), subject.resolve(take, "--take")
    if pg == pt:
        raise OptionError("--give and --take name the same field")
    moves = []
    for path, step, option in ((pg, give_step, "--give"), (pt, take_step, "--take")):
        if isinstance(step, bool) or not isinstance(step, int | float) or step == 0 or \
                not math.isfinite(step):
            raise OptionError(f"{option} step must be a non-zero number, got {step!r}")
        start = subject.numeric(path, option)
        to = start + step
        moves.append((path, start, int(to) if isinstance(start, int) and
                      float(step).is_integer() else to, option))
    with pool(executor, scheduler, workers) as ex, \
            Progress("exchange", enabled=progress) as bar:
        runner = Runner(subject, metric=metric, side=side, seed=seed,
                        block_trials=block_trials, executor=ex, on_trials=bar.trials,
                        engine=engine)
        for path, _, to, option in moves:
            why = bad_value(runner, ((path, to),))
            if why:
                raise OptionError(f"{option}: {show(path)} = {to} is not a valid value: {why}")
        variants = [(), ((moves[0][0], moves[0][2]),), ((moves[1][0], moves[1][2]),)]
        blocks = runner.blocks_for(subject.base.model.trials if trials is None else trials)
        m = runner.moments(variants)
        if m.exact:
            bar.step(f"{len(variants)} versions, each exact (the exact engine)")
        while not m.exact and m.blocks < blocks:
            runner.extend(m, variants, min(blocks, m.blocks + CHUNK_BLOCKS))
            a, b = m.diff(0, 1)[0], m.diff(0, 2)[0]
            bar.step(f"{m.trials:,} trials: rate so far "
                     f"{a / b if b else math.inf:.3g}")
    changes = []
    for k, (path, start, to, _) in enumerate(moves, start=1):
        delta, ci, se = m.diff(0, k)
        texts = (subject.spelled(path, start), subject.spelled(path, to))
        changes.append(Change(show(path), start, to, delta, ci, _p_value(delta, se),
                              bool(ci[0] > 0 or ci[1] < 0), subject.name_of(path),
                              texts if None not in texts else None))
    cov = m.cov()
    w = np.array([[-1.0, 1.0, 0.0], [-1.0, 0.0, 1.0]])
    v = w @ cov @ w.T
    a, b = changes[0].delta, changes[1].delta
    rate = a / b if b != 0 else math.inf
    if m.exact:
        interval = (rate, rate) if b != 0 else None
    else:
        interval = fieller(a, b, v[0, 0], v[1, 1], v[0, 1])
    return Exchange(subject.base.model.name,
                    runner.side_name if runner.side is not None else None, metric,
                    changes[0], changes[1], rate, interval, m.trials, runner.seed,
                    m.mean(0), tuple(r for r in (subject.reach(pg), subject.reach(pt)) if r),
                    () if m.exact else runner.notes(), exact=m.exact)


def fieller(a: float, b: float, vaa: float, vbb: float, vab: float,
            level: float = 0.95) -> tuple[float, float] | None:
    """Fieller's interval for ``a / b`` (means with variances and covariance given), or
    None when ``b`` is not clearly away from zero (the set is then unbounded)."""
    z2 = z_value(level) ** 2
    qa = b * b - z2 * vbb
    qb = a * b - z2 * vab
    qc = a * a - z2 * vaa
    disc = qb * qb - qa * qc
    if qa <= 0 or disc < 0:
        return None
    root = math.sqrt(disc)
    return ((qb - root) / qa, (qb + root) / qa)
