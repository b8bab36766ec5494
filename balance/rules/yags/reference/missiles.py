"""Readable scalar reference of Yags fights at a distance: positions, closing in, shooting
(docs/rules/yags-missiles.md, seed 000 Movement and Missile Combat).

One fighter at a time, written beside the rule page; the kernel's ``missiles`` is tested
against it. Shared with the kernel: only the numbers and small formulas of ``ranged`` and
the compiled ``MissileStats``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from balance.engine.distance import CLOSE, HOLD, KEEP_DISTANCE
from balance.rules.yags.compile import AUTO_MOVE, FULL_DEFENCE, HALF_DEFENCE, PLENTY, MissileStats
from balance.rules.yags.reference.blasts import explode
from balance.rules.yags.reference.blows import (
    NATURAL_ONE,
    apply_damage,
    blow_kind,
    blow_type,
    d20,
    roll_levels,
)
from balance.rules.yags.reference.declare import riding_check
from balance.rules.yags.reference.state import (
    ATTACK,
    Combat,
    FighterState,
    can_act,
    knock_down,
    round_penalty,
    tire,
)
from balance.rules.yags.rules.ranged import (
    CLOSE_BAND,
    CONTACT,
    CRIPPLED,
    DRAW_BASE,
    DRAW_PER_REACH,
    FULL_MOVE,
    HALF_MOVE,
    IMPAIRED,
    LOAD,
    MAX_BANDS,
    MELEE_BAND,
    MOVE_BAND,
    NO_APPROACH,
    NO_BAND,
    RUN,
    RUN_FACTOR,
    SHOOT,
    UNAFFECTED,
    WAIT,
    approach_of,
    distance_difficulty,
    distance_factor,
    falloff,
    in_range,
    keep_back,
    out_of_band,
    threat,
)
from balance.rules.yags.rules.tactics import fumble_choice, shot_fumble_case
from balance.rules.yags.rules.tracks import (
    BREAK,
    DISARM,
    DRAW_STEP,
    FAST,
    FATIGUE,
    NORMAL_SPEED,
    SLOW,
)

SHOT_SPEED = {0: FAST, 1: NORMAL_SPEED, 2: SLOW}   # snap, normal, careful


@dataclass
class Gun:
    """A missile weapon's changing state."""

    stats: MissileStats
    shots: int = 0           # loaded shots (the magazine's)
    ammo: int = PLENTY       # shots carried beyond those loaded (PLENTY: never runs out)
    loading: int = 0         # rounds of loading left
    slow_next: bool = False  # the next shot is slow (just loaded)
    snap_next: bool = False  # the next shot is a snap shot (an unloaded Lo-0 weapon)
    drawing: bool = False    # the next shot draws the weapon
    drew_melee: bool = False  # the melee weapon is in hand (drawn the first time it melees)
    down: bool = False       # a fumbled shot dropped it: a round to pick it up

    @property
    def armed(self) -> bool:
        """It has a shot, or is loading one (or picking up the dropped weapon)."""
        return self.shots > 0 or self.loading > 0 or self.down

    def take(self, wanted: int) -> int:
        """Up to ``wanted`` shots out of the carried ammunition."""
        return wanted if self.ammo == PLENTY else min(wanted, self.ammo)

    def refill(self) -> None:
        m = self.stats
        self.shots = self.take(m.magazine)
        if self.ammo != PLENTY:
            self.ammo -= self.shots


def new_gun(m: MissileStats) -> Gun:
    """The weapon at the start: loaded or not, drawn or not (seed 000)."""
    gun = Gun(m, ammo=m.ammunition, drawing=not m.drawn)
    time = m.load_time
    if m.loaded or time == 0:
        gun.refill()
        # Seed 000: an unloaded Lo-0 weapon is loaded and fired in the first round as a
        # slow snap shot.
        gun.snap_next = gun.slow_next = not m.loaded
    else:
        gun.loading = time
    return gun


def move_of(state: FighterState) -> int:
    """Its Move score now: its mount's while it rides, its own on foot."""
    return state.mount.stats.move if state.mounted else state.fighter.move


def gap(a: FighterState, b: FighterState) -> float:
    return abs(a.pos - b.pos)


def step_towards(me: FighterState, foe: FighterState, metres: float) -> None:
    """Move ``metres`` towards the foe (negative: away)."""
    direction = 1.0 if foe.pos >= me.pos else -1.0
    me.pos += direction * metres


def movement(state: FighterState) -> int:
    """Its movement policy now: ``auto`` holds while it has something to shoot."""
    m = state.fighter.movement
    if m != AUTO_MOVE:
        return m
    return HOLD if state.gun is not None and state.gun.armed else CLOSE


def band(shooter: FighterState, target: FighterState) -> int:
    """The threat band the target puts the shooter in (seed 000, Reach and Close Combat)."""
    g = gap(shooter, target)
    if shooter.partner == target.index:
        return CLOSE_BAND
    if g <= CONTACT:
        return CLOSE_BAND if target.gear.reach == 0 else MELEE_BAND
    if g <= move_of(target) / 2:
        return MOVE_BAND
    return NO_BAND


