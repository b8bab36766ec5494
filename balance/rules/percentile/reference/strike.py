"""The scalar reference's fighter state and blows: chances, rolls, defences, damage, fumbles.

Part of the readable reference (``reference/fight.py`` has the round). One function per rule step
of docs/rules/percentile.md, "A blow"; every roll is made here with literal dice.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from balance.dice import parse
from balance.dice.resistance import resistance_chance
from balance.engine.distance import start_positions
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.rules.percentile.compile import (
    BREAK,
    DB_HALF,
    DB_NONE,
    DODGE,
    DROP,
    FALL,
    FIST,
    HIT_SELF,
    LOSE_ATTACK,
    MAIN,
    MELEE,
    NO_DEFENCE,
    OFF,
    PARRY,
    SIDE,
    UNBREAKABLE,
    Fighter,
    FightRules,
    Item,
    PercentileFight,
    off_hand_parries,
    resistance_table,
)
from balance.rules.percentile.rules import tables as tb
from balance.rules.percentile.rules.damage import is_dice, roll_dice

STRIKE, KNOCKBACK, DISARM, ENTANGLE = 0, 1, 2, 3


def d100(rng: np.random.Generator) -> int:
    """Percentile dice."""
    return int(rng.integers(1, 101))


# --- state -------------------------------------------------------------------------------


@dataclass
class FighterState:
    """One fighter's changing state; its fixed numbers are in ``f``."""

    index: int
    f: Fighter
    pos: float
    hp: int = 0
    status: int = STANDING
    down: bool = False
    stunned: bool = False
    mounted: bool = False
    wield: int = MAIN                 # the item in hand for attacks
    item_ok: list[bool] = field(default_factory=list)
    item_hp: list[int] = field(default_factory=list)
    ammo: int = 0
    reload_left: int = 0
    entangled: bool = False
    held_until: int = 0               # entangled: held through this round
    netted: bool = False              # entangled by a thrown net (a knife can cut it)
    armour_damaged: bool = False      # armour partly destroyed: its roll halved
    forfeit: bool = False             # no attack this round (extra attack, fumble)
    forfeit_next: bool = False
    no_parry: bool = False            # dropped weapon: no parry this round
    no_parry_next: bool = False
    draw_pending: bool = False        # five DEX ranks owed to draw the new weapon
    loose: list[bool] = field(default_factory=lambda: [False] * 4)   # disarmed, on the ground
    no_draw: bool = False             # a disarm keeps it from drawing another weapon
    defences: int = 0                 # parries and dodges made this round
    volleyed: int = 0                 # rounds of volley fire so far
    # this round
    target: int | None = None
    moved: float = 0.0
    backed: bool = False              # moved away from its target this round
    charging: bool = False
    bracing: bool = False
    key: int = 0
    aim_steps: int = 0
    attacked: bool = False
    tiebreak: float = 0.0             # this round's order among equal DEX ranks (higher first)
    flank: bool = False               # strikes its target from the side this round
    major: bool = False               # has taken a major wound
    wake_at: int = 0                  # knocked out: comes to in this round (0: not waking)
    surprised: bool = False           # caught by an ambush: no action, no defence (round 1)
    airborne: bool = False            # aloft before its pounce (the pouncing stick)
    poison_doses: int = 0             # doses left on the main weapon
    poison_hp: int = 0                # poison loss still to come (rules.poison_onset: table)
    poison_at: int = 0                # ... in this round (0: none)
    rising: bool = False              # down at the round's start, its defence spent standing
    inside: int | None = None         # the foe whose longer weapon it got inside (hold off)

    @property
    def side(self) -> int:
        return self.f.side

    @property
    def standing(self) -> bool:
        return self.status == STANDING

    def item(self, slot: int | None = None) -> Item:
        return self.f.items[self.wield if slot is None else slot]

    def spear_set(self) -> bool:
        """Braced with a thrusting long weapon: set against a charge."""
        item = self.item()
        return self.bracing and item.kind == MELEE and item.thrusting and item.length == tb.LONG

    def can_strike(self) -> bool:
        """Able to swing this instant (for free attacks and ripostes)."""
        return (self.standing and not self.stunned and not self.entangled
                and not self.surprised and self.item().kind == MELEE
                and not (self.down and self.item().two_handed))

    def fall(self) -> None:
        """Falls down; a rider is thrown from the saddle (seed 004)."""
        self.down = True
        self.mounted = False


