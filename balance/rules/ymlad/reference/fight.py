"""Readable scalar reference of the Ymlad rules (docs/rules/ymlad.md, seed 002).

One fight at a time, a small mutable state per fighter and one function per rule step,
written to be read beside the seed. It is the oracle the vectorised kernel is tested against
in distribution, so it is written independently of the kernel: only the formulas of
``rules/tables.py`` and the compiled numbers of ``compile.py`` are shared. The drift die is thrown
here literally, one d6 at a time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from balance.engine.morale import routing_sides_scalar
from balance.engine.status import (
    DEAD,
    DRAW,
    FLED,
    STANDING,
    UNCONSCIOUS,
    YIELDED,
    TrialOutcome,
)
from balance.engine.targeting import (
    COUNTING,
    DANGEROUS,
    ENGAGE,
    FIRST,
    FIXED,
    NEAREST,
    RANDOM,
    SPREAD,
    WEAKEST,
)
from balance.engine.targeting_scalar import (
    attacker_ranks,
    best,
    choosing_order,
    engage_key,
    shuffled,
)
from balance.rules.ymlad.compile import (
    Fighter,
    YmladFight,
    angled_resistance,
    danger,
    effort,
    fights_back_at,
    harm_margin,
    height_bonus,
    resistance,
    track_penalty,
)
from balance.rules.ymlad.rules.tables import (
    CLOSE,
    DISENGAGE_BONUS,
    FORMATION,
    FROM_FRONT,
    FROM_REAR,
    GRAPPLE,
    MELEE,
    MISSILE,
    MISSILE_CHARGE_STOP,
    STUN,
    WOUND,
    attacker_places,
    formation_by_charge,
    group_bonus,
    harm_done,
    margin,
    mounted_pace_penalty,
    open_sides,
    outflanked,
    range_band,
    ring_angle,
    saddle_counts,
    shot_band,
    stun_split,
    succeeds,
    switch_costs_attack,
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
    target: int | None = None   # kept from round to round until it falls
    # This round (decided before anyone acts).
    goal: int | None = None     # whom it moves towards (its target, else the first foe)
    current: int | None = None  # last round's target, if it may keep it
    hasty: bool = False         # takes a foe within reach first
    rear: bool = False          # behind its side's front
    moved: int = 0
    toward: int = 0             # moved towards its goal (+1) or away (-1)
    missile_charge: bool = False
    charging: bool = False
    contact: bool = False       # its target is within reach and in the foe's front line
    ring: bool = False          # attacks from the front line ...
    through: bool = False       # ... or from a rear row with a spear or polearm
    bonus: int = 0              # its rank among its target's attackers
    angle: int = FROM_FRONT
    flanked: bool = False
    holes: int = 0              # sides open beside it in its line (a man down there)
    held: int = -1              # the weapon in hand (Fighter.weapon_id; -1: none yet)

    @property
    def allowed(self) -> bool:
        return self.ring or self.through

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


# --- 1. rows and targets -----------------------------------------------------------------------


def mark_rows(combat: Combat) -> None:
    """Lab reading of the seed's formation rows: a side's front is as wide as its first row;
    its standing fighters, by row and then scenario order, fill the front and the rest stand
    behind, stepping up as the front falls. A side all in one row has no rear."""
    fs = combat.fighters
    for me in fs:
        me.rear = False
    for side in {me.fighter.side for me in fs}:
        mine = [me for me in fs if me.fighter.side == side]
        if len({me.fighter.row for me in mine}) < 2:
            continue
        front_row = min(me.fighter.row for me in mine)
        width = sum(1 for me in mine if me.fighter.row == front_row)
        up = sorted((me for me in mine if me.standing), key=lambda m: (m.fighter.row, m.index))
        for place, me in enumerate(up):
            me.rear = place >= width


def mark_holes(combat: Combat) -> None:
    """Seed, Formation vs melee: "Once they take a man down they may move in and engage in
    melee combat". In a side with secured flanks (``rules.holes``), each man of the first
    row holds a file of the line, the men behind take the files of those who fall, in
    order; a file left empty is a hole, and the men beside it have that side open
    (``rules.tables.open_sides``)."""
    fs = combat.fighters
    for me in fs:
        me.holes = 0
    if not combat.fight.rules.holes:
        return
    for side in {me.fighter.side for me in fs}:
        mine = sorted((me for me in fs if me.fighter.side == side),
                      key=lambda m: (m.fighter.row, m.index))
        width = sum(1 for me in mine if me.fighter.row == mine[0].fighter.row)
        if width < 2 or not mine[0].fighter.flanks_secured:
            continue
        sides = open_sides(np.array([[me.standing] for me in mine]), width)
        for me, open_ in zip(mine, sides[:, 0], strict=True):
            me.holes = int(open_)

def is_foe(me: FighterState, other: FighterState) -> bool:
    return other.fighter.side != me.fighter.side


def in_front(other: FighterState) -> bool:
    """Can be fought in contact: standing, and not behind its side's front."""
    return other.standing and not other.rear