# --- Declarations ----------------------------------------------------------------------------


def plan(state: FighterState, combat: Combat) -> None:
    """Turn a declared attack on a foe out of reach into what it does at a distance: load,
    shoot, close in (attacking if it gets there), run, or wait; and its speed this round."""
    state.approach, state.pace = NO_APPROACH, None
    if state.action != ATTACK or state.partner is not None:
        return
    _decide(state, combat)
    gun = state.gun
    if state.action == ATTACK and gun is not None and not gun.drew_melee:
        # Its first melee attack: it drops the missile weapon (free) and draws its melee
        # weapon, -5 per reach on every roll this round (seed 000, Drawing a weapon).
        gun.drew_melee = True
        state.round_mod -= DRAW_STEP * state.gear.draw


def _decide(state: FighterState, combat: Combat) -> None:
    foe = combat.fighters[state.target]
    g = gap(state, foe)
    gun = state.gun
    armed = gun is not None and gun.armed
    if g <= CONTACT:
        if armed and gun.stats.shoot_in_melee:
            _shoot_or_load(state, foe)
        return
    if armed:
        if gun.loading > 0 or gun.down or in_range(g, gun.stats.range):
            _shoot_or_load(state, foe)
        else:   # out of range: ``auto`` and ``close`` run in until it is in range
            state.action = RUN if state.fighter.movement in (AUTO_MOVE, CLOSE) else WAIT
        return
    if movement(state) != CLOSE:
        state.action = WAIT
        return
    how = int(approach_of(g - CONTACT, move_of(state)))
    if how == RUN:
        state.action = RUN
    else:
        state.approach = how
        state.pace = SLOW if how == FULL_MOVE else None


def _shoot_or_load(state: FighterState, foe: FighterState) -> None:
    gun = state.gun
    if gun.loading > 0 or gun.down:
        state.action = LOAD
        return
    state.action = SHOOT
    m = gun.stats
    slow = gun.slow_next or gun.drawing or threat(m.reach, band(state, foe)) == CRIPPLED
    state.pace = SLOW if slow else SHOT_SPEED[m.shot]


# --- Actions ----------------------------------------------------------------------------------


def approach(state: FighterState, foe: FighterState) -> bool:
    """A closer's move before its attack; True if it is then within melee distance."""
    if state.approach != NO_APPROACH:
        move = move_of(state)
        allowed = move / 2 if state.approach == HALF_MOVE else float(move)
        step_towards(state, foe, min(allowed, max(gap(state, foe) - CONTACT, 0.0)))
    return gap(state, foe) <= CONTACT


def run(state: FighterState, foe: FighterState, round_no: int) -> None:
    """Running at the foe (no attack): up to twice Move, stopping at melee distance, or, for
    a shooter out of range, as soon as the foe is in range."""
    state.ran_round = round_no
    stop = CONTACT
    if state.gun is not None and state.gun.armed:
        stop = MAX_BANDS * state.gun.stats.range
    step_towards(state, foe, min(RUN_FACTOR * move_of(state), max(gap(state, foe) - stop,
                                                                      0.0)))


def load(state: FighterState) -> None:
    """One round of loading; loaded, the next shot is slow (seed 000). A weapon a fumbled
    shot dropped is picked up instead (its loading waits a round)."""
    gun = state.gun
    gun.drawing = False       # drawn while it loads
    if gun.down:
        gun.down = False
        return
    gun.loading -= 1
    if gun.loading == 0:
        gun.refill()
        gun.slow_next = True


