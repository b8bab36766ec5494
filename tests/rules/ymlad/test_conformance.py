"""Exact one-round conformance of the Ymlad kernel with its reference (issue 28).

A duel's first round, both fighters in reach: initiative (a d20 each), then each fighter's
attack, effort against resistance moved by a drift, and, if it succeeds, the harm margin
moved by a second drift (or the engagement of a close-combat fighter), is played by the
kernel (``kernel.fight.play_round``) on one trial per combination of drift values and by the
reference (``reference.fight.play_round``) on every trial with the same dice
(``balance.engine.scripted``); after it, every fighter's body, brief and grappling harm,
status and close-combat partner must be equal.

Enumerated: every value in -4..+4 of each of the round's four drifts (9 ** 4 = 6,561
trials): the first fighter's attack and harm drifts, then the second's (a drift not thrown
because its attack failed passes its value on: each side takes the drifts in the order
it throws them, the same order on both sides). A drift of value v is scripted as its d6
throws: |v| throws of its direction (5 or 6 up, 1 or 2 down) and an ending throw, neutral
(3 or 4) or reversing, the faces and the kind of ending varying with the trial so that every
face appears. Seed 002: "If an effort score is greater than or equal to the
corresponding resistance score, then the effort succeeds"; "for each attempt, throw a
6-sided die. If a 1 or 2 comes up, lower the outcome by one point; for 3 or 4, leave it
unchanged; for 5 or 6, up the outcome by one point. Repeat this until a neutral 3 or 4
comes up, or a value that would reverse the process." The
kernel throws a second die even after a neutral first throw and ignores it
(``balance.dice.drift``); its script has that die (a 6), the reference's does not.
Initiative is scripted too: the first fighter first, or both equal (acting at once, on the
state as the round's group began).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from balance.engine.scripted import ScriptedColumns, ScriptedDice, die
from balance.engine.status import STATUS_NAMES
from balance.rules.ymlad.examples import duel, member
from balance.rules.ymlad.kernel import fight as kernel
from balance.rules.ymlad.reference import fight as ref
from balance.rules.ymlad.rules.tables import CLOSE, FORMATION, MELEE
from tests.rules.helpers import ymlad_fight

pytestmark = pytest.mark.slow

RANGE = range(-4, 5)
STYLES = ((FORMATION, "formation"), (MELEE, "melee"), (CLOSE, "close"))
VALUES = np.array(list(itertools.product(RANGE, repeat=4)))     # (6561, 4)

PAIRINGS = {
    # long swords in mail, melee skills 3 and 3
    "swords": (duel(member(4), member(4)), (1, 20)),
    # the same acting at once (equal initiative)
    "swords_at_once": (duel(member(4), member(4)), (10, 10)),
    # a great axe against an unarmoured dagger: harm enough to down or kill in one blow
    "axe_vs_unarmoured": (duel(member(7, weapon="great_axe"),
                               member(2, weapon="dagger", armour=[])), (5, 9)),
    # a wrestler closes in (an engagement, not harm); the other fights back in melee
    "close_vs_melee": (duel(member(5, policy={"style": "close"}, weapon="dagger"),
                            member(4)), (3, 12)),
}


def drift_faces(v: int, j: int, k: int, kernel_side: bool) -> list[int]:
    """The d6 throws of a drift of value ``v`` (trial ``j``, the trial's ``k``-th drift)."""
    alt = (j + k) % 2
    if v == 0:
        return [3 + alt] + ([6] if kernel_side else [])
    up = v > 0
    step = (5 + alt) if up else (1 + alt)
    reverse = (1 + alt) if up else (5 + alt)
    end = (3 + alt) if (j // 2 + k) % 2 else reverse
    return [step] * abs(v) + [end]


def scripts(init: tuple[int, int], kernel_side: bool) -> list[list]:
    out = []
    for j, row in enumerate(VALUES):
        faces = [*ORDERS, die(20, init[0]), die(20, init[1])]
        for k, v in enumerate(row):
            faces += [die(6, f) for f in drift_faces(int(v), j, k, kernel_side)]
        out.append(faces)
    return out


# Four uniforms before the initiative dice, none deciding anything in a duel in reach: the
# kernel's order of moving (``turn_order``) and of ranking the attackers of a trial with two
# (``attacker_rank``), the reference's order of choosing targets (``choosing_order``) and of
# moving (``shuffled``). (Where the two sides draw differently, the scripts say so.)
ORDERS = (0.25, 0.75, 0.25, 0.75)
FIELDS = ("body", "brief", "grapple", "status", "close_with")


def play_kernel(fight, init) -> dict[str, np.ndarray]:
    n = len(VALUES)
    rng = ScriptedColumns.of(scripts(init, True))
    state = kernel.start(fight, n, rng)
    kernel.play_round(fight, state, rng, 1)
    return {f"{name} {field}": getattr(state, field)[i].astype(int)
            for i, name in enumerate(("a", "b")) for field in FIELDS}


def play_reference(fight, init) -> list[dict[str, int]]:
    out = []
    for j, script in enumerate(scripts(init, False)):
        combat = ref.start_combat(fight)
        ref.play_round(combat, ScriptedDice(script, f"reference trial {j}"))
        out.append({f"{name} {field}": (-1 if getattr(me, field) is None
                                         else int(getattr(me, field)))
                    for name, me in zip(("a", "b"), combat.fighters, strict=True)
                    for field in FIELDS})
    return out


def show(field: str, value: int) -> str:
    return STATUS_NAMES[value] if field.endswith("status") else str(value)


def numbers(fight) -> str:
    """Each fighter's effort, resistance (from the front) and harm margin by style."""
    s = kernel.static_of(fight)

    def by_style(table) -> str:
        return ", ".join(f"{nm} {int(table[k])}" for k, nm in STYLES)

    return "; ".join(
        f"{f.name}: effort ({by_style(s.effort[:, i, 1 - i])}), resistance "
        f"({by_style(s.resistance[:, 0, i])}), margin ({by_style(s.margin[:, 0, i, 1 - i])})"
        for i, f in enumerate(fight.fighters))


@pytest.mark.parametrize("name", sorted(PAIRINGS))
def test_first_round_equals_reference_at_every_drift(name):
    """Every combination of the round's four drifts in -4..4 (6,561 trials): harm, status
    and engagement after the round equal the reference's, trial by trial."""
    scenario, init = PAIRINGS[name]
    fight = ymlad_fight(scenario)
    got = play_kernel(fight, init)
    want = play_reference(fight, init)
    bad = []
    for j, row in enumerate(VALUES):
        diff = [f"{f}: kernel {show(f, v[j])}, reference {show(f, want[j][f])}"
                for f, v in got.items() if v[j] != want[j][f]]
        if diff:
            bad.append(f"drifts {tuple(int(x) for x in row)}: " + "; ".join(diff))
    assert not bad, (f"{name} (initiative {init}): {len(bad)} of {len(VALUES)} drift "
                     f"combinations differ ({numbers(fight)}); first: " + " | ".join(bad[:4]))
