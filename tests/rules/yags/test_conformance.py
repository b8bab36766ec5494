"""Exact one-action conformance of the Yags kernel with its reference (issue 28).

One basic attack and its defence, with damage, soak and the health checks the blow calls
for, is played by the kernel (``kernel.strikes.attack``, which a basic fight sends to
``kernel.basic.attack``: the attack/defence pair, the outcome tables, the fumbles' slow
path, the tracks' lookup and the checks) on one trial per dice combination, and by the
reference (``reference.strikes.resolve_attack``) on each trial with the same dice
(``balance.engine.scripted``). The two must leave every trial in the same state: the
target's wounds, stuns and status, both fighters' fatigue and status.

Enumerated, for each fighter pairing: every attack die x every defence die x every damage
die x every soak die (20 ** 4 = 160,000 trials; a trial the target does not defend has no
defence die, 8,000 trials). The dice of the health checks a blow calls for (fatal wounds,
then beaten stuns) are spread over the trials, not crossed: the first check die of trial
(a, d, m, s) is (a + d + m + s) mod 20 + 1, the second (a + 3m) mod 20 + 1, so every face of
each meets every blow kind. The pairings put the target at wounds and stuns that make
blows reach fatal and beaten, make one fighter more skilled (the foe picks a fumble's
result), near exhaustion (a fumble's fatigue rests the fumbler at once), and give stun and
mixed damage and a soak a blow can fail to pass (knockback).

The detailed rules (``test_one_detailed_action_equals_reference``): fighter 0's whole
declared action in round 1 after the declarations (``kernel.strikes.act`` against
``reference.fight.take_action``): the free strike a longer weapon makes as it closes, the
attack, fumbles and their results picked by policy, damage by the armour's kind of blow and
size, the health checks, the damage manoeuvres (vital strike, knockdown, improved damage,
disarm). Enumerated, for each of six pairings: every attack die x every
defence die (the first strike's) x twenty damage and soak pairs (k, 7k mod 20 + 1), the
later dice (the next strike's, the checks') spread over them: 8,000 trials. Both sides must
also take the same number of dice, but for the kernel's attack pair in a trial whose attacker
a free strike has felled (drawn, never read).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

import balance
from balance.engine.pick import Pick
from balance.engine.scripted import ScriptedColumns, ScriptedDice, die
from balance.engine.status import STATUS_NAMES
from balance.rules import get
from balance.rules.yags.compile import AUTO, Fighter, YagsFight, YagsRules
from balance.rules.yags.kernel import declare, gear, strikes
from balance.rules.yags.kernel import fight as kernel
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.reference.declare import declare as declare_reference
from balance.rules.yags.reference.fight import start_combat, take_action
from balance.rules.yags.reference.strikes import resolve_attack
from balance.rules.yags.rules.tracks import MIXED, NORMAL, STUNS, TRACK_PENALTY, WOUNDS

pytestmark = pytest.mark.slow

FACES = np.arange(1, 21)
# Initiative: fighter 0 rolls 20, fighter 1 rolls 2 (neither fumbles); ties by two uniforms.
INITIATIVE = [die(20, 20), die(20, 2), 0.25, 0.75]


def fighter(side: int, name: str, **kw) -> Fighter:
    """A veteran: dexterity 3 x skill 4 + long sword, strength 3, mail (soak 12 + 6)."""
    base = dict(attack=15, defence=15, damage=18, damage_type=WOUNDS, soak=18, initiative=12,
                health=3, skill=4, max_defences=3, stance=NORMAL, defences=AUTO, yield_at=99)
    base.update(kw)
    return Fighter(side=side, name=name, **base)


# (attacker, target, the target's wounds and stuns before the attack, it defends)
PAIRINGS = {
    # equal skills: every fumbler tires; a fresh target
    "veterans": (fighter(0, "a"), fighter(1, "b"), 0, 0, True),
    # the attacker more skilled: it picks "fail defence" for the target's fumbled parry
    # where that lets the attack through; the target at heavy wounds (blows reach fatal)
    "skilled_vs_wounded": (fighter(0, "a", skill=6, attack=25),
                           fighter(1, "b", skill=3, defence=10), 4, 2, True),
    # the target more skilled (it picks for the attacker's fumble); heavy stun damage on a
    # target at heavy stuns: added one, replaced, beaten (checks), beyond beaten (wounds)
    "stuns_vs_beaten": (fighter(0, "a", damage_type=STUNS, damage=30, skill=2),
                        fighter(1, "b", soak=12, skill=5, health=2), 1, 4, True),
    # mixed damage; both one level of fatigue from exhaustion (a fumble rests them)
    "mixed_near_exhaustion": (fighter(0, "a", damage_type=MIXED, fatigue=2, exhausted_at=3),
                              fighter(1, "b", fatigue=2, exhausted_at=3, skill=2), 3, 3, True),
    # no defence: the base difficulty; the more skilled attacker
    "undefended": (fighter(0, "a", attack=4, skill=5), fighter(1, "b"), 2, 0, False),
}


def domain(defending: bool) -> np.ndarray:
    """(trials, 4) the attack, defence (0 when none is rolled), damage and soak dice."""
    d_faces = FACES if defending else np.array([0])
    grid = np.meshgrid(FACES, d_faces, FACES, FACES, indexing="ij")
    return np.stack([g.ravel() for g in grid], axis=1)


def checks(dice: np.ndarray) -> np.ndarray:
    """(trials, 2) the health checks' dice (see the module docstring)."""
    a, d, m, s = dice.T
    return np.stack([(a + d + m + s) % 20 + 1, (a + 3 * m) % 20 + 1], axis=1)