def shoot(state: FighterState, foe: FighterState, combat: Combat, round_no: int, *,
          rng: np.random.Generator) -> None:
    """A shooting action: a step (keep_distance or close), then one shot, or several with a
    rate of fire above one if it did not move."""
    gun = state.gun
    m = gun.stats
    policy = movement(state)
    moved = 0.0
    if policy == KEEP_DISTANCE:
        moved = float(keep_back(gap(state, foe), move_of(foe), move_of(state) / 2, m.range))
        step_towards(state, foe, -moved)
    elif state.fighter.movement == AUTO_MOVE:
        # ``auto`` holds its ground, but gives ground out of a threat band that would impair
        # or cripple its weapon when half its Move is enough.
        moved = float(out_of_band(gap(state, foe), m.reach, move_of(foe), move_of(state) / 2,
                                  m.range))
        step_towards(state, foe, -moved)
    elif policy == CLOSE:
        moved = min(move_of(state) / 2, max(gap(state, foe) - CONTACT, 0.0))
        step_towards(state, foe, moved)
    g = gap(state, foe)
    if not in_range(g, m.range):
        return
    factor = float(distance_factor(m.shot, gun.snap_next or gun.drawing))
    if moved > 0 and state.mounted:
        # Seed 000, Archery from Horseback: from a moving mount the distance doubles and the
        # rider checks as in melee: failing, it loses the shot and checks again or falls.
        factor *= 2
        if not riding_check(state, combat, rng=rng):
            if not riding_check(state, combat, rng=rng):
                knock_down(state)
            return
    effect = int(threat(m.reach, band(state, foe)))
    difficulty = int(distance_difficulty(g * factor))
    wanted = m.shots if moved == 0 and state.defences == 0 else 1
    draw = DRAW_BASE + DRAW_PER_REACH * m.reach if gun.drawing else 0
    gun.drawing = gun.snap_next = gun.slow_next = False
    for k in range(min(wanted, gun.shots)):
        if not foe.standing or not state.standing or gun.down or gun.shots == 0:
            break   # (a fumble dropped or broke the weapon: no more shots this round)
        gun.shots -= 1
        die = d20(rng)
        bonus = m.bonus if effect != UNAFFECTED else 0    # impaired: no attack bonus
        roll = (m.attack - bonus + round_penalty(state, combat.rules) - k * m.recoil
                - (draw if k == 0 else 0) + die)
        if effect == CRIPPLED:
            roll //= 2
        against = difficulty
        defence = shot_defence(foe, effect, m.firearm, combat.rules.missile_defence)
        if defence is not None and can_act(foe, round_no):
            parry_die = d20(rng)
            if parry_die != NATURAL_ONE:
                parry = defence + round_penalty(foe, combat.rules) + parry_die
                against = max(against, parry)
        if die != NATURAL_ONE and roll >= against:
            hit(state, foe, g, combat, rng=rng)
        elif die == NATURAL_ONE and combat.rules.missile_fumbles:
            shot_fumble(state, foe)
    if gun.shots == 0 and (gun.ammo == PLENTY or gun.ammo > 0):
        time = m.load_time
        if time == 0 and combat.rules.lo0_aim:
            time = 1   # rules.lo0_shots aim: a round of loading, then the declared shot
        if time == 0:
            gun.refill()
            # rules.lo0_shots snap (seed 000 read strictly): loaded and fired in one round,
            # as a slow snap shot.
            gun.snap_next = gun.slow_next = combat.rules.lo0_snap
        else:
            gun.loading = time


def shot_fumble(state: FighterState, foe: FighterState) -> None:
    """A fumbled shot (seed 000: "When making an attack or defence roll, if you roll a natural
    '1', then a fumble occurs"; rules.missile_fumbles results): a miss, and the result chosen
    by the shooter, or by its target if more skilled, among those that make sense for a shot
    (``rules.tactics.shot_fumble_case``): a point of fatigue; the weapon dropped (a round to pick it
    up); a weak weapon broken (no more shots)."""
    gun = state.gun
    m = gun.stats
    prefs = foe.tactics.foe_fumbles if foe.gear.skill > m.skill else state.tactics.own_fumbles
    losable, weak = shot_fumble_case(m.thrown, m.weak)
    result = fumble_choice(prefs, defending=False, losable=losable, weak=weak, strong=False,
                           exhausts=state.fatigue + 1 >= state.fighter.exhausted_at)
    if result == FATIGUE:
        tire(state)
    elif result == DISARM:
        gun.down = True
    elif result == BREAK:
        gun.shots = gun.ammo = gun.loading = 0


def shot_defence(foe: FighterState, effect: int, firearm: bool, mode: int) -> int | None:
    """The defence number the target of a shot rolls with (+ penalties + d20), or None.

    Seed 000, Impaired: "The target always gets their full defence (even against
    firearms)". Otherwise by rules.missile_defence: ``half`` (default) half its defence,
    rounded down, against bows and thrown weapons and none against firearms; ``full``; or
    ``none``. No declared defence is used (nobody declares one against a shot).
    """
    defence = foe.numbers()[1]
    if effect in (IMPAIRED, CRIPPLED) or mode == FULL_DEFENCE:
        return defence
    if mode == HALF_DEFENCE and not firearm:
        return defence // 2
    return None


def hit(state: FighterState, foe: FighterState, g: float, combat: Combat, *,
        rng: np.random.Generator) -> None:
    """A missile's damage: weapon damage less the range fall-off, against the soak for its
    kind of blow; the type shifts by Size as in melee."""
    m = state.gun.stats
    if m.blast is not None:
        # An explosive: its blast lands on the target (reference/blasts.py; the thrower, if
        # within three radii, takes it too).
        explode(replace(m.blast, centre=foe.index), combat, rng=rng)
        return
    t = foe.fighter
    soak = t.soak_against(blow_kind(m.kind, m.damage_type))
    levels, _ = roll_levels(m.damage - int(falloff(g, m.range)), soak, rng=rng)
    kind = blow_type(m.damage_type, light=False, heavy_suit=t.heavy_suit,
                     attacker_size2=2 * state.fighter.size, target_size=t.size)
    apply_damage(foe, levels, kind, combat.rules, rng=rng, vitals=t.vitals)


__all__ = ["LOAD", "RUN", "SHOOT", "WAIT", "Gun", "approach", "band", "load", "new_gun",
           "plan", "run", "shoot"]
