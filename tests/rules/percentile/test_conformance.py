"""Exact one-action conformance of the percentile kernels with their reference (issue 28).

One melee attack and its defence, with the fumbles, the blow's damage against armour and
what the damage does, is played on one trial per d100 pair (the attacker's die x the
target's: 10,000 trials) by each kernel path and by the reference
(``reference.strike.melee_attack``) on every trial with the same dice
(``balance.engine.scripted``):

* the general kernel, ``kernel.strike.melee_attack`` (the rolls passed in, as
  ``kernel.duel`` sends it its rare blows), on a full state;
* the plain duel's table path, ``kernel.duel.actions`` (the pair drawn as one number in
  0..9999, the outcome read off ``DuelTable``, damage from its exact count table), on the
  lean state the engine plays plain duels with.

Every draw after the two d100s (damage dice, the armour roll, the fumble table, major-wound
and stun checks) is made at one quantile ``u`` on both sides (``scripted.Constant``): at
``u = 0`` every die shows its lowest face and every exact distribution its minimum, at
``u = LAST`` (just under 1) the highest, so the two sides' damage agrees exactly at both
ends, which are compared field by field (hit points included). At the middles of the fumble
table's five weights (lose next attack, drop weapon, weapon breaks, hit self, fall) the
fumble effects are compared on every field but hit points, status and the items' wear
(dice rolled one by one and a distribution sampled at one quantile differ in between).

The target is also put down (no dodge; the down modifier on the attack) and unable to parry
this round (a dropped weapon's round), with the later draws at quantile 0.

The plain duel's table samples a landed blow's damage after armour from one exact
distribution (not die by die), so its hit points are checked against that distribution's
support above, and the distribution itself exactly by
``test_duel_table_damage_is_the_reference_dice_distribution``: for every distribution the
table lands a blow with, the reference's hit-point loss over every face of the weapon's, the
damage bonus's and the armour's dice (found by a probe run), as fractions.

Pairings put the skills at the levels' edges (specials and criticals of a 60%, 95% and
130% chance: the chance over 100 taken off the defence), a thrusting spear (impales on a
special), a shield parry and a dodge, and both readings of the parry matrix (rules
parry_matrix ``elric``: a critical needs a critical defence; ``brp``: a defence one level
short lands the blow a level lower and wears the parrying item).
"""

from __future__ import annotations

import copy
import itertools

import numpy as np
import pytest

import balance
from balance.engine.scripted import LAST, Constant, ScriptedColumns, ScriptedDice, die
from balance.engine.status import STATUS_NAMES
from balance.rules import get
from balance.rules.percentile.kernel import duel as kernel_duel
from balance.rules.percentile.kernel import state as kernel_state
from balance.rules.percentile.kernel.prepare import duel_table_of, static_of
from balance.rules.percentile.kernel.strike import STRIKE, Ctx, melee_attack, some
from balance.rules.percentile.reference import strike as ref
from tests.rules.helpers import percentile_member as member

pytestmark = pytest.mark.slow

D100 = np.arange(1, 101)
A_ROLL, D_ROLL = (x.ravel() for x in np.meshgrid(D100, D100, indexing="ij"))
EFFECTS = ("lose next attack", "drop weapon", "weapon breaks", "hit self", "fall")
# fumbles.yaml's weights 40 25 15 10 10: u = 0 draws the first effect, LAST the last; the
# middles of the other three
FUMBLE_MIDDLES = (0.525, 0.725, 0.85)
ENDS = (0.0, LAST)


def scenario(a: dict, b: dict, **rules) -> dict:
    return {"name": "conformance", "ruleset": "percentile", "max_rounds": 10,
            "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}],
            **({"rules": rules} if rules else {})}


PAIRINGS = {
    # sword and shield, both 60%: the target parries with its shield (elric matrix)
    "shields_elric": scenario(member(60), member(60)),
    # the same by Basic Roleplaying's matrix: specials through ordinary parries, wear
    "shields_brp": scenario(member(60), member(60), parry_matrix="brp"),
    # a 95% spear (impales) against a dodging fighter without a shield
    "spear_vs_dodge": scenario(
        member(95, weapon="short_spear", shield=None, skills={"attack": 95}),
        member(55, shield=None, policy={"defence": "dodge"}, skills={"dodge": 55})),
    # a 130% attack: 30 points off the parry; the parry with the weapon (no shield)
    "over_100_vs_weapon_parry": scenario(
        member(130, skills={"attack": 130}, armour="half_plate"),
        member(70, shield=None, skills={"attack": 70, "parry": 70})),
    # criticals parried only partly: brp, a lenient critical rule
    "brp_lenient_criticals": scenario(member(80), member(75), parry_matrix="brp",
                                      critical_needs_critical=False),
}