def choose_targets(combat: Combat, rng: np.random.Generator) -> None:
    """Seed, Group fights, as the lab reads it (docs/rules/ymlad.md):

    * in close combat, only the partner (seed, Close);
    * a missile user with shots and no foe in reach (or behind its own front) shoots at any
      standing foe, any number on one target;
    * everyone else picks a foe in the front line: at most six on one (a close-combat partner
      counting), twelve when those past six wield spears or polearms; behind the front only
      spears and polearms reach; the others wait;
    * targets are kept until they fall; ``first`` (and a missile user run down) takes a foe in
      reach before any other, and gives up a target out of reach for one within it.
    """
    fs = combat.fighters
    mark_rows(combat)
    mark_holes(combat)
    shooters, fighters = [], []
    for me in fs:
        previous, me.target, me.current = me.target, None, None
        if not me.standing:
            continue
        if me.close_with is not None:
            me.target = me.close_with
            continue
        foe_near = any(is_foe(me, o) and in_front(o) and in_reach(me, o, combat) for o in fs)
        run_down = me.shooter and foe_near and not me.rear
        me.hasty = me.fighter.target in (FIRST, ENGAGE) or run_down
        if previous is not None:
            old = fs[previous]
            keeps_near = in_front(old) and in_reach(me, old, combat)
            if not (me.hasty and foe_near and not keeps_near):
                me.current = previous
        if me.shooter and not run_down:
            shooters.append(me)
        elif not me.rear or me.fighter.reach_through:
            fighters.append(me)
    engaged = {o.index: int(o.close_with is not None) for o in fs}
    assign(fighters, in_front, lambda o: places(o)[0] - engaged[o.index], combat, rng)
    first_pass = Counter(me.target for me in fighters if me.target is not None)
    waiting = [me for me in fighters if me.target is None and me.fighter.polearm]
    assign(waiting, in_front, lambda o: places(o)[1] - engaged[o.index]
           - first_pass[o.index], combat, rng)
    assign(shooters, lambda o: o.standing, None, combat, rng)
    for me in fs:
        me.goal = me.target
        if me.standing and me.target is None:
            foes = [o for o in fs if is_foe(me, o) and o.standing]
            near = best(foes, lambda o, me=me: abs(o.pos - me.pos), rng)   # ties at random
            me.goal = near.index if near is not None else None


def places(o: FighterState) -> tuple[int, int]:
    """Places round ``o`` for attackers with any weapon, and in all (seed, Group fights: six,
    twelve with spears; with flanks secured only the front: three, in formation style one
    right in front and two to its sides for spears and polearms; beside a hole in its line
    three in front and one more per hole)."""
    f = o.fighter
    return attacker_places(f.flanks_secured and not f.flanked, f.contact_style == FORMATION,
                           o.holes)


