"""Ymlad's fixed numbers and formulas (seed 002), as small pure functions.

Every function works on Python numbers and on numpy arrays alike, so the scalar reference,
the compile step and the vectorised kernel share one copy of each formula. Numbers printed by
the seed live here; numbers the lab invents live in ``balance/data/ymlad/`` where a scenario
can change them.
"""

from __future__ import annotations

import math

import numpy as np

# --- styles, harm subtypes and kinds ----------------------------------------------------------

MISSILE, FORMATION, MELEE, CLOSE = 0, 1, 2, 3
STYLES = {"missile": MISSILE, "formation": FORMATION, "melee": MELEE, "close": CLOSE}
STYLE_NAMES = ("missile", "formation", "melee", "close")

# Seed, "Building blocks" and the style formulas: the shield bonus counts x3 against missiles,
# x2 in formation, x1 in melee and not at all in close combat.
SHIELD_MULTIPLIER = (3, 2, 1, 0)

SLASHING, PIERCING, PUMMELING = 0, 1, 2
SUBTYPES = {"slashing": SLASHING, "piercing": PIERCING, "pummeling": PUMMELING}
# Seed, "Harm reduction": one harm point off per N armour points: slashing 1, broad piercing 2,
# narrow piercing 3, pummeling 4.
SLASH_DIVISOR, BROAD_DIVISOR, NARROW_DIVISOR, PUMMEL_DIVISOR = 1, 2, 3, 4

WOUND, STUN, GRAPPLE = 0, 1, 2          # what a successful harm contest inflicts
BEST = -1                               # policy: the subtype doing most harm

# --- the seed's situational modifiers ---------------------------------------------------------

DISENGAGE_BONUS = 4        # seed, Close: backing off to melee is easier than closing in
DUAL_WIELD_BONUS = 1       # seed, Dual wielding: +1 melee effort and resistance
CHARGE_PIERCING_BONUS = 1  # seed, Charge: piercing contact weapons +1 harm effort
HEIGHT_BONUS = 1           # seed, Height: +1 / -1 skirmish effort, not in close combat
GROUP_LIMIT = 6            # seed, Group fights: at most six attack one loner ...
POLEARM_GROUP_LIMIT = 12   # ... twelve when the extra ones wield spears or polearms
FORMATION_FRONT = 3        # seed: in formation at most three foes face a fighter ...
FORMATION_CENTRE = 1       # ... one right in front; left and right only reached by polearms
FLANK_PLACES = 2           # lab: past the three in front, two more come at the flanks ...
FROM_FRONT, FROM_SIDE, FROM_REAR = 0, 1, 2   # ... and the rest from behind (Group fights)

# Seed, Light: contact effort and resistance alike; missile effort only, and harsher.
# Lab: moonlight's missile penalty is -2 (the seed says -2 to -3).
LIGHT_CONTACT = {"bright": 0, "twilight": 0, "moonlight": -1, "starlight": -2, "darkness": -3}
LIGHT_MISSILE = {"bright": 0, "twilight": -1, "moonlight": -2, "starlight": -4, "darkness": -5}
# Seed, Wind: missile effort.
WIND = {"calm": 0, "light": 0, "moderate": -1, "strong": -2, "gale": -4}
# Seed, Moving target: missile resistance +1 walking, +2 running.
MOVING = {"still": 0, "walking": 1, "running": 2}
# Seed, Angle: resistance penalty by the angle of attack and the defender's vision.
ANGLE = {
    "normal": {"front": 0, "side": -1, "rear": -2, "above": -1, "below": -1},
    "sideways": {"front": 0, "side": 0, "rear": -1, "above": -1, "below": -1},
    "all_round": {"front": 0, "side": 0, "rear": 0, "above": 0, "below": 0},
}
# Seed, Mounted combat: missile effort from a walking or faster mount; a mount is high ground.
MOUNTED_MISSILE = {"no": 0, "halted": 0, "walking": -1, "fast": -2}
# Seed, Charge: a missile charge counts one range category nearer; "running backwards or
# delivering a 'Parthian shot'" one farther.
MISSILE_CHARGE_BANDS = -1
MOVING_AWAY_BANDS = 1
MISSILE_CHARGE_STOP = 1.0   # lab: a missile charge stops this many metres beyond reach


def mounted_pace_penalty(static: int, moved):
    """Extra missile effort penalty of a rider who moved this round (seed, Mounted combat:
    -1 at a walk, -2 at a trot, canter or gallop), beyond its standing pace's ``static``
    (``MOUNTED_MISSILE``); ``moved`` is 0 still, 1 walked, 2 ran."""
    return np.minimum(-moved - static, 0)


