"""Helpers shared by the rule-system tests: the agreement statistic and scenario builders."""

from __future__ import annotations

import numpy as np
from scipy.stats import chi2_contingency


def homogeneous(a: np.ndarray, b: np.ndarray) -> float:
    """p-value of a chi-square test that two count vectors share one distribution."""
    keep = (a + b) > 0
    if keep.sum() < 2:
        return 1.0
    return float(chi2_contingency(np.stack([a[keep], b[keep]]))[1])


def differ(what: str, kernel: np.ndarray, reference: np.ndarray,
           labels: list[str] | tuple[str, ...] | None = None, top: int = 3,
           p: float | None = None) -> str:
    """An agreement assert's message: ``what`` (the outcome and the fighter), the p-value,
    and the ``top`` bins whose shares differ most (each bin's label, its share in the kernel's
    run and in the reference's, and the z of the difference). ``p``: the test's own p-value
    (default: ``homogeneous``'s)."""
    a, b = np.asarray(kernel, dtype=float), np.asarray(reference, dtype=float)
    labels = list(labels) if labels is not None else [str(k) for k in range(a.size)]
    na, nb = max(a.sum(), 1.0), max(b.sum(), 1.0)
    pooled = (a + b) / (na + nb)
    z = (a / na - b / nb) / np.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb) + 1e-300)
    worst = np.argsort(-np.abs(z))[:top]
    cells = "; ".join(f"{labels[k]}: kernel {a[k] / na:.2%}, reference {b[k] / nb:.2%} "
                      f"(z {z[k]:+.1f})" for k in worst if a[k] + b[k] > 0)
    return (f"{what}: kernel ({int(na)} trials) and reference ({int(nb)}) differ (p = "
            f"{homogeneous(a, b) if p is None else p:.1e}); most different bins: {cells}")


def win_labels(side_names) -> list[str]:
    """The bins of ``Tally.wins``: each side's win, then the draw."""
    return [f"{name!r} wins" for name in side_names] + ["draw"]


def round_labels(n: int) -> list[str]:
    return [f"ends in round {r}" for r in range(n)]


def status_labels(name: str) -> list[str]:
    from balance.engine.status import STATUS_NAMES

    return [f"{name} ends {s}" for s in STATUS_NAMES]


def percentile_member(attack: int = 60, **kw) -> dict:
    """A percentile-system sword-and-shield fighter; keyword arguments override its keys
    (mappings merge, None removes a key)."""
    base = {"characteristics": {"STR": 13, "CON": 12, "SIZ": 13, "DEX": 12},
            "skills": {"attack": attack, "shield": attack - 5}, "weapon": "broadsword",
            "shield": "full_shield", "armour": "leather"}
    for key, value in kw.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            base[key] = {**base[key], **value}
        elif value is None:
            base.pop(key, None)
        else:
            base[key] = value
    return base


def ymlad_duel(a: dict, b: dict, **kw) -> dict:
    """A Ymlad scenario of one member per side (sides ``a`` and ``b``); ``kw`` adds or
    replaces top-level keys."""
    scenario = {"name": "duel", "ruleset": "ymlad",
                "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    scenario.update(kw)
    return scenario


def ymlad_fight(scenario: dict):
    """The compiled Ymlad fight of a scenario dict."""
    import balance
    from balance.rules import get

    loaded = balance.load_scenario(scenario)
    return get("ymlad").compile(loaded.model, loaded.tables)


def assert_tallies_agree(name: str, fight, fast, slow, alpha: float) -> None:
    """The kernel's tally ``fast`` and the reference's ``slow`` of ``fight`` agree: winners,
    fight lengths and each fighter's final status homogeneous at ``alpha``, and the mean
    fight length within 5 standard errors; each failure names ``name``, the table and the
    bins that differ most."""
    assert homogeneous(fast.wins, slow.wins) > alpha, \
        differ(f"{name}: winner", fast.wins, slow.wins, win_labels(fight.side_names))
    assert homogeneous(fast.rounds, slow.rounds) > alpha, \
        differ(f"{name}: fight length", fast.rounds, slow.rounds, round_labels(fast.rounds.size))
    for i, f in enumerate(fight.fighters):
        assert homogeneous(fast.status[i], slow.status[i]) > alpha, \
            differ(f"{name}: {f.name}'s final status", fast.status[i], slow.status[i],
                   status_labels(f.name))
    rounds = np.arange(fight.max_rounds + 1)
    mean_fast = rounds @ fast.rounds / fast.trials
    mean_slow = rounds @ slow.rounds / slow.trials
    sd = np.sqrt((rounds - mean_slow) ** 2 @ slow.rounds / slow.trials)
    assert abs(mean_fast - mean_slow) < 5 * sd / np.sqrt(slow.trials) + 1e-9, (
        f"{name}: mean fight length: kernel {mean_fast:.3f} rounds, reference "
        f"{mean_slow:.3f} (5 standard errors: {5 * sd / np.sqrt(slow.trials):.3f})")


def assert_stated_power(doc: str, reference: int, kernel: int, half: float, most: float,
                        alpha: float) -> None:
    """The power a test module's docstring ``doc`` states is what ``detectable_shift`` gives:
    ``half`` points found half the time, ``most`` nine times in ten."""
    from balance.rules.testing import detectable_shift

    for power, shift in ((0.5, half), (0.9, most)):
        got = 100 * detectable_shift(reference, kernel, alpha, power)
        assert round(got, 1) == shift, f"{reference} v {kernel} at power {power}: {got:.2f}"
        assert f"{shift}" in doc, f"the docstring does not state {shift}"
