"""Round robins: every option against every other, as a matrix, a ranking and flags.

A cell of a round robin puts option *a* on the first side and *b* on the second. Sides are
not quite symmetric (who acts first, ties), so the lab scores *a against b* over both
seatings: the wins of *a* as the first side against *b*, plus its wins as the second side
against *b*, over the trials of both cells (one seating alone when the other is missing).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from balance.report.stats import wilson


@dataclass(frozen=True)
class RoundRobin:
    """The score matrix of a round robin and what follows from it."""

    options: list[str]
    score: pd.DataFrame          # row option's win rate against the column option
    low: pd.DataFrame            # its Wilson 95% interval
    high: pd.DataFrame
    trials: pd.DataFrame
    ranking: pd.DataFrame        # option, mean win rate, beats, loses to, flag; best first


def round_robin(table: pd.DataFrame, axes: tuple[str, str], sides: tuple[str, str]) -> RoundRobin:
    """Score every option against every other from the cells of one round robin.

    ``axes`` are the columns holding the first and second side's option; ``sides`` the two
    sides' names (the outcome columns ``n_<side>`` count their wins).
    """
    first, second = axes
    options = [str(v) for v in _order(table[first])]
    wins = {(str(r[first]), str(r[second])): (int(r[f"n_{sides[0]}"]), int(r[f"n_{sides[1]}"]),
                                              int(r["trials"]))
            for _, r in table.iterrows()}
    shape = (len(options), len(options))
    score, low, high = np.full(shape, np.nan), np.full(shape, np.nan), np.full(shape, np.nan)
    trials = np.zeros(shape, dtype=np.int64)
    for i, a in enumerate(options):
        for j, b in enumerate(options):
            k = n = 0
            if (a, b) in wins:                      # a seated first against b
                k, n = k + wins[(a, b)][0], n + wins[(a, b)][2]
            if (b, a) in wins and a != b:           # a seated second against b
                k, n = k + wins[(b, a)][1], n + wins[(b, a)][2]
            if n:
                score[i, j] = k / n
                low[i, j], high[i, j] = wilson(k, n)
                trials[i, j] = n
    frame = lambda m: pd.DataFrame(m, index=options, columns=options)  # noqa: E731
    return RoundRobin(options, frame(score), frame(low), frame(high), frame(trials),
                      _ranking(options, score, low, high))


def _ranking(options: list[str], score: np.ndarray, low: np.ndarray,
             high: np.ndarray) -> pd.DataFrame:
    """Mean win rate against the others, and a flag for a dominant or dominated option.

    *dominant*: beats every other option (each interval above 50%); *dominated*: loses to
    every other option (each interval below 50%). Judged with intervals, not point values.
    """
    rows = []
    for i, name in enumerate(options):
        others = [j for j in range(len(options)) if j != i and not np.isnan(score[i, j])]
        beats = [options[j] for j in others if low[i, j] > 0.5]
        loses = [options[j] for j in others if high[i, j] < 0.5]
        flag = ""
        if others and len(beats) == len(others):
            flag = "dominant"
        elif others and len(loses) == len(others):
            flag = "dominated"
        rows.append({"option": name,
                     "mean_win_rate": float(np.mean(score[i, others])) if others else np.nan,
                     "beats": len(beats), "loses_to": len(loses), "flag": flag})
    ranking = pd.DataFrame(rows).sort_values("mean_win_rate", ascending=False, kind="stable")
    ranking.insert(0, "rank", range(1, len(rows) + 1))
    return ranking.reset_index(drop=True)


def _order(column: pd.Series) -> list:
    if isinstance(column.dtype, pd.CategoricalDtype):
        return list(column.cat.categories)
    return list(dict.fromkeys(column.tolist()))


def equilibrium(table: pd.DataFrame, axes: tuple[str, str],
                sides: tuple[str, str]) -> pd.DataFrame:
    """The round robin's equilibrium mix (``balance metagame``: seatings pooled, a draw as
    half a win): option, weight and payoff against the mix, by weight; empty when a pair
    of options has no cell."""
    from balance.analysis.games import solve
    from balance.analysis.matrix import pooled, table_cells
    from balance.errors import OptionError

    options = [str(v) for v in _order(table[axes[0]])]
    try:
        score = pooled(options, table_cells(table, *axes, sides))[0]
    except OptionError:
        return pd.DataFrame(columns=["option", "weight", "payoff"])
    eq = solve(score)
    mix = pd.DataFrame({"option": options, "weight": eq.mix, "payoff": eq.payoff})
    return mix.sort_values(["weight", "payoff"], ascending=False, kind="stable") \
        .reset_index(drop=True)