@dataclass
class Combat:
    """Everyone in one fight, in scenario order, with the fight's numbers."""

    fighters: list[FighterState]
    fight: PercentileFight
    round_no: int = 0

    @property
    def rules(self) -> FightRules:
        return self.fight.rules

    @property
    def levels(self) -> tb.Levels:
        return self.fight.levels

    @classmethod
    def start(cls, fight: PercentileFight) -> Combat:
        """Fresh states: full hit points, side positions, items in hand."""
        pos = start_positions(fight.side_of, list(fight.side_distance))
        states = []
        for i, f in enumerate(fight.fighters):
            states.append(FighterState(
                index=i, f=f, pos=float(pos[i]), hp=f.hp, down=f.starts_down,
                mounted=f.mounted, item_ok=[it.present for it in f.items],
                armour_damaged=f.armour_damaged, airborne=f.pounce,
                item_hp=[it.hp for it in f.items], ammo=f.ammo,
                poison_doses=f.poison_doses))
        return cls(states, fight)

    def exhausted(self, s: FighterState, round_no: int) -> bool:
        """Seed 004, fatigue (when declared): exhausted after CON x 10 rounds."""
        return self.rules.fatigue and bool(rule(tb.exhausted, round_no, s.f.CON))

    def fumble_multiplier(self, s: FighterState, round_no: int) -> int:
        """Seed 004: fatigue doubles or quadruples fumbles; underwater doubles them."""
        mult = rule(tb.fatigue_fumble_multiplier, round_no, s.f.CON) if self.rules.fatigue else 1
        return mult * (2 if s.f.underwater else 1)


def gap(a: FighterState, b: FighterState) -> float:
    return abs(a.pos - b.pos)


def engaged(a: FighterState, b: FighterState, combat: Combat) -> bool:
    """Within touching distance: the exchange is hand to hand (seed 004)."""
    return gap(a, b) <= combat.rules.reach + 1e-6


@functools.lru_cache(maxsize=1 << 16)
def rule(fn, *args) -> int:
    """A shared table function on plain numbers, as an int, remembered: the reference asks
    the same few questions again and again, and numpy on scalars is slow."""
    return int(fn(*args))


@functools.lru_cache(maxsize=1 << 12)
def thresholds(chance: int, levels: tb.Levels, multiplier: int) -> tuple[int, int, int, int]:
    """(critical, special, success, fumble) ranges of a chance, from the shared tables
    (cached: the reference meets the same few chances again and again)."""
    return (int(tb.critical_range(chance, levels)), int(tb.special_range(chance, levels)),
            int(tb.success_range(chance, levels)),
            int(tb.fumble_range(chance, levels, multiplier)))


def level_from_roll(roll: int, chance: int, levels: tb.Levels, multiplier: int = 1) -> int:
    """The success level of one d100 roll (the tables' ``success_level``, for one int)."""
    critical, special, success, fumble = thresholds(chance, levels, multiplier)
    if roll <= critical:
        return tb.CRITICAL
    if roll <= special:
        return tb.SPECIAL
    if roll <= success:
        return tb.SUCCESS
    return tb.FUMBLE if roll > 100 - fumble else tb.FAILURE


def percentile_roll(combat: Combat, chance: int, *, rng: np.random.Generator) -> bool:
    """A plain percentile roll (characteristic x N, Dodge): success or better."""
    return d100(rng) <= thresholds(int(chance), combat.levels, 1)[2]


def entangle_item(s: FighterState) -> int | None:
    """The entangling item a fighter with policy ``entangle`` throws or lashes first: the off
    hand's (a net), else the main weapon's (a whip); None if it has none left."""
    if not s.f.entangle:
        return None
    for slot in (OFF, MAIN):
        if s.item_ok[slot] and s.f.items[slot].entangles and not s.f.items[slot].shield:
            return slot
    return None


# --- weapons in hand -----------------------------------------------------------------------


def fall_back(s: FighterState) -> None:
    """The weapon in hand is gone: fight on with the off-hand weapon (already in hand; seed
    004: two weapons give a backup), else draw the sidearm (five DEX ranks unless 101%+),
    else fists."""
    off = s.f.items[OFF]
    s.draw_pending = False
    if s.wield != OFF and s.item_ok[OFF] and not off.shield and off.kind == MELEE \
            and not off.entangles:
        s.wield = OFF
    elif s.wield != SIDE and s.item_ok[SIDE] and not s.no_draw:
        s.wield = SIDE
        s.draw_pending = not s.f.items[SIDE].draw_free
    else:
        s.wield = FIST


def break_item(s: FighterState, slot: int) -> None:
    """An item breaks (seed 004: parries and fumbles break weapons)."""
    if slot == FIST or s.f.items[slot].hp >= UNBREAKABLE:
        return
    s.item_ok[slot] = False
    if slot == s.wield:
        fall_back(s)


def disarm(t: FighterState) -> None:
    """Seed 004: disarming "takes an opponent's weapon out of their hand and ... keeps them
    from drawing a second one". The weapon lies on the ground; the fighter fights on with an
    off-hand weapon already in hand, else bare-handed, and (policy ``retrieve``) may spend
    an action picking it up."""
    t.no_draw = True
    lose_weapon(t, t.wield)


