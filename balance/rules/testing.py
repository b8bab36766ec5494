"""The conformance suite every registered rule system passes: ``check_rule_system``.

In the spirit of scikit-learn's ``check_estimator``: :func:`checks` yields the checks a
system's declared capabilities (``RuleSystem.has_*``) call for, each a named callable that
raises ``AssertionError`` with a message naming what differs; :func:`check_rule_system` runs
them all and reports every failure at once. A new rule system gets the whole suite by
registering itself (``balance.registry``) and giving its examples (``RuleSystem.examples``):
a duel between fighters of a conformance skill 1..7 and a small group fight.

The kernel-vs-reference comparison pools its evidence into one statistic: the chi-square
homogeneity statistics of three tables (winner by round bin; each fighter's final status;
first down) summed, with their degrees of freedom, into one p-value, rejected below
``ALPHA``. Its power is stated by :func:`detectable_shift`: with the default 3,000 reference
and 60,000 kernel trials, a shift of about 4.6 points in a 50% outcome is found half the
time, 5.8 points nine times in ten. On failure the message names the cells (outcome and
round bin, fighter and status) that differ most, with both shares. Exact comparisons
(scripted dice; the exact engine) belong with the rule systems' own tests.

Imports pytest nowhere: tests call these functions, and so can a notebook.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from statistics import NormalDist

import numpy as np

ALPHA = 1e-6
REFERENCE_TRIALS = 3_000
KERNEL_TRIALS = 60_000


@dataclass(frozen=True)
class Examples:
    """Scenario builders a rule system gives the conformance suite (plain dicts, as YAML
    would load them). ``duel(a, b)``: one fighter a side, of conformance skills ``a`` and
    ``b`` (1..7, each system mapping them onto its own skill scale so that 7 beats 1 by a
    wide margin); ``group()``: a small fight of several fighters on three sides;
    ``agreement``: scenarios for the kernel-vs-reference comparison (default: the duel at
    5 against 3 and the group); ``exact``: duels the exact engine covers, for the
    exact-vs-kernel comparison (default: the duels at 4 against 4 and 6 against 3)."""

    duel: Callable[[int, int], dict]
    group: Callable[[], dict]
    agreement: tuple[dict, ...] = ()
    exact: tuple[dict, ...] = ()

    def agreement_scenarios(self) -> tuple[dict, ...]:
        return self.agreement or (self.duel(5, 3), self.group())

    def exact_scenarios(self) -> tuple[dict, ...]:
        return self.exact or (self.duel(4, 4), self.duel(6, 3))


@dataclass(frozen=True)
class Check:
    """One conformance check of one system (``run`` raises AssertionError on failure)."""

    system: str
    name: str
    run: Callable[[], None]

    def __repr__(self) -> str:
        return f"{self.system}:{self.name}"


def compiled(system, scenario: dict):
    """The compiled fight of a scenario dict."""
    import balance

    loaded = balance.load_scenario(scenario)
    return system.compile(loaded.model, loaded.tables)


def checks(system, *, reference_trials: int = REFERENCE_TRIALS,
           kernel_trials: int = KERNEL_TRIALS) -> Iterator[Check]:
    """The checks that apply to ``system`` (by its capability flags)."""
    ex = system.examples()
    name = system.ruleset

    def make(label: str, fn: Callable[[], None]) -> Check:
        return Check(name, label, fn)

    scenario = ex.group() if system.has_groups else ex.duel(4, 4)
    yield make("shapes_and_dtypes", lambda: check_shapes(system, scenario))
    yield make("same_seed_same_numbers", lambda: check_determinism(system, scenario))
    yield make("no_global_random_state", lambda: check_no_global_rng(system, scenario))
    yield make("mirror_duel_is_even", lambda: check_mirror(ex))
    yield make("more_skill_never_hurts", lambda: check_monotone(ex))
    yield make("swapped_sides_mirror", lambda: check_swap(ex))
    for k, sc in enumerate(ex.agreement_scenarios()):
        yield make(f"kernel_matches_reference[{k}:{sc.get('name', '')}]",
                   lambda sc=sc: check_agreement(system, sc, reference_trials, kernel_trials))
    if system.has_exact_duels:
        yield make("exact_duel_matches_kernel", lambda: check_exact(ex))


def check_rule_system(system, **kw) -> None:
    """Run every applicable check; one AssertionError listing all failures."""
    failures = []
    for check in checks(system, **kw):
        try:
            check.run()
        except AssertionError as err:
            failures.append(f"{check!r}: {err}")
    if failures:
        raise AssertionError("\n".join(failures))


# --- the checks ---------------------------------------------------------------------------


def check_shapes(system, scenario: dict) -> None:
    from balance.engine.loop import simulate
    from balance.engine.status import STATUS_NAMES

    fight = compiled(system, scenario)
    n = 500
    out = simulate(system, fight, n, np.random.default_rng(0))
    c = len(fight.side_of)
    assert out.winner.shape == (n,) and out.winner.dtype == np.int8, "winner: (n,) int8"
    assert out.rounds.shape == (n,) and out.rounds.dtype == np.int16, "rounds: (n,) int16"
    assert out.status.shape == (c, n) and out.status.dtype == np.int8, "status: (c, n) int8"
    assert set(np.unique(out.winner)) <= {-1, *range(len(fight.side_names))}, "winner range"
    assert 1 <= out.rounds.min() and out.rounds.max() <= fight.max_rounds, "rounds range"
    assert 0 <= out.status.min() and out.status.max() < len(STATUS_NAMES), "status range"


def check_determinism(system, scenario: dict) -> None:
    """Same seed, same numbers; blocks run in any order and split give the same tally;
    another seed gives other numbers."""
    from balance.engine.run import BLOCK_TRIALS, run_fight

    fight = compiled(system, scenario)
    trials = 2 * BLOCK_TRIALS + 123
    whole = run_fight(system, fight, trials, seed=5)
    again = run_fight(system, fight, trials, seed=5)
    parts = run_fight(system, fight, trials, seed=5, blocks=[2, 0]).merge(
        run_fight(system, fight, trials, seed=5, blocks=[1]))
    for field in ("wins", "rounds", "status", "standing"):
        assert np.array_equal(getattr(whole, field), getattr(again, field)), \
            f"{field}: two runs at seed 5 differ"
        assert np.array_equal(getattr(whole, field), getattr(parts, field)), \
            f"{field}: blocks played in another order or split differ"
    other = run_fight(system, fight, trials, seed=6)
    assert not np.array_equal(whole.rounds, other.rounds), "seeds 5 and 6 give equal rounds"


def check_no_global_rng(system, scenario: dict) -> None:
    from balance.engine.run import run_fight

    fight = compiled(system, scenario)
    np_state, py_state = np.random.get_state(), random.getstate()  # noqa: NPY002
    run_fight(system, fight, 3000, seed=1)
    after = np.random.get_state()  # noqa: NPY002
    assert all(np.array_equal(x, y) for x, y in zip(np_state, after, strict=True)), \
        "numpy's global random state changed"
    assert random.getstate() == py_state, "Python's random module state changed"


def _sigma(p: float, n: int) -> float:
    return math.sqrt(max(p * (1 - p), 1e-12) / n)


def check_mirror(ex: Examples, n: int = 200_000) -> None:
    import balance

    p = balance.run(ex.duel(4, 4), trials=n, seed=3).outcomes
    se = math.sqrt(2 * (p["a"] + p["b"]) * 0.25 / n) * 2
    assert abs(p["a"] - p["b"]) < 4.5 * se, \
        f"mirror duel: a {p['a']:.4f}, b {p['b']:.4f} (4.5 SE is {4.5 * se:.4f})"


def check_monotone(ex: Examples, n: int = 40_000) -> None:
    import balance

    rates = [balance.run(ex.duel(k, 4), trials=n, seed=k).outcomes["a"] for k in range(1, 8)]
    se = math.sqrt(0.25 / n)
    for k, (earlier, later) in enumerate(pairwise(rates), start=1):
        assert later > earlier - 4 * se * math.sqrt(2), \
            f"skill {k + 1} wins {later:.4f} < skill {k} {earlier:.4f} (against skill 4)"
    assert rates[-1] - rates[0] > 0.5, f"skill 7 vs 1 differ by only {rates[-1] - rates[0]:.3f}"


def check_swap(ex: Examples, n: int = 100_000) -> None:
    import balance

    scenario = ex.duel(5, 3)
    swapped = dict(scenario, sides=scenario["sides"][::-1])
    p = balance.run(scenario, trials=n, seed=1).outcomes
    q = balance.run(swapped, trials=n, seed=2).outcomes
    se = math.sqrt(2 * 0.25 / n)
    for side in ("a", "b"):
        assert abs(p[side] - q[side]) < 4.5 * se, \
            f"side {side!r}: {p[side]:.4f} listed first, {q[side]:.4f} listed second"


def check_exact(ex: Examples, n: int = 400_000) -> None:
    """The exact engine against the kernel on the examples' duels (4 SE)."""
    import balance
    from balance.exact.compare import disagreements

    for k, sc in enumerate(ex.exact_scenarios()):
        exact = balance.run(sc, engine="exact")
        sampled = balance.run(sc, trials=n, seed=17)
        bad = disagreements(exact, sampled)
        assert not bad, f"exact duel {k} ({sc.get('name', '')}): " + "; ".join(bad)


