"""Compile a validated Ymlad scenario into fixed per-fighter numbers, and the formulas on them.

The scalar reference and the vectorised kernel both start from :class:`YmladFight`: the
reference calls :func:`effort`, :func:`resistance` and :func:`harm_margin` contest by
contest; the kernel tabulates the same functions once into arrays (:class:`Static`). So they
agree on every derived number and differ only in how they roll and keep state. Only numpy,
the standard library and ``balance.errors`` here: the scenario is read by attribute.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, NoReturn

import numpy as np

from balance.engine.distance import start_positions
from balance.engine.fight import FighterList
from balance.engine.targeting import FIRST, POLICIES
from balance.errors import Problem, ScenarioError, closest
from balance.rules.ymlad.rules.tables import (
    ANGLE,
    BEST,
    BROAD_DIVISOR,
    CHARGE_PIERCING_BONUS,
    CLOSE,
    DUAL_WIELD_BONUS,
    FORMATION,
    FROM_FRONT,
    FROM_SIDE,
    GRAPPLE,
    HEIGHT_BONUS,
    HELD,
    LANCE_CHARGES,
    LIGHT_CONTACT,
    LIGHT_MISSILE,
    MELEE,
    MISSILE,
    MOUNTED_MISSILE,
    MOVING,
    NARROW_DIVISOR,
    PIERCING,
    PUMMEL_DIVISOR,
    PUMMELING,
    RINGS,
    SLASH_DIVISOR,
    SLASHING,
    STUN,
    STYLES,
    SUBTYPES,
    WIND,
    WOUND,
    armour_protection,
    armour_reduction,
    armour_weight,
    close_score,
    effective_armour,
    fights_back,
    formation_effort,
    formation_resistance,
    grapple_score,
    harm_effort,
    harm_resistance,
    lance_charger,
    level_reached_at,
    melee_effort,
    melee_resistance,
    missile_adds_strength,
    missile_effort,
    missile_resistance,
    strong_thrower_shift,
)

ARMOUR_MAX = 8          # seed: "Armor has a score that lies in the 0 - 8 range"
NEVER = 30_000          # a harm total no fight reaches: "never yields", "never dies"
MAX_FIGHTERS = 120      # places and targets are int8 in the kernel
BANDS = {"close": 0, "medium": 1, "long": 2}


@dataclass(frozen=True)
class Harm:
    """What one weapon does to a body in one style: harm scores and armour handling."""

    slashing: int
    piercing: int
    pummeling: int
    narrow: bool
    grapple: int
    hardness: float
    slashing_divisor: int = SLASH_DIVISOR
    strength: bool = True                   # does the wielder's strength add?
    range_harm: tuple[int, int, int] = (0, 0, 0)   # piercing harm by range band


@dataclass(frozen=True)
class Missile:
    """A missile weapon as one fighter uses it."""

    name: str
    score: int
    close: float
    medium: float
    max: float
    range_effort: tuple[int, int, int]
    rounds_per_shot: int
    shots: int
    band_shift: int              # strong throwers count one band closer


@dataclass(frozen=True)
class Fighter:
    """One combatant's fixed numbers: modifiers, weapons, armour, track and policy."""

    side: int
    name: str
    strength: int                       # talent modifiers
    dexterity: int
    skill: tuple[int, int, int, int]    # skill modifiers: missile, formation, melee, close
    body_skirmish: int
    body_missile: int
    body_harm: int
    weapon: tuple[int, int, int, int]   # skirmish score per style (missile: the missile's)
    lever: int                          # close effort bonus of a lever weapon used two-handed
    harm: tuple[Harm | None, Harm, Harm, Harm]   # per style; missile None without one
    missile: Missile | None
    shield: int                         # shield bonus where it counts (0 if not in front)
    missile_shield: int                 # the same against missiles (crouching: one size up)
    dual: bool
    armour: float                       # armour score, unrounded (seed: Combined armor)
    armour_hardness: float
    encumbrance: int
    light_contact: int
    light_missile: int
    wind: int
    mounted_missile: int                # missile effort from the mount's standing pace
    mounted: bool                       # in the saddle: moving costs missile effort
    height: int
    angle: int                          # resistance penalty from the angle of attack
    flanked: bool                       # attacked from side or rear: no formation fighting
    cover: int
    moving: int                         # standing moving-target bonus (0 still, 1, 2)
    effort_bonus: tuple[int, int, int, int]
    resistance_bonus: tuple[int, int, int, int]
    resist: tuple[int, int, int, int]   # extra harm resistance: slash, pierce, pummel, grapple
    feels_pain: bool
    stunnable: bool
    threshold: int
    penalty_at: tuple[int, ...]         # harm at which each penalty level starts ...
    penalty: tuple[int, ...]            # ... and its penalty
    down_at: int
    dead_at: int                        # long-lasting harm at which the fighter dies
    wasted_at: int                      # grappling harm at which it is strangled to death
    yield_at: int
    style: int                          # preferred style
    contact_style: int                  # style in contact (a missile user's fallback)
    harm_subtype: int                   # BEST or a subtype
    harm_kind: int                      # WOUND, STUN or GRAPPLE (grapple: close combat only)
    far: float                          # a missile user walks in until the foe is this near
    keep_at: float
    charge: bool
    polearm: bool
    flanks_secured: bool
    speed: float
    reach: int
    # Group fights (docs/rules/ymlad.md, Group fights).
    target: int = FIRST                 # target policy (balance.engine.targeting)
    priority: tuple[int, ...] = ()      # fixed policy: rank of each fighter in its list
    flee_at: int = NEVER                # harm at which the fighter runs away
    row: int = 1                        # formation row (1 the front)
    flank_angle: int = -1               # resistance penalty from the side / rear (by vision)
    rear_angle: int = -2
    # Issue 27 (docs/rules/ymlad.md): the saddle's share of ``height``, a lance charge, what
    # a fighter held in close combat does, which weapon it holds in each style, and whether
    # its formation weapon reaches through the front from a rear row.
    saddle: int = 0
    lance_charge: bool = False
    held: int = HELD["auto"]
    weapon_id: tuple[int, int, int, int] = (0, 0, 0, 0)   # per style; equal: one weapon
    reach_through: bool = False


