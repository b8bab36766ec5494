"""The vectorised Yags kernel against the scalar reference: same rules, same distributions.

Each fight is played 200,000 times by the kernel and 10,000 times by the reference, at fixed
seeds; the winner, round and final-status distributions must be homogeneous (chi-square
test of the two count tables), rejecting only at p < 1e-6 so that noise never fails a build
while a real difference of a point or two in a win rate does.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from balance.engine.run import run_fight, run_reference
from balance.rules import get
from balance.rules.yags.fighters import AUTO, Fighter, YagsFight, YagsRules
from balance.rules.yags.tracks import AGGRESSIVE, DEFENSIVE, MIXED, NORMAL, STUNS, WOUNDS

ALPHA = 1e-6


def fighter(side: int, name: str, **kw) -> Fighter:
    """A veteran: dexterity 3 x skill 4 + long sword, strength 3, mail (soak 12 + 6)."""
    base = dict(attack=15, defence=15, damage=18, damage_type=WOUNDS, soak=18, initiative=12,
                health=3, skill=4, max_defences=3, stance=NORMAL, defences=AUTO, yield_at=99)
    base.update(kw)
    return Fighter(side=side, name=name, **base)


FIGHTS = {
    "mirror": [fighter(0, "a"), fighter(1, "b")],
    "aggressive_mixed_vs_defensive": [
        fighter(0, "a", stance=AGGRESSIVE, damage_type=MIXED, skill=5, attack=18),
        fighter(1, "b", stance=DEFENSIVE, max_defences=4, soak=14)],
    "stuns_vs_wounds": [
        fighter(0, "a", damage_type=STUNS, damage=12, attack=12, defence=12),
        fighter(1, "b", damage=14, soak=12, attack=13)],
    "all_out_attack": [fighter(0, "a", defences=0), fighter(1, "b")],
    "two_guards_vs_hero": [
        fighter(0, "hero", attack=20, defence=20, skill=6, health=4),
        fighter(1, "g1", attack=12, defence=12, skill=3, yield_at=5),
        fighter(1, "g2", attack=12, defence=12, skill=3)],
    "three_sides": [fighter(0, "a"), fighter(1, "b", stance=AGGRESSIVE),
                    fighter(2, "c", stance=DEFENSIVE)],
    "yielding_fumbly": [fighter(0, "a", yield_at=4, skill=1, attack=5, defence=5),
                        fighter(1, "b", yield_at=3, skill=1, attack=5, defence=5)],
}


def homogeneous(a: np.ndarray, b: np.ndarray) -> float:
    """p-value of a chi-square test that two count vectors share one distribution."""
    keep = (a + b) > 0
    if keep.sum() < 2:
        return 1.0
    return float(chi2_contingency(np.stack([a[keep], b[keep]]))[1])


@pytest.mark.parametrize("name", sorted(FIGHTS))
def test_kernel_matches_reference(name: str) -> None:
    fs = FIGHTS[name]
    n_sides = len({f.side for f in fs})
    fight = YagsFight(tuple(fs), tuple(f"s{s}" for s in range(n_sides)), YagsRules(), 40)
    system = get("yags")
    fast = run_fight(system, fight, 200_000, seed=1)
    slow = run_reference(system, fight, 10_000, seed=2)
    assert homogeneous(fast.wins, slow.wins) > ALPHA
    assert homogeneous(fast.rounds, slow.rounds) > ALPHA
    for i in range(len(fs)):
        assert homogeneous(fast.status[i], slow.status[i]) > ALPHA
    # and the means agree to a few standard errors
    rounds = np.arange(fight.max_rounds + 1)
    mean_fast = rounds @ fast.rounds / fast.trials
    mean_slow = rounds @ slow.rounds / slow.trials
    sd = np.sqrt((rounds - mean_slow) ** 2 @ slow.rounds / slow.trials)
    assert abs(mean_fast - mean_slow) < 5 * sd / np.sqrt(slow.trials)