def lose_weapon(t: FighterState, slot: int) -> None:
    """The weapon in ``slot`` is knocked or wrenched onto the ground (a disarm, or an
    entangling weapon's wrench); if it was in hand, the fighter falls back on another."""
    t.item_ok[slot] = False
    t.loose[slot] = True
    if slot == t.wield:
        fall_back(t)


def switch_to_melee(s: FighterState) -> None:
    """Seed 004: at touching distance missile combat becomes hand to hand; the shooter drops
    the missile weapon and draws a sidearm (this round's five DEX ranks) or fights bare."""
    s.item_ok[s.wield] = False
    fall_back(s)


# --- chances -------------------------------------------------------------------------------


def level_of(x: FighterState) -> int:
    """Height for seed 004's superior position: a rider counts as higher."""
    return max(-1, min(1, x.f.level + (1 if x.mounted else 0)))


def situational_skill(s: FighterState, item: Item, skill: int, *, noisy: bool,
                      smelly: bool = False, weapon: bool = True) -> int:
    """A skill in this fighter's situation: for a weapon (or shield), Ride caps it and an
    undeployable weapon (or a non-thrusting one underwater) is at a quarter; then the light
    (a Dodge, ``weapon=False``, only feels the light)."""
    if weapon and s.mounted:
        skill = rule(tb.rider_skill, skill, s.f.ride)
    if weapon and (not rule(tb.deployable, item.width, item.space, s.f.clearance, s.f.depth)
                   or (s.f.underwater and not item.thrusting)):
        skill = rule(tb.quarter, skill)
    if s.f.light == tb.BRIGHT:
        return skill
    return rule(tb.light_skill, skill, s.f.light, s.f.search, s.f.INT, s.f.POW, s.f.listen,
                noisy, weapon, s.f.scent, smelly)


def melee_chance(s: FighterState, t: FighterState, slot: int, combat: Combat) -> int:
    """Attack chance in hand to hand: skill in the situation, height and fighting while
    down, then cover (partial or full) halves it (seed 004); a blow at one's target from
    its side adds ``rules.side_attack_bonus`` (``reference.groups.side_attacks``)."""
    item = s.item(slot)
    chance = situational_skill(s, item, item.attack, noisy=t.f.noisy, smelly=t.f.smelly)
    chance += rule(tb.height_modifier, level_of(s), level_of(t), item.length, t.item().length)
    chance += rule(tb.down_modifier, s.down, t.down)
    if t.f.cover:
        chance = rule(tb.ceil_div, chance, 2)
    if s.flank and s.target == t.index:
        chance += combat.rules.side_attack_bonus
    return chance


def missile_chance(s: FighterState, t: FighterState, slot: int, divisor: int) -> int:
    """Missile chance: skill in the situation, angle and target SIZ (before range, as the
    seed says), then range band, point blank, volley and partial cover as one fraction
    rounded up; careful aim adds 10% a step of that; a small part halves it (aim in full)."""
    item = s.item(slot)
    chance = situational_skill(s, item, item.attack, noisy=t.f.noisy, smelly=t.f.smelly)
    chance += rule(tb.angle_modifier, s.f.level, t.f.level, s.f.steep)
    chance += rule(tb.target_size_modifier, t.f.SIZ)
    num = 2 if rule(tb.point_blank, gap(s, t), s.f.DEX) else 1
    den = divisor * (3 if s.f.volley else 1) * (2 if t.f.cover else 1)
    chance = rule(tb.ceil_div, chance * num, den)
    bonus = rule(tb.aim_bonus, chance, s.aim_steps, gap(s, t), item.range) if s.aim_steps else 0
    if s.f.small_part:
        chance = rule(tb.ceil_div, chance, 2)
    return chance + bonus


def roll_level(s: FighterState, chance: int, combat: Combat, *,
               rng: np.random.Generator) -> int:
    return level_from_roll(d100(rng), int(chance), combat.levels,
                           combat.fumble_multiplier(s, combat.round_no))


def unable_to_resist(t: FighterState, combat: Combat) -> bool:
    """Seed 004's "a target unable to resist": which states count is the rule option
    ``unable_to_resist`` (``rules.tables.unable_to_resist``): exhausted (fatigue: it cannot even
    lift a sword) and surprised (round 1 of an ambush) by default, held by an entangle on
    request."""
    return bool(tb.unable_to_resist(combat.exhausted(t, combat.round_no), t.surprised,
                                    t.entangled, combat.rules.helpless))


def against_the_helpless(t: FighterState, level: int, combat: Combat) -> tuple[int, bool]:
    """Seed 004: "a target unable to resist is hit automatically; a fumble ... still does
    only the weapon's minimum damage" (``unable_to_resist``). Returns (level, minimum
    damage only): a miss becomes a hit, a fumble a hit for the weapon's minimum."""
    if level >= tb.SUCCESS or not unable_to_resist(t, combat):
        return level, False
    return tb.SUCCESS, level == tb.FUMBLE


