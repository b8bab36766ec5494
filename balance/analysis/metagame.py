"""The metagame of a round robin: what game theory says about its matrix of win rates.

A table of options is balanced when no choice is always right, not when every match-up is
even (rock-paper-scissors has no even match-up). :func:`analyse` takes the matrix of every
option against every other (:mod:`balance.analysis.matrix`) and reports the equilibrium mix
(an exact linear program), options dominated by another option or by a mix (and whether the
intervals confirm it), significant intransitive cycles, restricted play (what a player loses
when forbidden one option) and a ranking by payoff against the equilibrium mix, with the
findings in sentences.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from balance.analysis import games
from balance.analysis.matrix import Z95, Matrix, holm
from balance.io.jsonout import strict

ALPHA = 0.05         # family-wise error of the "A beats B" edges that make a cycle (Holm)


@dataclass(frozen=True)
class DominatedOption:
    """One domination: ``option`` is dominated by the mix ``by`` (option -> weight)."""

    option: str
    by: dict[str, float]
    strict: bool
    margin: float                     # the dominator's smallest advantage over any opponent
    survives: bool | None             # confirmed by the intervals (None: no intervals)

    @property
    def pure(self) -> bool:
        return len(self.by) == 1


@dataclass(frozen=True)
class Metagame:
    """Everything :func:`analyse` found; :meth:`to_dict` is the JSON of ``balance metagame``."""

    matrix: Matrix
    equilibrium: games.Equilibrium
    dominated: list[DominatedOption]
    cycles: list[tuple[str, str, str]]
    cycles_tested: bool               # False: no intervals, cycles judged on the point values
    without: np.ndarray               # value left when forbidden each option (restricted play)
    findings: list[str] = field(default_factory=list)

    @property
    def options(self) -> list[str]:
        return self.matrix.options

    @property
    def mix(self) -> dict[str, float]:
        return dict(zip(self.options, self.equilibrium.mix.tolist(), strict=True))

    def within_noise(self) -> list[str]:
        """Options outside the mix whose payoff against it is within its 95% interval of
        the value: the data cannot tell them from the options the mix plays."""
        m, eq = self.matrix, self.equilibrium
        if m.se is None:
            return []
        se = np.sqrt((m.se ** 2 * eq.opponent[None, :] ** 2).sum(axis=1))
        return [m.options[i] for i in self.order()
                if eq.mix[i] == 0 and eq.payoff[i] + Z95 * se[i] >= eq.value]

    def ranking(self) -> list[dict[str, Any]]:
        """Options by payoff against the equilibrium mix (best first), with their weights."""
        eq = self.equilibrium
        order = sorted(range(len(self.options)),
                       key=lambda i: (-round(eq.payoff[i], 12), -eq.mix[i], i))
        return [{"rank": r + 1, "option": self.options[i], "payoff": float(eq.payoff[i]),
                 "weight": float(eq.mix[i])} for r, i in enumerate(order)]

    def order(self) -> list[int]:
        """Option indices by equilibrium weight, then payoff (for heat maps and charts)."""
        eq = self.equilibrium
        return sorted(range(len(self.options)),
                      key=lambda i: (-round(eq.mix[i], 12), -round(eq.payoff[i], 12), i))

    def to_dict(self) -> dict[str, Any]:
        """Plain data, finite numbers only (strict JSON: missing values are None)."""
        m, eq, names = self.matrix, self.equilibrium, self.options
        nash: dict[str, Any] = {
            "mix": self.mix, "value": eq.value,
            "payoff": dict(zip(names, eq.payoff.tolist(), strict=True)),
            "unique": eq.unique,
            "note": None if eq.unique else _non_unique_note(self),
            "ranges": {n: [lo, hi] for n, lo, hi in zip(names, eq.low.tolist(),
                                                         eq.high.tolist(), strict=True)},
            "symmetric": eq.symmetric, "gap": eq.gap(m.score),
            "within_noise": self.within_noise()}
        if not eq.symmetric:
            nash["opponent_mix"] = dict(zip(names, eq.opponent.tolist(), strict=True))
        return strict({
            **m.describe(),
            "nash": nash,
            "dominated": [{"option": d.option, "kind": "strict" if d.strict else "weak",
                           "pure": d.pure, "by": d.by, "margin": d.margin,
                           "survives_intervals": d.survives} for d in self.dominated],
            "cycles": [{"options": list(c), "tested": self.cycles_tested,
                        "win_rates": [m.at(c[0], c[1]), m.at(c[1], c[2]), m.at(c[2], c[0])]}
                       for c in self.cycles],
            "restricted_play": [{"option": n, "value_without": float(v),
                                 "loss": float(eq.value - v)}
                                for n, v in zip(names, self.without, strict=True)],
            "ranking": self.ranking(),
            "findings": self.findings,
        })


def analyse(matrix: Matrix) -> Metagame:
    """The metagame of a matrix: equilibrium, domination, cycles, restricted play, findings."""
    m = matrix.score
    eq = games.solve(m)
    dominated = [_dominated(matrix, d) for d in games.dominations(m)]
    beats, tested = _beats(matrix)
    cyc = [tuple(matrix.options[i] for i in c) for c in games.cycles(beats)]
    result = Metagame(matrix, eq, dominated, cyc, tested, games.restricted_play(m))
    result.findings.extend(findings(result))
    return result


def _dominated(matrix: Matrix, d: games.Domination) -> DominatedOption:
    names = matrix.options
    by = {names[k]: float(w) for k, w in enumerate(d.by) if w > 0}
    survives = None
    if matrix.se is not None:
        # each column's margin and its standard error (cells of a column are independent)
        se = np.sqrt((d.by[:, None] ** 2 * matrix.se ** 2).sum(axis=0) + matrix.se[d.option] ** 2)
        lo, hi = d.margins - Z95 * se, d.margins + Z95 * se
        survives = bool(np.all(lo > 0)) if d.strict else \
            bool(np.all(hi >= 0) and np.any(lo > 0))
    return DominatedOption(names[d.option], by, d.strict, float(d.margins.min()), survives)


def _beats(matrix: Matrix) -> tuple[np.ndarray, bool]:
    """Which row option significantly beats which column option (Holm over every pair
    tested at once), or on the point values when the matrix has no intervals."""
    m = matrix.score
    n = len(matrix.options)
    off = ~np.eye(n, dtype=bool)
    if matrix.se is None:
        return (m > 0.5) & off, False
    pairs = np.argwhere(np.triu(off) if matrix.symmetric_data else off)
    p = np.array([matrix.p_value(i, j) for i, j in pairs])
    reject = holm(p, ALPHA)
    beats = np.zeros((n, n), dtype=bool)
    for (i, j), r in zip(pairs, reject, strict=True):
        if r:
            beats[i, j] = m[i, j] > 0.5
            if matrix.symmetric_data:
                beats[j, i] = m[j, i] > 0.5
    return beats, True


def domination_words(g: Metagame) -> dict[str, tuple[str, bool, bool]]:
    """Per dominated option, how ``balance metagame`` says it (``dominated by spear``,
    ``weakly dominated by a mix of 60% spear and 40% mace``), whether strictly, and whether
    the intervals confirm it: the one vocabulary the metagame and the sweep reports share.
    Of several dominations the surest is told (confirmed, strict, widest margin), naming
    every pure dominator of that kind."""
    pct = lambda x: f"{100 * x:.0f}%"  # noqa: E731
    by_option: dict[str, list[DominatedOption]] = {}
    for d in g.dominated:
        by_option.setdefault(d.option, []).append(d)
    out = {}
    for name, ds in by_option.items():
        best = max(ds, key=lambda d: (d.survives is not False, d.strict, d.margin))
        same = [d for d in ds if d.strict == best.strict
                and (d.survives is not False) == (best.survives is not False)]
        kind = "dominated" if best.strict else "weakly dominated"
        by = ", ".join(next(iter(d.by)) for d in same if d.pure) if best.pure else \
            "a mix of " + " and ".join(f"{pct(w)} {o}" for o, w in best.by.items())
        out[name] = (f"{kind} by {by}", best.strict, best.survives is not False)
    return out


def findings(g: Metagame) -> list[str]:
    """What a designer should take from the analysis, in sentences."""
    eq, names, m = g.equilibrium, g.options, g.matrix
    pct = lambda x: f"{100 * x:.0f}%"  # noqa: E731
    out: list[str] = []
    support = [i for i in g.order() if eq.mix[i] > 0]
    mix = ", ".join(f"{names[i]} {pct(eq.mix[i])}" for i in support)
    who = "A player" if eq.symmetric else f"The {m.seat or 'row'} player"
    if len(support) == 1:
        out.append(f"The equilibrium is pure: {names[support[0]]} every time. Against it no "
                   f"option does better, so the metagame collapses to one choice.")
    else:
        out.append(f"The equilibrium mix is {mix}. {who} who mixes like this wins "
                   f"{pct(eq.value)} on average whatever the opponent picks"
                   + (" (the fair value)." if eq.symmetric else "."))
    if not eq.unique:
        out.append(_non_unique_note(g))
    close = g.within_noise()
    if close:
        those = ", ".join(f"{o} ({100 * eq.payoff[names.index(o)]:.1f}%)" for o in close)
        out.append(f"Within the intervals, {those} {'does' if len(close) == 1 else 'do'} as "
                   "well against the mix: the data cannot rule "
                   f"{'it' if len(close) == 1 else 'them'} out of the equilibrium.")
    unused = [i for i in range(len(names)) if eq.high[i] <= 0]
    if len(support) > 1 and not unused:
        out.append("Every option has a place in the equilibrium: no choice is always wrong.")
    for name, (words, is_strict, sure) in domination_words(g).items():
        advice = "never pick it" if is_strict else "there is no reason to pick it"
        note = "" if sure else " (not confirmed: within the intervals it may be noise)"
        out.append(f"{name} is {words}: {advice}{note}.")
    for a, b, c in g.cycles:
        out.append(f"{a} beats {b}, {b} beats {c}, and {c} beats {a}"
                   + (" (each significant)" if g.cycles_tested else "")
                   + ": an intransitive cycle, so no one of them is best.")
    loss = eq.value - g.without
    carriers = [i for i in np.argsort(-loss, kind="stable") if loss[i] > 0.005]
    if carriers:
        parts = ", ".join(f"{names[i]} ({100 * loss[i]:.1f} points)" for i in carriers[:3])
        out.append(f"Restricted play: forbidding {parts} costs a player the most; those carry "
                   "the metagame." if len(carriers) > 1 else
                   f"Restricted play: forbidding {parts} costs a player the most: it carries "
                   "the metagame.")
    ranking = g.ranking()
    worst = ranking[-1]
    if ranking[0]["payoff"] - worst["payoff"] < games.SAME_WEIGHT:
        out.append(f"Against the equilibrium mix every option does equally well "
                   f"({pct(worst['payoff'])}).")
    else:
        out.append(f"Against the equilibrium mix the best reply is {ranking[0]['option']} "
                   f"({pct(ranking[0]['payoff'])}), the worst {worst['option']} "
                   f"({pct(worst['payoff'])}).")
    return out


def _non_unique_note(g: Metagame) -> str:
    eq, names = g.equilibrium, g.options
    loose = [f"{names[i]} {100 * eq.low[i]:.0f}-{100 * eq.high[i]:.0f}%"
             for i in range(len(names)) if eq.high[i] - eq.low[i] > games.SAME_WEIGHT]
    return ("The equilibrium is not unique: other mixes are equally good; the weights can "
            "range over " + ", ".join(loose) + " (the mix shown is one of them).")
