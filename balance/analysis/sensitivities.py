"""``sensitivity``: which single step of which field moves a side's odds most, and is the
difference real?

Every field is moved one step up and one step down from the scenario's value; the base and
every moved version play the very same trials (common random numbers) and each change is
the mean of the per-trial differences, with a paired 95% interval. The changes are ranked by
size; each carries a p-value and whether it stays significant after Holm's correction over
all of them, and the largest is compared with the runner-up, paired too, so "which +1 helps
most" is answered with how sure that is.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from balance.analysis import words
from balance.analysis.panel import BLOCK_TRIALS, Moments, Runner, bad_value, pool
from balance.analysis.progress import Progress
from balance.analysis.subject import Subject, split_ladder
from balance.errors import OptionError
from balance.sweep.paths import FieldPath, show
from balance.sweep.rows import reach_lines

CHUNK_BLOCKS = 4          # blocks run at once between progress lines


@dataclass(frozen=True)
class Change:
    """One field moved one step: the paired change in the metric and its 95% interval."""

    path: str
    from_: int | float
    to: int | float
    delta: float
    ci95: tuple[float, float]
    p_value: float
    significant: bool = False
    label: str = ""            # a short name (knight.skills.single_weapon)
    texts: tuple[str, str] | None = None   # a dice field's from and to as dice (exchange)

    @property
    def name(self) -> str:
        return self.label or self.path

    def shown(self) -> tuple[str, str]:
        """From and to as the designer writes them (dice for a dice field's ladder)."""
        return self.texts or (words.value(self.from_), words.value(self.to))

    def to_dict(self) -> dict[str, Any]:
        out = {"path": self.path, "label": self.name, "from": self.from_, "to": self.to,
               "delta": words.num(self.delta), "ci95": [words.num(v) for v in self.ci95],
               "p_value": words.num(self.p_value), "significant": self.significant}
        if self.texts is not None:
            out |= {"from_text": self.texts[0], "to_text": self.texts[1]}
        return out


@dataclass(frozen=True)
class Sensitivity:
    """The answer of :func:`sensitivity` (``to_dict`` is ``balance sensitivity --json``)."""

    scenario: str
    side: str | None
    metric: str
    step: float
    trials: int
    seed: int
    estimate: float
    ci95: tuple[float, float]
    rows: list[Change]
    skipped: list[dict[str, Any]] = field(default_factory=list)
    best: dict[str, Any] | None = None
    both: bool = True          # moved down as well as up
    reach: tuple[dict[str, Any], ...] = ()   # who each table field's change reaches
    steps: dict[str, float] = field(default_factory=dict)   # fields with their own step
    notes: tuple[str, ...] = ()              # how it was played (trials rounded up)
    exact: bool = False        # every version answered by the exact engine (no sampling)

    def to_dict(self) -> dict[str, Any]:
        return {"scenario": self.scenario, "for": self.side, "metric": self.metric,
                "engine": "exact" if self.exact else "vector",
                "step": self.step, "steps": self.steps,
                "trials": None if self.exact else self.trials,
                "seed": None if self.exact else self.seed,
                "common_random_numbers": not self.exact,
                "base": {"estimate": words.num(self.estimate),
                         "ci95": [words.num(v) for v in self.ci95]},
                "rows": [r.to_dict() for r in self.rows], "skipped": self.skipped,
                "best": self.best, "correction": "holm", "reach": list(self.reach),
                "notes": list(self.notes)}

    def table(self) -> tuple[list[str], list[list[str]]]:
        """Header and rows of the ranked changes, as text cells."""
        change = words.fmt_change(self.metric)
        unit = words.unit(self.metric)
        if self.exact:      # no interval and no test: each change is the exact difference
            head = ["rank", "path", "from", "to", f"change {unit} (exact)".strip()]
            return head, [[str(i + 1), r.name, words.value(r.from_), words.value(r.to),
                           change(r.delta)] for i, r in enumerate(self.rows)]
        head = ["rank", "path", "from", "to", f"change {unit}".strip(), "95% interval",
                "significant"]
        rows = [[str(i + 1), r.name, words.value(r.from_), words.value(r.to), change(r.delta),
                 f"[{change(r.ci95[0])}, {change(r.ci95[1])}]",
                 "yes" if r.significant else "no"] for i, r in enumerate(self.rows)]
        return head, rows

    def headline(self) -> list[str]:
        what = words.what(self.metric, self.side)
        fmt = words.fmt(self.metric)
        if self.exact:
            return self._exact_headline(what, fmt)
        lines = [f"{self.scenario}: {what} {fmt(self.estimate)} [{fmt(self.ci95[0])}, "
                 f"{fmt(self.ci95[1])}] as written; each field moved by "
                 f"{'±' if self.both else '+'}{words.value(self.step)}{self._own_steps()}"
                 f" ({self.trials:,} trials, seed {self.seed}, common random numbers)"]
        if self.best:
            change = words.fmt_change(self.metric)
            b = self.best
            lo, hi = b["ci95"]
            real = "a real difference" if b["significant"] else "not a clear difference"
            lines.append(f"Largest gain: {b['label']} {words.value(b['from'])} -> "
                         f"{words.value(b['to'])}, ahead of the next ({b['next']}) by "
                         f"{change(b['margin'])} [{change(lo)}, {change(hi)}] "
                         f"{words.unit(self.metric)} (paired): {real}.")
        return lines

    def _exact_headline(self, what: str, fmt) -> list[str]:
        lines = [f"{self.scenario}: {what} {fmt(self.estimate)} as written, exact; each field "
                 f"moved by {'±' if self.both else '+'}{words.value(self.step)}"
                 f"{self._own_steps()} (the exact engine: no sampling, every change exact)"]
        if self.best:
            change = words.fmt_change(self.metric)
            b = self.best
            lines.append(f"Largest gain: {b['label']} {words.value(b['from'])} -> "
                         f"{words.value(b['to'])}, ahead of the next ({b['next']}) by "
                         f"{change(b['margin'])} {words.unit(self.metric)}.")
        return lines

    def _own_steps(self) -> str:
        sign = "±" if self.both else "+"
        return "".join(f", {label} by {sign}{words.value(v)}" for label, v in self.steps.items())

    def to_frame(self):
        """The ranked changes as a pandas DataFrame, one row per moved value: rank, path,
        label, from, to, the change and its paired 95% interval, p-value, significant."""
        import pandas as pd

        frame = pd.DataFrame([{"rank": i + 1, "path": r.path, "label": r.name,
                               "from": r.from_, "to": r.to, "delta": r.delta,
                               "ci_low": r.ci95[0], "ci_high": r.ci95[1],
                               "p_value": r.p_value, "significant": r.significant}
                              for i, r in enumerate(self.rows)],
                             columns=["rank", "path", "label", "from", "to", "delta",
                                      "ci_low", "ci_high", "p_value", "significant"])
        frame.attrs.update({"scenario": self.scenario, "for": self.side,
                            "metric": self.metric, "trials": self.trials, "seed": self.seed,
                            "estimate": self.estimate, "ci95": self.ci95})
        return frame

    def to_text(self) -> str:
        head, rows = self.table()
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
                  for i, h in enumerate(head)]
        out = [self.headline()[0], ""]
        out.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
        out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                for r in rows]
        if not self.exact:
            out += ["", "  significant: the paired 95% interval excludes 0 after Holm's "
                        f"correction over the {len(self.rows)} changes"]
        out += [f"  skipped {s['label']} -> {words.value(s['to'])}: {s['why']}"
                for s in self.skipped]
        if len(self.headline()) > 1:
            out += ["", self.headline()[1]]
        return "\n".join(out + reach_lines(self.reach) + [f"  note: {n}" for n in self.notes])

    def to_markdown(self) -> str:
        from balance.report.document import markdown_table

        head, rows = self.table()
        text = [f"# Sensitivity: {self.scenario}", "", *self.headline(), "",
                markdown_table(head, rows), "",
                "Each change is the mean of the per-trial differences from the scenario as "
                "written, both played from the same random streams; significant means its "
                "paired 95% interval excludes 0 after Holm's correction over all the changes."]
        text += [f"- skipped {s['label']} -> {s['to']}: {s['why']}" for s in self.skipped]
        return "\n".join(text) + "\n"


