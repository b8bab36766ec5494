"""An action and the strikes it sets off (seed 000, "Making an attack", "Reach", "Free
Strikes", "Fumbles in Combat"), vectorised over the trials of one slot.

Every function takes the picks of the places involved (one place per trial) and arrays with
one entry per trial of those picks. Detailed rules run only when ``s.on`` says they can act.
"""

from __future__ import annotations

import numpy as np

from balance.engine.pick import Pick, scattered
from balance.engine.sparse import flat_true, padded, true_indices
from balance.engine.status import STANDING
from balance.rules.yags.kernel import basic, blows, counting, gear, missiles, moves, reach
from balance.rules.yags.kernel.gear import fact, fighter, per_place
from balance.rules.yags.kernel.rolls import d20, d20_rows
from balance.rules.yags.kernel.static import Static, code_set, fumble_index
from balance.rules.yags.kernel.turns import (
    Round,
    can_act,
    can_strike,
    close,
    declared_cover,
    defends,
)
from balance.rules.yags.rules.tactics import (
    ATTACK,
    CHARGE_THROUGH,
    DISARM_FOE,
    FREE_STRIKE_FOR,
    GRAPPLE,
    REQUIRED_TABLE,
    VITAL,
    defence_fail_effect,
    unarmed_against_martial,
)
from balance.rules.yags.rules.tracks import (
    AUTOMATIC_STRIKE,
    BREAK,
    DEFENSIVE,
    DISARM,
    FAIL_DEFENCE,
    FATIGUE,
    STANCE_ATTACK,
    merge_strikes,
)

LONGSHAFT_DEFENCE = 5      # seed 000, Longshaft: +5 defence against a shorter weapon
STUNT_STEP = 5             # seed 000, Stunts: +5 per level of success
REACH_STEP = 5             # seed 000, Reach: -5 per excess level of reach
IS_FREE_STRIKE_FOR = code_set(FREE_STRIKE_FOR)


# --- One slot -------------------------------------------------------------------------------


def act(state, s: Static, ctx: Round, me: Pick, rng: np.random.Generator) -> None:
    """The declared action of the place acting in this slot, in every open trial."""
    tgt = Pick(me.get(state.target), me.n)
    acting = me.get(state.attacking) & (me.get(state.status) == STANDING)
    acting &= tgt.get(state.status) == STANDING
    if s.on.any:
        ok = can_act(state, s, ctx, me)
        moves.other_actions(state, s, ctx, me, ok, rng)
        if s.on.distance:   # approach, load, run, shoot; melee only within reach
            acting &= missiles.act(state, s, ctx, me, tgt, ok, rng)
        acting &= ok & (me.get(state.x("action")) == ATTACK)
        if s.on.grapple:
            partner = me.get(state.x("partner"))
            acting &= (partner < 0) | (partner == tgt.place())
    attack_action(state, s, ctx, me, tgt, acting, rng)


