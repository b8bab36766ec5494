"""Readable scalar reference of the percentile rules (docs/rules/percentile.md, seed 004).

One fight at a time, a small mutable state per fighter, one function per rule step, written
to be read beside the rules document. It is the oracle the vectorised kernel is tested
against in distribution, so it is written independently of that kernel: only the pure table
functions (``tables``), the compiled numbers (``fighters``), the shared distance model and
the blow resolution in ``reference.strike`` (also scalar) are used. Dice are rolled die by
die; a d100 is ``int(rng.integers(1, 101))``.

A round ("The round" in the doc): 1 stunned fighters try to recover, 2 everyone keeps or
picks a target, 3 movers move (fastest first), 4 intents (weapon switches, bracing, DEX
ranks; who strikes from the side), 5 actions in DEX-rank order (equal ranks in a random
order drawn each round), 6 extra attacks on the last rank, 7 sides that break run, and
end-of-round book-keeping.
"""

from __future__ import annotations

import math

import numpy as np

from balance.engine.distance import CLOSE, HOLD, KEEP_DISTANCE, step
from balance.engine.status import DRAW, FLED, STANDING, UNCONSCIOUS, TrialOutcome
from balance.rules.percentile.compile import (
    DRAW_RANKS,
    FIST,
    MAIN,
    MELEE,
    MOVE_AUTO,
    OFF,
    STAND,
    STAND_AND_FIGHT,
    PercentileFight,
    resistance_table,
)
from balance.rules.percentile.reference.groups import choose_group_targets, rout, side_attacks
from balance.rules.percentile.reference.strike import (
    DISARM,
    ENTANGLE,
    KNOCKBACK,
    STRIKE,
    Combat,
    FighterState,
    breaking_off,
    d100,
    engaged,
    entangle_item,
    fall_back,
    fall_down,
    free_blow,
    gap,
    held_off,
    lengths_at_blow,
    let_inside,
    melee_attack,
    missile_volley,
    percentile_roll,
    raw_harm,
    roll_level,
    rule,
    switch_to_melee,
    thresholds,
)
from balance.rules.percentile.rules import tables as tb

# --- 1. poisons, knocked-out and stunned fighters ---------------------------------------------


def poisons_take_hold(combat: Combat, *, rng: np.random.Generator) -> None:
    """With ``rules.poison_onset: table``, each poison loss due this round comes at its
    start (``reference.strike.poison_dose`` holds it back)."""
    for t in combat.fighters:
        if t.poison_at == combat.round_no:
            lost, t.poison_hp, t.poison_at = t.poison_hp, 0, 0
            raw_harm(t, lost, combat, rng=rng)