@dataclass(frozen=True)
class YmladRules:
    hardness: bool = True
    contact: float = 2.0
    room_to_retreat: bool = True
    parting_blows: str = "all"      # who strikes at a fighter running away: all, one, none
    moving_shots: bool = True       # a missile user may shoot in a round it moved
    lance_charge: int = LANCE_CHARGES["first_attack"]
    switch_attack: bool = False     # rules.weapon_switch: attack (taking up another costs it)
    holes: bool = True              # a man down opens the line beside him
    saddle_always: bool = False     # rules.saddle_height: always
    saddle_near: float = 10.0       # ... else counted for shots up to this many metres
    ring: int = RINGS["flanks_and_rear"]


@dataclass(frozen=True)
class YmladFight(FighterList):
    """A compiled Ymlad fight: fighters in scenario order, sides, start distances, rules."""

    fighters: tuple[Fighter, ...]
    side_names: tuple[str, ...]
    rules: YmladRules
    max_rounds: int
    side_distance: tuple[float, ...] = ()
    breaks_at: tuple[float | None, ...] = ()     # per side: share down at which it flees

    @cached_property
    def start(self) -> np.ndarray:
        """(c,) float32 start positions on the line (side 0 at 0)."""
        distances = list(self.side_distance) or [0.0] * len(self.side_names)
        return start_positions(self.side_of, distances)



# --- the formulas on compiled fighters ---------------------------------------------------------