# --- defence -------------------------------------------------------------------------------


def parry_slot(t: FighterState) -> int | None:
    """What the defender parries with: the off hand (shield, or the second weapon of a
    two-weapon fighter) or the weapon in hand, whichever can (a shield is useless
    underwater); when both can, the one policy ``parry_with`` names (default ``off_hand``;
    ``best``: the higher parry chance, the off hand on a tie)."""
    off = t.f.items[OFF]
    off_ok = t.item_ok[OFF] and off.can_parry and not (off.shield and t.f.underwater)
    own_ok = t.item_ok[t.wield] and t.item().can_parry
    if off_ok and own_ok:
        return OFF if off_hand_parries(t.f.parry_with, off.parry, t.item().parry) else t.wield
    return OFF if off_ok else t.wield if own_ok else None


def defend(t: FighterState, level: int, combat: Combat, *, parriable: bool, dodgeable: bool,
           rng: np.random.Generator, entangle: bool = False,
           excess: int = 0) -> tuple[int, int | None, int]:
    """The defender's parry or dodge against a successful attack (one a round by default).

    Returns (the level the blow lands at, FAILURE if stopped; the slot that parried, or
    None; the parry's level, FAILURE if none). Which defence stops which attack is the
    parry matrix (``rules.tables.blow_after_defence``, rule ``parry_matrix``): ``elric``, any
    successful defence, but a critical only a critical one; ``brp``, a defence one level
    short only partly stops it (it lands a level lower). An attack chance over 100 takes
    its excess off the parry or dodge (``excess``; the BRP family's rule, option). Against
    an entangling attack seed 004 rules itself: "a successful Dodge ... negates an
    entangling attempt; a critical parry negates a critical entangle, though an ordinary
    parry does nothing against one". A fumbled parry draws on the fumble table; a fumbled
    dodge is a fall. No defence is left to a fighter getting up (``rising``) or unable to
    resist.
    """
    if (not t.standing or t.defences >= combat.rules.defences
            or combat.exhausted(t, combat.round_no) or t.surprised or t.rising
            or unable_to_resist(t, combat)):
        return level, None, tb.FAILURE
    slot = parry_slot(t) if parriable and not t.no_parry else None
    can_dodge = dodgeable and not t.down
    choice = t.f.defence
    if choice == PARRY:
        use = "parry" if slot is not None else None
    elif choice == DODGE:
        use = "dodge" if can_dodge else None
    elif choice == NO_DEFENCE:
        use = None
    else:
        use = "parry" if slot is not None else "dodge" if can_dodge else None
    if use is None:
        return level, None, tb.FAILURE
    if use == "parry":
        item = t.item(slot)
        chance = situational_skill(t, item, item.parry, noisy=False)
    else:
        dodge = rule(tb.rider_dodge, t.f.dodge) if t.mounted else t.f.dodge
        chance = situational_skill(t, t.item(), dodge, noisy=False, weapon=False)
    # Rule option: more than one defence a round, each after the first at a penalty.
    chance -= combat.rules.extra_defence_penalty * t.defences
    chance -= excess
    t.defences += 1
    got = roll_level(t, chance, combat, rng=rng)
    if got == tb.FUMBLE:
        if use == "parry":
            fumble(t, slot, combat, rng=rng)
        else:
            fall_down(t, combat, rng=rng)
        return level, None, tb.FAILURE
    if entangle:
        after = rule(tb.blow_after_defence, level, got, tb.ELRIC, use == "dodge")
    else:
        after = rule(tb.blow_after_defence, level, got, combat.rules.parry_matrix,
                     not combat.rules.critical_needs_critical)
    parried = use == "parry" and after < level
    return after, (slot if parried else None), (got if use == "parry" else tb.FAILURE)


# --- damage --------------------------------------------------------------------------------


def roll_damage(s: FighterState, t: FighterState, slot: int, level: int, combat: Combat, *,
                missile: bool = False, rng: np.random.Generator) -> int:
    """A blow's rolled damage, before armour: the weapon (twice for an impale; halved dice
    for a pulled blow), plus the damage bonus that applies, less 1 underwater, halved beyond
    double range."""
    item = s.item(slot)
    impale = level >= tb.SPECIAL and item.thrusting
    if s.f.pull_blows:
        dice = _dice_only(item.damage, rng) + (_dice_only(item.damage, rng) if impale else 0)
        weapon = dice // 2
    else:
        weapon = roll_dice(item.damage, rng) + (roll_dice(item.damage, rng) if impale else 0)
    bonus = 0
    if s.f.pull_blows or item.db_mode == DB_NONE or (s.down and not missile):
        pass
    elif s.charging and not missile:
        bonus = roll_dice(s.f.horse_db_text, rng)   # seed 004: the horse's bonus
    elif item.db_mode == DB_HALF:
        bonus = roll_dice(s.f.half_db_text, rng)
    else:
        bonus = roll_dice(s.f.db_text, rng)
    if not missile and s.spear_set() and t.charging:
        bonus += roll_dice(t.f.horse_db_text, rng)  # seed 004: a braced spear adds it too
    total = max(0, weapon + bonus)
    if not missile and s.f.underwater and not impale:
        total = max(0, total - 1)
    if missile and rule(tb.half_damage_at, gap(s, t), item.range):
        total //= 2
    return total