# --- kernel against reference: one pooled statistic -------------------------------------------


def detectable_shift(n_reference: int = REFERENCE_TRIALS, n_kernel: int = KERNEL_TRIALS,
                     alpha: float = ALPHA, power: float = 0.5, p: float = 0.5) -> float:
    """The shift in an outcome of probability ``p`` the agreement test finds with the
    given ``power`` (a one-cell approximation of the pooled test: conservative)."""
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return z * math.sqrt(p * (1 - p) * (1 / n_reference + 1 / n_kernel))


def _pooled_bins(a: np.ndarray, b: np.ndarray, min_expected: float = 5.0) -> list[list[int]]:
    """Consecutive columns merged until each group expects ``min_expected`` in the smaller
    sample (the last short group joins the one before it)."""
    total = a + b
    frac = min(a.sum(), b.sum()) / max(total.sum(), 1)
    groups, cur, acc = [], [], 0.0
    for j, t in enumerate(total):
        cur.append(j)
        acc += t * frac
        if acc >= min_expected:
            groups.append(cur)
            cur, acc = [], 0.0
    if cur:
        if groups:
            groups[-1].extend(cur)
        else:
            groups.append(cur)
    return groups


def _cells(rows: list[tuple[np.ndarray, np.ndarray, list[str]]]
           ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """One table's cells from rows of (kernel counts, reference counts, labels), each row's
    columns pooled on its own (so a cell never spans two outcomes)."""
    ka, kb, names = [], [], []
    for a, b, labels in rows:
        for g in _pooled_bins(a, b):
            x, y = a[g].sum(), b[g].sum()
            if x + y > 0:
                ka.append(x)
                kb.append(y)
                names.append(labels[g[0]] if len(g) == 1 else f"{labels[g[0]]}-{labels[g[-1]]}")
    return np.array(ka, dtype=float), np.array(kb, dtype=float), names


def _chi2(a: np.ndarray, b: np.ndarray, names: list[str]) -> tuple[float, int, list[tuple]]:
    """Chi-square homogeneity of two count vectors: (statistic, dof, cells as (z, name,
    share in a, share in b))."""
    if a.size < 2:
        return 0.0, 0, []
    na, nb = a.sum(), b.sum()
    pooled = (a + b) / (na + nb)
    ea, eb = pooled * na, pooled * nb
    stat = float(((a - ea) ** 2 / ea).sum() + ((b - eb) ** 2 / eb).sum())
    z = (a / na - b / nb) / np.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb) + 1e-300)
    cells = [(float(r), nm, float(x / na), float(y / nb))
             for r, nm, x, y in zip(z, names, a, b, strict=True)]
    return stat, int(a.size - 1), cells