def effort(f: Fighter, style: int) -> int:
    """Skirmish effort in ``style`` with every fixed modifier; the round adds the rest
    (harm penalty, height, range, group bonus, disengagement)."""
    if style == MISSILE:
        base = missile_effort(f.dexterity, f.skill[MISSILE], f.weapon[MISSILE])
        return (base + f.light_missile + f.wind + f.mounted_missile + f.encumbrance
                + f.effort_bonus[MISSILE])
    if style == FORMATION:
        base = formation_effort(f.body_skirmish, f.skill[FORMATION], f.weapon[FORMATION])
    elif style == MELEE:
        base = melee_effort(f.body_skirmish, f.dexterity, f.skill[MELEE], f.weapon[MELEE])
        base += DUAL_WIELD_BONUS * f.dual
    else:
        base = close_score(f.body_skirmish, f.dexterity, f.skill[CLOSE], f.weapon[CLOSE])
        base += f.lever
    return base + f.light_contact + f.encumbrance + f.effort_bonus[style]


def resistance(f: Fighter, style: int) -> int:
    """Skirmish resistance in ``style`` with every fixed modifier; the round adds the harm
    penalty (not in missile combat, whose resistance has no skill) and a moving target."""
    if style == MISSILE:
        base = missile_resistance(f.body_missile, f.missile_shield) + f.cover
        return base + f.angle + f.encumbrance + f.resistance_bonus[MISSILE]
    if style == FORMATION:
        base = formation_resistance(f.body_skirmish, f.skill[FORMATION], f.weapon[FORMATION],
                                    f.shield)
    elif style == MELEE:
        base = melee_resistance(f.body_skirmish, f.dexterity, f.skill[MELEE], f.weapon[MELEE],
                                f.shield)
        base += DUAL_WIELD_BONUS * f.dual
    else:
        base = close_score(f.body_skirmish, f.dexterity, f.skill[CLOSE], f.weapon[CLOSE])
    return base + f.angle + f.light_contact + f.encumbrance + f.resistance_bonus[style]


def angled_resistance(f: Fighter, style: int, angle: int) -> int:
    """Resistance to a contact attack from the front, a flank or the rear (seed, Angle: -1
    from the side, -2 from behind, less for sideways or all-round vision; the shield only
    counts against foes in front). A fighter set at an angle (``angle:``) keeps the worse."""
    if angle == FROM_FRONT:
        return resistance(f, style)
    penalty = f.flank_angle if angle == FROM_SIDE else f.rear_angle
    return resistance(replace(f, angle=min(f.angle, penalty), shield=0), style)


def danger(f: Fighter) -> int:
    """How dangerous a fighter looks (lab, for the ``dangerous`` target policy): its skirmish
    effort in its preferred style plus the harm effort of its weapon's best subtype."""
    style = f.style if f.style != MISSILE or f.missile is not None else f.contact_style
    w = f.harm[style]
    best = max(w.slashing, w.piercing, w.pummeling)
    return effort(f, style) + harm_effort(f.body_harm, f.strength if w.strength else 0, best)


def fights_back_at(f: Fighter, holder: Fighter) -> bool:
    """Does ``f``, held in close combat by ``holder`` without wanting it, fight back (else it
    tries to disengage)? ``rules.tables.fights_back`` on its policy and the two close contests
    (seed, Close: it "can engage in close combat too, or try to disengage")."""
    return fights_back(f.held, effort(f, CLOSE) - resistance(holder, CLOSE),
                       effort(holder, CLOSE) - resistance(f, CLOSE))


def height_bonus(attacker: Fighter, defender: Fighter, style: int,
                 saddle: bool = True) -> int:
    """Seed, Height: +1 fighting down, -1 fighting up; not in close combat. ``saddle``
    false: a mount's height does not count (a long missile shot, ``rules.saddle_height``;
    seed: "when shooting arrows tens of meters away from horseback")."""
    mine, theirs = attacker.height, defender.height
    if not saddle:
        mine, theirs = mine - attacker.saddle, theirs - defender.saddle
    if style == CLOSE or mine == theirs:
        return 0
    return HEIGHT_BONUS if mine > theirs else -HEIGHT_BONUS


