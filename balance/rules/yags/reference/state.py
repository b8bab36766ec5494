"""Readable scalar reference, part 1: one fighter's changing state, and the small rules that
read it (what it holds, its stance, its penalties, whether it may act, defend or strike).

Written to be read beside docs/rules/yags.md; the vectorised kernel is checked against the
reference built from these pieces, so nothing here is shared with the kernel except the
table code in ``tracks``, ``tactics`` and the compiled numbers in ``fighters``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from balance.engine.status import STANDING, YIELDED
from balance.rules.yags.compile import FOLLOW, Fighter, MountStats, YagsRules
from balance.rules.yags.rules.equipment import BARE, MAIN, SPARE, Loadout
from balance.rules.yags.rules.tactics import (  # noqa: F401 (the action codes, re-exported)
    ATTACK,
    ESCAPE,
    NO_ACTION,
    PICK_UP,
    REROLL,
    RETREAT,
    STAND_UP,
    Tactics,
    regains_distance,
)
from balance.rules.yags.rules.tracks import (
    BROKEN_LIMB_PENALTY,
    DEFENCE_PENALTY,
    DEFENSIVE,
    GRAPPLED,
    PRONE,
    defences_allowed,
    fatigue_penalty,
    stance_mods,
    track_penalty,
)


@dataclass
class MountState:
    """A ridden mount's changing state: a body with its own tracks (seed 000, Fighting Large
    Animals: a foe on foot may strike at the mount)."""

    stats: MountStats
    wounds: int = 0
    stuns: int = 0
    status: int = STANDING
    fighting_on_at_fatal: bool = False

    @property
    def health(self) -> int:
        return self.stats.health


@dataclass
class FighterState:
    """One fighter's changing state during a fight; its fixed numbers are in ``fighter``."""

    index: int                      # position in scenario order
    fighter: Fighter
    initiative: int = 0             # agility x 4 + d20, rolled once per fight
    tiebreak: int = 0               # random order among equal initiatives, drawn once
    fumbled_initiative: bool = False
    wounds: int = 0                 # 0..6, held at 6 (fatal) while alive
    stuns: int = 0                  # 0..6, held at 6 (beaten)
    fatigue: int = 0                # points from fumbles and manoeuvres
    status: int = STANDING
    fighting_on_at_fatal: bool = False
    # What it holds (equipment.MAIN, SPARE or BARE) and what lies where.
    weapons: int = MAIN
    spare_left: bool = False        # the spare weapon is still in its sheath
    main_down: bool = False         # the primary weapon lies within reach (can be picked up)
    spare_down: bool = False
    # Position and grapples.
    prone: bool = False
    partner: int | None = None      # the fighter it grapples with (holding or held)
    holding: bool = False           # it holds its partner (else its partner holds it)
    hold: int = 0                   # the attribute penalty of the hold on it
    neck: bool = False              # the hold on it is on the neck
    limbs: int = 0                  # broken limbs, -40 each
    inside: set[int] = field(default_factory=set)   # rules.reach closing: the foes whose
    #                                 longer reach it has got inside (one entry per pair)
    last_target: int | None = None  # group fights: last round's target (kept while it stands)
    rear: bool = False              # group fights: it attacks from the second rank this round
    wants_target: bool = False      # group fights: it attacks, target not yet chosen
    mount: MountState | None = None
    mounted: bool = False
    # This round's declarations (Round 2) and round-only modifiers.
    action: int = NO_ACTION
    stance: int = -1                # the stance declared this round (-1: the member's own)
    target: int | None = None
    manoeuvre: int = 0
    at_mount: bool = False          # the attack aims at the target's mount
    charging: bool = False          # this round's attack is the mounted charge
    stunting: bool = False
    retreating: bool = False
    lost_round: int = 0             # round in which it lost the rest of its actions
    round_mod: int = 0              # drawing a weapon, being overwhelmed: this round only
    defences: int = 0               # number of defences declared (the free one not counted)
    defended: tuple[int, ...] = field(default_factory=tuple)  # attackers its defences cover
    # At a distance (docs/rules/yags-missiles.md): position on the line (metres), its missile
    # weapon (reference/missiles.py, Gun), this round's approach and speed override.
    pos: float = 0.0
    ran_round: int = 0              # the last round it ran at a foe (a mounted charge follows)
    gun: Any = None
    approach: int = 0
    pace: int | None = None

    @property
    def side(self) -> int:
        return self.fighter.side

    @property
    def standing(self) -> bool:
        return self.status == STANDING

    @property
    def health(self) -> int:
        return self.fighter.health

    @property
    def tactics(self) -> Tactics:
        return self.fighter.tactics

    @property
    def gear(self) -> Loadout:
        """What it fights with now (equipment loadout; grappled: brawl)."""
        gear = self.fighter.gear
        if not gear:
            return self.fighter.basic_loadout
        return gear[self.weapons + 3 * (self.partner is not None)]

    @property
    def stance_now(self) -> int:
        """Prone and grappled replace the declared stance; a retreat is made defensively."""
        if self.prone:
            return PRONE
        if self.partner is not None:
            return GRAPPLED
        return DEFENSIVE if self.retreating else self.declared_stance

    @property
    def declared_stance(self) -> int:
        """The stance it declared this round (its member's, or its stance plan's)."""
        return self.fighter.stance if self.stance < 0 else self.stance

    @property
    def technique(self) -> bool:
        """Mounted combat technique in use: known, and the style fits (seed 000)."""
        return self.fighter.mounted_combat and self.gear.technique

    def numbers(self) -> tuple[int, int, int]:
        """Attack, defence and damage before penalties and dice: loadout + stance + riding.

        Seed 000, Mounted Combat: riding adds to attacks from horseback; with the mounted
        combat technique it adds to defence and damage too.
        """
        g = self.gear
        a, d, m = stance_mods(self.stance_now, g.chain)
        if not self.mounted:
            return g.attack + a, g.defence + d, g.damage + m
        ride = self.fighter.riding
        tech = ride if self.fighter.mounted_combat and g.technique else 0
        return g.attack + a + ride, g.defence + d + tech, g.damage + m + tech