def assign(choosers: list[FighterState], can_target: Callable[[FighterState], bool],
           cap: Callable[[FighterState], int] | None, combat: Combat,
           rng: np.random.Generator) -> None:
    """Choosers keep their targets while those can be targeted and are under their cap;
    then the others pick under their policies. Both in the engine's choosing order
    (``balance.engine.targeting_scalar.choosing_order``: random unless all are ``first``;
    the kernel keeps in scenario order unless a policy counts attackers, so the same here)."""
    fs = combat.fighters
    count: Counter[int] = Counter()

    def room(o: FighterState) -> bool:
        return cap is None or count[o.index] < cap(o)

    policies = [me.fighter.target for me in choosers]
    order = choosing_order(choosers, policies, rng) if any(p in COUNTING for p in policies) \
        else None
    for me in order or choosers:
        if me.current is not None and can_target(fs[me.current]) and room(fs[me.current]):
            me.target = me.current
            count[me.current] += 1
    free = [me for me in (order or choosers) if me.target is None]
    if order is None:
        free = choosing_order(free, [me.fighter.target for me in free], rng)
    for me in free:
        foes = [o for o in fs if is_foe(me, o) and can_target(o) and room(o)]
        if me.hasty:
            foes = [o for o in foes if in_reach(me, o, combat)] or foes
        if foes:
            aims = {o.index: o.target for o in choosers}
            me.target = pick(me, foes, count, rng, aims)
            count[me.target] += 1


def pick(me: FighterState, foes: list[FighterState], count: Counter,
         rng: np.random.Generator, aims: dict[int, int | None] | None = None) -> int:
    """The foe ``me``'s policy picks; ties at random (``targeting_scalar.best``). ``aims``:
    the targets of this call's choosers so far (``engage``)."""
    policy = me.fighter.target
    aims = aims or {}
    keys: dict[int, Callable[[FighterState], object]] = {
        ENGAGE: lambda o: engage_key(me.index, aims.get(o.index), count[o.index],
                                     abs(o.pos - me.pos)),
        RANDOM: lambda o: 0,
        FIRST: lambda o: o.index,
        WEAKEST: lambda o: o.fighter.down_at - o.harm,       # fewest points left standing
        DANGEROUS: lambda o: -(danger(o.fighter) + o.penalty),
        NEAREST: lambda o: abs(o.pos - me.pos),
        SPREAD: lambda o: count[o.index],
        FIXED: lambda o: me.fighter.priority[o.index],
    }
    return best(foes, keys[policy], rng).index


# --- 2. movement ------------------------------------------------------------------------------


def movement(me: FighterState, foe: FighterState, combat: Combat) -> float:
    """Signed distance ``me`` moves towards ``foe`` this round (negative: away).

    Seed, Missile: a missile user keeps its distance and shoots; others run up to reach it.
    Lab: a shooter walks in until the foe is within its preferred band (``far``) and backs off
    from a foe nearer than ``keep_at``; running speed comes from body size. Seed, Charge: a
    missile user with ``policy.charge`` makes one missile charge (sets ``missile_charge``).
    """
    f = me.fighter
    gap = abs(foe.pos - me.pos)
    if gap <= combat.reach:
        return 0.0
    if me.shooter:
        if missile_charge_possible(me, gap, combat):
            me.missile_charge = True
            stop = max(f.keep_at, combat.fight.rules.contact) + MISSILE_CHARGE_STOP
            return min(f.speed, gap - stop)
        want = -(f.keep_at - gap) if gap < f.keep_at else max(gap - f.far, 0.0)
    else:
        want = max(gap - combat.fight.rules.contact, 0.0)
    return max(-f.speed, min(f.speed, want))


def missile_charge_possible(me: FighterState, gap: float, combat: Combat) -> bool:
    """Seed, Charge: "a missile user will not run all the way up to a defender, just enough
    to gain extra speed and power, fire / shoot, then stop". Lab: once (like any charge),
    loaded, when a full run that stops ``MISSILE_CHARGE_STOP`` m beyond reach (and no nearer
    than ``keep_at``) covers more than half its speed and ends within range."""
    f = me.fighter
    if not (f.charge and combat.fight.rules.moving_shots) or me.charged or me.reload:
        return False
    stop = max(f.keep_at, combat.fight.rules.contact) + MISSILE_CHARGE_STOP
    after = max(gap - f.speed, stop)
    return gap - after > f.speed / 2 and after <= f.missile.max