def subtype_margins(a: Fighter, d: Fighter, style: int, band: int = 0, charge: bool = False,
                    hardness: bool = True) -> tuple[int, int, int]:
    """Harm effort minus harm resistance for slashing, piercing and pummeling (seed, Wounding).

    Armour: the hardness difference comes off the armour score, then one point of harm per
    1 (slashing), 2 (broad) or 3 (narrow piercing) or 4 (pummeling) armour points, rounded.
    Missiles add the range band's piercing harm penalty; a charge +1 to contact piercing.
    """
    w = a.harm[style]
    strength = a.strength if w.strength else 0
    armour = effective_armour(d.armour, d.armour_hardness, w.hardness, hardness)
    pierce_div = NARROW_DIVISOR if w.narrow else BROAD_DIVISOR
    pierce = w.piercing + w.range_harm[band] + (CHARGE_PIERCING_BONUS if charge else 0)
    out = []
    for score, divisor, subtype in ((w.slashing, w.slashing_divisor, SLASHING),
                                    (pierce, pierce_div, PIERCING),
                                    (w.pummeling, PUMMEL_DIVISOR, PUMMELING)):
        e = harm_effort(a.body_harm, strength, score)
        r = harm_resistance(d.body_harm, armour_reduction(armour, divisor)) + d.resist[subtype]
        out.append(e - r)
    return out[0], out[1], out[2]


def harm_margin(a: Fighter, d: Fighter, style: int, band: int = 0, charge: bool = False,
                hardness: bool = True) -> tuple[int, int]:
    """(harm effort - harm resistance, kind) of ``a``'s successful attack on ``d``.

    The attacker picks the subtype doing most harm unless its policy names one; a stun uses
    pummeling only (seed, Stunning); grappling works only in close combat (seed, Grappling:
    3 x body harm + strength + weapon grapple on both sides; armour plays no part).
    """
    if a.harm_kind == GRAPPLE and style == CLOSE:
        g = a.harm[CLOSE]
        e = grapple_score(a.body_harm, a.strength, g.grapple)
        r = grapple_score(d.body_harm, d.strength, d.harm[CLOSE].grapple) + d.resist[3]
        return e - r, GRAPPLE
    margins = subtype_margins(a, d, style, band, charge, hardness)
    if a.harm_kind == STUN:
        return margins[PUMMELING], STUN
    if a.harm_subtype == BEST:
        return max(margins), WOUND
    return margins[a.harm_subtype], WOUND


# --- compiling a scenario ---------------------------------------------------------------------


def compile_fight(scenario: Any, tables: Any) -> YmladFight:
    """Turn a validated ``YmladScenario`` and its resolved tables into a :class:`YmladFight`."""
    r = scenario.rules
    specs = scenario.members(tables)
    if len(specs) > MAX_FIGHTERS:
        raise ScenarioError([Problem(f"a Ymlad fight holds at most {MAX_FIGHTERS} fighters "
                                     f"(places are int8 in the kernel); this one has "
                                     f"{len(specs)}", path="sides")])
    names = [name for _, name, _, _ in specs]
    sides = [side for side, _, _, _ in specs]
    built, problems = [], {}
    for side, name, spec, member in specs:
        try:
            built.append(replace(_fighter(side, name, spec, scenario, tables), row=member.row,
                                 priority=_priority(name, spec.policy, names, sides, side)))
        except ScenarioError as err:        # every fighter's refusal, at its member's line
            j = next(k for k, m in enumerate(scenario.sides[side].members) if m is member)
            for p in err.problems:
                path = f"sides[{side}].members[{j}]" + (f".{p.path}" if p.path else "")
                problems.setdefault((path, p.message), replace(p, path=path))
    if problems:
        raise ScenarioError(problems.values())
    fighters = tuple(built)
    _check_armour(scenario, specs, fighters)
    distances = tuple(scenario.distance if s.distance is None else s.distance
                      for s in scenario.sides)
    return YmladFight(
        fighters=fighters,
        side_names=tuple(s.name for s in scenario.sides),
        rules=YmladRules(r.hardness, r.contact, r.room_to_retreat, r.parting_blows,
                         r.moving_shots, LANCE_CHARGES[r.lance_charge],
                         r.weapon_switch == "attack", r.holes, r.saddle_height == "always",
                         r.saddle_height_near, RINGS[r.ring]),
        max_rounds=scenario.max_rounds,
        side_distance=distances,
        breaks_at=tuple(s.morale.breaks_at for s in scenario.sides),
    )