def sensitivity(scenario: str | os.PathLike | Mapping[str, Any] | Subject, *,
                paths: Sequence[str] | None = None, rows: Sequence[str] | None = None,
                fields: Sequence[str] | None = None, side: str | None = None,
                metric: str = "win", step: float = 1, both: bool = True,
                steps: Mapping[str, float] | None = None,
                trials: int | None = None, seed: int | None = None,
                block_trials: int = BLOCK_TRIALS, executor: str | Executor = "local",
                scheduler: str | None = None, workers: int | None = None,
                progress: bool = False, engine: str = "auto") -> Sensitivity:
    """Move each field by ``+step`` (and ``-step`` with ``both``) and rank the paired changes.

    Fields are ``paths`` (field paths) and/or ``rows`` (``TABLE:ROW,ROW``: every numeric field
    of those rows, or only ``fields``). ``steps`` gives some fields their own step (``{path:
    step}``, ``balance sensitivity --step PATH=STEP``; the path as in ``paths``, or a field a
    row brings in); the others move by ``step``. A moved value the loader rejects (below a
    minimum, a fraction for an integer field) is skipped and listed with the reason.
    ``engine``: ``auto`` (default) answers every change exactly where the exact engine covers
    the scenario (a duel: no intervals, no multiple-comparison correction needed), ``exact``
    insists, ``vector`` samples (docs/exact.md).
    """
    subject = Subject.load(scenario)
    if not paths and not rows:
        raise OptionError("give --paths PATH ... or --rows TABLE:ROW,...")
    _check_step("--step", step)
    option: dict[FieldPath, str] = {}    # the flag each field came from, for its messages
    for p in paths or ():
        option.setdefault(subject.resolve(p, "--paths"), "--paths")
    for spec in rows or ():
        for p in subject.row_paths(spec, list(fields) if fields else None):
            option.setdefault(p, "--fields" if fields else "--rows")
    chosen = list(option)
    own: dict[FieldPath, float] = {}     # a field's own step (--step PATH=STEP)
    for text, value in (steps or {}).items():
        _check_step(f"--step {text}", value)
        path = subject.resolve(text, "--step")
        if path not in option:
            raise OptionError(f"--step {text}={words.value(value)}: not one of the fields "
                              "moved (give it in --paths, or its row in --rows)")
        own[path] = value
    with pool(executor, scheduler, workers) as ex, \
            Progress("sensitivity", enabled=progress) as bar:
        runner = Runner(subject, metric=metric, side=side, seed=seed,
                        block_trials=block_trials, executor=ex, on_trials=bar.trials,
                        engine=engine)
        variants, moves, skipped = [()], [], []
        for path in chosen:
            start = subject.numeric(path, option[path])
            by = own.get(path, step)
            for sign in (1, -1) if both else (1,):
                to = start + sign * by
                if isinstance(start, int) and float(by).is_integer():
                    to = int(to)
                why = bad_value(runner, ((path, to),))
                # a dice field's ladder positions are shown as the dice they stand for
                said = (subject.spelled(path, start) or start, subject.spelled(path, to) or
                        (f"(no step {'above' if to > start else 'below'})"
                         if split_ladder(path)[1] else to))
                if why:
                    skipped.append({"path": show(path), "label": subject.name_of(path),
                                    "from": said[0], "to": said[1], "why": why})
                    continue
                variants.append(((path, to),))
                moves.append((show(path), *said, subject.name_of(path)))
        if not moves:
            raise OptionError("no field could be moved: " + "; ".join(
                f"{s['path']} -> {s['to']}: {s['why']}" for s in skipped))
        blocks = runner.blocks_for(subject.base.model.trials if trials is None else trials)
        m = runner.moments(variants)
        if m.exact:
            bar.step(f"{len(variants)} versions, each exact (the exact engine)")
        while not m.exact and m.blocks < blocks:
            runner.extend(m, variants, min(blocks, m.blocks + CHUNK_BLOCKS))
            top = max(range(1, len(variants)), key=lambda k: abs(m.diff(0, k)[0]))
            bar.step(f"{m.trials:,} of {blocks * runner.block_trials:,} trials; largest so "
                     f"far {moves[top - 1][3]} -> {words.value(moves[top - 1][2])}: "
                     f"{words.fmt_change(metric)(m.diff(0, top)[0])}")
    reached = tuple(r for r in (subject.reach(p) for p in chosen) if r)
    return dataclasses.replace(_ranked(subject, runner, m, moves, skipped, step, both),
                               reach=reached, notes=() if m.exact else runner.notes(),
                               steps={subject.name_of(p): v for p, v in own.items()},
                               exact=m.exact)