def compiled(sc: dict):
    loaded = balance.load_scenario(sc)
    return get("percentile").compile(loaded.model, loaded.tables)


# (field, per trial from the kernel state, from the reference's fighter state)
FIELDS = ("hp", "status", "down", "wield", "forfeit_next", "no_parry_next", "major",
          "stunned", "draw_pending")
# what the damage decides (hit points, and through them status, major wounds, falls and
# stuns from them, the items' wear): compared only where both sides' damage is the dice's
DAMAGED = ("hp", "status", "item_hp", "major", "down", "stunned")


def kernel_fields(st, lean: bool) -> dict[str, np.ndarray]:
    out = {}
    for p, who in ((0, "attacker"), (1, "target")):
        for f in FIELDS:
            out[f"{who} {f}"] = getattr(st, f)[p].astype(int)
        for k in range(4):
            out[f"{who} item_ok[{k}]"] = st.item_ok[k, p].astype(int)
            if not lean:
                out[f"{who} item_hp[{k}]"] = st.item_hp[k, p].astype(int)
    return out


def reference_fields(combat) -> dict[str, int]:
    out = {}
    for s, who in zip(combat.fighters, ("attacker", "target"), strict=True):
        for f in FIELDS:
            out[f"{who} {f}"] = int(getattr(s, f))
        for k in range(4):
            out[f"{who} item_ok[{k}]"] = int(s.item_ok[k])
            out[f"{who} item_hp[{k}]"] = int(s.item_hp[k])
    return out


def situate(st, situation: dict) -> None:
    """The target's (place 1's) state as ``situation`` names it, in a kernel state."""
    for field, value in situation.items():
        getattr(st, field)[1] = value


def play_general(fight, u: float, situation: dict) -> tuple[np.ndarray, dict]:
    """The general kernel's attack of place 0 on place 1 in every trial, the d100s passed
    in; (landed, the fields)."""
    n = A_ROLL.size
    st = kernel_state.start(fight, n, None)
    situate(st, situation)
    cx = Ctx(fight, static_of(fight), st, Constant(u), 1, any_down=some(st.down),
             any_stunned=some(st.stunned), any_no_parry=some(st.no_parry))
    a, t = np.zeros(n, dtype=np.intp), np.ones(n, dtype=np.intp)
    landed = melee_attack(cx, a, t, np.arange(n), st.wield[0].astype(np.intp), STRIKE,
                          rolls=(A_ROLL.astype(np.int16), D_ROLL.astype(np.int16)))
    return landed, kernel_fields(st, lean=False)


def play_duel_table(fight, u: float, situation: dict) -> tuple[np.ndarray, dict, dict]:
    """Place 0's action in every trial by the plain duel's tables (``kernel.duel.actions``),
    the pair of d100s drawn as one number (a d100 pair in the script). Returns (landed, the
    fields, each table blow's damage pmf by trial): the blows the table lands are seen as
    they go to ``raw_harm`` (with the pmf each was sampled from), the rarer blows it sends
    to the general ``melee_attack`` by what that returns."""
    n = A_ROLL.size
    st = kernel_state.start(fight, n, None, lean=True)
    situate(st, situation)
    faces = np.stack([A_ROLL, D_ROLL], axis=1)
    rng = ScriptedColumns.of_dice(faces, 100, then=Constant(u))
    table = duel_table_of(fight)
    cx = Ctx(fight, static_of(fight), st, rng, 1, any_down=some(st.down),
             any_stunned=some(st.stunned), any_no_parry=some(st.no_parry), table=table)
    landed = np.zeros(n, dtype=bool)
    pmf_of: dict[int, int] = {}
    sampled: list[np.ndarray] = []

    class Recording:
        def sample(self, index, rng_):
            sampled.append(np.asarray(index).copy())
            return real_damage.sample(index, rng_)

    def harm(cx_, target, rows, damage):
        landed[rows] = True
        for r, k in zip(rows, sampled.pop(), strict=True):
            pmf_of[int(r)] = int(k)
        return real_harm(cx_, target, rows, damage)

    def general(cx_, a, t, rows, *args, **kw):
        hit = real_general(cx_, a, t, rows, *args, **kw)
        landed[rows[hit]] = True
        return hit

    real_damage, real_harm, real_general = table.damage, kernel_duel.raw_harm, \
        kernel_duel.melee_attack
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(table, "damage", Recording())
        mp.setattr(kernel_duel, "raw_harm", harm)
        mp.setattr(kernel_duel, "melee_attack", general)
        kernel_duel.actions(cx, np.zeros(n, dtype=bool), np.ones(n, dtype=bool))
    assert (rng.used() == 2).all(), "the duel table draws the two d100s as one pair"
    return landed, kernel_fields(st, lean=True), pmf_of