def _check_armour(scenario: Any, specs: list, fighters: tuple[Fighter, ...]) -> None:
    """Seed, Building blocks: "Armor has a score that lies in the 0 - 8 range". Pieces that
    add up to more are refused, naming the member."""
    problems: dict[str, Problem] = {}
    for (side, _, _, member), f in zip(specs, fighters, strict=True):
        if f.armour > ARMOUR_MAX + 1e-9:
            j = next(k for k, m in enumerate(scenario.sides[side].members) if m is member)
            path = f"sides[{side}].members[{j}].armour"
            problems.setdefault(path, Problem(
                f"the armour pieces add up to {f.armour:.2f}; armour lies in the "
                f"0-{ARMOUR_MAX} range (seed 002, Building blocks)", path))
    if problems:
        raise ScenarioError(problems.values())


def _priority(name: str, policy: Any, names: list[str], sides: list[int],
              side: int) -> tuple[int, ...]:
    """Rank of every fighter in a ``fixed`` policy's ``targets`` list (unlisted: after all).

    A name is a fighter's display name, or a member's name shared by its ``count`` copies
    (``Skeleton warrior`` names ``Skeleton warrior#1`` ... alike). Other policies: all 0.
    """
    if policy.target != "fixed":
        return (0,) * len(names)
    if not policy.targets:
        _fail(name, "target: fixed needs the foes' names in policy.targets", "policy")
    base = [n.rsplit("#", 1)[0] if "#" in n else n for n in names]
    rank = [len(policy.targets)] * len(names)
    for k, wanted in reversed(list(enumerate(policy.targets))):
        hits = [j for j in range(len(names)) if wanted in (names[j], base[j])]
        if not hits:
            near = closest(wanted, sorted(set(names) | set(base)))
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            _fail(name, f"policy.targets names {wanted!r}, who is not in this fight{hint}",
                  "policy")
        if all(sides[j] == side for j in hits):
            _fail(name, f"policy.targets names {wanted!r}, who is on its own side", "policy")
        for j in hits:
            rank[j] = k
    return tuple(rank)


def _fail(name: str, message: str, field: str) -> NoReturn:
    """A problem only the compiled fight shows: a clean ScenarioError at ``field`` of the
    fighter (:func:`compile_fight` puts it under the member's path, and
    ``balance.api.compile_scenario`` adds the file and line), like the loader's."""
    raise ScenarioError([Problem(f"fighter {name!r}: {message}", field)])


def _harm(w: Any, tables: Any) -> Harm:
    return Harm(w.slashing, w.piercing, w.pummeling, w.narrow, w.grapple,
                tables.materials[w.material].hardness, w.slashing_divisor or SLASH_DIVISOR)