def reference_script(row, check) -> list:
    """The faces in the reference's order: attack, defence (if rolled), damage, soak,
    checks."""
    a, d, m, s = (int(x) for x in row)
    return [die(20, a), *([die(20, d)] if d else []), die(20, m), die(20, s),
            *(die(20, int(c)) for c in check)]


def kernel_scripts(dice: np.ndarray, check: np.ndarray) -> ScriptedColumns:
    """Every trial's faces in the kernel's order: initiative (two d20s, two uniforms); the
    attack and defence pair (a defence die is drawn even when nobody defends: face 20 here,
    unread), the damage and soak pair, checks."""
    n = len(dice)
    init = np.broadcast_to([20.0, 2.0, 0.25, 0.75], (n, 4))
    dice = np.where(dice == 0, 20, dice)
    faces = np.concatenate([init, dice, check], axis=1)
    return ScriptedColumns.of_dice(faces, [20, 20, 0, 0] + [20] * (faces.shape[1] - 4))


def play_kernel(fight: YagsFight, dice, check, w0: int, s0: int, defending: bool):
    """The kernel's attack of fighter 0 on fighter 1 in every trial; (target wounds, stuns,
    status, attacker fatigue, status, target fatigue), each (n,)."""
    n = len(dice)
    rng = kernel_scripts(dice, check)
    s = static_of(fight)
    state = kernel.start(fight, n, rng)
    assert (state.who[0] == 0).all(), "initiative script: fighter 0 must be in place 0"
    state.wounds[1], state.stuns[1] = w0, s0
    state.penalty[:] = (TRACK_PENALTY[state.wounds] + TRACK_PENALTY[state.stuns]
                        + gear.tiredness(s, state.fatigue))
    can = (state.status == 0) & ~state.slow_start
    ctx = strikes.Round(1, can, state.penalty + state.defence_penalty)
    strikes.attack(state, s, ctx, np.ones(n, dtype=bool), Pick(0, n), Pick(1, n),
                   np.full(n, defending), rng)
    return (state.wounds[1], state.stuns[1], state.status[1], state.fatigue[0],
            state.status[0], state.fatigue[1])


def play_reference(combat, fresh, script, w0: int, s0: int, defending: bool):
    """The reference's attack on fresh copies of the two fighters' states (``fresh``, as
    ``start_combat`` left them); the same fields as ``play_kernel``."""
    combat.fighters = [copy.copy(x) for x in fresh]
    a, t = combat.fighters
    t.wounds, t.stuns = w0, s0
    resolve_attack(a, t, defending, combat, 1, rng=ScriptedDice(script, "reference"))
    return t.wounds, t.stuns, t.status, a.fatigue, a.status, t.fatigue


FIELDS = ("target wounds", "target stuns", "target status", "attacker fatigue",
          "attacker status", "target fatigue")


def numbers(f: Fighter) -> str:
    """A fighter's numbers, for messages."""
    return (f"{f.name}: attack {f.attack}, defence {f.defence}, damage {f.damage} (type "
            f"{f.damage_type}), soak {f.soak}, skill {f.skill}, health {f.health}, fatigue "
            f"{f.fatigue}/{f.exhausted_at}")


def describe(field: str, value: int) -> str:
    return STATUS_NAMES[value] if field.endswith("status") else str(value)


