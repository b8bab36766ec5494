"""Readable scalar reference of the Ymlad rules (docs/rules/ymlad.md, seed 002).

One fight at a time, a small mutable state per fighter and one function per rule step,
written to be read beside the seed. It is the oracle the vectorised kernel is tested against
in distribution, so it is written independently of the kernel: only the formulas of
``tables.py`` and the compiled numbers of ``fighters.py`` are shared. The drift die is thrown
here literally, one d6 at a time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.status import DEAD, DRAW, STANDING, UNCONSCIOUS, YIELDED, TrialOutcome
from balance.rules.ymlad.fighters import (
    Fighter,
    YmladFight,
    effort,
    harm_margin,
    height_bonus,
    resistance,
    track_penalty,
)
from balance.rules.ymlad.tables import (
    CLOSE,
    DISENGAGE_BONUS,
    FORMATION,
    FORMATION_FRONT,
    GRAPPLE,
    MELEE,
    MISSILE,
    STUN,
    WOUND,
    group_bonus,
    harm_done,
    margin,
    may_join,
    range_band,
    stun_split,
    succeeds,
)

CONTACT_EPS = 1e-3   # "within reach" allows for the kernel's float32 positions
CHARGE_KEY = 32


def d6(rng: np.random.Generator) -> int:
    return int(rng.integers(1, 7))


def drift_step(face: int) -> int:
    """Seed: 1-2 lowers the outcome a point, 3-4 leaves it, 5-6 raises it."""
    return -1 if face <= 2 else (0 if face <= 4 else 1)


def throw_drift(rng: np.random.Generator) -> int:
    """Seed, Attack and defense: throw again while the throws keep the same direction; a
    neutral throw, or one that would reverse the drift, ends it and does not count."""
    direction = drift_step(d6(rng))
    total = direction
    while direction != 0:
        if drift_step(d6(rng)) != direction:
            break
        total += direction
    return total


def d20(rng: np.random.Generator) -> int:
    return int(rng.integers(1, 21))


@dataclass
class FighterState:
    """One fighter's changing state; fixed numbers are in ``fighter``."""

    index: int
    fighter: Fighter
    pos: float
    shots: int
    body: int = 0           # long-lasting harm (wounds, even stun points)
    brief: int = 0          # brief harm (odd stun points)
    grapple: int = 0        # grappling harm, gone when the hold breaks
    status: int = STANDING
    close_with: int | None = None
    reload: int = 0
    charged: bool = False
    # This round (decided before anyone acts).
    target: int | None = None
    moved: int = 0
    charging: bool = False
    allowed: bool = False
    bonus: int = 0
    flanked: bool = False

    @property
    def standing(self) -> bool:
        return self.status == STANDING

    @property
    def harm(self) -> int:
        """All harm counts towards penalties and going down (seed, Harm effects)."""
        return self.body + self.brief + self.grapple

    @property
    def penalty(self) -> int:
        return track_penalty(self.fighter, self.harm)

    @property
    def shooter(self) -> bool:
        """Prefers missile combat and still has something to shoot."""
        return self.fighter.style == MISSILE and self.fighter.missile is not None \
            and self.shots > 0


@dataclass
class Combat:
    fighters: list[FighterState]
    fight: YmladFight

    @property
    def reach(self) -> float:
        return self.fight.rules.contact + CONTACT_EPS


@dataclass(frozen=True)
class Snapshot:
    """What the fighters were when a group of equal initiative began (seed, Initiative)."""

    status: tuple[int, ...]
    penalty: tuple[int, ...]
    grapple: tuple[int, ...]
    close_with: tuple[int | None, ...]


def snapshot(combat: Combat) -> Snapshot:
    fs = combat.fighters
    return Snapshot(tuple(f.status for f in fs), tuple(f.penalty for f in fs),
                    tuple(f.grapple for f in fs), tuple(f.close_with for f in fs))


# --- 1. targets -------------------------------------------------------------------------------


def choose_target(me: FighterState, combat: Combat) -> int | None:
    """Seed, Close: in close combat only the partner. Otherwise the first foe in scenario
    order within reach, else the first standing foe (lab; group targeting comes later)."""
    if me.close_with is not None:
        return me.close_with
    foes = [o for o in combat.fighters if o.fighter.side != me.fighter.side and o.standing]
    if not foes:
        return None
    near = [o for o in foes if abs(o.pos - me.pos) <= combat.reach]
    return (near or foes)[0].index


# --- 2. movement ------------------------------------------------------------------------------


def movement(me: FighterState, foe: FighterState, combat: Combat) -> float:
    """Signed distance ``me`` moves towards ``foe`` this round (negative: away).

    Seed, Missile: a missile user keeps its distance and shoots; others run up to reach it.
    Lab: a shooter walks in until the foe is within its preferred band (``far``) and backs off
    from a foe nearer than ``keep_at``; running speed comes from body size.
    """
    f = me.fighter
    gap = abs(foe.pos - me.pos)
    if gap <= combat.reach:
        return 0.0
    if me.shooter:
        want = -(f.keep_at - gap) if gap < f.keep_at else max(gap - f.far, 0.0)
    else:
        want = max(gap - combat.fight.rules.contact, 0.0)
    return max(-f.speed, min(f.speed, want))


