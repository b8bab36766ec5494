"""Check a balance budget: run what each claim needs, judge it with intervals, escalate.

A claim is judged in each of its cells by the interval of its metric at a confidence
corrected for the number of cells and looks (Bonferroni: the claim's 5% is split over them),
so noise alone fails a build less than 5% of the time however many cells a claim covers:

* **pass**: the interval lies inside the bounds, in every cell;
* **fail**: the interval lies wholly outside them, in some cell;
* **inconclusive**: otherwise. Such cells get four times the trials (extending the same
  streams, whole blocks), until they resolve or reach ``max_trials``.

Only a fail makes ``balance check`` exit 1; an inconclusive claim is reported (and fails with
``--strict``). The interval never stops early "when significant" in the other direction.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.stats import norm

from balance.engine.run import Tally
from balance.engine.status import DEAD
from balance.errors import OptionError, Problem, ScenarioError
from balance.gate.budget import SHARES, Claim, LoadedBudget
from balance.io import jsonout
from balance.io.scenario import load_scenario, read_text
from balance.io.yamlfile import read_yaml
from balance.report.stats import wilson
from balance.sweep.executors import as_finished
from balance.sweep.paired import Paired, compare
from balance.sweep.paths import PathError, assign, parse_path, resolve_path
from balance.sweep.plan import Plan, load_plan
from balance.sweep.run import SWEEP_BLOCK_TRIALS
from balance.sweep.task import CellJob, run_cell

GROWTH = 4
PROPORTIONS = SHARES


@dataclass(frozen=True)
class CellVerdict:
    """A claim's metric in one cell: value, corrected interval, trials, verdict."""

    cell: str
    value: float
    low: float
    high: float
    trials: int
    verdict: str          # pass | fail | inconclusive


