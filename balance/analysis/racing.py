"""The search behind ``balance autobalance``: coordinate descent over table values, each line
search a race that spends trials on the promising candidates (successive halving).

Every candidate plays each round-robin cell from the same random streams (common random
numbers): a cell's streams are keyed by the cell (its two options), never by the table
values, so two candidates differ only by what their values change. Cells a candidate does not
change compile to the very same fight and are not played again. The search draws from its own
streams (``spawn_key = (*cell, SEARCH, rung)``), never from the sweep's, so a final
measurement with the sweep's streams is on fresh random numbers.
"""

from __future__ import annotations

import copy
import hashlib
import math
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balance import rules
from balance.analysis.matrix import Matrix, exact_cells, pooled
from balance.engine.loop import simulate
from balance.engine.run import block_rng
from balance.engine.status import DRAW
from balance.errors import ScenarioError
from balance.io.scenario import load_scenario
from balance.sweep.paths import assign

SEARCH = 0x5EA2C4          # spawn-key word of the search's streams (never used by sweeps)
RUNGS = 4                  # a race's rungs: t0, 2 t0, 4 t0, 8 t0 trials per cell (15 t0 in all)
ETA = 3                    # each rung keeps the best third of the candidates
SIDE_STEPS = 5             # a line search tries up to 5 steps either side of the current value
MAX_PASSES = 8


@dataclass(frozen=True)
class Field:
    """A varied table field: where it is, its start value and search bounds."""

    path: str                          # tables.weapons.spear.damage
    parts: tuple[str, str, str, str]   # ("tables", table, row, field)
    start: float
    low: float
    high: float
    integer: bool
    ladder: str | None = None          # a dice field: "modifier" or "die" (balance.dice.ladder)
    dice: str | None = None            # ... and its dice as the scenario has them

    def cast(self, value: float) -> float | int:
        return round(float(value)) if self.integer else float(value)

    def value(self, v: float) -> float | int | str:
        """What the field holds at search value ``v``: the number, or a dice field's dice at
        ladder position ``v`` (``1D8+2``)."""
        if self.ladder is None:
            return self.cast(v)
        from balance.dice.ladder import at

        return at(self.dice, self.ladder, int(self.cast(v)))

    def assign(self, data: dict[str, Any], v: float) -> None:
        """Set the field to search value ``v`` in a scenario mapping."""
        assign(data, self.parts, self.value(v))


@dataclass(frozen=True)
class Measured:
    """A candidate's matrix and its deviation from the target."""

    matrix: Matrix
    max_abs_dev: float
    rms_dev: float

    @property
    def objective(self) -> tuple[float, float]:
        return (round(self.max_abs_dev, 12), round(self.rms_dev, 12))

    def to_dict(self) -> dict[str, float]:
        return {"max_abs_dev": self.max_abs_dev, "rms_dev": self.rms_dev}


def measure(matrix: Matrix, target: np.ndarray) -> Measured:
    """Deviation from the target over the cells it fixes (off the diagonal, not blank)."""
    free = np.isnan(target) | np.eye(len(target), dtype=bool) | np.isnan(matrix.score)
    d = np.abs(matrix.score - np.where(free, 0.0, target))[~free]
    if d.size == 0:
        return Measured(matrix, 0.0, 0.0)
    return Measured(matrix, float(d.max()), float(np.sqrt(np.mean(d * d))))


@dataclass(frozen=True)
class Pairing:
    """One round-robin cell: its id and stream key, the option on each side, its data."""

    id: str
    stream: tuple[int, ...]
    first: str                         # the option on side 0
    second: str
    data: dict[str, Any]               # the cell's scenario data