def _dice_only(text: str, rng: np.random.Generator) -> int:
    """Only the dice of a damage expression, rolled (a pulled blow ignores modifiers)."""
    return sum(sign * term.roll(rng) for sign, term in parse(text).terms if is_dice(term))


def raw_harm(t: FighterState, amount: int, combat: Combat, *,
             rng: np.random.Generator) -> None:
    """Hit points lost (armour already counted): death at 0 or below; a major wound (half
    the hit points in one blow) drops the fighter, and out of the fight unless CON x
    ``rules.major_wound_roll`` is rolled (0: always out). A fighter still in the fight who
    yields at these hit points (``yield_at``) or at a major wound gives up."""
    if amount <= 0:
        return
    t.hp -= amount
    if t.hp <= 0:
        t.status = DEAD
        return
    if rule(tb.is_major_wound, amount, t.f.hp) and t.standing:
        t.fall()        # (the wound's own roll decides; no stun roll for this fall)
        t.major = True
        mult = combat.rules.major_wound_roll
        if mult == 0 or not percentile_roll(combat, mult * t.f.CON, rng=rng):
            t.status = UNCONSCIOUS
    if t.standing and (t.hp <= t.f.yield_at or (t.major and t.f.yield_major)):
        t.status = YIELDED


def wound(s: FighterState, t: FighterState, slot: int, rolled: int, level: int,
          combat: Combat, *, missile: bool = False, rng: np.random.Generator) -> None:
    """Armour (rolled or fixed; none against a critical), then the knockout rule if
    declared, else hit points; then a poisoned weapon's dose (``poison_dose``). A shot
    aimed at a small part keeps the armour: seed 004 halves its chance and says nothing of
    armour (the lab has one suit, no locations)."""
    armour = 0 if level == tb.CRITICAL else roll_dice(armour_text(t), rng)
    final = max(0, rolled - armour)
    if level == tb.CRITICAL and combat.rules.critical_damages_armour:
        t.armour_damaged = True     # seed 004: a critical could destroy a segment
    poison = poison_dose(s, t, slot, final, combat, rng=rng)
    harm(s, t, slot, final, combat, missile=missile, rng=rng)
    raw_harm(t, poison, combat, rng=rng)


def poison_dose(s: FighterState, t: FighterState, slot: int, final: int, combat: Combat, *,
                rng: np.random.Generator) -> int:
    """Hit points a poisoned blow costs (0 for most blows). Seed 004 rates poisons, not
    blades; the lab: the main weapon's first ``poison_doses`` blows that get past armour
    each use a dose, and the poison's POT is the active side against the target's CON on
    the Resistance Table: overcome, POT hit points; resisted, half the POT (as ``balance
    hazard poison``). The loss comes after the blow's own damage, as a loss of its own, or,
    with ``rules.poison_onset: table``, after the poison's onset: a poison already working
    in the target adds its loss, which comes at the earlier of the two onsets."""
    if final <= 0 or slot != MAIN or s.poison_doses <= 0:
        return 0
    s.poison_doses -= 1
    pot = s.f.poison_pot
    chance = int(tb.poison_chance(pot, t.f.CON, **resistance_table(combat.rules)))
    lost = int(tb.poison_damage(pot, d100(rng) <= chance))
    if s.f.poison_onset == 0:
        return lost
    due = combat.round_no + s.f.poison_onset
    t.poison_at = min(t.poison_at, due) if t.poison_at else due
    t.poison_hp += lost
    return 0


def harm(s: FighterState, t: FighterState, slot: int, final: int, combat: Combat, *,
         missile: bool, rng: np.random.Generator) -> None:
    """The blow's damage past armour: the knockout rule if declared, else hit points."""
    if s.f.knockout and t.f.humanoid and not missile:
        # Seed 004: major-wound damage knocks out harmlessly; less does the weapon's
        # minimum damage and may stun. "Armor defends as usual": a blow the armour stops
        # does nothing, and the minimum is never more than got through.
        if rule(tb.is_major_wound, final, t.f.hp):
            if t.standing:
                # "unconscious for at least 1D10+10 rounds": the lab wakes it after those
                t.status = UNCONSCIOUS
                t.wake_at = combat.round_no + 1 + rule(tb.knockout_rounds,
                                                       int(rng.integers(1, 11)))
            return
        if final > 0:
            raw_harm(t, min(s.item(slot).minimum, final), combat, rng=rng)
            stun_check(t, combat, rng=rng)
        return
    raw_harm(t, final, combat, rng=rng)