def _check_step(option: str, step: Any) -> None:
    if isinstance(step, bool) or not isinstance(step, int | float) or not step > 0 or \
            not math.isfinite(step):
        raise OptionError(f"{option} must be a positive number, got {step!r}")


def _ranked(subject: Subject, runner: Runner, m: Moments, moves: list[tuple[str, Any, Any, str]],
            skipped: list[dict[str, Any]], step: float, both: bool) -> Sensitivity:
    changes = []
    for k, (path, start, to, label) in enumerate(moves, start=1):
        delta, ci, se = m.diff(0, k)
        changes.append(Change(path, start, to, delta, ci, _p_value(delta, se), label=label))
    flags = holm([c.p_value for c in changes])
    changes = [dataclasses.replace(c, significant=f) for c, f in zip(changes, flags, strict=True)]
    order = sorted(range(len(changes)), key=lambda i: -abs(changes[i].delta))
    return Sensitivity(subject.base.model.name,
                       runner.side_name if runner.side is not None else None, runner.metric,
                       step, m.trials, runner.seed, m.mean(0), m.interval(0),
                       [changes[i] for i in order], skipped, _best(m, changes), both)


def _best(m: Moments, changes: list[Change]) -> dict[str, Any] | None:
    """The change that raises the metric most, and by how much it beats the runner-up
    (the paired difference of the two moved versions, on the same trials). The runner-up is
    the best change of *another* field: the same field moved the other way is no rival."""
    up = sorted(range(len(changes)), key=lambda i: -changes[i].delta)
    if not up or changes[up[0]].delta <= 0:
        return None
    i = up[0]
    j = next((k for k in up[1:] if changes[k].path != changes[i].path), None)
    if j is None:
        return None
    margin, ci, _ = m.diff(j + 1, i + 1)
    top = changes[i]
    return {"path": top.path, "label": top.name, "from": top.from_, "to": top.to,
            "next": f"{changes[j].name} -> {words.value(changes[j].to)}",
            "margin": words.num(margin), "ci95": [words.num(v) for v in ci],
            "significant": bool(ci[0] > 0 or ci[1] < 0)}


def _p_value(delta: float, se: float) -> float:
    """Two-sided normal p-value of a paired change (1 when the change is exactly nothing)."""
    if se == 0:
        return 1.0 if delta == 0 else 0.0
    return 2 * (1 - NormalDist().cdf(abs(delta) / se))


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down correction: which hypotheses are rejected at family-wise ``alpha``."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    out = [False] * len(p_values)
    for rank, i in enumerate(order):
        if p_values[i] > alpha / (len(p_values) - rank):
            break
        out[i] = True
    return out