@dataclass
class Evaluator:
    """Plays candidates' round robins rung by rung and remembers every cell it played."""

    ruleset: str
    cells: Sequence[Pairing]
    options: list[str]
    target: np.ndarray
    fields: Sequence[Field]
    seed: int
    t0: int
    trials_spent: int = 0
    evaluations: int = 0
    _played: dict[tuple[str, bytes], list[tuple[int, int, int, int]]] = \
        field(default_factory=dict)
    _fights: dict[tuple, dict[str, bytes] | None] = field(default_factory=dict)
    _compiled: dict[bytes, Any] = field(default_factory=dict)
    engine: str = "auto"          # auto: cells the exact engine covers are solved exactly
    exact_cells: int = 0          # cells answered exactly (each time one was measured)
    _exact: dict[bytes, tuple[float, ...] | None] = field(default_factory=dict)

    def size(self, rung: int) -> int:
        return self.t0 * 2 ** rung

    def fights(self, values: tuple) -> dict[str, bytes] | None:
        """Each cell's compiled fight (by its hash) for these values; None if invalid."""
        if values not in self._fights:
            system = rules.get(self.ruleset)
            out: dict[str, bytes] | None = {}
            for cell in self.cells:
                data = copy.deepcopy(cell.data)
                for f, v in zip(self.fields, values, strict=True):
                    f.assign(data, v)
                try:
                    sc = load_scenario(data)
                    fight = system.compile(sc.model, sc.tables)
                except ScenarioError:
                    out = None                  # a value the rules refuse: not a candidate
                    break
                key = hashlib.blake2b(pickle.dumps(fight), digest_size=16).digest()
                self._compiled.setdefault(key, fight)
                out[cell.id] = key
            self._fights[values] = out
        return self._fights[values]

    def _exact_row(self, system, cell: Pairing, key: bytes) -> tuple | None:
        """The cell's row of exact pseudo-counts (``matrix.exact_cells``) when the exact
        engine covers its fight and ``engine`` allows it, else None."""
        from balance.exact.run import auto_declines

        if self.engine == "vector" or (self.engine == "auto" and auto_declines(system)):
            return None
        if key not in self._exact:
            from balance.exact.run import exact_or_reason

            tally, _ = exact_or_reason(system, self._compiled[key], self.engine)
            self._exact[key] = None if tally is None else tuple(float(v) for v in tally.wins)
        wins = self._exact[key]
        if wins is None:
            return None
        self.exact_cells += 1
        return exact_cells([(cell.first, cell.second, *wins)])[0]

    def measure(self, values: tuple, rung: int) -> Measured | None:
        """The candidate's deviation after rungs 0..rung (playing what is missing)."""
        fights = self.fights(values)
        if fights is None:
            return None
        system = rules.get(self.ruleset)
        self.evaluations += 1
        rows = []
        for cell in self.cells:
            known = self._exact_row(system, cell, fights[cell.id])
            if known is not None:          # solved exactly: no trials, the same every rung
                rows.append(known)
                continue
            done = self._played.setdefault((cell.id, fights[cell.id]), [])
            for r in range(len(done), rung + 1):
                fight = self._compiled[fights[cell.id]]
                rng = block_rng(self.seed, r, cell=(*cell.stream, SEARCH))
                winner = simulate(system, fight, self.size(r), rng).winner
                k0, k1, d = np.bincount(np.where(winner == DRAW, 2, winner), minlength=3)
                done.append((int(k0), int(k1), int(d), self.size(r)))
                self.trials_spent += self.size(r)
            k0, k1, d, t = (sum(x) for x in zip(*done[:rung + 1], strict=True))
            rows.append((cell.first, cell.second, k0, k1, d, t))
        score, low, high, se, trials = pooled(self.options, rows, partial=True)
        return measure(Matrix(self.options, score, low, high, se, trials), self.target)


def race(ev: Evaluator, candidates: list[tuple], incumbent: tuple,
         closeness: Callable[[tuple], float]) -> tuple[tuple, Measured | None]:
    """Successive halving: every candidate gets t0 trials per cell, the best third twice as
    many more, and so on; the survivor of the last rung wins (the incumbent wins ties)."""
    alive = list(dict.fromkeys(candidates))
    scored: list[tuple[tuple, Measured]] = []
    for rung in range(RUNGS):
        scored = [(c, m) for c in alive if (m := ev.measure(c, rung)) is not None]
        if not scored:
            return incumbent, None
        scored.sort(key=lambda cm: (cm[1].objective, cm[0] != incumbent, closeness(cm[0])))
        keep = 1 if rung == RUNGS - 1 else max(1, math.ceil(len(scored) / ETA))
        alive = [c for c, _ in scored[:keep]]
    return scored[0]


def line(f: Field, current: float, step: float) -> list[float]:
    """Values of one field to try: the current value and up to 5 steps either side."""
    out = {f.cast(min(f.high, max(f.low, current + k * step)))
           for k in range(-SIDE_STEPS, SIDE_STEPS + 1)}
    return sorted(out)


def search(ev: Evaluator, budget: int,
           on_step: Callable[[dict[str, Any]], None] | None = None) -> tuple[tuple, Measured]:
    """Coordinate descent from the start values: race each field's line in turn; when a
    pass changes nothing, halve the steps; stop at the finest steps or when the budget is
    spent (checked before each line search)."""
    fields = ev.fields
    current = tuple(f.cast(min(f.high, max(f.low, f.start))) for f in fields)
    steps = [_first_step(f) for f in fields]
    best = ev.measure(current, RUNGS - 1)
    if best is None:
        raise ScenarioError([])      # the caller checks the start values first
    for n in range(1, MAX_PASSES + 1):
        changed = False
        for k, f in enumerate(fields):
            if ev.trials_spent >= budget:
                return current, best
            cands = [(*current[:k], v, *current[k + 1:]) for v in line(f, current[k], steps[k])]
            if len(cands) < 2:
                continue
            here = current[k]
            winner, measured = race(ev, cands, current, lambda c, k=k, h=here: abs(c[k] - h))
            if measured is not None and winner != current:
                changed, current, best = True, winner, measured
            elif measured is not None and winner == current:
                best = measured
            if on_step is not None:
                on_step({"pass": n, "field": f.path, "value": current[k], "step": steps[k],
                         "max_abs_dev": best.max_abs_dev, "rms_dev": best.rms_dev,
                         "trials": ev.trials_spent})
        if not changed:
            finest = [_finest(f) for f in fields]
            if all(s <= m for s, m in zip(steps, finest, strict=True)):
                break
            steps = [max(m, s / 2) if not f.integer else max(1, int(s // 2))
                     for f, s, m in zip(fields, steps, finest, strict=True)]
    return current, best


def _first_step(f: Field) -> float:
    width = f.high - f.low
    return max(1, round(width / (2 * SIDE_STEPS))) if f.integer else width / (2 * SIDE_STEPS)


def _finest(f: Field) -> float:
    return 1 if f.integer else (f.high - f.low) / 100
