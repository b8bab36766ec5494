"""The result of running one scenario: outcome probabilities, intervals, rounds, statuses.

Built from the engine's integer :class:`~balance.engine.run.Tally`; every probability comes
with its Wilson 95% interval, the trial count and the seed, so a number is never shown
without the means to judge it.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

import numpy as np

from balance.engine.run import BLOCK_TRIALS, Tally
from balance.engine.status import STATUS_NAMES
from balance.io import jsonout
from balance.report.stats import hist_mean, hist_quantile, wilson


@dataclass(frozen=True, repr=False)
class RunResult:
    """One scenario's simulated outcomes. ``repr`` is one line, ``str`` the text table of
    ``balance run``, and notebooks show it as an HTML table (``_repr_html_``)."""

    scenario: str
    ruleset: str
    seed: int
    side_names: tuple[str, ...]
    fighter_names: tuple[str, ...]
    tally: Tally
    side_of: np.ndarray
    engine: str = "vector"
    engine_note: str = ""     # why ``engine="auto"`` chose the engine it did
    counted: frozenset[str] = frozenset()   # the breakdown's metrics the rules count

    @property
    def trials(self) -> int:
        return self.tally.trials

    @property
    def exact(self) -> bool:
        """Probabilities from the exact engine (no sampling error; intervals of width 0)."""
        return self.tally.exact

    def _about(self) -> str:
        """What the numbers rest on: trials and seed, or the exact chain's size."""
        if self.exact:
            t = self.tally
            return (f"{self.ruleset}, exact: {t.states:,} states, {t.transitions:,} "
                    "transitions")
        return f"{self.ruleset}, {self.trials:,} trials, seed {self.seed}"

    @property
    def outcome_names(self) -> tuple[str, ...]:
        return (*self.side_names, "draw")

    @property
    def outcomes(self) -> dict[str, float]:
        """Probability of each side winning, and of a draw."""
        wins = zip(self.outcome_names, self.tally.wins, strict=True)
        return {k: float(c) / self.trials for k, c in wins}

    @property
    def ci95(self) -> dict[str, tuple[float, float]]:
        """Wilson 95% interval of each outcome's probability (the point itself when exact)."""
        if self.exact:
            return {k: (p, p) for k, p in self.outcomes.items()}
        wins = zip(self.outcome_names, self.tally.wins, strict=True)
        return {k: wilson(c, self.trials) for k, c in wins}

    @property
    def rounds(self) -> dict[str, float]:
        """Rounds until the fight was decided (max_rounds for a draw by time)."""
        h = self.tally.rounds
        return {"mean": hist_mean(h), "p50": hist_quantile(h, 0.5), "p95": hist_quantile(h, 0.95)}

    @property
    def survival(self) -> list[float]:
        """P(fight still open after round r), r = 0, 1, ...; sums to the mean length."""
        from balance.analysis.lengths import survival

        return survival(self.tally.rounds)

    @property
    def hazard(self) -> list[float | None]:
        """P(decided in round r | open after round r - 1), r = 1, 2, ..."""
        from balance.analysis.lengths import hazard

        return hazard(self.tally.rounds)

    @property
    def fighter_status(self) -> dict[str, dict[str, float]]:
        """Each fighter's final status, as probabilities (standing, yielded, ...)."""
        out = {}
        for name, counts in zip(self.fighter_names, self.tally.status, strict=True):
            pairs = zip(STATUS_NAMES, counts, strict=True)
            out[name] = {s: float(c) / self.trials for s, c in pairs if c}
        return out

    @property
    def survivors(self) -> dict[str, dict[str, Any]]:
        """Per side: fighters still standing at the end (mean, and the distribution)."""
        out = {}
        side_sizes = self.side_sizes
        for side, counts, size in zip(self.side_names, self.tally.standing, side_sizes,
                                      strict=True):
            dist = counts[: size + 1] / self.trials
            out[side] = {"mean": float(np.arange(size + 1) @ dist),
                         "dist": {str(k): float(p) for k, p in enumerate(dist) if p}}
        return out

    @property
    def alive_after(self) -> dict[str, float] | None:
        """Per side: the share of its fighters alive after the aftermath (None without one)."""
        alive = self.tally.alive_after
        if alive is None:
            return None
        return {side: float(alive[self.side_of == s].sum()) / (self.trials * size)
                for s, (side, size) in enumerate(zip(self.side_names, self.side_sizes,
                                                     strict=True))}

    @property
    def first_down(self) -> dict[str, float]:
        """Probability that each fighter is the first to go down ('nobody': no one did)."""
        names = (*self.fighter_names, "nobody")
        counts = zip(names, self.tally.first_down, strict=True)
        return {name: float(c) / self.trials for name, c in counts if c}

    @property
    def breakdown(self) -> dict[str, dict] | None:
        """Per fighter and metric (``balance.engine.breakdown.METRICS``): the mean per fight
        and its 95% interval, None for a metric these rules do not count; None without a
        breakdown (``balance.run(..., breakdown=True)``)."""
        if self.tally.breakdown is None:
            return None
        from balance.engine.breakdown import summary

        return summary(self.tally.breakdown, self.trials, self.fighter_names, self.counted)

    def breakdown_frame(self):
        """The breakdown as a pandas DataFrame: one row per fighter and metric."""
        import pandas as pd

        rows = [{"fighter": f, "metric": m, "mean": v["mean"] if v else None,
                 "ci_low": v["ci95"][0] if v else None, "ci_high": v["ci95"][1] if v else None,
                 "counted": v is not None}
                for f, metrics in (self.breakdown or {}).items() for m, v in metrics.items()]
        return pd.DataFrame(rows, columns=["fighter", "metric", "mean", "ci_low", "ci_high",
                                           "counted"])

    @property
    def side_sizes(self) -> tuple[int, ...]:
        """Fighters per side."""
        return tuple(int(c) for c in np.bincount(self.side_of, minlength=len(self.side_names)))

    def to_dict(self) -> dict[str, Any]:
        """The ``balance run --json`` object."""
        exact = ({"exact": {"states": self.tally.states,
                            "transitions": self.tally.transitions,
                            "rounds_stepped": self.tally.rounds_played}}
                 if self.exact else {})
        return {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "trials": None if self.exact else self.trials,
            "seed": None if self.exact else self.seed,
            **exact,
            "outcomes": self.outcomes,
            "ci95": {k: list(v) for k, v in self.ci95.items()},
            "rounds": {**self.rounds, "survival": self.survival, "hazard": self.hazard},
            "survivors": self.survivors,
            "first_down": self.first_down,
            **({"alive_after": self.alive_after} if self.alive_after is not None else {}),
            "fighters": self.fighter_status,
            "engine": self.engine,
            **({"engine_note": self.engine_note} if self.engine_note else {}),
            **({"breakdown": self.breakdown} if self.tally.breakdown is not None else {}),
            "block_trials": BLOCK_TRIALS,
        }

    def to_json(self) -> str:
        return jsonout.dumps(self.to_dict(), indent=2)

    def to_frame(self):
        """One row per outcome: wins, probability and its 95% interval (pandas)."""
        import pandas as pd

        ci = self.ci95
        return pd.DataFrame({
            "outcome": list(self.outcome_names),
            "wins": (np.full(len(self.outcome_names), np.nan) if self.exact
                     else self.tally.wins.astype(np.int64)),
            "p": [self.outcomes[k] for k in self.outcome_names],
            "ci_low": [ci[k][0] for k in self.outcome_names],
            "ci_high": [ci[k][1] for k in self.outcome_names],
            "trials": np.nan if self.exact else self.trials,
            "seed": np.nan if self.exact else self.seed,
            "exact": self.exact,
            "scenario": self.scenario,
        })

    def __repr__(self) -> str:
        ci = self.ci95
        parts = ", ".join(f"{k} {100 * p:.1f}% [{100 * ci[k][0]:.1f}, {100 * ci[k][1]:.1f}]"
                          for k, p in self.outcomes.items())
        return (f"<RunResult {self.scenario!r} ({self._about()}): {parts}; mean rounds "
                f"{self.rounds['mean']:.2f}>")

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        """The outcome table for Jupyter: probability and Wilson 95% interval per outcome."""
        e = html.escape
        ci = self.ci95
        rows = "".join(
            f"<tr><td style='text-align:left'>{e(k)}</td><td>{100 * p:.2f}%</td>"
            f"<td>{100 * ci[k][0]:.2f}% – {100 * ci[k][1]:.2f}%</td></tr>"
            for k, p in self.outcomes.items())
        r = self.rounds
        return (f"<table><caption style='text-align:left'><b>{e(self.scenario)}</b> "
                f"({e(self._about())})</caption>"
                "<thead><tr><th style='text-align:left'>outcome</th><th>p</th>"
                f"<th>95% interval</th></tr></thead><tbody>{rows}</tbody></table>"
                f"<p>rounds: mean {r['mean']:.2f}, median {r['p50']}, 95th percentile "
                f"{r['p95']}</p>")

    def to_text(self) -> str:
        """A readable table for the terminal."""
        lines = [f"{self.scenario}  ({self._about()})", ""]
        if self.engine_note:
            lines += [f"  ({self.engine_note})", ""]
        ci = self.ci95
        if self.exact:
            lines.append(f"  {'outcome':<24} {'p':>8}   (exact)")
            lines += [f"  {k:<24} {100 * p:7.3f}%" for k, p in self.outcomes.items()]
        else:
            lines.append(f"  {'outcome':<24} {'p':>8}   95% interval")
        for k, p in ([] if self.exact else self.outcomes.items()):
            lo, hi = ci[k]
            lines.append(f"  {k:<24} {100 * p:7.2f}%   [{100 * lo:6.2f}%, {100 * hi:6.2f}%]")
        r = self.rounds
        lines += ["", f"  rounds: mean {r['mean']:.2f}, median {r['p50']}, 95th percentile "
                      f"{r['p95']}"]
        from balance.analysis.lengths import survival_text

        lines += ["", "  how long fights last (survival curve)", *survival_text(self.tally.rounds)]
        if max(self.side_sizes) > 1:
            lines += ["", f"  {'side':<24} fighters standing at the end (mean)"]
            for (side, sv), size in zip(self.survivors.items(), self.side_sizes, strict=True):
                lines.append(f"  {side:<24} {sv['mean']:.2f} of {size}")
        lines += ["", f"  {'fighter':<24} final status"]
        for name, st in self.fighter_status.items():
            parts = ", ".join(f"{k} {100 * v:.1f}%" for k, v in st.items())
            lines.append(f"  {name:<24} {parts}")
        if self.tally.breakdown is not None:
            lines += ["", *self.breakdown_text()]
        return "\n".join(lines)

    def breakdown_text(self) -> list[str]:
        """The breakdown as text rows: per fighter, each counted metric's mean per fight and
        the half-width of its 95% interval."""
        from balance.engine.breakdown import METRICS

        shown = [m for m in METRICS if m in self.counted]
        rows = {name: [f"{row[m]['mean']:.2f} ±{(row[m]['ci95'][1] - row[m]['ci95'][0]) / 2:.2f}"
                       for m in shown] for name, row in (self.breakdown or {}).items()}
        labels = [m.replace("_", " ") for m in shown]
        width = [max([len(label), *(len(r[k]) for r in rows.values())])
                 for k, label in enumerate(labels)]
        out = [f"  {'per fight (mean ±95%)':<24} "
               + "  ".join(f"{label:>{w}}" for label, w in zip(labels, width, strict=True))]
        for name, cells in rows.items():
            out.append(f"  {name:<24} "
                       + "  ".join(f"{c:>{w}}" for c, w in zip(cells, width, strict=True)))
        missing = [m.replace("_", " ") for m in METRICS if m not in self.counted]
        if missing:
            out.append(f"  (not counted by the {self.ruleset} rules: {', '.join(missing)})")
        return out
