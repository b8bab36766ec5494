"""What a fighter holds, turned into the numbers it fights with (seed 000, "Fighting Styles"
and "Advanced Weapons"), once per fighter at compile time.

A *loadout* is one state of a fighter's hands: its main equipment (primary weapon and
off-hand item), its spare weapon drawn (with the off-hand item), or what is left when the
weapon in the primary hand is lost (the off-hand item used alone, or bare fists); each also in
the grappled stance (brawl skill, weapons at -5 per reach, no shield). Loadout numbers are
stance-free; the engines add the stance. Table rows are read by attribute.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from balance.errors import Problem, ScenarioError
from balance.rules.yags.rules.tracks import DAMAGE_TYPES, HEAVY, IMPALING, STUNS

STYLE_ORDER = ("brawl", "melee_weapon", "single_weapon", "weapon_and_shield",
               "great_weapon", "two_weapons", "longshaft", "chain")
SHIELD_STYLES = ("weapon_and_shield", "longshaft", "chain")
MAIN, SPARE, BARE = 0, 1, 2        # weapon states
N_WEAPON_STATES = 3
# Seed 000, Advanced Weapons, Strength: one point short -5 to attack and defence, two -15.
STRENGTH_SHORT = {0: 0, 1: -5, 2: -15}
REACH_STEP = 5      # -5 per reach: grappled weapons, confined spaces (seed 000)


@dataclass(frozen=True)
class Loadout:
    """What a fighter strikes and parries with in one state of its hands (stance-free)."""

    attack: int          # attribute x skill + bonuses + strength and space penalties
    defence: int
    damage: int          # strength x 4 + damage bonuses
    damage_type: int     # WOUNDS, MIXED or STUNS
    reach: int           # the primary weapon's
    kind: int            # IMPALING | HEAVY bits of its blows
    light: bool          # one damage category worse against a heavy suit
    crushing: bool       # +5 to knockback and the knockdown roll
    unarmed: bool        # seed: natural weapons or a weapon of reach 0 that is not martial
    martial: bool        # seed: better than stun damage and reach above 0
    fumble_range: int    # attack and defence rolls fumble at or below this (2: wrong style)
    slow: bool           # wrong style: every attack is slow
    great: bool          # great weapon style (halved defence penalty, +50% size)
    longshaft: bool      # longshaft style (+5 defence against shorter reach)
    chain: bool          # chain style (+10 stance bonuses; shorter reach fumbles on 1-2)
    shield: bool         # a free defence against the target of its first attack
    weak: bool           # the primary weapon may break on a fumbled attack
    strong: bool         # the primary weapon never breaks on a fumbled defence
    losable: bool        # the primary hand holds something that can be dropped or broken
    skill: int           # skill of the style in use (who picks a fumble result)
    free_hand: bool      # a hand free to grab a disarmed weapon
    draw: int            # total reach of the weapons drawn into this loadout
    size2: int           # twice the attacker's Size for damage shifts (great weapon: x1.5)
    technique: bool      # the style fits, so techniques may be used
    style: str


def styles_of(weapon: Any) -> set[str]:
    return {weapon.style, *weapon.other_styles}


def is_shield(item: Any | None) -> bool:
    return item is not None and item.kind == "shield"


def shield_like(item: Any | None) -> bool:
    """A shield, or a blocking weapon used as one (seed 000, Blocking)."""
    return item is not None and (item.kind == "shield" or "blocking" in item.properties)


def fits(style: str, weapon: Any, off: Any | None) -> bool:
    """Does this weapon (and off-hand item) fit the style, or is it the wrong style?"""
    one_hand = weapon.hands == 1 and not is_shield(weapon)
    single = one_hand and "single_weapon" in styles_of(weapon)
    if style == "melee_weapon":
        return not is_shield(weapon)
    if style == "brawl":
        return off is None and "brawl" in styles_of(weapon)
    if style == "single_weapon":
        return off is None and single
    if style == "weapon_and_shield":
        return shield_like(off) and single
    if style == "great_weapon":
        return off is None and "great_weapon" in styles_of(weapon)
    if style == "two_weapons":
        return (single and off is not None and not is_shield(off) and off.hands == 1
                and "single_weapon" in styles_of(off))
    if style in ("longshaft", "chain"):
        return style in styles_of(weapon) and (off is None or (shield_like(off) and one_hand))
    return False


def natural_style(weapon: Any, off: Any | None) -> str:
    """The style the equipment suggests: the weapon's own, a shield style, or two weapons."""
    if off is None:
        return weapon.style
    if shield_like(off):
        return weapon.style if weapon.style in ("longshaft", "chain") else "weapon_and_shield"
    return "two_weapons"