def agreement(kernel: _Outcomes, reference: _Outcomes, side_names, fighter_names
              ) -> tuple[float, list[tuple]]:
    """(p-value, cells by |z|) of the pooled homogeneity test of two runs' outcomes: the
    winner-by-deciding-round table and each fighter's final-status table, their chi-square
    statistics and degrees of freedom summed into one statistic."""
    from scipy.stats import chi2

    from balance.engine.status import STATUS_NAMES

    outcomes = [*map(repr, side_names), "draw"]
    rounds = kernel.by_outcome_round.shape[1]
    tables = [_cells([(kernel.by_outcome_round[o], reference.by_outcome_round[o],
                       [f"{outcomes[o]} wins in round {r}" for r in range(rounds)])
                      for o in range(len(outcomes))])]
    for f, name in enumerate(fighter_names):
        tables.append(_cells([(kernel.status[f], reference.status[f],
                               [f"{name} ends {s}" for s in STATUS_NAMES])]))
    stat, dof, cells = 0.0, 0, []
    for a, b, names in tables:
        s, d, c = _chi2(a, b, names)
        stat, dof, cells = stat + s, dof + d, cells + c
    p = 1.0 if dof == 0 else float(chi2.sf(stat, dof))
    return p, sorted(cells, key=lambda c: -abs(c[0]))