def stun_check(t: FighterState, combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 004: a jolt stuns on a roll above CON x 5."""
    if t.standing and not percentile_roll(combat, 5 * t.f.CON, rng=rng):
        t.stunned = True


def fall_down(s: FighterState, combat: Combat, *, rng: np.random.Generator) -> None:
    """A fall to the ground (a fumble's, a fumbled dodge's, a slip, a failed Fly); seed 004:
    "knock-backs, falls, and similar jolts can incidentally stun": the stun roll follows
    (``rules.falls_stun``). A major wound's fall has its own roll and a knock-back's sprawl
    shares the knock-back's (they call ``FighterState.fall``)."""
    s.fall()
    if combat.rules.falls_stun:
        stun_check(s, combat, rng=rng)


# --- fumbles -------------------------------------------------------------------------------


def fumble(s: FighterState, slot: int, combat: Combat, *, rng: np.random.Generator) -> None:
    """Draw an effect from the fumble table (weights) and apply it to the fumbler."""
    weights = combat.fight.fumble_weights
    total = sum(weights)
    if total == 0:
        return
    pick = float(rng.random()) * total
    effect = next(k for k, w in enumerate(np.cumsum(weights)) if pick < w)
    if effect == LOSE_ATTACK:
        s.forfeit_next = True
    elif effect == DROP:
        # The next round goes to retrieving the weapon (no attack, no parry); seed 004: "a
        # rider must dismount to retrieve a fumbled weapon", so a rider ends on foot.
        s.forfeit_next = s.no_parry_next = True
        s.mounted = False
    elif effect == BREAK:
        break_item(s, slot)
    elif effect == HIT_SELF:
        rolled = roll_damage(s, s, slot, tb.SUCCESS, combat,
                             missile=s.item(slot).kind != MELEE, rng=rng)
        wound_self(s, rolled, combat, rng=rng)
    elif effect == FALL:
        fall_down(s, combat, rng=rng)


def wound_self(s: FighterState, rolled: int, combat: Combat, *,
               rng: np.random.Generator) -> None:
    armour = roll_dice(armour_text(s), rng)
    raw_harm(s, max(0, rolled - armour), combat, rng=rng)


def armour_text(t: FighterState) -> str:
    """The armour roll: whole, or partly destroyed (seed 004: halved in the wearer's favour)."""
    return t.f.armour_half_text if t.armour_damaged else t.f.armour_text


# --- blows ---------------------------------------------------------------------------------


def melee_attack(s: FighterState, t: FighterState, slot: int, mode: int, combat: Combat, *,
                 rng: np.random.Generator, parriable: bool = True, defendable: bool = True,
                 extra: bool = False, riposte: bool = False, pounce: bool = False) -> bool:
    """One hand-to-hand attack: roll, the defence, then the blow's effect. True if it
    landed (neither missed nor stopped; a blow only partly parried lands)."""
    chance = melee_chance(s, t, slot, combat)
    if extra:
        chance = rule(tb.extra_attack_chance, chance)
    level = roll_level(s, chance, combat, rng=rng)
    level, least = against_the_helpless(t, level, combat)
    if level == tb.FUMBLE:
        fumble(s, slot, combat, rng=rng)
        return False
    if level < tb.SUCCESS:
        return False
    excess = max(0, chance - 100) if combat.rules.over_100_reduces_defence else 0
    after, parried_with, parry_level = (
        defend(t, level, combat, parriable=parriable, dodgeable=True,
               entangle=mode == ENTANGLE, excess=excess, rng=rng)
        if defendable else (level, None, tb.FAILURE))
    stopped = after == tb.FAILURE
    if mode == KNOCKBACK:
        if not stopped:
            knock_back(s, t, combat, rng=rng)
        return not stopped
    if mode == DISARM:
        # The lab's disarm: a hit that is not parried or dodged, then STR against STR on
        # the Resistance Table (the seed's own wrench-a-weapon roll) takes the weapon.
        table = resistance_table(combat.rules)
        if not stopped and d100(rng) <= int(resistance_chance(s.f.STR, t.f.STR, **table)):
            disarm(t)
        return not stopped
    if mode == ENTANGLE:
        if not stopped:
            t.entangled, t.held_until = True, combat.round_no + 1
            t.netted = s.item(slot).kind != MELEE
        elif parried_with is not None and not t.f.items[parried_with].shield:
            # Seed 004: STR against STR on the Resistance Table can use the entangling
            # weapon to wrench a parrying weapon from the defender's grip.
            table = resistance_table(combat.rules)
            if d100(rng) <= int(resistance_chance(s.f.STR, t.f.STR, **table)):
                lose_weapon(t, parried_with)
        return not stopped
    # a blow only partly parried (the parry matrix ``brp``) lands a level lower
    blow = level if stopped else after
    if least:
        rolled = s.item(slot).minimum
    elif pounce:    # seed 004: double damage on a success, triple on a critical
        rolled = roll_damage(s, t, slot, min(blow, tb.SUCCESS), combat, rng=rng) * (
            3 if blow == tb.CRITICAL else 2)
    else:
        rolled = roll_damage(s, t, slot, blow, combat, rng=rng)
    if stopped:
        if parried_with is not None:
            excess = parry_takes(t, parried_with, rolled, combat)
            if excess:
                wound(s, t, slot, excess, level, combat, rng=rng)
            if (parried_with == OFF and not t.f.items[OFF].shield and t.f.riposte
                    and not riposte and t.item_ok[OFF] and t.can_strike() and s.standing):
                melee_attack(t, s, OFF, STRIKE, combat, rng=rng, riposte=True)
    else:
        wound(s, t, slot, rolled, blow, combat, rng=rng)
        wear(s, slot)
    if parried_with is not None:
        matrix_wear(s, t, slot, parried_with, level, parry_level, after, combat)
    return not stopped


def matrix_wear(s: FighterState, t: FighterState, slot: int, parried_with: int, level: int,
                parry_level: int, after: int, combat: Combat) -> None:
    """Basic Roleplaying's matrix (rule ``parry_matrix: brp``; ``rules.tables.parry_wear``): "the
    parrying weapon or shield takes 2 points of damage" when it only partly parries a
    blow, and "the attacker's weapon takes 1 point" when a better parry stops a plain hit.
    An item worn to nothing breaks; fists and unbreakable items do not wear."""
    on_parrier, on_weapon = (int(x) for x in tb.parry_wear(level, parry_level, after,
                                                           combat.rules.parry_matrix))
    for who, what, points in ((t, parried_with, on_parrier), (s, slot, on_weapon)):
        if points and who.item_ok[what] and who.f.items[what].hp < UNBREAKABLE:
            who.item_hp[what] -= points
            if who.item_hp[what] <= 0:
                break_item(who, what)


def free_blow(foe: FighterState, s: FighterState, combat: Combat, *,
              rng: np.random.Generator) -> None:
    """Seed 004: running "grants the opponent one free attack that can't be parried": the
    weapon in hand, no parry; the runner may still Dodge it (the seed forbids only the
    parry)."""
    melee_attack(foe, s, foe.wield, STRIKE, combat, rng=rng, parriable=False)


# --- holding off a shorter weapon (seed 004; rule hold_off) --------------------------------


def ready_to_hold(h: FighterState, foe: FighterState, combat: Combat) -> bool:
    """Can ``h`` keep ``foe`` at its weapon's point (``rules.tables.holds_off``): standing on its
    feet, neither stunned, held, surprised, exhausted, forfeiting its attack nor breaking
    off, a melee weapon in hand it can deploy, its target ``foe``?"""
    item = h.item()
    return (h.standing and not h.down and not h.stunned and not h.entangled
            and not h.surprised and not h.forfeit and not combat.exhausted(h, combat.round_no)
            and not breaking_off(h) and item.kind == MELEE and not quartered(h, item)
            and h.target == foe.index)


def breaking_off(s: FighterState) -> bool:
    """Hurt to its ``break_off_at`` (or after a major wound, with ``major_wound``) and on
    its feet: its action is to break off (seed 004; reference ``break_off``)."""
    hurt = (s.f.break_off_at and s.hp <= s.f.break_off_at) or (s.f.break_off_major and s.major)
    return bool(hurt) and not s.down


def quartered(s: FighterState, item: Item) -> bool:
    """Is the item used at a quarter skill in its holder's space (or underwater)?"""
    return (not rule(tb.deployable, item.width, item.space, s.f.clearance, s.f.depth)
            or (s.f.underwater and not item.thrusting))


def held_off(s: FighterState, t: FighterState, combat: Combat) -> bool:
    """Does ``t`` hold off ``s``'s blow (seed 004: a longer weapon may "hold off a
    shorter-armed opponent entirely")? While ``t``'s weapon is the longer and ready and
    ``s`` has not got inside it. Facing a longer weapon that does not hold it off, ``s``
    is inside it from now on."""
    theirs, mine = melee_length(t.item()), melee_length(s.item())
    if theirs <= mine or s.inside == t.index:
        return False
    held = bool(tb.holds_off(theirs, mine, ready_to_hold(t, s, combat), False))
    if not held:
        s.inside = t.index
    return held


def lengths_at_blow(h: FighterState, t: FighterState) -> tuple[int, int]:
    """The length classes of ``h``'s weapon and ``t``'s, read as ``h``'s blow at ``t`` is
    struck (before it can break or knock away either): what ``let_inside`` judges."""
    return melee_length(h.item()), melee_length(t.item())


def let_inside(h: FighterState, t: FighterState, lengths: tuple[int, int],
               landed: bool) -> None:
    """A blow of the longer weapon that fails lets the shorter-armed foe inside it (if it
    is fighting ``h``), the weapons' ``lengths`` as the blow was struck
    (``lengths_at_blow``; ``rules.tables.lets_inside``)."""
    if rule(tb.lets_inside, lengths[0], lengths[1], landed, t.standing,
            t.target == h.index):
        t.inside = h.index


def melee_length(item: Item) -> int:
    """A melee weapon's length class; -1 for anything else (never longer)."""
    return item.length if item.kind == MELEE else -1


def parry_takes(t: FighterState, slot: int, rolled: int, combat: Combat) -> int:
    """Seed 004: the parrying item breaks if the blow's rolled damage exceeds its hit points;
    the excess then passes to the defender (rule option)."""
    if rolled <= t.item_hp[slot]:
        return 0
    excess = rolled - t.item_hp[slot]
    break_item(t, slot)
    return excess if combat.rules.broken_parry_passes_excess else 0


def wear(s: FighterState, slot: int) -> None:
    """Seed 004: an improvised weapon loses a hit point every time it lands a blow."""
    if s.f.items[slot].improvised and s.item_ok[slot]:
        s.item_hp[slot] -= 1
        if s.item_hp[slot] <= 0:
            break_item(s, slot)


def knock_back(s: FighterState, t: FighterState, combat: Combat, *,
               rng: np.random.Generator) -> None:
    """Seed 004: pushed a yard per point of STR over SIZ (at least one); a DEX roll or a
    fall (a rider is unhorsed); the jolt may stun (CON x 5)."""
    yards = rule(tb.knockback_yards, s.f.STR, t.f.SIZ)
    away = np.sign(t.pos - s.pos) or (1.0 if t.index > s.index else -1.0)
    t.pos = float(np.float32(t.pos + away * yards))
    if t.mounted:
        t.fall()
    elif not percentile_roll(combat, 5 * t.f.DEX - t.f.balance_penalty, rng=rng):
        t.fall()
    stun_check(t, combat, rng=rng)


def missile_volley(s: FighterState, t: FighterState, combat: Combat, *,
                   rng: np.random.Generator) -> bool:
    """This round's shots with a missile or thrown weapon; False if no shot was possible.

    No shot while braced, down, underwater, reloading, out of range (seed 004 bands) or at a
    target in full cover. A volley fires two or three shots; the weapon's reload follows.
    Thrown weapons and arrows use ammunition; an empty hand falls back to the sidearm.
    """
    item = s.item()
    if (s.bracing or s.down or s.f.underwater or s.reload_left or s.ammo <= 0
            or t.f.cover == 2):
        return False
    # Seed 004: "running while throwing or firing to the side isn't possible at all"; one
    # may "move for half the round, then throw or shoot" (straight ahead is fine).
    speed = s.f.mount_move if s.mounted else s.f.move
    if s.backed and 2 * s.moved > speed:
        return False
    divisor = rule(tb.range_divisor, gap(s, t), item.range, item.max_multiple)
    if divisor == 0:
        return False
    shots = rule(tb.volley_shots, item.volley, s.volleyed, s.f.CON) if s.f.volley else 1
    for _ in range(shots):
        if not t.standing or s.ammo <= 0 or s.item().kind == MELEE:
            break  # the target fell, or the weapon is spent, dropped or broken
        shoot(s, t, divisor, combat, rng=rng)
        s.ammo -= 1
    if s.f.volley:
        s.volleyed += 1
    s.reload_left = item.reload + 1 if item.reload else 0
    if s.ammo <= 0 and s.item().kind != MELEE:
        s.item_ok[s.wield] = False
        fall_back(s)
    return True


def shoot(s: FighterState, t: FighterState, divisor: int, combat: Combat, *,
          rng: np.random.Generator) -> None:
    """One missile: no parry or dodge; a carried shield may block an ordinary hit."""
    slot = s.wield
    chance = missile_chance(s, t, slot, divisor)
    level = roll_level(s, chance, combat, rng=rng)
    level, least = against_the_helpless(t, level, combat)
    if level == tb.FUMBLE:
        fumble(s, slot, combat, rng=rng)
        return
    if level < tb.SUCCESS:
        return
    if t.item_ok[OFF] and t.f.items[OFF].shield and not t.f.underwater and \
            rule(tb.missile_blockable, level, s.item(slot).thrusting):
        block = rule(tb.shield_block_chance, t.f.items[OFF].shield_size, t.bracing)
        if d100(rng) <= block:
            return
    rolled = (s.item(slot).minimum if least else
              roll_damage(s, t, slot, level, combat, missile=True, rng=rng))
    wound(s, t, slot, rolled, level, combat, missile=True, rng=rng)
