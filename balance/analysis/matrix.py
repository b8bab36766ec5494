"""The score matrix of a round robin: the row option's win rate against the column option,
with intervals when the lab ran it.

By default both seatings are pooled (a cell of a round robin puts one option on each side,
and sides are not quite symmetric) and a draw counts as half a win, so ``M[a, b] + M[b, a]
== 1`` exactly and the mirror match is exactly 1/2: a symmetric constant-sum game.
``draws="loss"`` counts a draw as a loss for both (the game is then not constant-sum);
``seat=SIDE`` scores the row option only when it sits on SIDE (an asymmetric game, e.g.
attacker against defender).

Intervals are Wilson 95% with a draw as half a success (conservative: a draw makes the score
less variable than a win-or-loss coin); standard errors use the same variance at the Wilson
centre. With common random numbers, cells are positively correlated and every difference
test here is conservative.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from balance.errors import OptionError

Z95 = 1.959963984540054
DRAWS = ("half", "loss")


@dataclass(frozen=True)
class Matrix:
    """Row option's score against the column option, and what is known of its precision."""

    options: list[str]
    score: NDArray[np.float64]
    low: NDArray[np.float64] | None = None
    high: NDArray[np.float64] | None = None
    se: NDArray[np.float64] | None = None          # 0 where the value is exact (mirror)
    trials: NDArray[np.int64] | None = None
    draws: str = "half"
    seat: str | None = None                         # pooled seatings when None
    source: dict[str, Any] = field(default_factory=dict)

    @property
    def symmetric_data(self) -> bool:
        """M[a, b] and M[b, a] come from the same trials (pooled seatings)."""
        return self.seat is None and self.trials is not None

    def at(self, a: str, b: str) -> float:
        return float(self.score[self.options.index(a), self.options.index(b)])

    def p_value(self, i: int, j: int) -> float:
        """Two-sided p-value of "the row's score against the column is 1/2" (normal test,
        variance 1/4 per trial: exact for wins and losses, conservative with draws)."""
        n = int(self.trials[i, j])
        if n == 0:
            return 1.0
        z = abs(self.score[i, j] - 0.5) / math.sqrt(0.25 / n)
        return math.erfc(z / math.sqrt(2))

    def subset(self, keep: Sequence[int]) -> Matrix:
        """The matrix of some options only."""
        ix = np.ix_(keep, keep)
        pick = lambda a: None if a is None else a[ix]  # noqa: E731
        return Matrix([self.options[i] for i in keep], self.score[ix], pick(self.low),
                      pick(self.high), pick(self.se), pick(self.trials), self.draws,
                      self.seat, self.source)

    def describe(self) -> dict[str, Any]:
        """The matrix as plain data (the first keys of ``balance metagame --json``)."""
        out: dict[str, Any] = {"source": self.source, "draws": self.draws, "for": self.seat,
                               "options": list(self.options), "matrix": self.score.tolist()}
        out["intervals"] = None if self.low is None else \
            {"low": self.low.tolist(), "high": self.high.tolist(), "level": 0.95}
        # an exact run's cells hold pseudo-trials (EXACT_TRIALS), not trials anyone played
        exact = bool(self.source.get("exact"))
        out["trials"] = None if self.trials is None or exact else self.trials.tolist()
        out["exact"] = exact
        return out


def from_run(table: Any, manifest: Mapping[str, Any], *, draws: str = "half",
             seat: str | None = None) -> Matrix:
    """The matrix of a round-robin run (its tidy table and manifest)."""
    if draws not in DRAWS:
        raise OptionError(f"draws must be one of {', '.join(DRAWS)}, got {draws!r}")
    rr = manifest.get("round_robin")
    sides = list(manifest["sides"])
    if not rr:
        raise OptionError(f"{manifest.get('scenario', 'the run')}: no round_robin in its "
                          "sweep; the metagame needs every option against every other")
    if len(sides) != 2:
        raise OptionError(f"a round robin of two sides is needed, this one has {len(sides)}")
    if seat is not None and seat not in sides:
        raise OptionError(f"--for: {seat!r} is not a side of the round robin ({', '.join(sides)})")
    axes = {a["name"]: a for a in manifest["axes"]}
    extra = [a for a in axes.values() if a["kind"] != "round_robin"
             and len(set(map(str, a["labels"]))) > 1]
    if extra:
        raise OptionError("the sweep crosses the round robin with "
                          + ", ".join(a["name"] for a in extra)
                          + "; the metagame needs one matrix: fix those axes to one value")
    first, second = round_robin_axes(manifest)
    options = list(dict.fromkeys(str(v) for v in axes[first]["labels"]))
    score, low, high, se, trials = pooled(options, table_cells(table, first, second, sides),
                                          draws=draws,
                                          seat=None if seat is None else sides.index(seat))
    exact = is_exact(table)
    if exact:                   # known values: the interval is the point
        low, high, se = score.copy(), score.copy(), np.zeros_like(score)
    source = {"kind": "run", "scenario": manifest.get("scenario"),
              "ruleset": manifest.get("ruleset"), "seed": manifest.get("seed"),
              "trials_per_cell": None if exact else manifest.get("trials"),
              "crn": bool(manifest.get("crn")), "run_id": manifest.get("run_id"),
              "exact": exact}
    return Matrix(options, score, low, high, se, trials, draws, seat, source)


def round_robin_axes(manifest: Mapping[str, Any]) -> tuple[str, str]:
    """The round robin's two axis names, the first side's first."""
    axes = {a["name"]: a for a in manifest["axes"]}
    first, second = manifest["round_robin"]
    if _side_of(axes[first]) == 1 and _side_of(axes[second]) == 0:
        first, second = second, first
    return first, second


