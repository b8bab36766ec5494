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