def clone(x: ref.FighterState) -> ref.FighterState:
    """A fresh copy of a fighter's state (its lists copied: the rules change them)."""
    y = copy.copy(x)
    y.item_ok, y.item_hp, y.loose = list(x.item_ok), list(x.item_hp), list(x.loose)
    return y


def play_reference(fight, u: float, situation: dict) -> tuple[np.ndarray, list[dict]]:
    combat = ref.Combat.start(fight)
    combat.round_no = 1
    for field, value in situation.items():
        setattr(combat.fighters[1], field, value)
    fresh = [copy.deepcopy(x) for x in combat.fighters]
    landed, fields = [], []
    for a, d in zip(A_ROLL, D_ROLL, strict=True):
        combat.fighters = [clone(x) for x in fresh]
        s, t = combat.fighters
        rng = ScriptedDice([die(100, int(a)), die(100, int(d))], "reference", Constant(u))
        landed.append(ref.melee_attack(s, t, s.wield, ref.STRIKE, combat, rng=rng))
        fields.append(reference_fields(combat))
    return np.array(landed), fields


def show(field: str, value: int) -> str:
    return STATUS_NAMES[value] if field.endswith("status") else str(value)


def fighters_of(fight) -> str:
    S = static_of(fight)
    return "; ".join(
        f"{f.name}: attack {int(S.item_attack[0, i])}%, parry "
        f"{int(S.item_parry[0, i])}%/{int(S.item_parry[1, i])}% (main/off hand), dodge "
        f"{int(S.dodge[i])}%, hp {int(S.hp[i])}" for i, f in enumerate(fight.fighters))


def compare(name, fight, path, u, kernel, reference, skip=(), situation="fresh") -> None:
    """Every trial's fields (less ``skip``) and whether the blow landed; a duel table's blow
    (``kernel[2]``, its damage pmf by trial) must have done damage its pmf can give."""
    k_landed, k_fields = kernel[:2]
    pmf_of = kernel[2] if len(kernel) > 2 else {}
    r_landed, r_fields = reference
    full = int(static_of(fight).hp[1])
    bad = []
    for j in range(A_ROLL.size):
        diff = [f"{f}: kernel {show(f, v[j])}, reference {show(f, r_fields[j][f])}"
                for f, v in k_fields.items()
                if not any(s in f for s in skip) and v[j] != r_fields[j][f]]
        if bool(k_landed[j]) != bool(r_landed[j]):
            diff.append(f"landed: kernel {bool(k_landed[j])}, reference {bool(r_landed[j])}")
        if j in pmf_of and u in ENDS:   # (in the middles a fumbled parry may hit itself)
            lost = full - r_fields[j]["target hp"]
            outcomes = duel_table_of(fight).pmfs[pmf_of[j]].outcomes
            if lost not in set(int(x) for x in outcomes):
                diff.append(f"damage: the reference's {lost} is not among the duel table's "
                            f"outcomes {sorted(set(int(x) for x in outcomes))}")
        if diff:
            bad.append(f"attack d100 {A_ROLL[j]}, defence d100 {D_ROLL[j]}: " + "; ".join(diff))
    assert not bad, (f"{name}, {path}, target {situation}, later draws at quantile {u}: "
                     f"{len(bad)} of "
                     f"{A_ROLL.size} d100 pairs differ ({fighters_of(fight)}); first: "
                     + " | ".join(bad[:4]))


# The target's situations: fresh (every quantile), down (no dodge; the attack's down
# modifier) and unable to parry this round (a dropped weapon's round), at quantile 0.
SITUATIONS = {"fresh": {}, "down": {"down": True}, "unable to parry": {"no_parry": True}}