def choose_style(weapon: Any, off: Any | None, skills: Any) -> str:
    """Lab's assumption: the fitting style in which the fighter is most skilled (the style the
    equipment suggests on a tie); if it has no skill in any fitting style, the suggested one."""
    suggested = natural_style(weapon, off)
    fitting = [s for s in STYLE_ORDER if fits(s, weapon, off)]
    best = max(fitting, key=lambda s: (getattr(skills, s), s == suggested), default=suggested)
    return best if getattr(skills, best, 0) > 0 else suggested


def half_up(x: int) -> int:
    return (x + 1) // 2


def bonuses(style: str, weapon: Any, off: Any | None) -> tuple[int, int, int]:
    """Attack, defence and damage bonuses of the equipment in a style (seed 000): a shield
    adds all three (a blocking weapon its attack and defence only); a second weapon adds half,
    rounded up, of its attack and defence (melee weapon) or of all three (two weapons)."""
    a, d, g = weapon.attack, weapon.defence, weapon.damage
    if off is None:
        return a, d, g
    if style in SHIELD_STYLES:
        return a + off.attack, d + off.defence, g + (off.damage if is_shield(off) else 0)
    if style == "melee_weapon":
        return a + half_up(off.attack), d + half_up(off.defence), g
    if style == "two_weapons":
        return a + half_up(off.attack), d + half_up(off.defence), g + half_up(off.damage)
    return a, d, g   # lab: an off-hand item the style cannot use adds nothing


def strength_penalty(strength: int, weapon: Any, two_handed: bool, where: str) -> int:
    """Seed 000: using a weapon two-handed counts strength x 1.5 (rounded up); one point short
    is -5 to attack and defence, two -15, more and the weapon cannot be used."""
    effective = (3 * strength + 1) // 2 if two_handed else strength
    short = max(0, weapon.strength - effective)
    if short not in STRENGTH_SHORT:
        raise ScenarioError([Problem(
            f"strength {strength} is too weak for this weapon (needs {weapon.strength}"
            f"{', counting x1.5 two-handed' if two_handed else ''}; seed 000: more than two "
            "points short and it cannot be used)", where)])
    return STRENGTH_SHORT[short]


@dataclass(frozen=True)
class Wielder:
    """The fighter's numbers that loadouts depend on."""

    agility: int         # after restrictive armour
    dexterity: int
    strength: int
    size: int
    skills: Any
    confined_reach: int | None
    where: str           # field path of the member, for errors


