"""Hand-derived exact cases of issue 26's readings of seed 004, played by the vector kernel.

As in ``test_exact.py``: each fight makes one rule decide a countable event, the
event's exact probability is derived in the docstring from the d100 level ranges (chance
c: criticals 01..round(c/20), specials 01..round(c/5), rolled half up; successes
01..c within 05..95) and checked within four standard errors at 200,000 trials, so a shift
of about 0.45 points in a probability near 0.5 (0.25 near 0.05) fails the test. The
disarm, the parry matrix, the hold-off, fighting from the ground, the runner's free blow,
falls that stun and the unable-to-resist, then the coverage rows whose rule had no test of
its own (15, 17, 32, 56, 71, 72, C12).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

import balance
from balance.engine.scripted import LAST, Constant, ScriptedColumns, ScriptedDice, die
from balance.engine.status import UNCONSCIOUS
from balance.rules import get
from balance.rules.percentile.compile import FIST, MAIN, SIDE
from balance.rules.percentile.kernel import fight as kernel
from balance.rules.percentile.kernel import state as kernel_state
from balance.rules.percentile.kernel.prepare import static_of
from balance.rules.percentile.kernel.strike import Ctx
from balance.rules.percentile.reference import fight as ref
from tests.rules.helpers import percentile_member as member
from tests.rules.percentile.helpers import PASSIVE, N, duel, sitting_duck, status, within_4se


def played(scenario: dict, *, seed: int = 26, rounds: int = 1,
           before: Callable | None = None, plain: bool | None = None):
    """The kernel's state after ``rounds`` rounds of ``N`` fresh trials of ``scenario``
    (``before(state)`` may set the state first); the fight is played as the engine plays
    it (a plain duel by its tables: ``plain`` checks that it is, or is not, one)."""
    loaded = balance.load_scenario(scenario)
    system = get("percentile")
    fight = system.compile(loaded.model, loaded.tables)
    assert plain is None or fight.plain_duel == plain
    state = system.start(fight, N, np.random.default_rng(seed))
    if before is not None:
        before(state)
    rng = np.random.default_rng(seed + 1)
    for k in range(1, rounds + 1):
        system.play_round(fight, state, rng, k)
    return state


def mean(mask) -> float:
    return float(np.mean(mask))


# no fumble that hurts the fumbler or puts it on the ground (the fumble table patched)
NO_FALLS = {"fumbles": {"hit_self": {"weight": 0}, "fall": {"weight": 0}}}


# --- 1. a disarm that disarms -------------------------------------------------------------


def disarmed(state) -> None:
    """Fighter 1 starts disarmed: its sword on the ground, fists in hand, no drawing."""
    state.item_loose[MAIN, 1] = True
    state.item_ok[MAIN, 1] = False
    state.wield[1] = FIST
    state.no_draw[1] = True


def test_a_disarmed_foe_is_kept_from_rearming_while_pressed() -> None:
    """Seed 004: "Disarming takes an opponent's weapon out of their hand and, by force or
    threat, keeps them from drawing a second one." Policy ``disarm``: disarm, then strike
    the disarmed foe.

    A disarmer (dagger, attack 60, DEX 15) faces a foe disarmed before round 1 (DEX 12, no
    shield, no defence, 40 hit points: no blow fells it; a dagger against fists: one
    length, so nobody is held off; no fumble fells the disarmer or hurts it, so it presses
    in every trial). The disarmer acts first and strikes the bare-handed
    foe: P(hurt) = 0.60 (1D4+2 and its bonus always wound the unarmoured). Then the foe,
    pressed (its foe stands over it in reach), picks its sword up:
    ``rearm_when_pressed: never`` (default) P = 0; ``contested``: DEX 12 against the
    presser's 15 on the Resistance Table, 50 - 5 x 3 = 35%; ``free``: 1. With the disarmer
    on the ground at the start and unable to get up (Dodge 0: its action is a Dodge roll
    that fails, ``when_down: stand``), it presses nobody: the foe always gets the sword
    back, even under ``never``.
    """
    dagger = member(60, weapon="dagger", shield=None, policy={"disarm": True},
                    characteristics={"DEX": 15})
    foe = member(50, shield=None, armour="none", hit_points=40,
                 policy={"defence": "none"}, characteristics={"DEX": 12})
    for rule, p in (("never", 0.0), ("contested", 0.35), ("free", 1.0)):
        st = played(duel(dagger, foe, tables=NO_FALLS, rules={"rearm_when_pressed": rule}),
                    before=disarmed)
        assert within_4se(mean(st.wield[1] == MAIN), p), rule
        assert within_4se(mean(st.hp[1] < 40), 0.60), rule
    down = member(60, weapon="dagger", shield=None, policy={"disarm": True},
                  characteristics={"DEX": 15}, skills={"dodge": 0},
                  situation={"position": "down"})
    st = played(duel(down, foe, tables=NO_FALLS), before=disarmed)
    assert (st.wield[1] == MAIN).all() and (st.hp[1] == 40).all()


# --- 2. the parry matrix --------------------------------------------------------------------


PRACTICE = {"weapons": {"practice_spear": {"skill": 10, "damage": "4", "hp": 20,
                                           "length": "medium", "thrusting": True}}}


@pytest.mark.parametrize("matrix", ["elric", "brp"])
def test_the_parry_matrix(matrix: str) -> None:
    """Rule ``parry_matrix``. ``elric`` (default; Elric!, the game seed 004's chapter comes
    from, where "a critical parry does block an impale", and the seed's own "a critical
    parry negates a critical entangle, though an ordinary parry does nothing against one"):
    any successful parry stops a blow, a critical only a critical parry. ``brp`` (Basic
    Roleplaying's attack and defence matrix): a special against an ordinary parry is
    "partially parried" and "achieves a normal success", the parrying weapon taking 2
    points; an ordinary blow a special parry stops costs the attacker's weapon 1 point
    (the lab: a critical against a special parry lands as a special).

    A practice spear (damage exactly 4, thrusting: an impale does 8; STR 10 + SIZ 10, no
    bonus) at 60: criticals 01-03 (impale), specials 04-12 (impale), hits 13-60. The
    defender (slower: it strikes back after at the spear, which does not parry; no fumble
    of its own hurts it)
    parries with its broadsword (20 hit points) at 60: criticals 01-03, specials 04-12,
    successes 13-60, failures 61-00 (fumbles 99-00 among them). No armour, 40 hit points.
    ``elric`` plays as a plain duel (``kernel.duel``'s table), ``brp`` by the general blow
    (its parries wear weapons).
    elric: 8 lands on a special the parry misses (0.09 x 0.40) or a critical without a
    critical parry (0.03 x 0.97): 0.0651; 4 lands on a hit the parry misses: 0.48 x 0.40 =
    0.192.
    brp: 8 lands on a special the parry misses (0.09 x 0.40) and on a critical no better
    than specially parried (0.03 x (0.88 + 0.09)): 0.0651; 4 lands on a hit the parry
    misses (0.48 x 0.40) and on a special only ordinarily parried (0.09 x 0.48): 0.2352.
    The defender's sword is at 18 after a partial parry (0.09 x 0.48 + 0.03 x 0.09 =
    0.0459); the spear at 19 after a better parry stopped it (0.48 x 0.12 + 0.09 x 0.03 =
    0.0603).
    """
    spear = member(60, weapon="practice_spear", shield=None, policy={"defence": "none"},
                   characteristics={"STR": 10, "SIZ": 10, "DEX": 15})
    foe = member(60, shield=None, armour="none", hit_points=40, skills={"parry": 60},
                 policy={"defence": "parry"}, characteristics={"DEX": 10})
    st = played(duel(spear, foe, tables={**PRACTICE, **NO_FALLS},
                     rules={"parry_matrix": matrix}), plain=matrix == "elric")
    lost = 40 - st.hp[1]
    assert within_4se(mean(lost == 8), 0.0651)
    if matrix == "elric":
        assert within_4se(mean(lost == 4), 0.192)
    else:
        assert within_4se(mean(lost == 4), 0.2352)
        assert within_4se(mean(st.item_hp[MAIN, 1] == 18), 0.0459)
        assert within_4se(mean(st.item_hp[MAIN, 0] == 19), 0.0603)


# --- 3. holding off a shorter weapon --------------------------------------------------------


def test_a_longer_weapon_holds_off_a_shorter_one_until_a_blow_fails() -> None:
    """Seed 004: "a longer weapon is more likely to land the first blow, or to hold off a
    shorter-armed opponent entirely, but it's also clumsier to use up close" (rule
    ``hold_off: until_missed``, default; ``up_close``).

    A long spear (attack 50, DEX 10) against a dagger (attack 60, DEX 16), both without
    shield, defence or armour (and no fumble that hurts the fumbler or fells it), at
    touching distance from the start. Up close the dagger
    acts first, but the spear holds it off: no blow at the spearman in round 1. The spear
    then strikes: it lands on 01-50 (no defence); on any other roll (a miss or a fumble)
    the dagger gets inside: P(inside after round 1) = 0.50. With ``hold_off: none`` the
    dagger's blow lands on 01-60 (1D4+2 and its bonus always wound): P(spearman hurt) =
    0.60.
    """
    spear = member(50, weapon="long_spear", shield=None, armour="none", hit_points=40,
                   policy={"defence": "none"}, characteristics={"DEX": 10})
    knife = member(60, weapon="dagger", shield=None, armour="none", hit_points=40,
                   policy={"defence": "none"}, characteristics={"DEX": 16})
    st = played(duel(spear, knife, tables=NO_FALLS))
    assert (st.hp[0] == 40).all()
    assert within_4se(mean(st.inside[1] == 0), 0.50)
    assert not (st.inside[1] == 0)[st.hp[1] < 40].any()     # a blow that landed keeps it out
    st = played(duel(spear, knife, tables=NO_FALLS, rules={"hold_off": "none"}))
    assert within_4se(mean(st.hp[0] < 40), 0.60)


def one_blow(attacker: dict, target: dict, pairs: list[tuple[int, int]]):
    """Place 0's attack action on place 1 (touching, round 1) at each (attack, parry) d100
    pair, every later die at its highest face (``scripted.Constant(LAST)``), by the general
    kernel (``kernel.fight.attack_action``, one trial a pair) and by the reference
    (``reference.fight.attack_action``): ((item_ok, wield, inside) of the target by trial, the
    reference's, as lists)."""
    loaded = balance.load_scenario({
        "name": "one blow", "ruleset": "percentile", "distance": 0,
        "sides": [{"name": "a", "members": [attacker]}, {"name": "b", "members": [target]}]})
    fight = get("percentile").compile(loaded.model, loaded.tables)
    n = len(pairs)
    st = kernel_state.start(fight, n, None)
    rng = ScriptedColumns.of_dice(np.array(pairs), 100, then=Constant(LAST))
    cx = Ctx(fight, static_of(fight), st, rng, 1, any_down=False, any_stunned=False,
             any_no_parry=False)
    kernel.attack_action(cx, 0, np.arange(n))
    got = [(st.item_ok[MAIN, 1, j], int(st.wield[1, j]), int(st.inside[1, j]))
           for j in range(n)]
    want = []
    for a, d in pairs:
        combat = ref.Combat.start(fight)
        combat.round_no = 1
        s, t = combat.fighters
        s.target, t.target = 1, 0
        ref.attack_action(s, combat, 1, rng=ScriptedDice([die(100, a), die(100, d)],
                                                         "reference", Constant(LAST)))
        want.append((t.item_ok[MAIN], t.wield, -1 if t.inside is None else t.inside))
    return got, want


def test_a_weapon_broken_by_a_blow_of_equal_length_lets_nobody_inside() -> None:
    """Seed 004: a longer weapon may "hold off a shorter-armed opponent entirely"; the
    hold-off ends when a blow *of the longer weapon* fails (``rules.tables.lets_inside``), the
    lengths read as the blow is struck (``kernel.strike.lengths_at_blow``).

    A great axe (long; STR 16: 2D6+2+1D4, at its highest faces 18) at 60 strikes a short
    spear (long, 15 hit points) parried at 60, d100 10 and 10: both succeed, the parry
    stops the blow and the 18 points break the spear (its owner takes his dagger in hand,
    the draw owed). The blow was of one length against another: the spearman is *not* inside the
    axe (inside -1), so the axe holds his dagger off once drawn. (Issue 28: the general
    kernel and the reference read the lengths after the blow, fists against the axe, and
    let him inside; the duel table read them before.) The same blow at a dagger (short,
    15 hit points) parried at 60 breaks the dagger too, and the failed blow was of the
    longer weapon: its owner is inside the axe (inside 0). Attack 10, parry 99: the blow
    lands, nobody gets inside."""
    axe = member(60, weapon="great_axe", shield=None, characteristics={"STR": 16})
    pairs = [(10, 10), (10, 99)]
    spear = member(60, weapon="short_spear", shield=None, sidearm="dagger",
                   skills={"parry": 60})
    got, want = one_blow(axe, spear, pairs)
    assert got == want, (got, want)
    assert got == [(False, SIDE, -1), (True, MAIN, -1)], got
    knife = member(60, weapon="dagger", shield=None, skills={"parry": 60})
    got, want = one_blow(axe, knife, pairs)
    assert got == want, (got, want)
    assert got == [(False, FIST, 0), (True, MAIN, -1)], got


# --- 4. fighting from the ground --------------------------------------------------------------


@pytest.mark.parametrize(("when_down", "hurt", "hits"), [
    ("stand", 0.6 * 0.104 + 0.4 * 0.0755, 0.0),
    ("stand_and_fight", 0.4 * 0.50 + 0.6 * 0.70, 0.4 * 0.60 + 0.6 * 0.40),
    ("fight_down", 0.104, 0.40)])
def test_down_a_fighter_stands_or_fights_from_the_ground(when_down: str, hurt: float,
                                                         hits: float) -> None:
    """Seed 004, fighting while down: "The downed defender's chance to hit drops 20
    percentiles, while the standing attacker's chance rises 20 ... they can still parry. A
    successful Dodge roll gets the downed adventurer back on their feet." Policy
    ``when_down``: ``stand`` (default) makes the Dodge its action, parry kept;
    ``stand_and_fight`` spends the round's defence on the Dodge (the family's Dodge is a
    defence) and still attacks; ``fight_down`` stays down, attacks at -20, parry kept.

    A fighter starts on the ground (DEX 16, so it acts first; Dodge 40; broadsword 60; full
    shield 90; no armour, 40 hit points, no fumble that hurts or fells it) against a foe
    (DEX 10, broadsword 50, no defence, no armour, 100 hit points).
    Its blow at the foe: ``stand``: none; ``stand_and_fight``: up (0.40) at 60, still down
    (0.60) at 40: 0.48; ``fight_down``: at 40: 0.40.
    The foe's blow at it: at 70 while it is down (criticals 01-04), 50 once it is up
    (01-03); its shield at 90 (criticals 01-05) stops any hit but a critical one, which
    needs a critical parry. Parrying: 0.04 x 0.95 + 0.66 x 0.10 = 0.104 at 70, 0.03 x 0.95
    + 0.47 x 0.10 = 0.0755 at 50. ``stand``: 0.6 x 0.104 + 0.4 x 0.0755; ``fight_down``:
    0.104; ``stand_and_fight``, no parry: 0.4 x 0.50 + 0.6 x 0.70.
    """
    downed = member(60, situation={"position": "down"}, armour="none", hit_points=40,
                    skills={"dodge": 40, "shield": 90}, policy={"when_down": when_down},
                    characteristics={"DEX": 16})
    foe = member(50, shield=None, armour="none", hit_points=100,
                 policy={"defence": "none"}, characteristics={"DEX": 10})
    st = played(duel(downed, foe, tables=NO_FALLS))
    assert within_4se(mean(st.hp[0] < 40), hurt)
    assert within_4se(mean(st.hp[1] < 100), hits)


# --- 5. the smaller readings ------------------------------------------------------------------


def test_a_runners_free_blow_cannot_be_parried_but_may_be_dodged() -> None:
    """Seed 004: to break off, "simply turn and run — though running grants the opponent
    one free attack that can't be parried". The seed forbids the parry only: the runner
    may Dodge.

    The runner (DEX 16, acts first; full shield; Dodge 40: criticals 01-02; no armour)
    runs in round 1; its foe (DEX 10) strikes freely at 60: criticals 01-03, which only a
    critical Dodge stops, hits 04-60. P(runner hurt) = 0.03 x 0.98 + 0.57 x 0.60 = 0.3714
    (with no Dodge: 0.60; a shield parry would have stopped most).
    """
    runner = member(60, armour="none", hit_points=40, characteristics={"DEX": 16},
                    skills={"dodge": 40}, policy={"break_off_at": 100})
    foe = member(60, shield=None, characteristics={"DEX": 10})
    st = played(duel(runner, foe))
    assert within_4se(mean(st.hp[0] < 40), 0.03 * 0.98 + 0.57 * 0.60)


def test_falls_stun() -> None:
    """Seed 004: "Knockout attacks, electrical shocks, knock-backs, falls, and similar jolts
    can incidentally stun an adventurer ... A roll above CON x5 means the character is
    stunned" (rule ``falls_stun``, default true). Slick footing: "sudden movement on a
    slick surface risks a fall. A successful Dexterity roll avoids it."

    A mover (DEX 10, CON 10, unarmoured like its foe) crosses slick ground towards a foe
    20 yards off: DEX x 5 = 50% keeps its feet, so it falls half the time, and a fall is
    a stun on CON x 5 = 50% failed: P(stunned) = 0.25 (``falls_stun: false``: 0); at its
    action a fallen mover tries to stand (Dodge DEX x 2 = 20%): P(down) = 0.5 x 0.8. A
    knock-back stuns by one roll for the shove and the sprawl it may end in: a shove at 60
    (no defence) on a foe of CON 10: P(stunned) = 0.60 x 0.50 = 0.30.
    """
    mover = member(50, shield=None, armour="none", situation={"slick": True},
                   characteristics={"DEX": 10, "CON": 10})
    foe = member(50, shield=None, armour="none", policy={"movement": "hold"})
    st = played(duel(mover, foe, distance=20))
    assert within_4se(mean(st.stunned[0]), 0.25) and within_4se(mean(st.down[0]), 0.40)
    st = played(duel(mover, foe, distance=20, rules={"falls_stun": False}))
    assert not st.stunned.any()
    shover = member(60, shield=None, skills={"brawl": 60}, policy={"knockback": True},
                    characteristics={"DEX": 15, "STR": 13})
    shoved = sitting_duck(40, characteristics={"CON": 10})
    st = played(duel(shover, shoved))
    assert within_4se(mean(st.stunned[1]), 0.30)


def test_a_surprised_foe_is_unable_to_resist() -> None:
    """Seed 004: "A target unable to resist is hit automatically" (rule
    ``unable_to_resist``: exhausted and surprised by default, held on request).

    An ambusher hides (Hide 60: 01-60) from a target with no Search (it never spots it):
    the target is surprised in round 1 with P = 0.60. The ambusher (DEX 15, acts first)
    strikes at 30 (a broadsword always wounds the unarmoured target, which has no
    defence): a surprised target is hit on any roll, the others on 01-30:
    P(hurt) = 0.60 + 0.40 x 0.30 = 0.72; with only ``exhausted`` counting, 0.30.
    """
    ambusher = member(30, skills={"hide": 60}, characteristics={"DEX": 15})
    target = sitting_duck(40, skills={"dodge": 0, "search": 0})

    def scenario(**kw) -> dict:
        out = duel(ambusher, target, **kw)
        out["sides"][0]["ambush"] = "hide"
        return out

    st = played(scenario())
    assert within_4se(mean(st.surprised[1]), 0.60)
    assert within_4se(mean(st.hp[1] < 40), 0.72)
    st = played(scenario(rules={"unable_to_resist": ["exhausted"]}))
    assert within_4se(mean(st.hp[1] < 40), 0.30)


# --- coverage rows without a rule test of their own ------------------------------------------


def test_thrown_knives_have_no_chance_past_double_range() -> None:
    """Row 15. Seed 004: "Thrown knives and axes have no chance to hit at all past double
    their base range"; out to double range the chance is halved.

    A throwing knife (base range 10) at 70%: at 19 yards (past base, inside double, not
    point blank) ceil(70 / 2) = 35, every hit killing a 1-hit-point target (1D4 and half
    of +1D4, 1D2: at least 2): P = 0.35; at 21 yards (past double) no throw hits: 0.
    """
    knife = member(70, weapon="throwing_knife", shield=None)
    near = status(duel(knife, sitting_duck(1), distance=19))
    assert within_4se(near.get("dead", 0.0), 0.35), near
    far = status(duel(knife, sitting_duck(1), distance=21))
    assert far.get("dead", 0.0) == 0.0


def test_at_touching_distance_a_shooter_fights_hand_to_hand() -> None:
    """Row 17. Seed 004: "Once the range closes to touching distance, the exchange stops
    being missile combat and is resolved as hand-to-hand instead."

    An archer (self bow; a dagger at its belt, skill 50) meets a foe in reach in round 1:
    it drops the bow, draws (five DEX ranks) and strikes with the dagger at 50; the foe
    (no defence, no armour) is wounded on 01-50 (1D4+2 and the archer's bonus): 0.50. The
    bow is on the ground, the dagger in hand, in every trial (no fumble breaks it).
    """
    archer = member(70, weapon="self_bow", shield=None, sidearm="dagger",
                    skills={"sidearm": 50}, characteristics={"DEX": 15})
    st = played(duel(archer, sitting_duck(40),
                     tables={"fumbles": {"weapon_breaks": {"weight": 0}}}))
    assert (st.wield[0] == SIDE).all() and not st.item_ok[MAIN, 0].any()
    assert within_4se(mean(st.hp[1] < 40), 0.50)


@pytest.mark.parametrize("matrix", ["elric", "brp"])
def test_a_critical_entangle_needs_a_critical_parry(matrix: str) -> None:
    """Row 32. Seed 004: "a critical parry negates a critical entangle, though an ordinary
    parry does nothing against one" (whatever the parry matrix says of blows).

    A net thrown at 60 (criticals 01-03, hits 04-60) from 2 yards at a foe who parries
    with its broadsword at 60 (criticals 01-03, successes 01-60) and never dodges:
    P(held after round 1) = 0.03 x 0.97 + 0.57 x 0.40 = 0.2571.
    """
    netter = member(60, weapon="trident", shield=None, off_hand="net",
                    skills={"off_hand": 60}, policy={"entangle": True},
                    characteristics={"DEX": 18})
    foe = member(60, shield=None, skills={"parry": 60}, policy={"defence": "parry"},
                 characteristics={"DEX": 10})
    st = played(duel(netter, foe, distance=2, rules={"parry_matrix": matrix}))
    assert within_4se(mean(st.entangled[1]), 0.03 * 0.97 + 0.57 * 0.40)


def test_a_stunned_fighter_still_parries_but_does_not_attack() -> None:
    """Row 56. Seed 004: "While stunned, an adventurer can still parry, dodge, or crawl and
    stagger to safety, but can't attack or cast magic"; a roll of CON x 5 or less ends it.

    A fighter stunned before round 1 (CON 1: it recovers on 01-05 only; broadsword 60, its
    parry 60, no shield, no armour, 1 hit point) against a quicker foe (DEX 15, attack 60, no
    defence, no armour; no fumble hurts or fells it) who strikes first: P(the stunned one
    dies) = 0.03 x 0.97 + 0.57 x 0.40 = 0.2571 (it parries). It strikes back only if it
    recovered and lives: P(foe hurt) = 0.05 x 0.7429 x 0.60 = 0.0223 (played as the
    engine plays it: a plain duel).
    """
    foe = member(60, shield=None, armour="none", hit_points=40,
                 policy={"defence": "none"}, characteristics={"DEX": 15})
    stunned = member(60, shield=None, armour="none", hit_points=1, skills={"parry": 60},
                     characteristics={"CON": 1, "DEX": 10})

    def stun(state) -> None:
        state.stunned[1] = True

    st = played(duel(foe, stunned, tables=NO_FALLS), before=stun, plain=True)
    assert within_4se(mean(st.hp[1] <= 0), 0.03 * 0.97 + 0.57 * 0.40)
    assert within_4se(mean(st.hp[0] < 40), 0.05 * (1 - 0.2571) * 0.60)


def test_half_the_hit_points_in_one_blow_is_a_major_wound() -> None:
    """Row C12. The family's major wound: damage of at least half the hit points in one
    blow (``rules.major_wound_roll: 0``: every major wound takes the fighter out).

    A weapon doing exactly 6 (no bonus) at 60, against no defence or armour: 12 hit points
    (6 is half): P(unconscious) = 0.60; 11: 0.60 too; 13 (6 is less than half): none, and
    nobody falls.
    """
    tables = {"weapons": {"club6": {"skill": 10, "damage": "6", "length": "medium"}}}
    club = member(60, weapon="club6", shield=None,
                  characteristics={"STR": 10, "SIZ": 10, "DEX": 15})
    for hp, p in ((11, 0.60), (12, 0.60), (13, 0.0)):
        st = played(duel(club, sitting_duck(hp), tables=tables,
                         rules={"major_wound_roll": 0}))
        assert within_4se(mean(st.status[1] == UNCONSCIOUS), p), hp
        if p == 0.0:
            assert not st.down[1].any()


def test_a_knock_back_or_a_major_wound_unhorses() -> None:
    """Row 71. Seed 004: "A successful knock-back attack dismounts a mounted opponent, as
    does a major wound."

    A rider (mounted, so higher: a foe on foot strikes it at -10, seed 004's superior
    position) without defence. A shove with a shield at 60, less 10: 50%, cannot be
    parried: P(unhorsed) = 0.50. A blow of exactly 6 at 60 - 10 = 50 against a rider of
    12 hit points is a major wound whenever it lands: P(unhorsed) = 0.50.
    """
    rider = member(40, shield=None, mount="warhorse", skills={"ride": 40}, hit_points=12,
                   armour="none", policy={**PASSIVE, "break_off_by": "dodge"})
    shover = member(60, skills={"shield": 60}, policy={"knockback": True},
                    characteristics={"DEX": 15})
    st = played(duel(shover, rider))
    assert within_4se(mean(~st.mounted[1]), 0.50)
    tables = {"weapons": {"club6": {"skill": 10, "damage": "6", "length": "medium"}}}
    club = member(60, weapon="club6", shield=None,
                  characteristics={"STR": 10, "SIZ": 10, "DEX": 15})
    st = played(duel(club, rider, tables=tables))
    assert within_4se(mean(~st.mounted[1]), 0.50)


def test_a_rider_dismounts_to_pick_up_a_fumbled_weapon() -> None:
    """Row 72. Seed 004: "A rider must dismount to retrieve a fumbled weapon."

    A rider attacks a foe on foot at 60 + 10 (higher): 70, fumbling on 99-00
    (ceil(30 / 20) = 2 rolls); the fumble table is patched to drop the weapon every time,
    and the next round goes to picking it up, so the rider ends on foot: P(on foot after
    round 1) = 0.02.
    """
    tables = {"fumbles": {name: {"weight": 0} for name in
                          ("lose_next_attack", "weapon_breaks", "hit_self", "fall")}}
    rider = member(60, shield=None, mount="warhorse", skills={"ride": 90},
                   characteristics={"DEX": 15})
    st = played(duel(rider, sitting_duck(100), tables=tables))
    assert within_4se(mean(~st.mounted[0]), 0.02)