def move_all(combat: Combat) -> None:
    """Everyone moves in scenario order (lab), so two runners meet rather than pass."""
    for me in combat.fighters:
        me.moved = 0
        if not me.standing or me.target is None or me.close_with is not None:
            continue
        foe = combat.fighters[me.target]
        distance = movement(me, foe, combat)
        direction = 1.0 if foe.pos >= me.pos else -1.0
        me.pos += direction * distance
        if distance:
            me.moved = 2 if abs(distance) > me.fighter.speed / 2 else 1


# --- 3. engagements, charges, groups ------------------------------------------------------------


def in_reach(a: FighterState, b: FighterState, combat: Combat) -> bool:
    return abs(a.pos - b.pos) <= combat.reach


def engage_both_close(combat: Combat) -> None:
    """Seed, Close: two fighters aiming for close combat and near enough engage right away."""
    for me in combat.fighters:
        if me.fighter.contact_style != CLOSE or not me.standing or me.target is None:
            continue
        other = combat.fighters[me.target]
        if (me.close_with is None and other.close_with is None and other.target == me.index
                and other.fighter.contact_style == CLOSE and in_reach(me, other, combat)):
            me.close_with, other.close_with = other.index, me.index


def group_attackers(combat: Combat) -> None:
    """Seed, Group fights: in scenario order, at most six attack one fighter in reach (twelve
    with spears or polearms); the second gets +1 melee effort, the third +2, and so on. A
    fighter facing more than three is outflanked: no formation fighting for it."""
    fs = combat.fighters
    for me in fs:
        me.allowed, me.bonus = False, 0
        if not me.standing or me.target is None or not in_reach(me, fs[me.target], combat):
            continue
        before = [o for o in fs[: me.index] if o.allowed and o.target == me.target]
        plain = [o for o in before if not o.fighter.polearm]
        me.allowed = bool(may_join(len(plain), len(before), me.fighter.polearm))
        me.bonus = group_bonus(len(before))
    for me in fs:
        facing = sum(1 for o in fs if o.allowed and o.target == me.index)
        me.flanked = me.fighter.flanked or facing > FORMATION_FRONT