def loadout(who: Wielder, weapon: Any, off: Any | None, style: str | None, *,
            grappled: bool = False, drawn_reach: int = 0, field: str = "weapon") -> Loadout:
    """The numbers of one loadout: ``weapon`` in the primary hand, ``off`` in the other, in
    ``style`` (None: chosen from the equipment). ``field`` names the member's key that holds
    ``weapon``, for errors."""
    if weapon.hands == 2 and off is not None:
        raise ScenarioError([Problem("a two-handed weapon leaves no hand for an off-hand item",
                                     f"{who.where}.off_hand")])
    if is_shield(weapon) and field != "off_hand":
        raise ScenarioError([Problem("a shield goes in the off hand (off_hand:), not as the "
                                     "weapon", f"{who.where}.{field}")])
    if grappled:
        # Seed 000, Grappled: brawl skill, weapon rolls at -5 per reach, no shields.
        style, off = "brawl", None
    style = style or choose_style(weapon, off, who.skills)
    fit = grappled or fits(style, weapon, off)
    skill = getattr(who.skills, style)
    # Seed 000: brawl rolls on agility; single weapon attacks on dexterity and defends on the
    # better of agility and dexterity; every other style uses dexterity.
    att_attr = who.agility if style == "brawl" else who.dexterity
    def_attr = max(who.agility, who.dexterity) if style == "single_weapon" else att_attr
    a, d, g = bonuses(style, weapon, off)
    two_handed = weapon.hands == 2 or (off is None and style in ("great_weapon", "longshaft"))
    short = strength_penalty(who.strength, weapon, two_handed and not grappled,
                             f"{who.where}.{field}")
    if off is not None:
        short = min(short, strength_penalty(who.strength, off, False, f"{who.where}.off_hand"))
    reach = weapon.reach
    space = 0 if who.confined_reach is None else max(0, reach - who.confined_reach)
    near = REACH_STEP * reach if grappled else 0
    props = set(weapon.properties)
    natural = weapon.kind == "natural"
    damage_type = DAMAGE_TYPES[weapon.damage_type]
    martial = damage_type != STUNS and reach > 0
    impaling = "impaling" in props or ("thrusting" in props and two_handed and not grappled)
    great = style == "great_weapon" and fit and not grappled
    return Loadout(
        attack=att_attr * skill + a + short - REACH_STEP * space - near,
        defence=def_attr * skill + d + short - near,
        damage=4 * who.strength + g,
        damage_type=damage_type,
        reach=reach,
        kind=IMPALING * impaling + HEAVY * ("heavy" in props),
        light="light" in props,
        crushing="crushing" in props,
        unarmed=natural or reach == 0,
        martial=martial,
        fumble_range=1 if fit or style == "brawl" else 2,
        slow=not fit,
        great=great,
        longshaft=style == "longshaft" and fit and not grappled,
        chain=style == "chain" and fit and not grappled,
        shield=(style in ("weapon_and_shield", "longshaft") and fit and shield_like(off)
                and not grappled),
        weak="weak" in props,
        strong="strong" in props,
        losable=not natural,
        skill=skill,
        free_hand=off is None and not two_handed,
        draw=drawn_reach,
        size2=3 * who.size if great else 2 * who.size,
        technique=fit and not grappled,
        style=style,
    )


def loadouts(who: Wielder, weapon: Any, off: Any | None, spare: Any | None,
             style: str | None, fist: Any) -> tuple[Loadout, ...]:
    """The six loadouts of a fighter, indexed ``weapon state + 3 x grappled``: MAIN (as
    equipped, in the given style), SPARE (the spare weapon drawn beside the off-hand item) and
    BARE (the primary hand lost: the off-hand item alone, or fists)."""
    main = (weapon, off, style, weapon.reach + (off.reach if off is not None else 0), "weapon")
    bare = (off, None, None, 0, "off_hand") if off is not None else (fist, None, None, 0, "weapon")
    second = bare
    if spare is not None:
        # Lab: a two-handed spare is drawn without the off-hand item.
        keep = off if spare.hands == 1 else None
        second = (spare, keep, None, spare.reach, "spare")
    out = []
    for g in (False, True):
        for state, (w, o, s, r, f) in enumerate((main, second, bare)):
            lo = loadout(who, w, o, s, grappled=g, drawn_reach=r, field=f)
            if state == BARE or (state == SPARE and spare is None):
                # Lab: what is left in hand once the primary is lost is never lost itself.
                lo = replace(lo, losable=False)
            out.append(lo)
    return tuple(out)