def shot_band(base, strong_shift, charge, away):
    """Range band of a shot (0 close, 1 medium, 2 long) after the seed's shifts: a strong
    thrower and a missile charge count one nearer, moving away from the target one farther
    (seed, Charge), within the three bands."""
    return np.clip(base - strong_shift + MISSILE_CHARGE_BANDS * charge + MOVING_AWAY_BANDS * away,
                   0, 2)

# --- the drift die and contests -------------------------------------------------------------


def margin(effort, resistance, drift):
    """Seed, Attack and defense: the outcome is effort - resistance moved by the drift die."""
    return effort - resistance + drift


def succeeds(outcome):
    """Seed: an effort at least equal to the resistance (after drift) succeeds."""
    return outcome >= 0


def harm_done(outcome):
    """Harm of a harm contest: its margin, none below zero (seed, Harm reduction)."""
    return np.maximum(outcome, 0) if isinstance(outcome, np.ndarray) else max(outcome, 0)


def p_success(difference: int) -> float:
    """Exact P(effort - resistance + drift >= 0) for an integer score difference.

    P(drift >= -d) is 1 - (1/3)**(d+1) for d >= 0 and (1/3)**(-d) below 0.
    """
    return 1 - 3.0 ** -(difference + 1) if difference >= 0 else 3.0 ** difference


# --- skirmish formulas (seed: Missile, Formation, Melee, Close) --------------------------------


def missile_effort(dexterity, skill, weapon):
    return dexterity + skill + weapon


def missile_resistance(body_missile, shield):
    return body_missile + SHIELD_MULTIPLIER[MISSILE] * shield


def formation_effort(body, skill, weapon):
    return body + skill + weapon


def formation_resistance(body, skill, weapon, shield):
    return body + skill + weapon + SHIELD_MULTIPLIER[FORMATION] * shield


def melee_effort(body, dexterity, skill, weapon):
    return body + dexterity + skill + weapon


def melee_resistance(body, dexterity, skill, weapon, shield):
    return body + dexterity + skill + weapon + SHIELD_MULTIPLIER[MELEE] * shield


def close_score(body, dexterity, skill, weapon):
    """Close combat: the same formula for effort and resistance, never a shield."""
    return body + dexterity + skill + weapon


# --- harm formulas (seed: Wounding, Stunning, Grappling, Harm reduction, Hardness) -------------


def harm_effort(body_harm, strength, weapon_harm):
    return body_harm + strength + weapon_harm


def harm_resistance(body_harm, reduction):
    return body_harm + reduction


def grapple_score(body_harm, strength, weapon_grapple):
    """Grappling effort and resistance alike: 3 x body harm + strength + weapon grapple."""
    return 3 * body_harm + strength + weapon_grapple


def round_half_up(x: float) -> int:
    """Seed: fractions are rounded "normally", halves up (2.5 -> 3), not to even.

    A tiny epsilon keeps sums such as 1.0 + 1.5 that land a hair below .5 from rounding down.
    """
    return math.floor(x + 0.5 + 1e-9)


def effective_armour(score: float, armour_hardness: float, weapon_hardness: float,
                     use_hardness: bool = True) -> float:
    """Seed, Hardness: the weapon-armour hardness difference comes off the armour score
    (or adds to it for a softer weapon), never below 0."""
    if not use_hardness:
        return score
    return max(0.0, score - (weapon_hardness - armour_hardness))


def armour_reduction(armour: float, divisor: int) -> int:
    """Seed, Harm reduction: one harm point off per ``divisor`` armour points, rounded."""
    return round_half_up(armour / divisor)


def stun_split(harm):
    """Seed, Stunning: odd points (1st, 3rd, ...) are brief, even ones long-lasting.

    Returns (brief, long_lasting)."""
    return (harm + 1) // 2, harm // 2


# --- armour from parts (seed: Protection and weight) ------------------------------------------


def armour_protection(thickness: float, construction: float, importance: float) -> float:
    """Protection = 2 x thickness x construction protection x body part importance."""
    return 2 * thickness * construction * importance


def armour_weight(thickness: float, construction: float, area: float) -> float:
    """Weight = 8 x thickness x construction weight x body part area."""
    return 8 * thickness * construction * area


# --- the harm track ----------------------------------------------------------------------------


def level_reached_at(above: float, threshold: int) -> int:
    """Smallest whole harm that *exceeds* ``above`` x the harm threshold."""
    return math.floor(above * threshold + 1e-9) + 1


# --- group fights (seed: Group fights) ----------------------------------------------------------


