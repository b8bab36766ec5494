"""The unit of work of a question: one block of trials of several variants of a fight, played
from the same random stream, reduced to integer moment sums.

Kept light (numpy, the rule systems and the engine) because process pools and Dask workers
import it. Every variant of block ``b`` draws from ``block_rng(seed, b, cell=key)``: common
random numbers, so the per-trial differences between variants carry only the change's effect
plus what the fights' divergence adds. Sums are integers, so blocks merge exactly in any order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from balance import rules
from balance.engine.loop import BlockOutcome, simulate
from balance.engine.run import block_rng
from balance.engine.status import DEAD, DRAW, STANDING

METRICS = ("win", "draw", "survival", "standing", "dead", "rounds")
SIDE_METRICS = ("win", "survival", "standing", "dead")
KEY = (0x5EED, 0xA5C)          # the stream key of every question's trials (any fixed key)


@dataclass(frozen=True)
class BlockJob:
    """Block ``block`` (of ``size`` trials) of each fight in ``fights``, from one stream."""

    ruleset: str
    fights: tuple[Any, ...]
    metric: str
    side: int | None
    seed: int
    block: int
    size: int


@dataclass(frozen=True)
class BlockSums:
    """Per variant ``k``: ``s[k]`` = sum of its per-trial values; ``ss[j, k]`` = sum of the
    products of variants j and k, trial by trial (the paired second moments)."""

    block: int
    size: int
    s: np.ndarray
    ss: np.ndarray


def run_block(job: BlockJob) -> BlockSums:
    """Play one block of every variant from the same stream (in any process)."""
    system = rules.get(job.ruleset)
    x = np.stack([per_trial(job.metric, simulate(system, fight, job.size,
                                                 block_rng(job.seed, job.block, KEY)),
                            fight, job.side) for fight in job.fights])
    return BlockSums(job.block, job.size, x.sum(axis=1), x @ x.T)


def per_trial(metric: str, out: BlockOutcome, fight: Any, side: int | None) -> np.ndarray:
    """The metric of each trial as int64 counts: ``win``/``draw`` 0 or 1, ``rounds`` the
    deciding round, ``survival``/``standing``/``dead`` fighters of ``side`` alive, standing
    or dead at the end (divide by the side's size for shares)."""
    if metric == "win":
        return (out.winner == side).astype(np.int64)
    if metric == "draw":
        return (out.winner == DRAW).astype(np.int64)
    if metric == "rounds":
        return out.rounds.astype(np.int64)
    status = out.status[np.flatnonzero(fight.side_of == side)]
    if metric == "survival":
        keep = status != DEAD
    elif metric == "standing":
        keep = status == STANDING
    else:
        keep = status == DEAD
    return keep.sum(axis=0).astype(np.int64)


def exact_value(metric: str, tally: Any, fight: Any, side: int | None) -> float:
    """The metric's exact mean from an exact tally (``balance.exact``): what the mean of
    :func:`per_trial` over infinitely many trials, divided by :func:`scale`, would be."""
    if metric == "win":
        return float(tally.wins[side])
    if metric == "draw":
        return float(tally.wins[-1])
    if metric == "rounds":
        return float(np.arange(tally.rounds.size) @ tally.rounds)
    members = np.flatnonzero(fight.side_of == side)
    status = tally.status[members]
    if metric == "survival":
        return float(members.size - status[:, DEAD].sum()) / members.size
    if metric == "standing":
        return float(status[:, STANDING].sum()) / members.size
    return float(status[:, DEAD].sum())


def scale(metric: str, fight: Any, side: int | None) -> int:
    """What the summed counts are divided by, besides trials (the side's size for shares)."""
    if metric in ("survival", "standing"):
        return int((fight.side_of == side).sum())
    return 1