def ambush(combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 004, ambushes (before round 1): each ambusher needs a successful Move Quietly
    (sneaking into position) or Hide (lying in wait); one failure gives the ambush away.
    Otherwise each target rolls Search to spot the ambushers first, at half its Search
    against hidden ones ("half as likely to be noticed"); a target who fails is surprised:
    it neither acts nor parries nor dodges in round 1."""
    for side, way in enumerate(combat.fight.ambush):
        if not way:
            continue
        ambushers = [s for s in combat.fighters if s.side == side]
        unseen = all([percentile_roll(combat, s.f.stealth, rng=rng) for s in ambushers])
        for s in combat.fighters:
            if s.side != side:
                spot = rule(tb.spot_chance, s.f.search, way == 2)
                if not percentile_roll(combat, spot, rng=rng) and unseen:
                    s.surprised = True


def wake(combat: Combat, round_no: int) -> None:
    """Seed 004: a knockout leaves the target unconscious for 1D10+10 rounds; then it comes
    to, on the ground (the lab's: it must stand up like any downed fighter)."""
    for s in combat.fighters:
        if s.status == UNCONSCIOUS and s.wake_at and s.wake_at <= round_no:
            s.status, s.down, s.wake_at = STANDING, True, 0


def recover_from_stun(combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 004, stunning: each round a stunned fighter ends the effect on CON x 5 or less."""
    for s in combat.fighters:
        if s.standing and s.stunned and percentile_roll(combat, 5 * s.f.CON, rng=rng):
            s.stunned = False


# --- 2. targets ----------------------------------------------------------------------------
# Who attacks whom, and (after movement) who strikes from the side: ``reference.groups``.


# --- 3. movement ---------------------------------------------------------------------------


def step_apart(combat: Combat) -> None:
    """Out of reach of the foe whose longer weapon it had got inside, a fighter is outside
    it again (seed 004's hold-off starts anew when they close)."""
    for s in combat.fighters:
        if s.inside is not None and not engaged(s, combat.fighters[s.inside], combat):
            s.inside = None


def rise_intents(combat: Combat, round_no: int) -> None:
    """Policy ``when_down: stand_and_fight`` (default): a fighter down at the round's start
    (its statement of intent) spends the round's defence on the Dodge that gets it up (seed
    004: "a successful Dodge roll gets the downed adventurer back on their feet"; the
    family's Dodge is a defence): no parry or dodge this round, and it still attacks."""
    for s in combat.fighters:
        s.rising = (s.standing and s.down and s.f.when_down == STAND_AND_FIGHT
                    and not s.entangled and not s.surprised
                    and not combat.exhausted(s, round_no))


def can_move(s: FighterState, combat: Combat, round_no: int) -> bool:
    """Who moves: standing, on their feet, not entangled, stunned, exhausted or braced."""
    return (s.standing and s.target is not None and not s.down and not s.entangled
            and not s.surprised and not s.airborne
            and not s.stunned and not combat.exhausted(s, round_no) and not s.bracing)


def movement_wish(s: FighterState, combat: Combat) -> tuple[int, float, float]:
    """The movement policy and the band of distance it wants (near, far), in yards.

    ``auto`` closes with a melee weapon and holds with a missile weapon. Closing stops at
    touching distance (``rules.reach``), or at the entangling weapon's range while an
    entangle is still to be tried, or, for a shooter told to close, at point blank (DEX in
    feet). Keeping distance with a missile weapon keeps the foe between half and full base
    range.
    """
    item, reach = s.item(), combat.rules.reach
    policy = s.f.movement
    if policy == MOVE_AUTO:
        policy = CLOSE if item.kind == MELEE else HOLD
    target = combat.fighters[s.target]
    tangler = entangle_item(s)
    if item.kind != MELEE:
        near = max(reach, s.f.DEX / 3) if policy == CLOSE else item.range / 2
        far = float(item.range) if policy == KEEP_DISTANCE else near
    elif tangler is not None and not target.entangled:
        near = far = float(s.f.items[tangler].range)
    else:
        near = far = reach
    # positions are float32 on the shared line: compare in the same precision
    return policy, float(np.float32(near)), float(np.float32(far))


def move(combat: Combat, round_no: int, *, rng: np.random.Generator) -> None:
    """Movers move in DEX order (ties in a random order), each toward or away from where its
    target stands now, by the shared distance model, up to its move (or its mount's)."""
    movers = [s for s in combat.fighters if can_move(s, combat, round_no)]
    wishes = {s.index: movement_wish(s, combat) for s in movers}
    if not any(_wants_to_move(s, combat, *wishes[s.index]) for s in movers):
        return
    for s in sorted(movers, key=lambda s: (-s.f.DEX, -s.tiebreak)):
        policy, near, far = wishes[s.index]
        foe = combat.fighters[s.target]
        speed = s.f.mount_move if s.mounted else s.f.move
        new = step(np.float32(s.pos), np.float32(foe.pos), policy, np.float32(speed),
                   np.float32(near), np.float32(far))
        s.moved = abs(float(new) - s.pos)
        s.backed = abs(float(new) - foe.pos) > abs(s.pos - foe.pos)
        s.pos = float(new)
    for s in movers:
        if s.moved > 0:
            slip(s, combat, rng=rng)
            # Seed 004: a charge is made at the end of a full movement; the lab's reading: a
            # rider who runs in (at least rules.charge_run yards) and ends in reach.
            if s.mounted and s.moved >= combat.rules.charge_run and \
                    engaged(s, combat.fighters[s.target], combat):
                s.charging = True


def _wants_to_move(s: FighterState, combat: Combat, policy: int, near: float,
                   far: float) -> bool:
    dist = gap(s, combat.fighters[s.target])
    if policy == CLOSE:
        return dist > near
    if policy == KEEP_DISTANCE:
        return dist < near or dist > far
    return policy != HOLD


def slip(s: FighterState, combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 004, slick surfaces: moving calls for a DEX roll (DEX x 5) or a fall; only a
    roll of 00 also costs 1D6 hit points."""
    if not s.f.slick:
        return
    roll = d100(rng)
    if roll > thresholds(5 * s.f.DEX - s.f.balance_penalty, combat.levels, 1)[2]:
        fall_down(s, combat, rng=rng)
        if roll == 100:
            raw_harm(s, int(rng.integers(1, 7)), combat, rng=rng)


# --- 4. intents ------------------------------------------------------------------------------


def brace(combat: Combat) -> None:
    """Policy ``brace``: while no foe stands in reach, kneel behind a shield (better missile
    blocks, seed 004; no shooting) or set a thrusting long weapon against a charge; a braced
    fighter does not move that round, but strikes a foe who comes into reach."""
    for s in combat.fighters:
        s.bracing = False
        if not (s.standing and s.f.brace and not s.down):
            continue
        foes_near = any(o.side != s.side and o.standing and engaged(s, o, combat)
                        for o in combat.fighters)
        shield = s.item_ok[OFF] and s.f.items[OFF].shield
        spear = s.item().thrusting and s.item().length == tb.LONG and s.item().kind == MELEE
        s.bracing = not foes_near and (shield or spear)


def declare(combat: Combat) -> None:
    """Seed 004's DEX ranks: each fighter acts at DEX less a rank per yard moved, five to
    draw a weapon (unless 101%+ with it) and five per aiming step. A shooter whose target is
    in reach drops the missile weapon for a sidearm (or fists). A closer with the shorter
    weapon, and a rider charging a braced spear, strike after the one they close on."""
    for s in combat.fighters:
        s.key = 0
        if not s.standing or s.target is None:
            continue
        target = combat.fighters[s.target]
        if s.item().kind != MELEE and engaged(s, target, combat):
            switch_to_melee(s)
        rank = s.f.DEX - math.ceil(s.moved - 1e-9)
        if s.draw_pending:
            s.draw_pending = False
            rank = rule(tb.drawn_rank, rank, True, DRAW_RANKS)
        if s.charging:
            # Seed 004: "a charge is made at the end of a full movement": it strikes this
            # round, on the last DEX rank if the ride used up the rider's ranks.
            rank = max(rank, 1)
        s.aim_steps = 0
        item = s.item()
        if item.kind != MELEE and s.f.aim_steps and not s.f.volley and \
                gap(s, target) <= 2 * item.range:
            s.aim_steps = rule(tb.aim_steps, s.f.aim_steps, rank)
            rank -= 5 * s.aim_steps
        s.key = rule(tb.rank_key, rank, True)
    for s in combat.fighters:
        if s.key < 4 or s.target is None or s.moved <= 0:
            continue
        target = combat.fighters[s.target]
        if target.key < 4 or not engaged(s, target, combat):
            continue
        longer = target.item().kind == MELEE and s.item().kind == MELEE and \
            target.item().length > s.item().length
        set_spear = target.spear_set() and s.charging
        if longer or set_spear:
            s.key = rule(tb.strikes_after, s.key, target.key)
    if combat.rules.up_close:
        # Seed 004: a longer weapon is "clumsier to use up close": between two already at
        # close quarters (in reach, neither moved this round) the longer strikes after.
        for s in combat.fighters:
            if s.key < 4 or s.target is None or s.moved > 0 or s.item().kind != MELEE:
                continue
            target = combat.fighters[s.target]
            if (target.key >= 4 and target.moved == 0 and target.item().kind == MELEE
                    and s.item().length > target.item().length and engaged(s, target, combat)):
                s.key = rule(tb.strikes_after, s.key, target.key)


# --- 5. actions ------------------------------------------------------------------------------


def act(combat: Combat, round_no: int, *, rng: np.random.Generator) -> None:
    """Highest DEX rank first; equal ranks in this round's random order (the lab's fair
    stand-in for the family's simultaneous actions). A fighter out of the fight by its turn
    does not act."""
    order = sorted((s for s in combat.fighters if s.key >= 2),
                   key=lambda s: (-s.key, -s.tiebreak))
    for s in order:
        if s.standing:
            take_action(s, combat, round_no, rng=rng)


def take_action(s: FighterState, combat: Combat, round_no: int, *,
                rng: np.random.Generator) -> None:
    """One fighter's action for the round, by the first of these that applies."""
    if combat.exhausted(s, round_no) or s.surprised:
        return
    if s.entangled:
        # Seed 004: held the rest of the round and all the next; then DEX x 3 frees.
        # "(or a knife attack against a net)": the better of the two chances
        item = s.item()
        knife = (item.kind == MELEE and item.thrusting and item.length == tb.SHORT
                 and item.name != "fist")
        chance = rule(tb.free_from_entangle_chance, s.f.DEX, item.attack if knife else 0,
                      s.netted)
        if round_no > s.held_until and percentile_roll(combat, chance, rng=rng):
            s.entangled = False
        return
    if s.down and (s.f.when_down == STAND or s.rising):
        # Seed 004: "a successful Dodge roll gets the downed adventurer back on their
        # feet". Policy when_down: ``stand`` makes it the round's action; a fighter rising
        # (``stand_and_fight``, ``rise_intents``) has spent its defence on it and fights on,
        # standing or from the ground.
        if percentile_roll(combat, s.f.dodge, rng=rng):
            s.down = False
        if s.f.when_down == STAND:
            return
    if s.stunned or s.forfeit:
        return
    if breaking_off(s):
        break_off(s, combat, rng=rng)
        return
    if s.f.retrieve and s.wield == FIST and any(s.loose):
        chance = rearm_chance(s, combat)
        if chance > 0:      # under ``never`` a pressed fighter fights on bare-handed
            retrieve(s, chance, rng=rng)
            return
    attack_action(s, combat, round_no, rng=rng)


def rearm_chance(s: FighterState, combat: Combat) -> int:
    """The chance that a fighter gets its weapon back off the ground this action (seed
    004's disarm "keeps them from drawing a second one" by force or threat;
    ``rules.tables.rearm_chance``): a foe that has it as its target, stands in reach on its feet
    and is neither stunned nor held presses it; then, by ``rules.rearm_when_pressed``, it
    is its DEX against the best presser's on the Resistance Table (``contested``), never,
    or always (``free``); unpressed, always."""
    pressers = [q.f.DEX for q in combat.fighters
                if q.side != s.side and q.standing and q.target == s.index and not q.down
                and not q.stunned and not q.entangled and engaged(q, s, combat)]
    best = max(pressers, default=0)
    return int(tb.rearm_chance(s.f.DEX, best, best > 0, combat.rules.rearm_when_pressed,
                               **resistance_table(combat.rules)))


def retrieve(s: FighterState, chance: int, *, rng: np.random.Generator) -> None:
    """A disarmed fighter on fists tries to pick its weapon up: the action of the round,
    which gets it back at ``chance`` percent (``rearm_chance``; seed 004: a rider must
    dismount to retrieve a weapon, so it ends on foot)."""
    if d100(rng) > chance:
        return
    slot = s.loose.index(True)
    s.loose[slot] = False
    s.item_ok[slot] = True
    s.wield = slot
    s.mounted = False


def break_off(s: FighterState, combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 004, breaking off: "use a successful knock-back attack, a successful dodge, or
    simply turn and run", which grants each foe in reach one free attack that cannot be
    parried (or dodged). A knock-back is made at the target if it stands in reach (else
    there is nobody to stop the fighter leaving)."""
    if s.f.break_off_dodge:
        if percentile_roll(combat, s.f.dodge, rng=rng):
            s.status = FLED
        return
    if s.f.break_off_knockback:
        target = combat.fighters[s.target] if s.target is not None else None
        if target is not None and target.standing and engaged(s, target, combat):
            shoved = melee_attack(s, target, knockback_item(s), KNOCKBACK, combat, rng=rng,
                                  parriable=False)
        else:
            shoved = True
        if shoved and s.standing:
            s.status = FLED
        return
    for foe in combat.fighters:
        if (foe.side != s.side and foe.standing and engaged(foe, s, combat) and s.standing
                and foe.can_strike()):
            free_blow(foe, s, combat, rng=rng)
    if s.standing:
        s.status = FLED


def attack_action(s: FighterState, combat: Combat, round_no: int, *,
                  rng: np.random.Generator) -> None:
    """Attack the target, if it still stands: missiles from range; in reach, an entangle,
    knock-back or disarm when the policy asks for one, else a blow."""
    if s.target is None:
        return
    target = combat.fighters[s.target]
    if not target.standing:
        return
    item = s.item()
    if item.kind != MELEE:
        if missile_volley(s, target, combat, rng=rng):
            s.attacked = True
        return
    if s.airborne and s.wield == MAIN and s.item_ok[MAIN]:
        pounce(s, target, combat, rng=rng)
        return
    if target.airborne:
        return      # nobody reaches a flyer still aloft hand to hand
    tangler = entangle_item(s)
    if tangler is not None and not target.entangled and \
            gap(s, target) <= s.f.items[tangler].range:
        melee_attack(s, target, tangler, ENTANGLE, combat, rng=rng)
        s.attacked = True
        return
    if not engaged(s, target, combat) or (s.down and item.two_handed):
        return  # out of reach, or a two-handed weapon on the ground
    if combat.rules.hold_off and held_off(s, target, combat):
        return  # seed 004: a longer weapon holds it off "entirely"
    s.attacked = True
    if s.f.giant and s.wield == MAIN:
        giant_blow(s, combat, rng=rng)
    elif s.f.knockback and not target.down:
        melee_attack(s, target, knockback_item(s), KNOCKBACK, combat, rng=rng, parriable=False)
    else:
        # policy disarm: "disarm, then strike the disarmed foe"
        mode = DISARM if s.f.disarm and target.item().name != "fist" and \
            target.wield != FIST else STRIKE
        lengths = lengths_at_blow(s, target)
        landed = melee_attack(s, target, s.wield, mode, combat, rng=rng)
        if combat.rules.hold_off:
            let_inside(s, target, lengths, landed)


def pounce(s: FighterState, target: FighterState, combat: Combat, *,
           rng: np.random.Generator) -> None:
    """Seed 004, the pouncing stick: "the Myyrrhn warrior dives feet-first onto a foe ...
    double damage on a success and triple on a critical. It's a one-use weapon in this
    style of attack." Then a Fly roll: a success lands clear, "without a weapon in hand" (a
    critical is aloft again, but with no stick left to pounce with: the lab lands it too);
    a failure collapses near the foe for 1D6, a fumble 2D6 (down). The lab does not
    retrieve the stick (a Luck roll, from a fallen foe) within the fight."""
    s.airborne = False
    s.pos = target.pos
    melee_attack(s, target, MAIN, STRIKE, combat, rng=rng, pounce=True)
    s.item_ok[MAIN] = False
    fall_back(s)
    landing = roll_level(s, s.f.fly, combat, rng=rng)
    if landing <= tb.FAILURE:
        harm = int(rng.integers(1, 7))
        if landing == tb.FUMBLE:
            harm += int(rng.integers(1, 7))
        fall_down(s, combat, rng=rng)
        raw_harm(s, harm, combat, rng=rng)


def giant_blow(s: FighterState, combat: Combat, *, rng: np.random.Generator) -> None:
    """Seed 004: a giant strikes "several targets at once with a single step or a single
    blow", 1D6 per ten STR or SIZ to each: every standing foe in reach, in scenario order
    (one attack roll per foe, each defending on its own: the lab's reading)."""
    for foe in combat.fighters:
        if foe.side != s.side and foe.standing and s.standing and engaged(s, foe, combat):
            melee_attack(s, foe, MAIN, STRIKE, combat, rng=rng)


def knockback_item(s: FighterState) -> int:
    """Seed 004: a knock-back is usually made with a shield (not underwater), else bare."""
    if s.item_ok[OFF] and s.f.items[OFF].shield and not s.f.underwater:
        return OFF
    return FIST


# --- 6. extra attacks --------------------------------------------------------------------------


def extra_attacks(combat: Combat, round_no: int, *, rng: np.random.Generator) -> None:
    """Seed 004: on a DEX x 3 roll, one extra (melee) attack on the last DEX rank at 50% or
    the normal chance, the lower; all of the next round's attacks are forfeited."""
    ready = sorted((s for s in combat.fighters if s.standing), key=lambda s: -s.tiebreak)
    for s in ready:
        if not (s.f.extra_attack and s.attacked and s.target is not None):
            continue
        target = combat.fighters[s.target]
        if not (target.standing and s.item().kind == MELEE and engaged(s, target, combat)
                and s.can_strike() and not (s.down and s.item().two_handed)):
            continue
        if percentile_roll(combat, 3 * s.f.DEX, rng=rng):
            melee_attack(s, target, s.wield, STRIKE, combat, rng=rng, extra=True)
            s.forfeit_next = True


# --- 7. end of round ---------------------------------------------------------------------------


def end_of_round(combat: Combat) -> None:
    """Defences reset; forfeits and dropped weapons carry into the next round only."""
    for s in combat.fighters:
        s.defences = 0
        s.forfeit, s.forfeit_next = s.forfeit_next, False
        s.no_parry, s.no_parry_next = s.no_parry_next, False
        s.reload_left = max(0, s.reload_left - 1)
        s.moved, s.charging, s.attacked, s.backed = 0.0, False, False, False
        s.surprised = False     # surprise lasts round 1 only


# --- the whole fight -----------------------------------------------------------------------


def winning_side(combat: Combat) -> int | None:
    sides = {s.side for s in combat.fighters if s.standing}
    if len(sides) == 1:
        return sides.pop()
    return DRAW if not sides else None


def play_round(combat: Combat, round_no: int, *, rng: np.random.Generator) -> None:
    """One round, steps 1 to 7."""
    combat.round_no = round_no
    for s in combat.fighters:   # this round's order among equal DEX ranks
        s.tiebreak = float(rng.random())
    poisons_take_hold(combat, rng=rng)
    if round_no == 1:
        ambush(combat, rng=rng)
    wake(combat, round_no)
    recover_from_stun(combat, rng=rng)
    choose_group_targets(combat, rng=rng)
    brace(combat)
    move(combat, round_no, rng=rng)
    if combat.rules.hold_off:
        step_apart(combat)
    declare(combat)
    rise_intents(combat, round_no)
    side_attacks(combat, rng=rng)
    act(combat, round_no, rng=rng)
    extra_attacks(combat, round_no, rng=rng)
    rout(combat, rng=rng)
    end_of_round(combat)


def reference_trial(fight: PercentileFight, rng: np.random.Generator) -> TrialOutcome:
    """Play one whole fight round by round until it is decided or ``max_rounds`` pass."""
    combat = Combat.start(fight)
    for round_no in range(1, fight.max_rounds + 1):
        play_round(combat, round_no, rng=rng)
        winner = winning_side(combat)
        if winner is not None:
            return TrialOutcome(winner, round_no, tuple(s.status for s in combat.fighters))
    return TrialOutcome(DRAW, fight.max_rounds, tuple(s.status for s in combat.fighters))


def reference_run(fight: PercentileFight, n_trials: int,
                  rng: np.random.Generator) -> list[TrialOutcome]:
    """``n_trials`` independent fights from one generator."""
    return [reference_trial(fight, rng) for _ in range(n_trials)]