def initiative(combat: Combat, any_charge: bool, rng: np.random.Generator) -> list[list[int]]:
    """Seed, Initiative: d20 each, low to high; equal results act together. Seed, Charge: in
    a charge the longest reach goes first and initiative only breaks equal reach."""
    keys = []
    for me in combat.fighters:
        key = d20(rng)
        if any_charge:
            key += (32 - me.fighter.reach) * CHARGE_KEY
        keys.append(key)
    groups: dict[int, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    return [groups[k] for k in sorted(groups)]


# --- 4. one attack ------------------------------------------------------------------------------


def pair_style(me: FighterState, foe: FighterState) -> int:
    """Seed, Melee: formation if both want it, or if the one who wants it has secured flanks
    and rear; melee otherwise. Seed, Formation: outflanked, it becomes melee."""
    mine = me.fighter.contact_style == FORMATION and not me.flanked
    theirs = foe.fighter.contact_style == FORMATION and not foe.flanked
    me_wants = me.fighter.contact_style == FORMATION
    foe_wants = foe.fighter.contact_style == FORMATION
    if (mine and theirs) or (mine and not foe_wants and me.fighter.flanks_secured) \
            or (theirs and not me_wants and foe.fighter.flanks_secured):
        return FORMATION
    return MELEE


def act(me: FighterState, combat: Combat, snap: Snapshot, rng: np.random.Generator) -> None:
    """One fighter's action: shoot, close in, disengage, or strike (seed: one attack a round)."""
    partner = snap.close_with[me.index]
    engaged = partner is not None
    t = partner if engaged else me.target
    if t is None or snap.status[t] != STANDING:
        return   # lab: an attack on a foe already down is lost
    foe = combat.fighters[t]
    f = me.fighter
    gap = abs(me.pos - foe.pos)
    near = gap <= combat.reach
    shoot = (not near and me.shooter and me.reload == 0 and me.moved == 0
             and gap <= f.missile.max)
    if not shoot and not (near and (engaged or me.allowed)):
        return
    if shoot:
        style = MISSILE
    elif engaged:
        style = CLOSE
    else:
        style = pair_style(me, foe)
    closing = not shoot and not engaged and f.contact_style == CLOSE \
        and snap.close_with[t] is None
    disengaging = engaged and f.contact_style != CLOSE

    e = effort(f, style) + height_bonus(f, foe.fighter, style) + snap.penalty[me.index]
    r = resistance(foe.fighter, style)
    if style != MISSILE:
        r += snap.penalty[t]   # missile resistance holds no skill, so no harm penalty
    if style == MELEE:
        e += me.bonus
    if disengaging and combat.fight.rules.room_to_retreat and snap.grapple[me.index] == 0:
        e += DISENGAGE_BONUS
    band = 0
    if shoot:
        band = max(range_band(gap, f.missile.close, f.missile.medium) - f.missile.band_shift, 0)
        e += f.missile.range_effort[band]
        r += max(foe.fighter.moving, foe.moved)    # seed, Moving target
        me.shots -= 1
        me.reload = f.missile.rounds_per_shot
    if not succeeds(margin(e, r, throw_drift(rng))):
        return
    if closing:
        close_in(me, foe)
    elif disengaging:
        disengage(me, foe, combat)
    else:
        charge = me.charging or (foe.charging and foe.target == me.index)
        m, kind = harm_margin(f, foe.fighter, style, band, charge,
                              combat.fight.rules.hardness)
        harm = harm_done(margin(m, 0, throw_drift(rng)))
        if harm:
            inflict(foe, kind, harm, combat)


def close_in(me: FighterState, foe: FighterState) -> None:
    """Seed, Close: a successful (harmless) melee attack closes in, if both are still free."""
    if me.close_with is None and foe.close_with is None:
        me.close_with, foe.close_with = foe.index, me.index


def disengage(me: FighterState, foe: FighterState, combat: Combat) -> None:
    """Seed, Close: a successful close-combat counterattack backs off to melee; the holds
    break and their grappling harm dissolves (seed, Grappling)."""
    me.close_with = foe.close_with = None
    me.grapple = foe.grapple = 0


def inflict(foe: FighterState, kind: int, harm: int, combat: Combat) -> None:
    """Harm on the track (seed, Harm effects) and whether the fighter goes down or dies."""
    if kind == WOUND:
        foe.body += harm
    elif kind == STUN:
        brief, lasting = stun_split(harm)
        foe.body += lasting
        foe.brief += brief if foe.fighter.stunnable else 0
    elif kind == GRAPPLE:
        foe.grapple += harm
    f = foe.fighter
    was_standing = foe.standing
    if foe.body >= f.dead_at or foe.grapple >= f.dead_at:
        foe.status = DEAD
    elif foe.harm >= f.down_at:
        foe.status = max(foe.status, UNCONSCIOUS)
    if was_standing and not foe.standing:
        let_go(foe, combat)


def let_go(out: FighterState, combat: Combat) -> None:
    """A fighter who is out releases its close-combat partner and the grappling harm."""
    if out.close_with is not None:
        partner = combat.fighters[out.close_with]
        partner.close_with = None
        partner.grapple = 0
        out.close_with = None


# --- the round and the fight -----------------------------------------------------------------


def play_round(combat: Combat, rng: np.random.Generator) -> None:
    fs = combat.fighters
    for me in fs:
        me.target = choose_target(me, combat) if me.standing else None
    was_out = {me.index: me.target is not None and not in_reach(me, fs[me.target], combat)
               for me in fs}
    move_all(combat)
    engage_both_close(combat)
    for me in fs:
        me.charging = (me.fighter.charge and not me.charged and me.standing and was_out[me.index]
                       and me.target is not None and in_reach(me, fs[me.target], combat))
        me.charged |= me.charging
    group_attackers(combat)
    for group in initiative(combat, any(me.charging for me in fs), rng):
        snap = snapshot(combat)
        for i in group:
            if snap.status[i] == STANDING and fs[i].target is not None:
                act(fs[i], combat, snap, rng)
    end_of_round(combat)


def end_of_round(combat: Combat) -> None:
    """Reloading ticks; fighters whose harm reached their ``yield_at`` give up."""
    for me in combat.fighters:
        me.reload = max(me.reload - 1, 0)
    for me in combat.fighters:
        if me.standing and me.harm >= me.fighter.yield_at:
            me.status = YIELDED
            let_go(me, combat)


def winning_side(combat: Combat) -> int | None:
    sides = {me.fighter.side for me in combat.fighters if me.standing}
    if len(sides) == 1:
        return sides.pop()
    return DRAW if not sides else None


def start_combat(fight: YmladFight) -> Combat:
    start = fight.start
    return Combat([FighterState(i, f, float(start[i]), f.missile.shots if f.missile else 0)
                   for i, f in enumerate(fight.fighters)], fight)


def reference_trial(fight: YmladFight, rng: np.random.Generator) -> TrialOutcome:
    """Play one fight round by round until at most one side stands or time runs out."""
    combat = start_combat(fight)
    for round_no in range(1, fight.max_rounds + 1):
        play_round(combat, rng)
        winner = winning_side(combat)
        if winner is not None:
            return TrialOutcome(winner, round_no, tuple(me.status for me in combat.fighters))
    return TrialOutcome(DRAW, fight.max_rounds, tuple(me.status for me in combat.fighters))
