"""Fights and checks the percentile tests share (one place, so no test module imports another's)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from scipy.stats import chi2_contingency

import balance
from balance.rules import get
from tests.rules.helpers import percentile_member as member

ALPHA = 1e-6


SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "percentile"


def fight(*sides: list[dict], max_rounds: int = 40, side_keys: tuple[dict, ...] = (),
          **kw) -> dict:
    """A scenario of these sides; ``side_keys[i]`` adds keys to side i (policy, morale)."""
    names = "abcdefgh"
    out = {"name": "agreement", "ruleset": "percentile", "trials": 1000, "seed": 1,
           "max_rounds": max_rounds,
           "sides": [{"name": names[i], "members": m} for i, m in enumerate(sides)]}
    for side, extra in zip(out["sides"], side_keys, strict=False):
        side.update(extra)
    out.update(kw)
    return out


def load(spec):
    loaded = balance.load_scenario(spec)
    system = get("percentile")
    return system, system.compile(loaded.model, loaded.tables)


def pooled_p(a: np.ndarray, b: np.ndarray, min_expected: float = 5.0) -> float:
    """p-value of a chi-square test that two count vectors share one distribution, adjacent
    bins pooled until each expects at least ``min_expected`` of the smaller sample."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    share = min(a.sum(), b.sum()) / (a.sum() + b.sum())
    rows, acc = [], np.zeros(2)
    for pair in zip(a, b, strict=True):
        acc += pair
        if acc.sum() * share >= min_expected:
            rows.append(acc)
            acc = np.zeros(2)
    if acc.sum():
        if rows:
            rows[-1] = rows[-1] + acc
        else:
            rows.append(acc)
    if len(rows) < 2:
        return 1.0
    return float(chi2_contingency(np.array(rows).T)[1])


FIGHTS = {
    "sword_and_shield_duel": SCENARIOS / "sword_and_shield_duel.yaml",
    # a great axe (2D6+2) breaks bucklers and spears; the spear impales; the axeman dodges
    # and, once down, fights on (but a two-handed weapon cannot strike from the ground)
    "great_axe_against_spear_and_buckler": fight(
        [member(110, weapon="great_axe", shield=None, characteristics={"STR": 16},
                policy={"defence": "dodge", "stand_up": False})],
        [member(70, weapon="short_spear", shield="buckler", sidearm="dagger",
                skills={"dodge": 40})],
        rules={"critical_needs_critical": False}),
    # a slow fighter (DEX 5) whose broken sword leaves a dagger to draw (the five ranks
    # cost its action), against a fighter starting on the ground
    "slow_draw_against_a_fallen_foe": fight(
        [member(55, sidearm="dagger", characteristics={"DEX": 5}, shield=None)],
        [member(50, weapon="mace", situation={"position": "down"})],
        rules={"major_wound_roll": 3, "broken_parry_passes_excess": False}),
    # issue 26: a long spear holds off a swordsman (seed 004's hold-off, played through
    # kernel_strike.held_off and let_inside beside the table), who starts on the ground and
    # gets up spending its defence (when_down: stand_and_fight, by the general steps); the
    # spearman fights on from the ground when it falls (fight_down)
    "long_spear_holds_off_a_swordsman_getting_up": fight(
        [member(60, weapon="long_spear", shield=None, characteristics={"DEX": 14},
                policy={"when_down": "fight_down"})],
        [member(60, situation={"position": "down"}, policy={"when_down": "stand_and_fight"},
                skills={"dodge": 40})]),
}


N = 200_000


def within_4se(hits: float, p: float, n: int = N) -> bool:
    """``hits`` (a frequency over ``n`` trials) lies within 4 standard errors of ``p``."""
    se = math.sqrt(max(p * (1 - p), 1 / n) / n)
    return abs(hits - p) <= 4 * se


def duel(a: dict, b: dict, **kw) -> dict:
    out = {"name": "exact", "ruleset": "percentile", "trials": N, "seed": 14, "max_rounds": 1,
           "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}]}
    out.update(kw)
    return out


def status(scenario: dict, who: str = "b", seed: int = 14) -> dict[str, float]:
    return balance.run(scenario, trials=N, seed=seed).fighter_status[who]


# A target that stands and takes the blow: it tries to slip away by a Dodge of 0 (so it
# never attacks and never succeeds), makes no defence and wears no armour.
PASSIVE = {"movement": "hold", "defence": "none", "break_off_at": 100,
           "break_off_by": "dodge"}


def sitting_duck(hit_points: int, **kw) -> dict:
    """A target that never attacks and never defends (``PASSIVE``), unarmoured unless
    ``kw`` says otherwise."""
    return member(50, **{"shield": None, "armour": "none", "hit_points": hit_points,
                         "skills": {"dodge": 0}, "policy": PASSIVE, **kw})

