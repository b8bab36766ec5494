"""The per-fight breakdown: what each fighter did, counted per trial (issue 30).

Like SimulationCraft's per-actor report: per fighter, the attacks it made, the hits they
landed, the damage it dealt and its foes' armour soaked, its fumbles and criticals, and the
rounds it stood. A run asks for it (``balance run --breakdown``, ``balance.run(...,
breakdown=True)``); the engine then gives the state a ``(K, c, n)`` int32 array ``counts``
(one row per metric below, places by trials) and the kernel adds to it where it acts
(``if state.counts is not None``), so a run without a breakdown pays nothing. The engine
counts ``rounds_standing`` itself: each round a fighter starts standing in an open trial.

A rule system says which metrics it counts (``RuleSystem.breakdown_metrics``); the others are
reported as not counted, never as zero. Units are the system's own: Yags damage in wound and
stun levels, percentile damage in hit points, Ymlad harm in harm points.
"""

from __future__ import annotations

import math

import numpy as np

METRICS = ("attacks", "hits", "damage_dealt", "damage_soaked", "fumbles", "criticals",
           "rounds_standing")
ATTACKS, HITS, DAMAGE_DEALT, DAMAGE_SOAKED, FUMBLES, CRITICALS, ROUNDS_STANDING = range(7)
PREFIX = "breakdown:"        # the counters' names among a block's recorded tracks


def fresh(c: int, n: int) -> np.ndarray:
    """Zero counters for ``c`` places and ``n`` trials."""
    return np.zeros((len(METRICS), c, n), dtype=np.int32)


def add_at(state, metric: int, flat: np.ndarray, values: np.ndarray | int = 1) -> None:
    """Add ``values`` to counter ``metric`` of the (place, trial) cells at ``flat`` (flat
    indices into the (c, n) state arrays), each cell at most once a call: a kernel counts
    one action site at a time, one place per trial (a fancy ``+=``; ``np.add.at``, which
    would allow repeats, costs several times more). Called by the kernels only where
    ``state.counts is not None``."""
    view = state.counts[metric].reshape(-1)     # (a view: the counters are C-contiguous)
    view[flat] += values


def as_tracks(state) -> dict[str, np.ndarray]:
    """The counters as (c, n) tracks, recorded like a rule system's tracks."""
    return {PREFIX + name: state.counts[k] for k, name in enumerate(METRICS)}


def sums(tracks: dict[str, np.ndarray]) -> np.ndarray:
    """``(K, c, 2)`` int64: each counter's sum and sum of squares over a block's trials."""
    out = np.zeros((len(METRICS), next(iter(tracks.values())).shape[0], 2), dtype=np.int64)
    for k, name in enumerate(METRICS):
        v = tracks[PREFIX + name].astype(np.int64)
        out[k, :, 0] = v.sum(axis=1)
        out[k, :, 1] = (v * v).sum(axis=1)
    return out


def summary(totals: np.ndarray, trials: int, fighters: tuple[str, ...],
            counted: frozenset[str], z: float = 1.959963984540054) -> dict[str, dict]:
    """Per fighter and metric: the mean per fight and its normal 95% interval (None for a
    metric the rule system does not count)."""
    out: dict[str, dict] = {}
    for f, name in enumerate(fighters):
        row: dict[str, dict | None] = {}
        for k, metric in enumerate(METRICS):
            if metric not in counted:
                row[metric] = None
                continue
            s, ss = (float(x) for x in totals[k, f])
            mean = s / trials
            var = max(ss / trials - mean * mean, 0.0) * trials / max(trials - 1, 1)
            half = z * math.sqrt(var / trials)
            row[metric] = {"mean": mean, "ci95": (mean - half, mean + half)}
        out[name] = row
    return out