def move_all(combat: Combat, rng: np.random.Generator) -> None:
    """Everyone moves, one after another (lab), so two runners meet rather than pass; in a
    random order each round (``targeting_scalar.shuffled``), never listing order."""
    for me in shuffled(combat.fighters, rng):
        me.moved, me.toward, me.missile_charge = 0, 0, False
        if not me.standing or me.goal is None or me.close_with is not None:
            continue
        foe = combat.fighters[me.goal]
        distance = movement(me, foe, combat)
        direction = 1.0 if foe.pos >= me.pos else -1.0
        me.pos += direction * distance
        me.charged |= me.missile_charge
        if distance:
            me.moved = 2 if abs(distance) > me.fighter.speed / 2 else 1
            me.toward = 1 if distance > 0 else -1


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
                and other.fighter.contact_style == CLOSE and me.contact and not me.rear):
            me.close_with, other.close_with = other.index, me.index


def group_attackers(combat: Combat, rng: np.random.Generator) -> None:
    """Seed, Group fights: the attackers on one fighter, counted in a random order each round
    (lab, ``targeting_scalar.attacker_ranks``; never listing order): the second
    gets +1 melee effort, the third +2, and so on; the first three come from the front, the
    next two from the flanks, any more from behind (lab). A fighter facing more than three is
    outflanked: no formation fighting for it. Attackers from a rear row reach through their
    front and are not in the ring."""
    fs = combat.fighters
    for me in fs:
        t = fs[me.target] if me.standing and me.target is not None else None
        me.contact = t is not None and in_reach(me, t, combat) and not t.rear
        me.ring = me.contact and not me.rear
        me.through = me.contact and me.rear and me.fighter.reach_through
    for me in fs:
        me.bonus, me.angle = 0, FROM_FRONT
    for t in fs:
        ring = [o for o in fs if o.ring and o.target == t.index]
        for me, rank in zip(ring, attacker_ranks(len(ring), rng), strict=True):
            me.bonus = group_bonus(rank)
            me.angle = int(ring_angle(rank, combat.fight.rules.ring))
    for me in fs:
        facing = sum(1 for o in fs if o.ring and o.target == me.index)
        # Seed, Formation: outflanked; Formation vs melee: beside a hole in its line.
        me.flanked = me.fighter.flanked or outflanked(facing) or me.holes > 0


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
    near = gap <= combat.reach and (engaged or not foe.rear)   # a rear row is out of reach
    # From behind its own front a missile user shoots over it.
    # Seed, Mounted combat and Charge: shooting in a round it moved (rules.moving_shots).
    still = me.moved == 0 or combat.fight.rules.moving_shots
    shoot = ((not near or me.rear) and me.shooter and me.reload == 0 and still
             and gap <= f.missile.max)
    if not shoot and not (near and (engaged or me.allowed)):
        return
    through = me.through and not engaged and not shoot
    rules = combat.fight.rules
    # Seed, Formation: "the charge with lance of a knight from horseback ... ensures that at
    # least the first attack will be a formation attack".
    lance = not shoot and not engaged and bool(formation_by_charge(
        me.charging and f.lance_charge,
        foe.charging and foe.fighter.lance_charge and foe.target == me.index,
        rules.lance_charge))
    if shoot:
        style = MISSILE
    elif engaged:
        style = CLOSE
    elif through or lance:
        style = FORMATION     # lab: a rear row reaches through its front in formation style
    else:
        style = pair_style(me, foe)
    closing = not shoot and not engaged and f.contact_style == CLOSE \
        and snap.close_with[t] is None and not through and not lance
    # Seed, Close: held, it "can engage in close combat too, or try to disengage".
    disengaging = engaged and f.contact_style != CLOSE and not fights_back_at(f, foe.fighter)
    # Taking up this style's weapon (rules.weapon_switch: attack, it takes the attack).
    wanted = f.weapon_id[style]
    switching = bool(switch_costs_attack(me.held, wanted, rules.switch_attack))
    me.held = wanted
    if switching:
        return

    # Seed, Height: no mount's height "when shooting arrows tens of meters away".
    saddle = style != MISSILE or bool(saddle_counts(gap, rules.saddle_always,
                                                    rules.saddle_near))
    e = effort(f, style) + height_bonus(f, foe.fighter, style, saddle) + snap.penalty[me.index]
    # Seed, Group fights and Angle: the fourth and fifth on a fighter come at its flanks,
    # any more from behind (lab).
    angle = me.angle if style in (FORMATION, MELEE) else FROM_FRONT
    r = angled_resistance(foe.fighter, style, angle)
    if style != MISSILE:
        r += snap.penalty[t]   # missile resistance holds no skill, so no harm penalty
    if style == MELEE:
        e += me.bonus
    if disengaging and rules.room_to_retreat and snap.grapple[me.index] == 0:
        e += DISENGAGE_BONUS
    band = 0
    if shoot:
        band = int(shot_band(range_band(gap, f.missile.close, f.missile.medium),
                             f.missile.band_shift, me.missile_charge, me.toward < 0))
        if f.mounted:
            e += int(mounted_pace_penalty(f.mounted_missile, me.moved))
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
    release(me)
    release(foe)