def _fighter(side_index: int, name: str, spec: Any, scenario: Any, tables: Any) -> Fighter:
    side = scenario.sides[side_index]
    rules, cond = scenario.rules, scenario.conditions
    body = tables.body_sizes[spec.body]
    strength = tables.talent_modifiers[str(spec.talents.strength)].modifier
    dexterity = tables.talent_modifiers[str(spec.talents.dexterity)].modifier
    names, levels = style_weapons(spec)
    skill = tuple(tables.skill_modifiers[str(level)].modifier for level in levels)
    form_w, melee_w, close_w = (tables.hand_weapons[w] for w in names[FORMATION:])
    off = tables.hand_weapons[spec.off_hand] if spec.off_hand else None
    shield = tables.shields[spec.shield] if spec.shield else None
    missile_row = tables.missile_weapons[spec.missile] if spec.missile else None

    # Seed: shields and dual wielding take the off hand; only light weapons go there.
    for carried in dict.fromkeys(names[FORMATION:]):
        if shield is not None and tables.hand_weapons[carried].hands == 2:
            _fail(name, f"{carried} is two-handed and cannot be used with a shield", "shield")
    if off is not None and not off.light:
        _fail(name, f"only light weapons go in the off hand (seed: daggers, short swords); "
                    f"{spec.off_hand} is not light", "off_hand")
    for carried in dict.fromkeys(names[FORMATION:]):
        if off is not None and tables.hand_weapons[carried].hands == 2:
            _fail(name, f"{carried} is two-handed, so there is no hand for {spec.off_hand}",
                  "off_hand")
    if missile_row is not None and spec.mounted != "no" and not missile_row.mounted:
        _fail(name, f"{spec.missile} cannot be used from horseback (seed, Mounted combat)",
              "missile")

    # Seed, Close: a weapon with two close scores helps wrestling when used two-handed,
    # which needs a free off hand (no shield, no second weapon).
    free_hand = shield is None and off is None
    lever = 0
    if close_w.close_lever is not None and spec.policy.lever and (free_hand or
                                                                  close_w.hands == 2):
        lever = close_w.close_lever - close_w.close

    front = spec.angle == "front"   # seed: shields only work against foes in front
    bonus = shield.bonus if shield is not None and front else 0
    missile_bonus = min(bonus + 1, 3) if spec.crouch and bonus else bonus

    armour, hardness, armour_kg = _armour(spec, tables)
    missile = harm_missile = None
    if missile_row is not None:
        strong = missile_adds_strength(missile_row.kind, missile_row.strength,
                                       rules.missile_strength)
        harm_missile = Harm(missile_row.slashing, missile_row.piercing, missile_row.pummeling,
                            missile_row.narrow, 0,
                            tables.materials[missile_row.material].hardness,
                            strength=strong, range_harm=missile_row.range_harm)
        missile = Missile(spec.missile, missile_row.missile, missile_row.close,
                          missile_row.medium, missile_row.max, missile_row.range_effort,
                          missile_row.rounds_per_shot,
                          missile_row.shots if spec.shots is None else spec.shots,
                          strong_thrower_shift(strength, missile_row.thrown))
    carried_kg = sum(tables.hand_weapons[w].weight for w in dict.fromkeys(names[FORMATION:]))
    load = (armour_kg + (shield.weight if shield else 0.0) + carried_kg
            + (off.weight if off else 0.0) + (missile_row.weight if missile_row else 0.0)
            + spec.load)
    capacity = (rules.capacity_kg + rules.capacity_per_strength_kg * strength) * body.capacity
    encumbrance = _encumbrance(spec.encumbrance, load, capacity, tables)

    threshold = spec.harm_threshold or side.harm_threshold or rules.harm_threshold
    track = _track(tables.harm_track, threshold)
    policy = spec.policy
    style = STYLES[policy.style]
    contact_style = STYLES[policy.contact_style or
                           (policy.style if policy.style != "missile" else "melee")]
    light_c = 0 if spec.darkvision else LIGHT_CONTACT[cond.light]
    light_m = 0 if spec.darkvision else LIGHT_MISSILE[cond.light]
    if policy.harm in SUBTYPES:
        subtype, kind = SUBTYPES[policy.harm], WOUND
    else:
        subtype = PUMMELING if policy.harm == "stun" else BEST
        kind = {"stun": STUN, "grapple": GRAPPLE}.get(policy.harm, WOUND)
    far = 0.0
    if missile is not None:
        far = (missile.close, missile.medium, missile.max)[BANDS[policy.range]]
    height = (spec.height if spec.height is not None else side.height)
    saddle = 1 if spec.mounted != "no" else 0    # seed: horseback is a height advantage
    lance = lance_charger(spec.mounted != "no", policy.charge, form_w.lance,
                          LANCE_CHARGES[rules.lance_charge])
    # The weapon that leads in a charge: the lance of a lance charge, else the weapon of
    # the style it fights in (a close fighter closes in with its melee weapon).
    leads = form_w if lance or contact_style == FORMATION else melee_w
    ids = {w: k for k, w in enumerate(dict.fromkeys(names))}
    res = spec.resist
    return Fighter(
        side=side_index, name=name, strength=strength, dexterity=dexterity,
        skill=skill,  # type: ignore[arg-type]
        body_skirmish=body.skirmish, body_missile=body.missile_resistance, body_harm=body.harm,
        weapon=(missile.score if missile else 0, form_w.formation, melee_w.melee,
                close_w.close),
        lever=lever,
        harm=(harm_missile, _harm(form_w, tables), _harm(melee_w, tables),
              _harm(close_w, tables)),
        missile=missile, shield=bonus, missile_shield=missile_bonus, dual=off is not None,
        armour=armour, armour_hardness=hardness, encumbrance=encumbrance,
        light_contact=light_c, light_missile=light_m, wind=WIND[cond.wind],
        mounted_missile=MOUNTED_MISSILE[spec.mounted], mounted=spec.mounted != "no",
        height=height + saddle, saddle=saddle, lance_charge=lance,
        held=HELD[policy.held],
        weapon_id=tuple(ids[w] for w in names),  # type: ignore[arg-type]
        reach_through=form_w.polearm,
        angle=ANGLE[spec.vision][spec.angle], flanked=spec.angle in ("side", "rear"),
        cover=spec.cover, moving=MOVING[spec.moving],
        effort_bonus=_per_style(spec.effort), resistance_bonus=_per_style(spec.resistance),
        resist=(res.slashing, res.piercing, res.pummeling, res.grappling),
        feels_pain=spec.feels_pain, stunnable=spec.stunnable, threshold=threshold,
        penalty_at=track["penalty_at"], penalty=track["penalty"], down_at=track["down_at"],
        dead_at=track["dead_at"], wasted_at=track["wasted_at"],
        yield_at=_level(policy.yield_at, tables, threshold),
        flee_at=_level(policy.flee_at, tables, threshold), target=POLICIES[policy.target],
        flank_angle=ANGLE[spec.vision]["side"], rear_angle=ANGLE[spec.vision]["rear"],
        style=style, contact_style=contact_style, harm_subtype=subtype, harm_kind=kind,
        far=far, keep_at=policy.keep_at, charge=policy.charge, polearm=melee_w.polearm,
        flanks_secured=side.flanks_secured,
        speed=body.speed if spec.speed is None else spec.speed,
        reach=body.reach + leads.reach,
    )