def attack_action(state, s: Static, ctx: Round, att: Pick, tgt: Pick, acting: np.ndarray,
                  rng: np.random.Generator) -> None:
    """A declared attack (or manoeuvre): the strikes it draws before, the attack, the counter
    strike after (seed 000, Free Strikes). A basic duel draws its attack's dice even when no
    trial acts (its blocks may be stacked, ``balance.engine.streams``: a draw over all
    trials must not hang on the others); so does a basic group fight that can be stacked
    (``static.stackable``)."""
    stackable = s.stackable
    if not stackable and not acting.any():
        return
    x = state.x
    n = acting.size
    m = att.get(x("manoeuvre")) if s.on.manoeuvres else None
    ignore_left = None
    if s.on.reach or s.on.manoeuvres:
        near = close(state, s, att, tgt, n)
        ra, rt = att.get(x("reach")), tgt.get(x("reach"))
        coming_in = (rt > ra) & ~near
        free = coming_in.astype(np.int16)
        closing = s.reach_closing and s.on.reach
        if closing:   # rules.reach closing: the free strike as it closes in, not once inside
            free &= ~reach.is_inside(state, att, tgt, n)
        if m is not None:
            free += IS_FREE_STRIKE_FOR.take(m)
        ignore = ((ra > rt) & ~near).astype(np.int16)
        before = merge_strikes(free, ignore) * acting
        ignore_left = (ignore > 0) & (free == 0)
        rows = flat_true(before)
        if rows.size:   # (may the target strike: asked on those trials only, elementwise)
            rows = rows[can_strike(state, s, ctx, tgt.sub(rows), att.sub(rows))]
        if rows.size:
            victim, striker = att.sub(rows), tgt.sub(rows)
            auto = before[rows] == AUTOMATIC_STRIKE
            attack(state, s, ctx, np.ones(rows.size, dtype=bool), striker, victim,
                   ~auto & defends(state, s, ctx, victim, striker), rng)
            gear.settle(state, s, ctx.rpen)
            acting &= att.get(state.status) == STANDING
        if closing:   # it has closed to within the longer weapon's reach
            reach.close_in(state, att, tgt, n, acting & coming_in)
    if m is not None:
        charge = acting & (m == CHARGE_THROUGH)
        if charge.any():
            rows = flat_true(charge)
            moves.charge_through(state, s, ctx, att.sub(rows), tgt.sub(rows), rng)
            acting &= ~charge
    if s.on.any:
        defending = defends(state, s, ctx, tgt, att)
        if s.on.mounted:
            defending &= att.get(x("at_mount")) == 0
    else:
        defending = att.get(state.defended)
    if not stackable and not acting.any():
        return
    if m is None and s.on.stunts:   # a declared attack (not a strike) may carry a stunt
        m = np.zeros(n, dtype=np.int16)
    hands = None
    if s.on.unarmed_counter or s.on.manoeuvres:
        # The hands as they are when the attack is made (a fumble in it may lose a weapon):
        # seed 000's counter strike is for "an unarmed attack against someone who is
        # defending with martial weapons" (tactics.unarmed_against_martial).
        hands = unarmed_against_martial(fact(state, s, att, "unarmed") > 0,
                                        fact(state, s, tgt, "martial") > 0)
    parried_well, failed_disarm = attack(state, s, ctx, acting, att, tgt, defending, rng,
                                         manoeuvre=m)
    if s.on.any:
        if s.on.mounted:
            att.put(x("charging"), np.zeros(n, dtype=np.int16), acting)
        gear.settle(state, s, ctx.rpen)
    # Counter strike: the attacker declared no defence against its target; (detailed) an
    # unarmed attack well parried by a martial weapon; a failed unarmed disarm. One at most,
    # and a longer weapon ignores one strike.
    if not s.on.any and s.groups is not None and att.flat is None and att.rows is None:
        # A basic group fight: the declarations said which attacks draw one; the target
        # must stand (and could act when the round began), on those trials only.
        due = padded(n)     # (a sparse mask: ``balance.engine.sparse``)
        np.logical_and(acting, state.exposed[att.row], out=due[:n])
        rows = true_indices(due, n)
        if rows.size:
            t = tgt.sub(rows)
            ok = (t.get(state.status) == STANDING) & t.get(ctx.can)
            if s.on.exhaustion:
                ok &= att.sub(rows).get(state.status) == STANDING
            rows = rows[ok]
            if rows.size:
                attack(state, s, ctx, np.ones(rows.size, dtype=bool), tgt.sub(rows),
                       att.sub(rows), np.zeros(rows.size, dtype=bool), rng)
        return
    if not s.on.any and att.flat is None and att.rows is None:
        # ``declared_cover`` of the attacker (a slot's row) against its own target: the
        # target declared a defence against it.
        covered = (tgt.get(state.target) == att.row) & tgt.get(state.defended)
        undefended = acting & ~covered
    else:
        undefended = acting & ~declared_cover(state, s, ctx, att, tgt)
    if not s.on.any:
        # Basic rules: the target must stand; the attacker falls in its own attack only by
        # resting, exhausted by a fumble's fatigue.
        strike = undefended & (tgt.get(state.status) == STANDING) & tgt.get(ctx.can)
        if s.on.exhaustion:
            strike &= att.get(state.status) == STANDING
        rows = flat_true(strike)
        if rows.size:   # on those trials only (their dice drawn for them alone)
            attack(state, s, ctx, np.ones(rows.size, dtype=bool), tgt.sub(rows), att.sub(rows),
                   np.zeros(rows.size, dtype=bool), rng)
        return
    triggers = undefended.astype(np.int16)
    if hands is not None:
        unarmed, martial_parry = hands
        triggers += parried_well & martial_parry
        triggers += failed_disarm & unarmed
    if ignore_left is not None:
        triggers -= ignore_left
    strike = acting & (triggers > 0) & (att.get(state.status) == STANDING)
    if s.on.ranks:   # the second rank is out of the target's reach
        strike &= ~att.get(state.rear)
    rows = flat_true(strike)
    if rows.size:   # (may the target strike: asked on those trials only, elementwise)
        rows = rows[can_strike(state, s, ctx, tgt.sub(rows), att.sub(rows))]
    if not rows.size:
        return
    victim, striker = att.sub(rows), tgt.sub(rows)
    attack(state, s, ctx, np.ones(rows.size, dtype=bool), striker, victim,
           defends(state, s, ctx, victim, striker), rng)
    gear.settle(state, s, ctx.rpen)