# An exact cell (balance.exact) enters the pooled counts as this many pseudo-trials, its
# probabilities times it rounded (below 1e-15 of each value): every test that reads a cell's
# trials then treats its value as known, and its interval is set to the point afterwards.
EXACT_TRIALS = 2 ** 50


def is_exact(table: Any) -> bool:
    """Every cell of the run was solved by the exact engine."""
    return "exact" in table.columns and bool(table["exact"].all())


def exact_cells(rows: Iterable[tuple[str, str, float, float, float]]
                ) -> list[tuple[str, str, int, int, int, int]]:
    """Exact cells ``(u, v, p0, p1, p_draw)`` as :func:`pooled`'s counts
    (``EXACT_TRIALS`` pseudo-trials each)."""
    n = EXACT_TRIALS
    return [(u, v, round(p0 * n), round(p1 * n), round(pd * n), n) for u, v, p0, p1, pd in rows]


def table_cells(table: Any, first: str, second: str,
                sides: Sequence[str]) -> Iterable[tuple[str, str, int, int, int, int]]:
    """The round-robin cells of a sweep's table, as :func:`pooled` takes them."""
    if is_exact(table):
        return exact_cells(zip(table[first].astype(str), table[second].astype(str),
                               table[f"p_{sides[0]}"], table[f"p_{sides[1]}"], table["p_draw"],
                               strict=True))
    return zip(table[first].astype(str), table[second].astype(str), table[f"n_{sides[0]}"],
               table[f"n_{sides[1]}"], table["n_draw"], table["trials"], strict=True)


def pooled(options: Sequence[str], cells: Iterable[tuple[str, str, int, int, int, int]], *,
           draws: str = "half", seat: int | None = None, partial: bool = False):
    """Score, Wilson interval, standard error and trials of every pair, from round-robin
    cells ``(option on side 0, option on side 1, side 0 wins, side 1 wins, draws, trials)``.

    ``seat`` None pools both seatings; 0 or 1 scores the row option only on that side. A
    pair without a cell is an error, or NaN with ``partial``.
    """
    index = {o: i for i, o in enumerate(options)}
    n = len(options)
    wins, drawn, trials = (np.zeros((n, n), dtype=np.int64) for _ in range(3))
    for u, v, k0, k1, d, t in cells:
        i, j = index[u], index[v]              # u on side 0, v on side 1
        if seat in (None, 0):
            wins[i, j] += k0
            drawn[i, j] += d
            trials[i, j] += t
        if seat in (None, 1):
            wins[j, i] += k1
            drawn[j, i] += d
            trials[j, i] += t
    missing = [(options[i], options[j]) for i, j in np.argwhere(trials == 0)
               if i != j or draws == "loss" or seat is not None]
    if missing and not partial:
        a, b = missing[0]
        raise OptionError(f"the run has no cell of {a} against {b}"
                          + (" (mirror cells are needed with --draws loss or --for)"
                             if a == b else "") + f"; {len(missing)} pairs are missing")
    k = wins + (0.5 if draws == "half" else 0.0) * drawn
    score = np.where(trials > 0, k / np.maximum(trials, 1), np.nan)
    low, high, se = wilson_arrays(k, trials)
    if seat is None and draws == "half":      # the mirror match is exactly even, by symmetry
        eye = np.eye(n, dtype=bool)
        score[eye], low[eye], high[eye], se[eye] = 0.5, 0.5, 0.5, 0.0
    return score, low, high, se, trials


def from_values(options: Sequence[str], values: NDArray[np.float64],
                source: Mapping[str, Any] | None = None) -> Matrix:
    """A matrix a designer brings (no intervals): values are the row's win rates."""
    score = np.asarray(values, dtype=float)
    return Matrix(list(options), score, source=dict(source or {"kind": "matrix"}))


def wilson_arrays(k: NDArray, n: NDArray, z: float = Z95):
    """Wilson intervals and standard errors, elementwise, for (possibly fractional) ``k``
    successes in ``n`` trials; (0, 1) and an infinite error where ``n`` is 0."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    safe = np.maximum(n, 1)
    p = k / safe
    z2 = z * z
    centre = (p + z2 / (2 * safe)) / (1 + z2 / safe)
    half = z * np.sqrt(p * (1 - p) / safe + z2 / (4 * safe * safe)) / (1 + z2 / safe)
    se = np.sqrt(centre * (1 - centre) / safe)
    empty = n == 0
    return (np.where(empty, 0.0, np.clip(centre - half, 0, 1)),
            np.where(empty, 1.0, np.clip(centre + half, 0, 1)),
            np.where(empty, np.inf, se))


def holm(p: NDArray[np.float64], alpha: float) -> NDArray[np.bool_]:
    """Holm's step-down procedure: which hypotheses to reject at family-wise level alpha."""
    p = np.asarray(p, dtype=float)
    order = np.argsort(p, kind="stable")
    m = p.size
    reject = np.zeros(m, dtype=bool)
    for rank, i in enumerate(order):
        if p[i] > alpha / (m - rank):
            break
        reject[i] = True
    return reject


def _side_of(axis: Mapping[str, Any]) -> int | None:
    """The side index an axis's first path sets (``sides.1.members.0.weapon`` -> 1)."""
    parts = str(axis["paths"][0]).split(".")
    return int(parts[1]) if len(parts) > 1 and parts[0] == "sides" and parts[1].isdigit() \
        else None