@pytest.mark.parametrize("name", sorted(PAIRINGS))
def test_one_attack_equals_reference_at_every_dice(name):
    """Every attack, defence, damage and soak die (160,000 trials; 8,000 undefended): the
    kernel's state after the attack equals the reference's, trial by trial."""
    att, tgt, w0, s0, defending = PAIRINGS[name]
    fight = YagsFight((att, tgt), ("a", "b"), YagsRules(), 40)
    assert not static_of(fight).on.any, f"{name}: a basic fight (vector.basic.attack)"
    dice = domain(defending)
    check = checks(dice)
    got = [np.asarray(x).astype(int) for x in play_kernel(fight, dice, check, w0, s0,
                                                          defending)]
    combat = start_combat(fight, rng=ScriptedDice(INITIATIVE, "reference initiative"))
    fresh = list(combat.fighters)
    bad = []
    for j, (row, c) in enumerate(zip(dice, check, strict=True)):
        want = play_reference(combat, fresh, reference_script(row, c), w0, s0, defending)
        diff = [f"{f}: kernel {describe(f, g[j])}, reference {describe(f, w)}"
                for f, g, w in zip(FIELDS, got, want, strict=True) if g[j] != w]
        if diff:
            bad.append(f"attack {row[0]}, defence {row[1] or '-'}, damage {row[2]}, soak "
                       f"{row[3]}, checks {tuple(int(x) for x in c)}: " + "; ".join(diff))
    assert not bad, (
        f"{name}: {len(bad)} of {len(dice)} dice combinations differ (attacker "
        f"{numbers(att)}; target {numbers(tgt)}; target at wounds {w0} stuns {s0}); "
        "first: " + " | ".join(bad[:5]))


# --- The detailed rules: a declared attack and the strikes it sets off ------------------------

DETAILED_FIELDS = ("wounds", "stuns", "status", "fatigue")
GEAR_FIELDS = ("weapons", "main_down", "spare_down", "prone", "limbs")
DAMAGE_CHOICES = 20     # damage and soak dice: (k, 7k mod 20 + 1), k = 1..20
LATER = 10              # the later dice of a trial (strikes, checks), spread


def m(**kw) -> dict:
    member = {"attributes": {"dexterity": 3, "agility": 3, "strength": 3}}
    member.update(kw)
    return member


def scenario(a: dict, b: dict, **kw) -> dict:
    return {"name": "conformance", "ruleset": "yags", "max_rounds": 10,
            "sides": [{"name": "a", "members": [a]}, {"name": "b", "members": [b]}], **kw}


DETAILED = {
    # the wrong style (fumbles on 1-2) against a more skilled foe who picks the fumble's
    # result from its policy (disarm first); a broken bottle, weak, breaks when it fumbles
    "wrong_style_and_fumble_policies": scenario(
        m(skills={"weapon_and_shield": 4, "single_weapon": 2}, weapon="broken_bottle",
          style="weapon_and_shield", armour=["leather_vest"],
          policy={"fumbles": {"own": ["break", "disarm", "fatigue"]}}),
        m(skills={"single_weapon": 5}, weapon="long_sword", armour=["mail_vest"],
          policy={"fumbles": {"foe": ["disarm", "fatigue"]}})),
    # a dagger attacking a spear: the spear's free strike as the dagger closes in, the
    # longshaft's +5 against the shorter weapon, impaling against soft leather
    "dagger_into_spear": scenario(
        m(skills={"single_weapon": 5}, weapon="dagger", armour=["mail_hauberk"]),
        m(skills={"longshaft": 4}, weapon="spear",
          armour=["soft_leather_jacket", "soft_leather_trousers"])),
    # a great axe (heavy blows, halved multiple-defence penalty) against plate, and a large
    # brute's size against it
    "great_axe_vs_plate": scenario(
        m(attributes={"dexterity": 3, "agility": 3, "strength": 4},
          skills={"great_weapon": 4}, weapon="great_axe", armour=["soft_leather_jacket"]),
        m(skills={"single_weapon": 4}, weapon="long_sword", armour=["plate"])),
    # a chain weapon: +10 stance bonus, the shorter weapon fumbling on 1-2 against it
    "short_sword_into_flail": scenario(
        m(skills={"single_weapon": 4}, weapon="short_sword", armour=["mail_vest"]),
        m(skills={"chain": 4}, weapon="flail", stance="aggressive", armour=["mail_vest"])),
    # manoeuvres: a vital strike (health x size or fall fatally wounded) against a knockdown
    # (stun damage, prone when the blow's force beats strength x 10)
    "vital_strike_vs_knockdown": scenario(
        m(skills={"single_weapon": 6}, weapon="long_sword", stance="aggressive",
          armour=["leather_vest"], policy={"manoeuvre": "vital_strike"}),
        m(attributes={"dexterity": 4, "agility": 3, "strength": 5}, skills={"single_weapon": 5},
          weapon="mace", stance="aggressive", armour=["mail_vest"],
          policy={"manoeuvre": "knockdown"})),
    # improved damage and a disarm (a superb one takes the weapon)
    "improved_damage_vs_disarm": scenario(
        m(skills={"single_weapon": 5}, weapon="broad_sword", stance="aggressive",
          armour=["mail_vest"], policy={"manoeuvre": "improved_damage"}),
        m(skills={"single_weapon": 7}, weapon="long_sword", armour=["mail_vest"],
          policy={"manoeuvre": "disarm"})),
}