# --- An attack roll --------------------------------------------------------------------------


def attack(state, s: Static, ctx: Round, acting: np.ndarray, att: Pick, tgt: Pick,
           defending: np.ndarray, rng: np.random.Generator, *,
           manoeuvre: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Places ``att`` attack places ``tgt`` in the trials where ``acting``; in place.

    Returns (the defence beat the attack by a good success, a disarm failed), per trial (or
    False where those rules cannot act). Strikes pass no ``manoeuvre``; declared attacks pass
    one where manoeuvres or stunts can act. With the breakdown (``state.counts``), the
    levels the attack put on its target's tracks are the attacker's damage dealt.
    """
    if state.counts is None:
        return _attack(state, s, ctx, acting, att, tgt, defending, rng, manoeuvre=manoeuvre)
    before = counting.body(state, tgt)
    out = _attack(state, s, ctx, acting, att, tgt, defending, rng, manoeuvre=manoeuvre)
    counting.dealt(state, att, tgt, before)
    return out


def _attack(state, s: Static, ctx: Round, acting: np.ndarray, att: Pick, tgt: Pick,
            defending: np.ndarray, rng: np.random.Generator, *,
            manoeuvre: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``attack``, without the breakdown's damage."""
    if not s.on.any:
        basic.attack(state, s, ctx, acting, att, tgt, defending, rng)
        return False, False
    n = acting.size
    d = d20_rows(rng, (2,), att.rows, n)  # attack, defence (for the pick's trials)
    if n >= FEW_MIN:
        # The few on their own path (docs/engine-tricks.md): where at most a share of the
        # trials attack (a group fight's slot, most of whose places wait their turn), the
        # roll is played on those trials only, with the dice already drawn for every trial
        # (the same numbers: every later draw is for the trials it concerns).
        rows = flat_true(acting)
        if rows.size <= FEW_SHARE * n:
            parried_well, failed_disarm = _roll(
                state, s, ctx, np.ones(rows.size, dtype=bool), att.sub(rows), tgt.sub(rows),
                defending[rows], rng, d[:, rows], manoeuvre=None if manoeuvre is None
                else manoeuvre[rows], stunt_draw=(n, rows))
            # (a flag that is False for every trial stays False)
            return tuple(False if v is False else scattered(v, rows, n)
                         for v in (parried_well, failed_disarm))
    return _roll(state, s, ctx, acting, att, tgt, defending, rng, d, manoeuvre=manoeuvre)


# An attack on at most this share of a slot's trials is played on those alone (``_attack``).
FEW_SHARE = 0.5
FEW_MIN = 256


def _roll(state, s: Static, ctx: Round, acting: np.ndarray, att: Pick, tgt: Pick,
          defending: np.ndarray, rng: np.random.Generator, d: np.ndarray, *,
          manoeuvre: np.ndarray | None = None, stunt_draw=None) -> tuple[np.ndarray, np.ndarray]:
    """``_attack`` with the dice ``d`` (attack, defence) drawn: ``stunt_draw`` (n, rows) says
    a stunt's die is drawn for all n trials and these rows' kept."""
    rpen = ctx.rpen
    roll = att.get(state.attack) + att.get(rpen) + d[0]
    parry = tgt.get(state.defence) + tgt.get(rpen) + d[1]
    attack_at = defence_at = 1
    to_damage = stunt_fail = None
    if s.on.any:
        roll, parry, attack_at, defence_at = _reach_and_style(state, s, att, tgt, roll, parry)
        if s.on.stunts and manoeuvre is not None:
            stunt_fail, to_damage, roll = _stunts(state, s, acting, att, roll, rng,
                                                  stunt_draw)
            defending = defending & ~stunt_fail
    attack_fumble = acting & (d[0] <= attack_at)
    if stunt_fail is not None:
        attack_fumble |= stunt_fail
    defence_fumble = acting & defending & (d[1] <= defence_at)
    required = 1
    if manoeuvre is not None:
        # (A policy every fighter shares is one number: no gather; the table by ``take``.)
        neck = per_place(s, "neck", att.get(state.who))
        required = REQUIRED_TABLE.take(manoeuvre) + (manoeuvre == GRAPPLE) * neck
    # Fumble results: by the basic rules' default, the fumbler takes fatigue, and a more
    # skilled foe picks the worst result for it (tactics.fumble_harm_order): for a fumbler
    # that cannot lose its weapon, "fail defence" where that lets the attack through, else
    # the fatigue.
    if s.on.fumble_policies:
        fail_def = _fumbles(state, s, ctx, att, tgt, attack_fumble, defence_fumble,
                            roll, parry, required)
    else:
        foe_picks = att.get(state.skill) > tgt.get(state.skill)
        fail_def = defence_fumble & foe_picks
        if fail_def.any():
            fail_def &= ~attack_fumble & (defence_fail_effect(
                roll, parry, s.base_difficulty, required, s.success_step) > 0)
            if s.on.exhaustion:
                fail_def &= ~gear.exhausts(state, s, tgt)
        if attack_fumble.any():
            gear.tire(state, s, ctx, att, attack_fumble)
        tired = defence_fumble & ~fail_def
        if tired.any():
            gear.tire(state, s, ctx, tgt, tired)
    use_parry = defending & ~fail_def
    against = s.base_difficulty + use_parry * (parry - s.base_difficulty)
    hit = acting & ~attack_fumble & (roll >= against)
    parried_well = failed_disarm = False
    if s.on.unarmed_counter:
        # rules.unarmed_counter: a good defence (seed 000, Counter Strikes), or a successful
        # one (its Unarmed attack): the defence roll beats the attack roll by that margin.
        parried_well = acting & use_parry & (parry - roll >= s.counter_margin)
    level = None
    if manoeuvre is not None:
        level = 1 + (roll - against) // s.success_step
        hit &= level >= required
        failed_disarm = acting & ~hit & (manoeuvre == DISARM_FOE)
    if state.counts is not None:   # the breakdown (vector/counting.py): no dice drawn
        counting.roll(state, att, tgt, acting, hit, attack_fumble, defence_fumble,
                      None if manoeuvre is None else manoeuvre == VITAL)
    hits = flat_true(hit)
    if hits.size:
        if manoeuvre is None:
            blows.blow(state, s, ctx, att.sub(hits), tgt.sub(hits), rng)
        else:
            extra = None if to_damage is None else to_damage[hits]
            moves.land(state, s, ctx, att.sub(hits), tgt.sub(hits), manoeuvre[hits],
                       level[hits], extra, rng)
    return parried_well, failed_disarm


def _reach_and_style(state, s: Static, att: Pick, tgt: Pick, roll, parry):
    """Rolls and fumble ranges by the weapons' reach and styles (seed 000): a great weapon
    longer than its target halves the multiple-defence penalty; a defensive longshaft loses
    its -10 against a shorter weapon and parries it at +5; a shorter weapon fumbles on 1-2
    against a chain; the wrong style fumbles on 1-2."""
    x = state.x
    n = roll.size
    attack_at = defence_at = 1
    if s.on.reach:
        # (Each rule only where its mask holds somewhere, in int16 throughout: a bool times a
        # Python int is int64, and the rolls would carry int64 from there on.)
        near = close(state, s, att, tgt, n)
        ra, rt = att.get(x("reach")), tgt.get(x("reach"))
        longer, shorter = (ra > rt) & ~near, (ra < rt) & ~near
        if longer.any():
            if s.reach_closing:   # used on a foe inside its reach: -5 per level it exceeds by
                inside = longer & reach.is_inside(state, tgt, att, n)
                roll = roll - inside * (REACH_STEP * (ra - rt))
            great = fact(state, s, att, "great")
            if np.ndim(great) or great > 0:   # (no great weapon in the fight: nothing to add)
                great = longer & (great > 0)
                roll = roll + great * ((-att.get(state.defence_penalty)) // 2)
            planted = flat_true(longer & (fact(state, s, att, "longshaft") > 0))
            if planted.size:   # (the stance looked at on those trials only)
                a = att.sub(planted)
                defensive = (a.get(x("stance")) == DEFENSIVE) \
                    & (a.get(x("prone")) == 0) & (a.get(x("partner")) < 0)
                # (``roll`` is this attack's own array, made in ``_roll``: changed in place.)
                roll[planted[defensive]] -= np.int16(STANCE_ATTACK[DEFENSIVE])
        if shorter.any():
            parry = parry + (shorter & (fact(state, s, tgt, "longshaft") > 0)) \
                * np.int16(LONGSHAFT_DEFENCE)
            attack_at = 1 + (shorter & (fact(state, s, tgt, "chain") > 0)).view(np.int8)
    if s.on.wide_fumbles:
        attack_at = np.maximum(attack_at, fact(state, s, att, "fumble_range"))
        defence_at = fact(state, s, tgt, "fumble_range")
    return roll, parry, attack_at, defence_at


def _stunts(state, s: Static, acting, att: Pick, roll, rng, draw=None):
    """Seed 000, Stunts: agility x athletics against the stunt's difficulty before the attack;
    success adds +5 per level to attack or damage, failure makes the attack a fumble.
    ``draw`` (n, rows): the die is drawn for all n trials of the slot, these rows' kept."""
    x = state.x
    n = acting.size
    stunting = acting & (att.get(x("stunting")) > 0)
    fail = np.zeros(n, dtype=bool)
    to_damage = np.zeros(n, dtype=np.int16)
    if not stunting.any():
        return fail, to_damage, roll
    who = att.get(state.who).astype(np.intp)
    die = d20(rng, n) if draw is None else d20(rng, draw[0])[draw[1]]
    total = (fighter(s, "agility", who) * fighter(s, "athletics", who)
             + gear.condition(state, s, att) + die)
    target = fighter(s, "stunt_difficulty", who)
    ok = (die != 1) & (total >= target)
    fail = stunting & ~ok
    bonus = stunting * ok * STUNT_STEP * (1 + (total - target) // s.success_step)
    damage = fighter(s, "stunt_damage", who) > 0
    return fail, bonus * damage, roll + bonus * ~damage


def _fumbles(state, s: Static, ctx: Round, att: Pick, tgt: Pick, attack_fumble,
             defence_fumble, roll, parry, required) -> np.ndarray:
    """Each fumble's result, picked by the fumbler, or by its foe if more skilled, from their
    policies (seed 000; the shared rule ``rules.tactics.fumble_choice``, tabulated per fighter:
    ``static.fumble_table``), in the fumbler's situation: would fatigue exhaust it, and what
    would failing its defence do to the attack (``rules.tactics.defence_fail_effect``; nothing when
    the attack fumbled too: it misses anyway). Applied at once. Returns where the defence
    fails."""
    fail_def = np.zeros(attack_fumble.size, dtype=bool)
    d_rows, a_rows = flat_true(defence_fumble), flat_true(attack_fumble)
    nd = d_rows.size
    if not nd + a_rows.size:
        return fail_def
    # The defence fumbles and the attack fumbles in one pass (the defenders' first): in each
    # trial the two fumblers are different places, and choosing and applying a result reads
    # and writes only the fumbler's own numbers and draws nothing, so one pass gives what
    # two in turn gave, at half the numpy calls.
    me_ = Pick.joined(tgt.sub(d_rows), att.sub(a_rows))
    foe_ = Pick.joined(att.sub(d_rows), tgt.sub(a_rows))
    foe_picks = foe_.get(state.skill) > me_.get(state.skill)
    chooser = np.where(foe_picks, foe_.get(state.who), me_.get(state.who)).astype(np.intp)
    size = nd + a_rows.size
    exhausts = gear.exhausts(state, s, me_) if s.on.exhaustion else np.zeros(size, bool)
    defending = np.zeros(size, dtype=np.intp)
    defending[:nd] = 1
    effect = np.zeros(size, dtype=np.intp)
    if nd:
        req = required if np.ndim(required) == 0 else required[d_rows]
        effect[:nd] = defence_fail_effect(roll[d_rows], parry[d_rows], s.base_difficulty, req,
                                          s.success_step) * ~attack_fumble[d_rows]
    idx = fumble_index(chooser, foe_picks.astype(np.intp), defending,
                       fact(state, s, me_, "losable").astype(np.intp),
                       fact(state, s, me_, "weak").astype(np.intp),
                       fact(state, s, me_, "strong").astype(np.intp),
                       exhausts.astype(np.intp), effect)
    result = s.fumble_choice[idx]
    tired = result == FATIGUE
    if tired.any():
        gear.tire(state, s, ctx, me_, tired)
    lost = (result == DISARM) | (result == BREAK)
    if lost.any():
        sub = flat_true(lost)
        gear.lose_weapon(state, s, me_.sub(sub), result[sub] == DISARM)
    if nd:
        fail_def[d_rows] = result[:nd] == FAIL_DEFENCE
    return fail_def