def style_weapons(spec: Any) -> tuple[tuple[str, str, str, str], tuple[int, int, int, int]]:
    """The weapon a fighter takes up in each style and its skill level with it.

    Returns (names, levels), both per style (missile, formation, melee, close). Missile:
    ``missile:<row>`` (or ``missile:`` without one), so it is never the same weapon as a
    hand weapon of the same name (a thrown axe is gone). Contact styles: ``weapons.<style>``,
    else ``weapon``; close: ``weapons.close``, else ``close_weapon``, else the melee weapon
    (close combat starts from a melee: a knight who drew his sword wrestles with it, not
    with his lance). A style's level is the
    ``skill:`` given with its weapon, else the fighter's skill in that style (seed, The
    party: the skeletons' skills are "for the weapons that the skeletons prefer to use. If
    they are forced to switch to other weapons, skill levels are lower").
    """
    names, levels = [f"missile:{spec.missile or ''}"], [spec.skills.missile]
    for style in ("formation", "melee", "close"):
        choice = getattr(spec.weapons, style)
        weapon = choice if isinstance(choice, str) else getattr(choice, "weapon", None)
        level = getattr(choice, "skill", None)
        fallback = (spec.close_weapon or names[-1]) if style == "close" else spec.weapon
        names.append(weapon or fallback)
        levels.append(getattr(spec.skills, style) if level is None else level)
    return tuple(names), tuple(levels)  # type: ignore[return-value]


