"""``balance autobalance``: the table values that bring a round robin closest to a target.

The target is every match-up even, or a designer's matrix (blank cells free). The search
(:mod:`balance.analysis.racing`) varies the named table fields (integers stay integers)
with common random numbers between candidates and successive halving; the reported "before"
and "after" are then measured on fresh random numbers (the sweep's own streams, which the
search never drew from), so the improvement is not the search's own luck. They are exactly
what ``balance sweep`` reports for the scenario with the old and the new values.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.analysis.fields import reach_of, varied_fields
from balance.analysis.matrix import from_run
from balance.analysis.racing import RUNGS, Evaluator, Field, Measured, Pairing, measure, search
from balance.errors import MAX_TRIALS, OptionError, check_count

BUDGET_EVALUATIONS = 20      # default budget: this many full round robins at --trials


@dataclass(frozen=True)
class Autobalance:
    """The suggested values and how much closer to the target they bring the round robin."""

    scenario: str
    ruleset: str
    target: str                          # "even" or the target file
    fields: tuple[Field, ...]
    values: dict[str, float | int]
    before: Measured                     # start values, fresh random numbers
    after: Measured                      # suggested values, the same fresh random numbers
    estimate: Measured                   # the search's own estimate of the suggested values
    evaluations: int
    trials_spent: int
    budget: int
    trials: int
    seed: int
    patches: dict[str, dict[str, dict[str, Any]]]   # the scenario's own tables: block
    reach: tuple[dict[str, Any], ...] = ()           # who each varied field's change reaches

    @property
    def exact(self) -> bool:
        """Every cell of the before and after round robins was solved exactly."""
        return bool(self.before.matrix.source.get("exact")
                    and self.after.matrix.source.get("exact"))

    @property
    def start(self) -> dict[str, float | int]:
        return {f.path: f.cast(f.start) for f in self.fields}

    @property
    def bounds(self) -> dict[str, tuple[float, float]]:
        return {f.path: (f.cast(f.low), f.cast(f.high)) for f in self.fields}

    @property
    def improved(self) -> bool:
        return self.after.objective < self.before.objective

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``balance autobalance`` (finite numbers only)."""
        return {"scenario": self.scenario, "ruleset": self.ruleset, "target": self.target,
                "values": self.values, "start": self.start,
                "bounds": {p: list(b) for p, b in self.bounds.items()},
                "before": self.before.to_dict(), "after": self.after.to_dict(),
                "improved": self.improved, "search_estimate": self.estimate.to_dict(),
                "evaluations": self.evaluations, "trials_spent": self.trials_spent,
                "budget": self.budget, "trials": self.trials, "seed": self.seed,
                "options": self.after.matrix.options,
                "matrix_before": self.before.matrix.score.tolist(),
                "matrix_after": self.after.matrix.score.tolist(),
                "tables": self.tables(), "reach": list(self.reach),
                "engine": "exact" if self.exact else "vector"}

    def summary(self) -> list[str]:
        """The result in sentences."""
        b, a = self.before, self.after
        how = ("both exact (every cell a duel the exact engine solves)" if self.exact else
               f"both measured on fresh random numbers ({self.trials:,} trials per cell, "
               f"seed {self.seed})")
        out = [f"Worst deviation from the target: {100 * b.max_abs_dev:.1f} -> "
               f"{100 * a.max_abs_dev:.1f} points (rms {100 * b.rms_dev:.1f} -> "
               f"{100 * a.rms_dev:.1f}), {how}."]
        moved = [f"{p} {self.shown(p, self.start[p])} -> {self.shown(p, v)}"
                 for p, v in self.values.items() if v != self.start[p]]
        out.append("Suggested: " + "; ".join(moved) + "." if moved else
                   "No candidate did better than the start values: keep them.")
        edge = [f"{f.path} at {self.shown(f.path, self.values[f.path])}" for f in self.fields
                if self.values[f.path] != self.start[f.path]
                and self.values[f.path] in (f.cast(f.low), f.cast(f.high))]
        if edge:
            out.append(f"The search stopped at a bound ({'; '.join(edge)}): widen --bounds "
                       "to search further, if such values make sense.")
        if moved and not self.improved:
            out.append("The fresh measurement does not confirm the search's gain: the "
                       "difference is within noise. Raise --trials or keep the start values.")
        out.append(f"The search made {self.evaluations} evaluations and played "
                   f"{self.trials_spent:,} trials (budget {self.budget:,}); its own estimate "
                   f"of the worst deviation was {100 * self.estimate.max_abs_dev:.1f} points "
                   "(chosen on those numbers, so optimistic).")
        out += [r["sentence"] for r in self.reach]
        return out

    def shown(self, path: str, v: float) -> str:
        """A value as the designer writes it: a number, or a dice field's dice."""
        f = next(f for f in self.fields if f.path == path)
        return str(f.value(v)) if f.ladder else f"{v:g}"

    def search_info(self) -> dict[str, Any]:
        return {"target": self.target, "evaluations": self.evaluations,
                "trials played": f"{self.trials_spent:,}", "budget": f"{self.budget:,}",
                "trials per cell (before/after)": f"{self.trials:,}", "seed": self.seed,
                "common random numbers": "between every candidate (cells keyed by pairing)"}

    def tables(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The scenario's tables: block with the suggested values merged in."""
        out = copy.deepcopy(self.patches)
        for f in self.fields:
            _, table, row, name = f.parts
            out.setdefault(table, {}).setdefault(row, {})[name] = f.value(self.values[f.path])
        return out

    def yaml_snippet(self) -> str:
        """The suggested rows, ready to paste under ``tables:`` (old values in comments)."""
        from balance.io.jsonout import dumps

        was = {f.parts[1:]: f.value(f.start) for f in self.fields}
        lines = [f"# balance autobalance: {self.scenario}, target {self.target}",
                 f"# worst deviation {100 * self.before.max_abs_dev:.1f} -> "
                 f"{100 * self.after.max_abs_dev:.1f} points (fresh random numbers, "
                 f"{self.trials:,} trials per cell, seed {self.seed})",
                 "# paste under the scenario's `tables:` (replacing these rows)"]
        for r in self.reach:              # a fighter's own copy: the member must name it
            if "@" in r["row"]:
                lines.append(f"# {r['row']} is a fighter's own copy of {r['row'].split('@')[0]}"
                             f": name it at {', '.join(r['where'])} in the scenario")
        for table, rows in self.tables().items():
            lines.append(f"{table}:")
            for row, fields in rows.items():
                lines.append(f"  {row}:")
                for name, value in fields.items():
                    old = was.get((table, row, name))
                    note = f"   # was {dumps(old)}" if old is not None and old != value else ""
                    lines.append(f"    {name}: {dumps(value)}{note}")
        return "\n".join(lines) + "\n"


def autobalance(source: Any, vary: Sequence[str], *, target: str | os.PathLike = "even",
                bounds: Mapping[str, tuple[float, float]] | None = None,
                budget: int | None = None, trials: int | None = None, seed: int | None = None,
                on_step: Callable[[dict[str, Any]], None] | None = None,
                progress: bool = False, engine: str = "auto") -> Autobalance:
    """Search the values of the ``vary`` table fields that bring the round robin of
    ``source`` (a scenario file, mapping or Plan with a ``round_robin`` sweep) closest to
    ``target`` ("even", or a CSV matrix with blank cells free). ``budget`` caps the trials
    the search plays (default: 20 full round robins at ``trials`` per cell). ``on_step``
    sees each line search as it ends; ``progress`` shows the before and after round robins'
    cells on stderr as they finish. ``engine``: ``auto`` (default) solves each cell the
    exact engine covers exactly (duels: the search then compares exact matrices, and the
    confirmation is exact too), ``vector`` samples every cell (docs/exact.md)."""
    from balance.sweep.plan import Plan, load_plan

    plan = source if isinstance(source, Plan) else load_plan(source)
    # its own data: a field through a fighter writes the fighter's copy of the row into it
    plan = dataclasses.replace(plan, data=copy.deepcopy(plan.data))
    model = plan.base.model
    trials = _positive("trials", model.trials if trials is None else trials)
    seed = model.seed if seed is None else seed
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise OptionError(f"seed must be an integer >= 0, got {seed!r}")
    first, second, options = _round_robin(plan)
    fields = tuple(varied_fields(plan, vary, bounds or {}))
    reached = reach_of(plan, fields)
    goal = target_matrix(options, target)
    index = {o: i for i, o in enumerate(options)}
    # only the cells the target fixes matter to the search (the confirmation plays them all)
    pairings = [Pairing(c.id, c.stream, str(c.values[first]), str(c.values[second]),
                        plan.cell_data(c)) for c in plan.cells
                if not np.isnan(goal[index[str(c.values[first])], index[str(c.values[second])]])]
    if not pairings:
        raise OptionError(f"--target {target}: every cell is blank; nothing to aim at")
    budget = _positive("budget", BUDGET_EVALUATIONS * trials * len(pairings)
                       if budget is None else budget)
    t0 = max(1, math.ceil(trials / (2 ** RUNGS - 1)))
    if engine not in ("auto", "vector"):
        raise OptionError(f"engine must be auto or vector, got {engine!r}")
    ev = Evaluator(plan.ruleset, pairings, options, goal, fields, seed, t0, engine=engine)
    start = tuple(f.cast(min(f.high, max(f.low, f.start))) for f in fields)
    if ev.fights(start) is None:
        _raise_invalid(plan, fields, start)
    values, estimate = search(ev, budget, on_step)
    before = confirm(plan, fields, start, goal, trials, seed, progress=progress, engine=engine)
    after = before if values == start else confirm(plan, fields, values, goal, trials, seed,
                                                   progress=progress, engine=engine)
    patches = copy.deepcopy(plan.data.get("tables") or {})
    return Autobalance(plan.name, plan.ruleset, str(target), fields,
                       {f.path: f.cast(v) for f, v in zip(fields, values, strict=True)},
                       before, after, estimate, ev.evaluations, ev.trials_spent, budget,
                       trials, seed, patches, reached)


def confirm(plan: Any, fields: Sequence[Field], values: tuple, target: np.ndarray,
            trials: int, seed: int, *, progress: bool = False,
            engine: str = "auto") -> Measured:
    """The round robin with these values, on the sweep's own streams (fresh for the search)."""
    from balance.sweep.run import run_sweep

    data = copy.deepcopy(plan.data)
    for f, v in zip(fields, values, strict=True):
        f.assign(data, v)
    res = run_sweep(data, sweep=sweep_block(plan), trials=trials, seed=seed, out=None,
                    progress=progress, engine=engine)
    return measure(from_run(res.table, res.manifest), target)


def sweep_block(plan: Any) -> dict[str, Any]:
    """The plan's sweep without mirror matches; the same cells keep the same streams."""
    text = lambda p: ".".join(map(str, p))  # noqa: E731
    rr = [a for a in plan.axes if a.kind == "round_robin"]
    block: dict[str, Any] = {"round_robin": {
        "paths": [text(rr[0].paths[0]), text(rr[1].paths[0])], "values": list(rr[0].values),
        "labels": list(rr[0].labels), "names": [rr[0].name, rr[1].name], "mirror": False}}
    others = {a.name: {"paths": [text(p) for p in a.paths], "values": list(a.values),
                       "labels": list(a.labels)} for a in plan.axes if a.kind != "round_robin"}
    if others:
        block["grid"] = others
    if plan.crn:
        block["crn"] = list(plan.crn)
    return block


def target_matrix(options: list[str], target: str | os.PathLike) -> np.ndarray:
    """The target as a matrix in the run's option order (NaN: free; the diagonal is free)."""
    n = len(options)
    if str(target) == "even":
        goal = np.full((n, n), 0.5)
    else:
        from balance.io.matrix import read_matrix

        names, values = read_matrix(target, blanks=True, what="--target")
        if set(names) != set(options):
            missing = [o for o in options if o not in names]
            extra = [o for o in names if o not in options]
            raise OptionError(f"--target {target}: its options differ from the round robin's"
                              + (f"; missing {', '.join(missing)}" if missing else "")
                              + (f"; not in the round robin: {', '.join(extra)}" if extra
                                 else ""))
        order = [names.index(o) for o in options]
        goal = values[np.ix_(order, order)]
        for i, j in zip(*np.triu_indices(n, 1), strict=True):
            a, b = goal[i, j], goal[j, i]
            if not np.isnan(a) and not np.isnan(b) and abs(a + b - 1) > 1e-9:
                raise OptionError(
                    f"--target {target}: {options[i]} against {options[j]} {a:g} and "
                    f"{options[j]} against {options[i]} {b:g} cannot both hold: with both "
                    "seatings pooled and draws as half a win they add up to 1")
            goal[j, i] = 1 - a if np.isnan(b) else b
            goal[i, j] = 1 - goal[j, i] if np.isnan(a) else a
    np.fill_diagonal(goal, np.nan)
    return goal


def _round_robin(plan: Any) -> tuple[str, str, list[str]]:
    rr = [a for a in plan.axes if a.kind == "round_robin"]
    if not rr:
        raise OptionError(f"{plan.path or plan.name}: its sweep has no round_robin; "
                          "autobalance needs every option against every other")
    if len(plan.side_names) != 2:
        raise OptionError(f"a round robin of two sides is needed, this one has "
                          f"{len(plan.side_names)}")
    extra = [a.name for a in plan.axes if a.kind != "round_robin" and len(a.values) > 1]
    if extra:
        raise OptionError(f"the sweep crosses the round robin with {', '.join(extra)}; "
                          "autobalance needs one matrix: fix those axes to one value")
    first, second = rr
    if first.paths[0][:2] == ("sides", 1) and second.paths[0][:2] == ("sides", 0):
        first, second = second, first
    return first.name, second.name, list(dict.fromkeys(str(v) for v in first.labels))


def _positive(name: str, value: Any) -> int:
    """Trials per cell (at most MAX_TRIALS) or a budget of trials (any size: it only caps)."""
    return check_count(name, value, minimum=1, maximum=MAX_TRIALS if name == "trials" else None)


def _raise_invalid(plan: Any, fields: Sequence[Field], values: tuple) -> None:
    from balance.io.scenario import load_scenario

    data = copy.deepcopy(plan.data)
    for f, v in zip(fields, values, strict=True):
        f.assign(data, v)
    load_scenario(data)          # raises the scenario's own problems
    raise OptionError("the start values do not make a valid fight in every cell")