def inflict(foe: FighterState, kind: int, harm: int, combat: Combat) -> None:
    """Harm on the track (seed, Harm effects) and whether the fighter goes down or dies.

    Seed: for grappling "'dead' means not yet dead but suffocating towards death; 'wasted'
    means mangled and strangled to death": grappling harm kills only at the wasted level.
    """
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
    if foe.body >= f.dead_at or foe.grapple >= f.wasted_at:
        foe.status = DEAD
    elif foe.harm >= f.down_at:
        foe.status = max(foe.status, UNCONSCIOUS)
    if was_standing and not foe.standing:
        if pinned(foe):
            # Held down by its partner's grip, which stays; its own grip on him is gone.
            release(combat.fighters[foe.close_with])
        else:
            let_go(foe, combat)


def pinned(me: FighterState) -> bool:
    """Down, not dead, only through grappling harm, and held by its close-combat partner."""
    return (me.close_with is not None and me.status == UNCONSCIOUS
            and me.body + me.brief < me.fighter.down_at)


def release(me: FighterState) -> None:
    """Seed, Grappling: harm "instantly ... dissolved when a grip is released"; one who was
    only pinned stands up again."""
    me.grapple = 0
    if me.status == UNCONSCIOUS and me.harm < me.fighter.down_at:
        me.status = STANDING


def let_go(out: FighterState, combat: Combat) -> None:
    """A fighter who is out (or leaves) releases its close-combat partner: the grappling harm
    it caused dissolves, and a partner it had pinned gets up again."""
    if out.close_with is not None:
        partner = combat.fighters[out.close_with]
        partner.close_with = None
        release(partner)
        out.close_with = None


# --- the round and the fight -----------------------------------------------------------------


def play_round(combat: Combat, rng: np.random.Generator) -> None:
    fs = combat.fighters
    choose_targets(combat, rng)
    was_out = {me.index: me.target is not None and not in_reach(me, fs[me.target], combat)
               for me in fs}
    move_all(combat, rng)
    group_attackers(combat, rng)
    engage_both_close(combat)
    for me in fs:
        me.charging = (me.fighter.charge and not me.charged and me.standing and was_out[me.index]
                       and me.contact and not me.rear)
        me.charged |= me.charging
    # Seed, Rounds: one attack each a round. Who has had its turn, or spent its attack on a
    # parting blow, is ``spent``.
    spent: set[int] = set()
    for group in initiative(combat, any(me.charging for me in fs), rng):
        snap = snapshot(combat)
        for i in group:
            if snap.status[i] == STANDING and fs[i].target is not None and i not in spent:
                act(fs[i], combat, snap, rng)
        spent |= set(group)
        react(combat, rng, spent)
    end_of_round(combat)


def end_of_round(combat: Combat) -> None:
    """Reloading ticks."""
    for me in combat.fighters:
        me.reload = max(me.reload - 1, 0)