def compiled_yags(sc: dict):
    loaded = balance.load_scenario(sc)
    return get("yags").compile(loaded.model, loaded.tables)


def detailed_dice() -> np.ndarray:
    """(8,000, 4 + LATER) faces: every attack x defence die, twenty damage and soak pairs,
    and the later dice spread over them."""
    a, d, k = (x.ravel() for x in np.meshgrid(FACES, FACES, np.arange(1, DAMAGE_CHOICES + 1),
                                              indexing="ij"))
    first = np.stack([a, d, k, (7 * k) % 20 + 1], axis=1)
    later = np.stack([(a + 3 * d + 5 * k + 7 * j) % 20 + 1 for j in range(LATER)], axis=1)
    return np.concatenate([first, later], axis=1)


def play_detailed_kernel(fight, dice: np.ndarray):
    n = len(dice)
    init = np.broadcast_to([20.0, 2.0, 0.25, 0.75], (n, 4))
    faces = np.concatenate([init, dice], axis=1)
    rng = ScriptedColumns.of_dice(faces, [20, 20, 0, 0] + [20] * dice.shape[1])
    s = static_of(fight)
    state = kernel.start(fight, n, rng)
    place = int(np.flatnonzero(state.who[:, 0] == 0)[0])
    assert (state.who[place] == 0).all(), "initiative script: fighter 0 in one place"
    ctx = declare.declare_detailed(state, s, state.status == 0, 1, rng)
    strikes.act(state, s, ctx, Pick(place, n), rng)
    out = {}
    for who, p in (("attacker", place), ("target", 1 - place)):
        for f in DETAILED_FIELDS:
            out[f"{who} {f}"] = getattr(state, f)[p].astype(int)
        for f in GEAR_FIELDS:
            out[f"{who} {f}"] = state.x(f)[p].astype(int)
    return out, rng.used()


def play_detailed_reference(fight, row: np.ndarray):
    combat = start_combat(fight, rng=ScriptedDice(INITIATIVE, "reference initiative"))
    # (the reference draws the order its fighters choose targets in, two uniforms that decide
    # nothing in a duel; the kernel draws none)
    declare_reference(combat, 1, rng=ScriptedDice([0.25, 0.75], "reference declarations"))
    rng = ScriptedDice([die(20, int(f)) for f in row], "reference")
    take_action(combat.fighters[0], combat, 1, rng=rng)
    out = {}
    for who, me in zip(("attacker", "target"), combat.fighters, strict=True):
        for f in DETAILED_FIELDS + GEAR_FIELDS:
            out[f"{who} {f}"] = int(getattr(me, f))
    return out, rng.used


@pytest.mark.parametrize("name", sorted(DETAILED))
def test_one_detailed_action_equals_reference(name):
    """Fighter 0's declared attack in round 1, with the strikes it draws (8,000 trials: every
    attack and defence die, twenty damage and soak pairs): both fighters' tracks, status,
    fatigue and gear after it equal the reference's, and both sides take as many dice."""
    fight = compiled_yags(DETAILED[name])
    assert static_of(fight).on.any, f"{name}: a detailed fight"
    dice = detailed_dice()
    got, used = play_detailed_kernel(fight, dice)
    bad = []
    for j, row in enumerate(dice):
        want, n_used = play_detailed_reference(fight, row)
        diff = [f"{f}: kernel {describe(f, v[j])}, reference {describe(f, want[f])}"
                for f, v in got.items() if v[j] != want[f]]
        # The kernel draws the attack's pair in every trial of the slot, so also where a
        # free strike felled the attacker first (two dice nobody reads); else both sides
        # take the same dice.
        extra = used[j] - len(INITIATIVE) - n_used
        if extra != 0 and not (extra == 2 and want["attacker status"] != 0):
            diff.append(f"dice taken: kernel {used[j] - len(INITIATIVE)}, reference {n_used}")
        if diff:
            bad.append(f"dice {tuple(int(x) for x in row[:n_used + 2])}: " + "; ".join(diff))
    fighters = "; ".join(f"{f.name}: attack {f.attack}, defence {f.defence}, damage "
                         f"{f.damage}, soak {f.soak}, skill {f.skill}"
                         for f in fight.fighters)
    assert not bad, (f"{name}: {len(bad)} of {len(dice)} dice combinations differ "
                     f"({fighters}); first: " + " | ".join(bad[:4]))
