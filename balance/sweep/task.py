"""The unit of work an executor runs: one sweep cell, block by block, to a tally.

Kept light (numpy, the rule systems and the engine only) because it is what process pools
and Dask workers import. A job carries the compiled fight, so workers never read files or
validate scenarios; its streams are ``block_rng(seed, b, cell=stream)`` for block ``b``, so
the tally is the same whichever worker runs it, and a job that resumes at block ``k`` with
the tally of blocks ``0..k-1`` ends exactly where one uninterrupted job would.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from balance import rules
from balance.engine.run import Tally, block_sizes, run_fight
from balance.sweep.baseline import PairWith, add_pairing, new_pairing, outcome_codes

Z95 = 1.959963984540054


@dataclass(frozen=True)
class CellJob:
    """Everything a worker needs to run one cell."""

    cell_id: str
    ruleset: str
    fight: Any
    seed: int
    stream: tuple[int, ...]
    block_trials: int
    trials: int | None = None          # a fixed trial count, or ...
    precision: float | None = None     # ... blocks until every outcome's 95% half-width <= this
    max_trials: int = 0                # the cap under ``precision``
    blocks_done: int = 0               # resume after these blocks, merging onto ``tally``
    tally: Tally | None = None
    pair: PairWith | None = None       # the baseline's outcomes: count paired with them
    keep: bool = False                 # keep this cell's outcomes (it is the baseline)
    engine: str = "vector"             # or "exact": the cell solved as a Markov chain
    breakdown: bool = False            # count what each fighter did (balance.engine.breakdown)


@dataclass(frozen=True)
class CellResult:
    """A finished cell: its tally, how many blocks it took, and the time they took."""

    cell_id: str
    tally: Tally
    blocks: int
    seconds: float
    precision_met: bool | None = None
    paired: dict[str, Any] | None = None     # counts paired with the baseline's trials
    kept: PairWith | None = None             # this cell's outcomes (when asked to keep)


def run_cell(job: CellJob) -> CellResult:
    """Run one cell (in any process): fixed trials, or blocks until the precision is met."""
    start = time.perf_counter()
    system = rules.get(job.ruleset)
    fight = job.fight
    if job.engine == "exact":
        from balance.exact.run import exact_tally

        return CellResult(job.cell_id, exact_tally(system, fight), 0,
                          time.perf_counter() - start, True)
    tally = job.tally or Tally(len(fight.side_names), len(fight.side_of), fight.max_rounds)
    b = job.blocks_done
    met = None
    n_sides = len(fight.side_names)
    paired = new_pairing(n_sides) if job.pair is not None else None
    kept = PairWith(n_sides, {}, {}) if job.keep else None

    def observe(block: int, out: Any) -> None:
        codes = outcome_codes(out.winner, n_sides)
        if kept is not None:
            kept.outcomes[block], kept.rounds[block] = codes, out.rounds.copy()
        if paired is not None and block in job.pair.outcomes:
            add_pairing(paired, codes, out.rounds, job.pair.outcomes[block],
                        job.pair.rounds[block], n_sides)

    watch = observe if (paired is not None or kept is not None) else None
    if job.precision is None:
        b = len(block_sizes(job.trials, job.block_trials))
        if b > job.blocks_done:
            more = run_fight(system, fight, job.trials, job.seed, cell=job.stream,
                             blocks=range(job.blocks_done, b), block_trials=job.block_trials,
                             observe=watch, with_breakdown=job.breakdown)
            tally = tally.merge(more)
    else:
        while not (met := half_width(tally) <= job.precision) and \
                tally.trials + job.block_trials <= job.max_trials:
            # block b of a run cut into equal blocks: the same stream a fixed run would use
            more = run_fight(system, fight, (b + 1) * job.block_trials, job.seed,
                             cell=job.stream, blocks=[b], block_trials=job.block_trials,
                             observe=watch, with_breakdown=job.breakdown)
            tally = tally.merge(more)
            b += 1
    return CellResult(job.cell_id, tally, b, time.perf_counter() - start, met, paired, kept)


def half_width(tally: Tally) -> float:
    """The widest 95% Wilson half-width over a tally's outcomes (inf with no trials).

    The closed form of the interval :func:`balance.report.stats.wilson` computes with scipy,
    written out here so that workers need not import scipy.
    """
    if tally.exact:
        return 0.0
    n = tally.trials
    if n == 0:
        return math.inf
    z2 = Z95 * Z95
    widest = 0.0
    for k in tally.wins.tolist():
        p = k / n
        widest = max(widest, Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n))
    return widest