def group_bonus(rank):
    """Melee effort bonus of the attacker with ``rank`` (0 the first) on one loner: +1, +2..."""
    return rank


def attacker_places(walled: bool, formation: bool, holes: int = 0) -> tuple[int, int]:
    """(places any weapon may take, places in all) round one fighter.

    Seed, Group fights: at most six on one loner, twelve with spears or polearms. A fighter
    whose flanks are secured (``flanks_secured``: a wall, a recess, a corridor) has no flank
    or rear places: only its front, "a maximum of three people in front of him/her" (seed).
    In formation style, seed, Formation: "Fighters can attack the enemy right in front of
    them. If they wield a spear or other type of polearm, they can also attack the enemy to
    the left and right": of the three, one place right in front takes any weapon, the two
    to its left and right only spears and polearms.

    ``holes`` (0-2): on how many sides the line next to it is open, its neighbour there down
    (:func:`open_sides`). Seed, Formation vs melee: "Once they take a man down they may move
    in and engage in melee combat as they prefer to": the fighter beside the hole is fought
    in melee, so its front takes any weapon (three, the lab's melee front) and each hole one
    more attacker, at its flank (:func:`ring_angle`'s fourth and fifth places).
    """
    if not walled:
        return GROUP_LIMIT, POLEARM_GROUP_LIMIT
    if holes:
        return FORMATION_FRONT + holes, FORMATION_FRONT + holes
    return (FORMATION_CENTRE if formation else FORMATION_FRONT), FORMATION_FRONT


def open_sides(up: np.ndarray, width: int) -> np.ndarray:
    """On how many sides (0-2) each fighter of a line with secured flanks has a hole.

    ``up`` (k, n) bool: the side's fighters standing, in the order of its formation (row,
    then scenario order); the first ``width`` are its front row, each in its own file of the
    line, from one wall to the other (lab: the line has files, not drawn positions). Each
    trial, a front-row fighter holds its file while it stands; a file whose man is down is
    taken by the next standing fighter of the rows behind, in order (seed: further rows "may
    be able to close the gap"; the same fighters that ``rear_rows`` puts in the front). A
    file left empty is a **hole**; a fighter in the line beside one (not a wall) has that
    side open. Returns (k, n) int8: 0-2 for fighters in the line, 0 for those behind it.
    Works on (k, 1) arrays for a single fight.
    """
    k, n = up.shape
    empty = ~up[:width]
    vacancy = np.cumsum(empty, axis=0) - 1            # rank of each empty file among them
    held = up[:width].copy()                          # a file with a man standing in it
    who = np.where(up[:width], np.arange(width)[:, None], -1)   # which of the k holds it
    rank = np.cumsum(up[width:], axis=0) - 1          # rank of each standing man behind
    for j in range(k - width):                        # the rows behind, in order
        for file in range(width):
            step = up[width + j] & empty[file] & (vacancy[file] == rank[j])
            held[file] |= step
            who[file] = np.where(step, width + j, who[file])
    out = np.zeros((k, n), dtype=np.int8)
    for file in range(width):
        sides = np.zeros(n, dtype=np.int8)
        if file > 0:
            sides += ~held[file - 1]
        if file < width - 1:
            sides += ~held[file + 1]
        row = who[file]
        there = row >= 0
        out[row[there], np.flatnonzero(there)] = sides[there]
    return out


def may_join(plain_before, total_before, polearm):
    """May one more attacker join those already on a loner?

    ``plain_before`` counts earlier attackers without spear or polearm, ``total_before`` all
    of them. At most six attack one fighter; spears and polearms make a wider ring of twelve,
    so the attackers past six must wield them (lab reading of the seed's limit).
    """
    return (total_before < POLEARM_GROUP_LIMIT) & (polearm | (plain_before < GROUP_LIMIT))


RING_FLANKS_AND_REAR, RING_FLANKS, RING_FRONT = 0, 1, 2    # rules.ring
RINGS = {"flanks_and_rear": RING_FLANKS_AND_REAR, "flanks": RING_FLANKS, "front": RING_FRONT}


def ring_angle(rank, geometry: int = RING_FLANKS_AND_REAR):
    """Angle from which the attacker with ``rank`` (0 the first) on one fighter comes.

    Seed, Group fights: "If one fighter faces many opponents some of them may be able to
    move to his flanks or even rear, which gives attack bonuses" (seed, Angle: -1 from the
    side, -2 from behind). The seed places nobody; this is the lab's geometry
    (``rules.ring``): the first three (the seed's formation front) come from the front;
    ``flanks_and_rear`` (default) the next two from the sides and any further from behind,
    ``flanks`` all the others from the sides, ``front`` everyone from the front. Returns
    FROM_FRONT, FROM_SIDE or FROM_REAR.
    """
    if geometry == RING_FRONT:
        return rank * 0 + FROM_FRONT
    side = (rank >= FORMATION_FRONT) * 1
    if geometry == RING_FLANKS:
        return side
    return side + (rank >= FORMATION_FRONT + FLANK_PLACES) * 1