@dataclass
class Combat:
    """Everyone in one fight, in scenario order, and the rule options."""

    fighters: list[FighterState]
    rules: YagsRules
    breaks_at: tuple[float | None, ...] = ()   # group fights: each side's morale
    seats: list[int] = field(default_factory=list)   # the acting order at the start
    at_distance: bool = False     # positions matter (docs/rules/yags-missiles.md)

    def seats_order(self) -> list[FighterState]:
        """Fighters in their seats: the acting order when the fight began (group fights
        choose targets and resolve flights in this order)."""
        return [self.fighters[i] for i in self.seats]


def condition_penalty(state: FighterState, rules: YagsRules) -> int:
    """Wound + stun + fatigue penalties: what a skill check (riding, stunts, contests of
    strength) suffers. Fatigue costs what the wound track does at its level (seed 000: "in a
    similar way to wounds"), or ``rules.fatigue_penalty`` a level."""
    return (int(track_penalty(state.wounds)) + int(track_penalty(state.stuns))
            + int(fatigue_penalty(state.fatigue, rules.fatigue_penalty)))


def tire(state: FighterState) -> None:
    """A level of fatigue; reaching its exhaustion level the fighter rests at once (seed
    000: "If a character becomes Exhausted then they must immediately rest"): it leaves the
    fight, counted as yielded, even in the middle of the round."""
    state.fatigue += 1
    if state.fatigue >= state.fighter.exhausted_at and state.status == STANDING:
        state.status = YIELDED