@dataclass
class ClaimResult:
    """A judged claim: its verdict, every cell's, and how hard the lab looked."""

    number: int
    claim: Claim
    verdict: str
    cells: list[CellVerdict]
    level: float                 # confidence of each cell's interval
    looks: int
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def percent(self) -> bool:
        return self.claim.metric in PROPORTIONS

    @property
    def worst(self) -> CellVerdict:
        """The failing cell that misses most, else the cell closest to a bound."""
        lo, hi = self.claim.bounds
        if self.verdict == "fail":
            bad = [c for c in self.cells if c.verdict == "fail"]
            return max(bad, key=lambda c: max(lo - c.high, c.low - hi))
        return min(self.cells, key=lambda c: min(c.value - lo, hi - c.value))

    def line(self) -> str:
        """One line for the terminal: verdict, claim, and the evidence."""
        w = self.worst
        diff = self.claim.difference is not None
        show = _fmt(self.percent, diff)
        where = f" in {w.cell}" if len(self.cells) > 1 or w.cell != "base" else ""
        cells = f"{len(self.cells)} cells, " if len(self.cells) > 1 else ""
        return (f"{self.verdict.upper():<12} {self.claim.claim}: {show(w.value)} "
                f"[{show(w.low)}, {show(w.high)}]{where}; bound "
                f"{self.claim.describe_bounds(self.percent, diff)}; "
                f"{cells}{w.trials:,} trials, {100 * self.level:.4g}% intervals")

    def bound_text(self) -> str:
        return self.claim.describe_bounds(self.percent, self.claim.difference is not None)

    def show(self, value: float) -> str:
        return _fmt(self.percent, self.claim.difference is not None)(value)

    def evidence(self, cell: CellVerdict) -> str:
        """``72.3% [70.1%, 74.4%]`` for one cell."""
        return f"{self.show(cell.value)} [{self.show(cell.low)}, {self.show(cell.high)}]"

    @property
    def failing(self) -> list[CellVerdict]:
        return [c for c in self.cells if c.verdict == "fail"]

    @property
    def undecided(self) -> list[CellVerdict]:
        return [c for c in self.cells if c.verdict == "inconclusive"]

    def overrides(self) -> str:
        """The claim's ``set:`` changes as ``path = value; ...`` ('' without any)."""
        return "; ".join(f"{k} = {jsonout.dumps(v)}" for k, v in self.claim.set.items())

    def advice(self) -> str:
        """For an inconclusive claim: how many trials would decide it, and which flag."""
        if self.verdict != "inconclusive":
            return ""
        cells = self.undecided or self.cells
        lo, hi = self.claim.bounds
        need = 0.0
        for c in cells:
            gap = min(abs(c.value - lo), abs(c.value - hi))
            half = max((c.high - c.low) / 2, 1e-12)
            need = max(need, math.inf if gap == 0 else c.trials * (half / gap) ** 2)
        cap = max(c.trials for c in cells)
        if need > 64 * cap or need > 1e9:
            return ("the value sits on the bound, so more trials will hardly decide it: move "
                    "the bound (or accept it; --strict fails the build on it)")
        blocks = -(-int(need * 1.2) // SWEEP_BLOCK_TRIALS) * SWEEP_BLOCK_TRIALS
        return (f"more trials would decide it: about {blocks:,} per cell (it had {cap:,}); "
                f"run balance check with --max-trials {blocks} or raise max_trials: in the "
                "budget (--strict fails the build on an inconclusive claim)")

    def details(self) -> list[str]:
        """Lines under :meth:`line` for a failed or inconclusive claim: every failing (or
        undecided) cell with its value, interval and the bound, the ``set:`` changes, and
        what to do."""
        if self.verdict == "pass":
            return []
        cells = self.failing if self.verdict == "fail" else self.undecided
        word = "failing" if self.verdict == "fail" else "undecided"
        out = [f"{len(cells)} of {len(self.cells)} {_plural(len(self.cells), 'cell')} "
               f"{word} (bound {self.bound_text()}):"] if len(self.cells) > 1 else []
        if len(self.cells) > 1:
            out += [f"  {c.cell}: {self.evidence(c)}, {c.trials:,} trials" for c in cells]
        if self.claim.set:
            out.append(f"set: {self.overrides()}")
        if self.verdict == "inconclusive":
            out.append(self.advice())
        return out


def _plural(n: int, noun: str) -> str:
    return noun if n == 1 else noun + "s"


def _fmt(percent: bool, diff: bool) -> Callable[[float], str]:
    if percent and diff:
        return lambda v: f"{100 * v:+.1f} pts"
    if percent:
        return lambda v: f"{100 * v:.1f}%"
    return lambda v: f"{v:.2f}"


def schedule(first: int, cap: int, block: int = SWEEP_BLOCK_TRIALS) -> list[int]:
    """Trials per look: ``first`` rounded up to whole blocks, times 4 each look, to ``cap``."""
    first = -(-first // block) * block
    cap = max(first, cap // block * block)
    out = [first]
    while out[-1] < cap:
        out.append(min(out[-1] * GROWTH, cap))
    return out


@dataclass(frozen=True)
class PreparedClaim:
    """A claim checked before anything runs: its plan, its side, and for a difference
    claim both versions of every cell."""

    plan: Plan
    side: int | None
    pairs: dict[str, list[Any]] | None = None
    fights: dict[str, Any] | None = None          # each cell's compiled fight


def prepare_claim(budget: LoadedBudget, number: int, sets: Any = ()) -> PreparedClaim:
    """Every problem of claim ``number`` that can be found without playing a fight (its
    scenario file, ``set:`` and ``sweep:`` paths and values, side, the difference's path and
    values, what only the compiled fighters show), all at once, so a budget with mistakes
    anywhere stops before the first claim runs, naming them all. ``sets`` (``balance check
    --set``) change every claim's scenario after its own ``set:``."""
    claim = budget.model.claims[number]
    path = budget.folder / claim.scenario
    if not path.is_file():
        _fail(budget, number, f"scenario: no such file {claim.scenario!r} (relative to "
                              f"{budget.folder})", ("scenario",))
    base = _plan(str(path), budget, number)     # the file's own problems stop the claim here
    problems: list[Problem] = []

    def keep(action: Callable[[], Any]) -> Any:
        try:
            return action()
        except ScenarioError as err:
            problems.extend(err.problems)
            return None

    side = keep(lambda: _side(claim, base.side_names, budget, number))
    diff_path = None
    if claim.difference is not None:
        diff_path = keep(lambda: _checked_path(claim.difference.path, base, budget, number,
                                               ("difference", "path")))
    plan = keep(lambda: claim_plan(budget, number, sets, problems))
    fights = None
    if plan is not None:
        fights = keep(lambda: _compiled(plan, budget, number))
    pairs = None
    if plan is not None and diff_path is not None:
        pairs = {}
        for cell in plan.cells:
            versions = []
            for value in (claim.difference.from_, claim.difference.to):
                data = plan.cell_data(cell)
                assign(data, diff_path, value)
                versions.append(keep(lambda data=data: _load(data, budget, number,
                                                             "difference")))
            pairs[cell.id] = versions
    if problems:
        raise ScenarioError(dict.fromkeys(problems))
    return PreparedClaim(plan, side, pairs, fights)


def _compiled(plan: Plan, budget: LoadedBudget, number: int) -> dict[str, Any]:
    try:
        return plan.compile()
    except ScenarioError as err:
        raise _from_claim(err, budget, number) from None


def prepare_budget(budget: LoadedBudget, sets: Any = (),
                   claims: list[int] | None = None) -> list[PreparedClaim]:
    """:func:`prepare_claim` for every claim (or the ``claims`` given); all their problems
    raised at once."""
    prepared, problems = [], []
    for i in range(len(budget.model.claims)) if claims is None else claims:
        try:
            prepared.append(prepare_claim(budget, i, sets))
        except ScenarioError as err:
            problems += err.problems
    if problems:
        raise ScenarioError(problems)
    return prepared


def check_claim(budget: LoadedBudget, number: int, *, executor: Executor,
                seed: int | None = None, max_trials: int | None = None,
                prepared: PreparedClaim | None = None,
                on_cell: Callable[[Any], None] | None = None) -> ClaimResult:
    """Judge claim ``number`` (0-based) of a budget, escalating trials where inconclusive.

    ``max_trials`` overrides the budget's and the claim's cap (``balance check --max-trials``);
    ``prepared`` is the claim's :func:`prepare_claim` (made here when not given); ``on_cell``
    sees each cell's look as it finishes (progress).
    """
    b = budget.model
    claim = b.claims[number]
    prepared = prepared or prepare_claim(budget, number)
    plan = prepared.plan
    cap = max_trials if max_trials is not None else claim.max_trials or b.max_trials
    looks = schedule(claim.trials or b.trials, cap)
    cells = len(plan.cells)
    level = 1 - (1 - b.confidence) / (cells * len(looks))
    seed = b.seed if seed is None else seed
    judge = _judge_difference if claim.difference is not None else _judge_cells
    verdicts, extra, used = judge(budget, number, prepared, looks, level, seed, executor,
                                  on_cell)
    overall = ("fail" if any(v.verdict == "fail" for v in verdicts) else
               "inconclusive" if any(v.verdict == "inconclusive" for v in verdicts) else "pass")
    return ClaimResult(number + 1, claim, overall, verdicts, level, used, extra)


def _judge_cells(budget, number, prepared: PreparedClaim, looks, level, seed, executor,
                 on_cell=None):
    claim = budget.model.claims[number]
    plan, side = prepared.plan, prepared.side
    fights = prepared.fights or plan.compile()
    streams = {c.id: c.stream for c in plan.cells}
    state: dict[str, tuple[Tally | None, int]] = {c.id: (None, 0) for c in plan.cells}
    verdicts: dict[str, CellVerdict] = {}
    open_ids = [c.id for c in plan.cells]
    used = 0
    for trials in looks:
        used += 1
        jobs = [CellJob(cid, plan.ruleset, fights[cid], seed, streams[cid], SWEEP_BLOCK_TRIALS,
                        trials, blocks_done=state[cid][1], tally=state[cid][0])
                for cid in open_ids]
        for r in as_finished(executor, run_cell, jobs):
            state[r.cell_id] = (r.tally, r.blocks)
            if on_cell is not None:
                on_cell(r)
        for cell in plan.cells:
            if cell.id in open_ids:
                value, lo, hi = metric_interval(state[cell.id][0], claim.metric, side,
                                                fights[cell.id].side_of, level)
                verdicts[cell.id] = CellVerdict(cell.describe(), value, lo, hi,
                                                state[cell.id][0].trials,
                                                verdict(lo, hi, claim.bounds))
        open_ids = [cid for cid in open_ids if verdicts[cid].verdict == "inconclusive"]
        if not open_ids or any(v.verdict == "fail" for v in verdicts.values()):
            break
    return [verdicts[c.id] for c in plan.cells], {}, used


def _judge_difference(budget, number, prepared: PreparedClaim, looks, level, seed, executor,
                      on_cell=None):
    claim = budget.model.claims[number]
    plan, side, pairs = prepared.plan, prepared.side, prepared.pairs or {}
    side_name = None if side is None else plan.side_names[side]
    state: dict[str, Paired | None] = dict.fromkeys(pairs)
    names = {c.id: c.describe() for c in plan.cells}
    verdicts: dict[str, CellVerdict] = {}
    open_ids = list(pairs)
    used = 0
    for trials in looks:
        used += 1
        for cid in open_ids:
            a, b = pairs[cid]
            state[cid] = compare(a, b, metric=claim.metric, side=side_name, trials=trials,
                                 seed=seed, more=state[cid])
            p = state[cid]
            lo, hi = p.interval(level)
            verdicts[cid] = CellVerdict(names[cid], p.diff, lo, hi, p.trials,
                                        verdict(lo, hi, claim.bounds))
            if on_cell is not None:
                on_cell(cid)
        open_ids = [cid for cid in open_ids if verdicts[cid].verdict == "inconclusive"]
        if not open_ids or any(v.verdict == "fail" for v in verdicts.values()):
            break
    ratios = [p.variance_ratio for p in state.values() if p is not None]
    extra = {"paired": True, "variance_ratio": float(np.median(ratios)) if ratios else None}
    return [verdicts[c.id] for c in plan.cells], extra, used


def verdict(low: float, high: float, bounds: tuple[float, float]) -> str:
    """pass inside the bounds, fail wholly outside them, else inconclusive."""
    lo, hi = bounds
    if high < lo or low > hi:
        return "fail"
    if low >= lo and high <= hi:
        return "pass"
    return "inconclusive"


def metric_interval(tally: Tally, metric: str, side: int | None, side_of: np.ndarray,
                    level: float) -> tuple[float, float, float]:
    """A metric's value in one cell and its interval at ``level``.

    ``win``/``draw``: Wilson. ``rounds``: the mean with a normal interval from the histogram.
    ``standing``: the share of the side standing at the end, exact mean and variance from the
    standing counts. ``survival``: the share not dead, Wilson on fighter-trials scaled to
    trials (exact for one fighter; for a group it treats the share as one trial's worth).
    """
    n = tally.trials
    if metric in ("win", "draw"):
        k = int(tally.wins[side if metric == "win" else -1])
        return (k / n, *wilson(k, n, level))
    z = float(norm.ppf(0.5 + level / 2))
    if metric == "rounds":
        values = np.arange(tally.rounds.size)
        mean = float((values * tally.rounds).sum()) / n
        var = float((values ** 2 * tally.rounds).sum()) / n - mean * mean
        half = z * math.sqrt(max(var, 0.0) / n)
        return (mean, mean - half, mean + half)
    members = np.flatnonzero(side_of == side)
    if metric == "standing":
        counts = tally.standing[side]
        share = np.arange(counts.size) / members.size
        mean = float((share * counts).sum()) / n
        var = float((share ** 2 * counts).sum()) / n - mean * mean
        half = z * math.sqrt(max(var, 0.0) / n)
        return (mean, max(0.0, mean - half), min(1.0, mean + half))
    alive = members.size * n - int(tally.status[members, DEAD].sum())
    share = alive / (members.size * n)
    return (share, *wilson(round(share * n), n, level))


def claim_plan(budget: LoadedBudget, number: int, sets: Any = (),
               problems: list[Problem] | None = None) -> Plan:
    """The scenario a claim is about, with its ``set:`` and ``sweep:`` applied, checked, and
    then ``sets`` (``balance check --set``: the command line wins over the claim's ``set:``).
    With ``problems``, a bad ``set:`` key is added there and the rest still checked (the
    plan is then of the good keys only)."""
    claim = budget.model.claims[number]
    path = budget.folder / claim.scenario
    if not path.is_file():
        _fail(budget, number, f"scenario: no such file {claim.scenario!r} (relative to "
                              f"{budget.folder})", ("scenario",))
    if not claim.set and claim.sweep is None:
        return _plan(str(path), budget, number, sets)
    data, _ = read_yaml(read_text(str(path)), str(path))
    data = copy.deepcopy(data)
    if claim.sweep is not None:
        data["sweep"] = claim.sweep
    base = _plan({k: v for k, v in data.items() if k != "sweep"}, budget, number)
    for key, value in claim.set.items():
        try:
            assign(data, _checked_path(key, base, budget, number, ("set", key)), value)
        except ScenarioError as err:
            if problems is None:
                raise
            problems.extend(err.problems)
    return _plan(data, budget, number, sets)


def _plan(source: Any, budget: LoadedBudget, number: int, sets: Any = ()) -> Plan:
    try:
        return load_plan(source, sets=sets)
    except ScenarioError as err:
        raise _from_claim(err, budget, number) from None
    except OptionError as err:         # a --set path this claim's scenario does not have
        line, col = budget.where(number)
        raise ScenarioError([Problem(f"claim {number + 1}: {err}", "", budget.path, line,
                                     col)]) from None


def _from_claim(err: ScenarioError, budget: LoadedBudget, number: int) -> ScenarioError:
    """A claim's scenario problems, each saying which claim of the budget brought it (placed
    at the claim when the scenario was changed by ``set:`` or ``sweep:`` and has no file)."""
    line, col = budget.where(number)
    return ScenarioError(dataclasses.replace(
        p, message=f"{p.message} (from claim {number + 1} of {budget.path}:{line})")
        if p.file != "<dict>" else
        Problem(f"claim {number + 1}: {p.path + ': ' if p.path else ''}{p.message}", "",
                budget.path, line, col) for p in err.problems)


def _checked_path(text: str, plan: Plan, budget: LoadedBudget, number: int, at: tuple):
    from balance.io.tables import shipped_rows
    from balance.models import SCENARIO_MODELS

    rows = {t: list(r) for t, r in shipped_rows(plan.ruleset).items()}
    try:
        return resolve_path(parse_path(text), SCENARIO_MODELS[plan.ruleset], plan.data, rows)
    except PathError as err:
        _fail(budget, number, str(err), at)


def _load(data: dict, budget: LoadedBudget, number: int, what: str):
    try:
        return load_scenario(data)
    except ScenarioError as err:
        line, col = budget.where(number)
        raise ScenarioError(Problem(f"claim {number + 1} ({what}): {p.path}: {p.message}", "",
                                    budget.path, line, col) for p in err.problems) from None


def _side(claim: Claim, sides: tuple[str, ...], budget: LoadedBudget,
          number: int) -> int | None:
    if claim.metric in ("draw", "rounds"):
        return None
    if claim.side is None:
        return 0
    if claim.side not in sides:
        _fail(budget, number, f"side: {claim.side!r} is not a side of the scenario "
                              f"({', '.join(sides)})", ("side",))
    return sides.index(claim.side)


def _fail(budget: LoadedBudget, number: int, message: str, at: tuple) -> None:
    line, col = budget.index.locate(("claims", number, *at)) or (None, None)
    raise ScenarioError([Problem(message, "", budget.path, line, col)])