def react(combat: Combat, rng: np.random.Generator, spent: set[int] | None = None) -> None:
    """After each group of equal initiative, while some foe still stands: fighters whose
    harm reached their ``yield_at`` give up and those at their ``flee_at`` run away (the
    lower level first; a tie yields); then each side whose share of fighters down reached
    its ``breaks_at`` breaks and all of it still standing runs. ``spent``: fighters whose
    attack this round is used (default: nobody's)."""
    fs = combat.fighters
    spent = set() if spent is None else spent
    yields, runs = [], []
    for me in fs:
        if not me.standing or not any(is_foe(me, o) and o.standing for o in fs):
            continue
        f = me.fighter
        give_up, run = me.harm >= f.yield_at, me.harm >= f.flee_at
        if run and not (give_up and f.yield_at <= f.flee_at):
            runs.append(me)
        elif give_up:
            yields.append(me)
    for me in yields:
        me.status = YIELDED
        let_go(me, combat)
    run_away(runs, combat, rng, spent)
    for me in runs:
        if me.standing:
            me.status = FLED
    broken = routing_sides(combat, rng)
    fleeing = [me for me in fs if me.standing and me.fighter.side in broken]
    run_away(fleeing, combat, rng, spent)
    for me in fleeing:
        if me.standing:
            me.status = FLED


def routing_sides(combat: Combat, rng: np.random.Generator) -> set[int]:
    """The sides that break: once the share of a side's fighters down reaches its
    ``breaks_at``, while a foe stands; if every side standing breaks at once, the one least
    far past its point holds (``balance.engine.morale.routing_sides_scalar``)."""
    sides = range(len(combat.fight.breaks_at))
    mine = [[me for me in combat.fighters if me.fighter.side == k] for k in sides]
    return routing_sides_scalar([len(m) for m in mine],
                                [sum(1 for me in m if not me.standing) for m in mine],
                                [any(me.standing for me in m) for m in mine],
                                list(combat.fight.breaks_at), rng)


def run_away(fleers: list[FighterState], combat: Combat, rng: np.random.Generator,
             spent: set[int]) -> None:
    """Fighters turn to run, one after another in a random order (lab, never listing order:
    ``targeting_scalar.shuffled``; the seed gives no free attacks). One holding a pinned foe
    lets go of it; one held in close combat must disengage first (seed, Close: +4 with room
    to retreat and free of grappling harm), or it is pinned and gives up. Then every foe that
    attacks it from the front line this round, still standing, not in close combat and with
    its one attack of the round (seed, Rounds) not yet spent, strikes once at its back, in a
    random order, spending it: a melee attack from the rear (seed, Angle), no group bonus,
    with its melee weapon (``rules.weapon_switch: attack``: taking it up takes the blow);
    once it falls the others keep their attack. ``rules.parting_blows: one`` lets only the
    first of them strike (a uniform pick), ``none`` nobody."""
    fs = combat.fighters
    rules = combat.fight.rules
    for me in shuffled(fleers, rng):
        if not me.standing:
            continue
        if me.close_with is not None and not fs[me.close_with].standing:
            let_go(me, combat)      # it lets go of a foe it had pinned, who gets up again
        if me.close_with is not None:
            partner = fs[me.close_with]
            e = effort(me.fighter, CLOSE) + me.penalty
            if rules.room_to_retreat and me.grapple == 0:
                e += DISENGAGE_BONUS
            r = resistance(partner.fighter, CLOSE) + partner.penalty
            if succeeds(margin(e, r, throw_drift(rng))):
                disengage(me, partner, combat)
            else:
                me.status = YIELDED
                let_go(me, combat)
                continue
        if rules.parting_blows == "none":
            continue
        strikers = [o for o in fs if o.ring and o.target == me.index and o.standing
                    and o.close_with is None and o.index not in spent]
        for other in shuffled(strikers, rng):
            if not me.standing:
                break
            spent.add(other.index)
            o = other.fighter
            wanted = o.weapon_id[MELEE]
            switching = bool(switch_costs_attack(other.held, wanted, rules.switch_attack))
            other.held = wanted
            if switching:       # taking up its melee weapon takes the blow's time
                if rules.parting_blows == "one":
                    break
                continue
            e = effort(o, MELEE) + height_bonus(o, me.fighter, MELEE) + other.penalty
            r = angled_resistance(me.fighter, MELEE, FROM_REAR) + me.penalty
            if succeeds(margin(e, r, throw_drift(rng))):
                m, kind = harm_margin(o, me.fighter, MELEE, 0, False, rules.hardness)
                harm = harm_done(margin(m, 0, throw_drift(rng)))
                if harm:
                    inflict(me, kind, harm, combat)
            if rules.parting_blows == "one":
                break


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