def round_penalty(state: FighterState, rules: YagsRules) -> int:
    """Penalty on an attack or defence roll, taken when the roll is made (so a wound taken
    earlier in the round already counts: seed 000, wounds are "a penalty to all actions").

    Condition + multiple defences (seed 000, "Declaring Defenses": 1: 0, 2: -10, 3: -20,
    ...) + a hold's attribute penalty (-1 attribute: -skill per point) + -40 per broken limb
    + this round's drawing and overwhelming penalties.
    """
    return (condition_penalty(state, rules) + int(DEFENCE_PENALTY[state.defences])
            - state.hold * state.gear.skill + BROKEN_LIMB_PENALTY * state.limbs
            + state.round_mod)


def helpless(state: FighterState) -> bool:
    """Seed 000, Grapple: held with a penalty at least its strength or agility, it cannot act."""
    f = state.fighter
    return state.partner is not None and not state.holding and \
        state.hold >= min(f.strength, f.agility)


def can_act(state: FighterState, round_no: int) -> bool:
    """Standing, not losing round 1 to a fumbled initiative, not helpless in a hold, and not
    robbed of the rest of this round by being grappled."""
    return (state.status == STANDING and not (round_no == 1 and state.fumbled_initiative)
            and state.lost_round != round_no
            and (state.partner is None or not helpless(state)))


def can_strike(state: FighterState, foe: FighterState, round_no: int) -> bool:
    """May it make a free or counter strike at ``foe``? Not while re-rolling initiative or
    retreating (no attacks that round), nor at anyone but its partner while grappled."""
    return (can_act(state, round_no) and state.action not in (REROLL, RETREAT)
            and state.partner in (None, foe.index))


def defends(state: FighterState, attacker: FighterState, round_no: int) -> bool:
    """Does it roll a defence against ``attacker``? Its declared (or free shield) defences
    must cover that attacker; grappled, it defends only against its partner."""
    return (attacker.index in state.defended and can_act(state, round_no)
            and state.partner in (None, attacker.index))


def max_defences_now(state: FighterState) -> int:
    """Its maximum defences: one more in the defensive stance this round, or retreating (a
    retreat is made in the defensive stance); at most 6."""
    defensive = state.declared_stance == DEFENSIVE or state.retreating
    return defences_allowed(state.fighter.open_defences, defensive)


def lose_weapon(state: FighterState, *, recoverable: bool = True) -> None:
    """The weapon in the primary hand is lost (disarmed, dropped or broken). Lab's assumption:
    the off-hand item is never the one lost; a dropped weapon can be picked up again."""
    if state.weapons == MAIN:
        state.main_down = recoverable
    elif state.weapons == SPARE:
        state.spare_down = recoverable
    state.weapons = BARE


def threatened_inside(state: FighterState, combat: Combat) -> bool:
    """Has a standing foe with a shorter weapon got inside its reach (rules.reach closing)?"""
    return any(foe.standing and foe.side != state.side and state.index in foe.inside
               and foe.gear.reach < state.gear.reach for foe in combat.fighters)


def open_distance(state: FighterState, combat: Combat) -> None:
    """It gave ground (a retreat): every foe that had got inside its reach is outside again;
    under rules.regain_reach follow, not a foe that attacked it this round (it followed:
    ``reach.regains_distance``)."""
    follow = combat.rules.regain_reach == FOLLOW
    for foe in combat.fighters:
        attacked = foe.action == ATTACK and foe.target == state.index
        if regains_distance(True, attacked, follow):
            foe.inside.discard(state.index)


def knock_down(state: FighterState) -> None:
    """Knocked to the ground: prone (a rider falls off its mount)."""
    state.prone = True
    state.mounted = False


def release(state: FighterState, combat: Combat) -> None:
    """End the grapple it is in, for both partners."""
    if state.partner is None:
        return
    other = combat.fighters[state.partner]
    for s in (state, other):
        s.partner, s.holding, s.hold, s.neck = None, False, 0, False


def settle(combat: Combat) -> None:
    """After anything that can fell someone: grapples with a fallen partner end, and a rider
    whose mount has fallen falls too."""
    for state in combat.fighters:
        if state.partner is not None and not (
                state.standing and combat.fighters[state.partner].standing):
            release(state, combat)
        if state.mounted and state.mount.status != STANDING:
            knock_down(state)