@pytest.mark.parametrize("name", sorted(PAIRINGS))
def test_one_attack_equals_reference_at_every_d100_pair(name):
    """Both kernel paths (the duel table where the fight is a plain duel) against the
    reference, at every d100 pair, with the later draws at both ends (every field) and at
    the fumble table's middles (all but what the damage decides); the target down or unable
    to parry at quantile 0."""
    fight = compiled(PAIRINGS[name])
    paths = [("kernel_strike.melee_attack", play_general)]
    if fight.plain_duel:
        paths.append(("kernel_duel.actions", play_duel_table))
    for situation, fields in SITUATIONS.items():
        for u in ENDS + FUMBLE_MIDDLES if situation == "fresh" else (0.0,):
            reference = play_reference(fight, u, fields)
            for path, play in paths:
                # (the duel table samples the damage after armour as one distribution: at
                # one quantile it is not the dice's; its support is checked instead)
                skip = () if u in ENDS and path.startswith("kernel_strike") else DAMAGED
                compare(name, fight, path, u, play(fight, u, fields), reference, skip,
                        situation)


class _Spans:
    """A ``then`` for a probe run: every later draw at its lowest value, its span noted."""

    def __init__(self) -> None:
        self.spans: list[int] = []

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        assert size is None, "the reference draws one die at a time"
        self.spans.append(int(high) - int(low))
        return np.array(low, dtype=dtype)[()]

    def random(self, size=None, dtype=np.float64):
        raise AssertionError("a uniform among the damage dice")


def reference_loss(fight, a: int, d: int) -> dict[int, int]:
    """The reference's hit-point loss of the target after the attack (a, d) at every face of
    every die rolled after the two d100s (weapon, damage bonus, armour), as counts. The dice
    are found by a probe run (each draw's span); any check after them at its lowest face."""
    probe = _Spans()
    combat = ref.Combat.start(fight)
    combat.round_no = 1
    fresh = [copy.deepcopy(x) for x in combat.fighters]
    s, t = [clone(x) for x in fresh]
    combat.fighters = [s, t]
    ref.melee_attack(s, t, s.wield, ref.STRIKE, combat,
                     rng=ScriptedDice([die(100, a), die(100, d)], "probe", probe))
    # the damage dice end where a d100 check (a major wound, a stun) begins
    spans = list(itertools.takewhile(lambda k: k != 100, probe.spans))
    counts: dict[int, int] = {}
    for faces in itertools.product(*(range(1, k + 1) for k in spans)):
        combat.fighters = [clone(x) for x in fresh]
        s, t = combat.fighters
        script = [die(100, a), die(100, d), *(die(k, f) for k, f in zip(spans, faces,
                                                                        strict=True))]
        rng = ScriptedDice(script, "reference", Constant(0.0))
        ref.melee_attack(s, t, s.wield, ref.STRIKE, combat, rng=rng)
        assert rng.used == len(script), f"the faces {faces} of d{spans} were not all rolled"
        lost = int(static_of(fight).hp[1]) - t.hp
        counts[lost] = counts.get(lost, 0) + 1
    return counts


@pytest.mark.parametrize("name", sorted(k for k in PAIRINGS if k != "shields_brp"
                                        and k != "brp_lenient_criticals"))
def test_duel_table_damage_is_the_reference_dice_distribution(name):
    """Every damage distribution the plain duel's table lands a blow with (one d100 pair for
    each): exactly the distribution of the reference's hit-point loss over every face of the
    weapon's, the damage bonus's and the armour's dice (as fractions, to 1e-12)."""
    fight = compiled(PAIRINGS[name])
    assert fight.plain_duel, f"{name}: a plain duel"
    _, _, pmf_of = play_duel_table(fight, 0.0, {})
    first: dict[int, int] = {}
    for j, k in sorted(pmf_of.items()):
        first.setdefault(k, j)
    bad = []
    for k, j in sorted(first.items()):
        a, d = int(A_ROLL[j]), int(D_ROLL[j])
        counts = reference_loss(fight, a, d)
        total = sum(counts.values())
        pmf = duel_table_of(fight).pmfs[k]
        table = {int(x): float(p) for x, p in zip(pmf.outcomes, pmf.probs, strict=True)
                 if p > 0}
        mine = {x: c / total for x, c in counts.items()}
        if set(table) != set(mine) or any(abs(table[x] - mine[x]) > 1e-12 for x in table):
            bad.append(f"attack d100 {a}, defence d100 {d} (pmf {k}): duel table "
                       f"{sorted(table.items())}, reference {sorted(mine.items())}")
    assert first, f"{name}: the duel table lands no blow"
    assert not bad, f"{name} ({fighters_of(fight)}): " + " | ".join(bad)