@dataclass
class _Outcomes:
    """Counts the pooled test reads: winner (sides, then draw) by deciding round, and each
    fighter's final status."""

    by_outcome_round: np.ndarray     # (n_sides + 1, max_rounds + 1)
    status: np.ndarray               # (n_fighters, n_statuses)


def _observe(system, fight, trials: int, seed: int, reference: bool) -> _Outcomes:
    from balance.engine.loop import BlockOutcome, simulate
    from balance.engine.run import block_rng, block_sizes
    from balance.engine.status import DRAW, STATUS_NAMES

    n_sides = len(fight.side_names)
    c = len(fight.side_of)
    by = np.zeros((n_sides + 1, fight.max_rounds + 1))
    status = np.zeros((c, len(STATUS_NAMES)))
    for b, size in enumerate(block_sizes(trials)):
        rng = block_rng(seed, b)
        if reference:
            res = [system.reference_trial(fight, rng) for _ in range(size)]
            out = BlockOutcome(np.array([r.winner for r in res], dtype=np.int8),
                               np.array([r.rounds for r in res], dtype=np.int16),
                               np.array([r.status for r in res], dtype=np.int8).T)
        else:
            out = simulate(system, fight, size, rng)
        winner = np.where(out.winner == DRAW, n_sides, out.winner).astype(np.intp)
        np.add.at(by, (winner, out.rounds.astype(np.intp)), 1)
        for f in range(c):
            status[f] += np.bincount(out.status[f], minlength=len(STATUS_NAMES))
    return _Outcomes(by, status)


def check_agreement(system, scenario: dict, reference_trials: int = REFERENCE_TRIALS,
                    kernel_trials: int = KERNEL_TRIALS, alpha: float = ALPHA) -> None:
    """The kernel and the reference play the scenario; the pooled test must not reject."""
    fight = compiled(system, scenario)
    k = _observe(system, fight, kernel_trials, 101, reference=False)
    r = _observe(system, fight, reference_trials, 202, reference=True)
    p, cells = agreement(k, r, fight.side_names, fight.fighter_names)
    if p < alpha:
        worst = "; ".join(f"{nm}: kernel {x:.2%}, reference {y:.2%} (z {z:+.1f})"
                          for z, nm, x, y in cells[:3])
        raise AssertionError(f"kernel and reference differ (pooled chi-square p = {p:.1e} < "
                             f"{alpha:g}); most different: {worst}")