def outflanked(count):
    """Seed, Formation: "If enemies manage to outflank the formation ... they may change the
    combat to melee". Lab: a fighter with more attackers than the formation front of three
    has some beside or behind it (whatever ``rules.ring`` says about their angle)."""
    return count > FORMATION_FRONT


# --- close combat ----------------------------------------------------------------------------

HELD = {"auto": 0, "disengage": 1, "fight": 2}    # policy.held


def fights_back(held: int, mine: int, theirs: int) -> bool:
    """Does a fighter who does not want close combat, held in it, fight back rather than
    try to disengage? Seed, Close: "The other fighter can engage in close combat too, or try
    to disengage back to melee." ``held`` is its policy (``HELD``); ``mine`` is its close
    effort less its holder's close resistance, ``theirs`` the same for the holder. ``auto``
    (lab): fight back when it is at least as good in close combat as its holder."""
    if held == HELD["fight"]:
        return True
    if held == HELD["disengage"]:
        return False
    return mine >= theirs


# --- charges ---------------------------------------------------------------------------------

LANCE_FIRST, LANCE_ROUND, LANCE_NONE = 0, 1, 2      # rules.lance_charge
LANCE_CHARGES = {"first_attack": LANCE_FIRST, "charge_round": LANCE_ROUND, "none": LANCE_NONE}


def lance_charger(mounted: bool, charges: bool, lance: bool, rule: int) -> bool:
    """Seed, Formation: "the charge with lance of a knight from horseback": a mounted fighter
    who charges (``policy.charge``) with a lance as its formation weapon."""
    return mounted and charges and lance and rule != LANCE_NONE


def formation_by_charge(mine, theirs, rule: int):
    """Is this attack a formation attack because of a lance charge? Seed, Formation: the
    knight's charge "ensures that at least the first attack will be a formation attack".
    ``mine``: the attacker charges with its lance this round; ``theirs``: its target does,
    at it. ``first_attack``: the charger's own attack of the charge round; ``charge_round``:
    also its target's attack back on it that round."""
    if rule == LANCE_ROUND:
        return mine | theirs
    return mine & (rule == LANCE_FIRST)


def switch_costs_attack(held, wanted, rule_attack: bool):
    """Does taking up the weapon ``wanted`` cost this attack? ``held`` is the weapon in hand
    (-1: none taken up yet, so the first costs nothing). Lab (``rules.weapon_switch``): free
    by default, the seed's own cost of another weapon being the skill with it (The party:
    "If they are forced to switch to other weapons, skill levels are lower"); ``attack``:
    the change takes the fighter's attack of the round."""
    return (held >= 0) & (held != wanted) & rule_attack


# --- height -------------------------------------------------------------------------------------


def saddle_counts(gap, always: bool, near: float):
    """Does a mount's height count for a missile shot across ``gap`` metres? Seed, Height:
    the GM "may remove the bonus if the height is insignificant with regard to the range,
    for example when shooting arrows tens of meters away from horseback". Lab
    (``rules.saddle_height``): counted up to ``near`` metres (default 10, below the seed's
    "tens of meters"), or ``always``."""
    return (gap <= near) | always


# --- missiles -------------------------------------------------------------------------------------


def range_band(gap, close, medium):
    """Range band of a shot: 0 close, 1 medium, 2 long (beyond ``medium``)."""
    return (gap > close) * 1 + (gap > medium) * 1


def missile_adds_strength(kind: str | None, own: bool | None, rule: object) -> bool:
    """Does the shooter's strength modifier add to a missile's harm effort? Seed, Wounding:
    "body harm modifier + strength modifier + weapon ... harm score", missiles included.
    ``rule`` is ``rules.missile_strength`` (a flag per kind: lab, what drives the missile,
    the arm, or a crossbow's mechanism or a blowgun's breath); the row's own ``strength``
    wins; a row of no kind keeps the lab's old default, no strength."""
    if own is not None:
        return own
    return bool(getattr(rule, kind)) if kind is not None else False


def strong_thrower_shift(strength: int, thrown: bool) -> int:
    """Lab reading of the seed's "extra strong missile users": a thrown weapon in the hands of
    a fighter with a strength modifier of +2 or more counts one range band closer."""
    return 1 if thrown and strength >= 2 else 0