def _level(level: str, tables: Any, threshold: int) -> int:
    """Harm at which a policy's harm track ``level`` is reached (``never``: never)."""
    if level == "never":
        return NEVER
    return level_reached_at(tables.harm_track[level].above, threshold)


def _per_style(bonus: Any) -> tuple[int, int, int, int]:
    return bonus.missile, bonus.formation, bonus.melee, bonus.close


def _armour(spec: Any, tables: Any) -> tuple[float, float, float]:
    """(armour score, hardness, weight in kg) of a fighter's armour pieces.

    Seed: protection 2 x thickness x construction x importance, weight 8 x thickness x
    construction weight x area, summed over pieces without rounding. Lab: the set's hardness is
    the protection-weighted mean of its pieces' materials (the seed gives one per weapon and
    one per armour, not per piece); ``armour_score`` / ``armour_material`` override.
    """
    score = weight = hard = 0.0
    for name in spec.armour:
        piece = tables.armour[name]
        c = tables.constructions[piece.construction]
        t = tables.thickness_factors[piece.thickness].factor
        importance = sum(tables.body_parts[p].importance for p in piece.parts)
        area = sum(tables.body_parts[p].area for p in piece.parts)
        protection = armour_protection(t, c.protection, importance)
        score += protection
        weight += armour_weight(t, c.weight, area)
        hard += protection * tables.materials[piece.material or c.material].hardness
    hardness = hard / score if score > 0 else 0.0
    if spec.armour_material is not None:
        hardness = float(tables.materials[spec.armour_material].hardness)
    if spec.armour_score is not None:
        score = spec.armour_score
    return score, hardness, weight


def _encumbrance(forced: str | None, load: float, capacity: float, tables: Any) -> int:
    """Penalty of the first encumbrance level whose load / capacity limit holds the load."""
    levels = sorted(tables.encumbrance.items(), key=lambda kv: kv[1].up_to)
    if forced is not None:
        return tables.encumbrance[forced].penalty
    ratio = load / capacity if capacity > 0 else float("inf")
    for _, level in levels:
        if ratio <= level.up_to:
            return level.penalty
    return levels[-1][1].penalty


def encumbrance_ratio(load: float, strength: int, capacity_factor: float,
                      capacity_kg: float = 25.0, per_strength: float = 5.0) -> float:
    """Load over carrying capacity (lab: 25 kg + 5 per strength point, times body size)."""
    return load / ((capacity_kg + per_strength * strength) * capacity_factor)


def _track(rows: Any, threshold: int) -> dict[str, Any]:
    """The harm track for one harm threshold: penalty levels, and where one goes down / dies.

    Lab: a level is reached when harm exceeds ``above`` x threshold (data/ymlad/harm_track).
    Seed, Harm effects: for wounds "'Dead' means dead"; for grappling "'dead' means not yet
    dead but suffocating towards death; 'wasted' means mangled and strangled to death". So
    long-lasting harm kills at the first dead or wasted level (``dead_at``), grappling harm
    only at the wasted level (``wasted_at``); before that it only keeps the fighter down.
    """
    standing = sorted((r.above, r.penalty) for r in rows.values() if r.status == "standing")
    worst = {status: min((level_reached_at(r.above, threshold) for r in rows.values()
                          if r.status == status), default=NEVER)
             for status in ("incapacitated", "dead", "wasted")}
    return {
        "penalty_at": tuple(level_reached_at(a, threshold) for a, _ in standing),
        "penalty": tuple(p for _, p in standing),
        "down_at": min(worst.values()),
        "dead_at": min(worst["dead"], worst["wasted"]),
        "wasted_at": worst["wasted"],
    }


def track_penalty(f: Fighter, total: int) -> int:
    """Penalty on skirmishes at harm ``total`` (0 for those who feel no pain)."""
    penalty = 0
    for at, value in zip(f.penalty_at, f.penalty, strict=True):
        if total >= at:
            penalty = value
    return penalty if f.feels_pain else 0
