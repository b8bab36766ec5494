"""What each place fights with, and the detailed rules' per-place state (vectorised).

``MORE`` names the rows of ``YagsState.more``: first the seated loadout's facts (reach,
kind of blow, style flags, ...), rewritten by :func:`refresh` whenever a place's hands,
position, grapple, retreat or mount change; then that state itself; then this round's
declarations. Only used in fights where some detailed rule can act.
"""

from __future__ import annotations

import numpy as np

from balance.engine.masks import set_where
from balance.engine.pick import Pick, flat_of
from balance.engine.sparse import flat_true
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.rules.yags.kernel.rolls import d20, d20_where
from balance.rules.yags.kernel.static import (
    GRAPPLED_MODE,
    MORE_LOADOUT,
    N_LOADOUTS,
    N_MODES,
    PRONE_MODE,
    RETREAT_MODE,
    Static,
)
from balance.rules.yags.rules.equipment import N_WEAPON_STATES
from balance.rules.yags.rules.tactics import REROLL
from balance.rules.yags.rules.tracks import (
    BROKEN_LIMB_PENALTY,
    FATAL,
    HEALTH_CHECK_BASE,
    NORMAL_SPEED,
    SLOW,
    STANCE_SPEED,
    TRACK_PENALTY,
)

MORE = (*MORE_LOADOUT, "weapons", "spare_left", "main_down", "spare_down", "prone",
        "partner", "holding", "hold", "neck", "limbs", "mounted", "m_wounds", "m_stuns",
        "m_status", "action", "manoeuvre", "at_mount", "charging", "stunting", "retreating",
        "lost", "init", "tie",
        # The stance declared this round (the member's, or its stance plan's).
        "stance",
        # At a distance (missiles.py): this round's approach, speed override and declared
        # defences; the missile weapon's loaded shots, carried ammunition, rounds of loading,
        # whether its next shot is slow, a snap shot, or draws it; the last round it ran; and
        # whether a shooter has drawn its melee weapon yet.
        "approach", "pace", "declared", "g_shots", "g_ammo", "g_loading", "g_slow", "g_snap",
        "g_draw", "ran", "g_drew",
        # A fumbled shot dropped the missile weapon: a round to pick it up (issue 25).
        "g_down")
ROW = {name: i for i, name in enumerate(MORE)}
SPEED_OF = np.array([STANCE_SPEED[i] for i in range(len(STANCE_SPEED))], dtype=np.int16)


def place_of(pick: Pick, size: int) -> np.ndarray:
    """The place a pick points at, for each of its trials."""
    if pick.flat is None:
        return np.full(size, pick.row, dtype=np.intp)
    return pick.flat // pick.n


def fighter(s: Static, name: str, who: np.ndarray) -> np.ndarray:
    """A per-fighter number for each seated fighter ``who`` (``np.take``: about twice as
    fast as fancy indexing, measured)."""
    return s.fighter[name].take(who)   # (the method: no Python wrapper)


def per_place(s: Static, name: str, who: np.ndarray) -> np.ndarray | np.int16:
    """``fighter(s, name, who)``, or the one value when every fighter has the same."""
    table = s.fighter[name]
    if (table == table[0]).all():
        return table[0]
    return table.take(who)


def seat(state, s: Static, roll: np.ndarray, tie: np.ndarray) -> None:
    """The detailed state at the start of a fight: spares sheathed, riders mounted, nobody
    grappled, initiative totals and tie-break ranks kept for re-ordering."""
    who = state.who.astype(np.intp)
    x = state.x
    x("partner")[:] = -1
    x("spare_left")[:] = fighter(s, "has_spare", who)
    x("mounted")[:] = fighter(s, "has_mount", who)
    x("init")[:] = s.initiative[who] + roll
    x("stance")[:] = fighter(s, "stance", who)
    rank = x("tie")        # the seating's tie-break (a larger draw acts first) as a rank
    for i in range(tie.shape[0]):
        for j in range(tie.shape[0]):
            if j != i:
                rank[i] += tie[j] > tie[i]
    refresh(state, s)


def refresh(state, s: Static, pick: Pick | None = None, *,
            where: np.ndarray | None = None) -> None:
    """Rewrite a place's seated numbers from its hands, grapple, position, retreat and mount:
    all places, those of ``pick``, or those where the (c, n) mask ``where`` holds."""
    if where is not None:
        flat = flat_true(where)
        if not flat.size:
            return

        def get(arr):
            return arr.ravel()[flat]

        def put(arr, values):
            arr.ravel()[flat] = values
    elif pick is None:
        def get(arr):
            return arr

        def put(arr, values):
            arr[...] = values
    else:
        get, put = pick.get, pick.put

    x = state.x
    # (Indices in int16, as ``take`` reads them: every code here is small.)
    who = get(state.who).astype(np.int16)
    grappled = (get(x("partner")) >= 0).view(np.int8)
    prone = get(x("prone"))
    key = who * N_LOADOUTS + get(x("weapons")) + grappled * np.int16(N_WEAPON_STATES)
    # Prone over grappled over retreating over the declared stance.
    retreating = get(x("retreating"))
    stance = retreating * RETREAT_MODE + (1 - retreating) * get(x("stance"))
    mode = prone * PRONE_MODE + (1 - prone) * (
        grappled * np.int16(GRAPPLED_MODE) + (1 - grappled) * stance)
    # Attack, defence, damage, damage type and skill from one stacked table in one gather.
    attack, defence, damage, damage_type, skill = s.seat_rows.take(key * N_MODES + mode, axis=1)
    if s.on.mounted:
        # Seed 000: riding adds to attacks from horseback; with the technique, to all rolls.
        ride = fighter(s, "riding", who) * get(x("mounted"))
        tech = ride * fighter(s, "mounted_combat", who) * s.loadout["technique"].take(key)
        attack, defence, damage = attack + ride, defence + tech, damage + tech
    put(state.attack, attack)
    put(state.defence, defence)
    put(state.damage, damage)
    put(state.damage_type, damage_type)
    put(state.skill, skill)
    # The loadout's facts: the first rows of ``more``, from one stacked table in one gather
    # (``Static.loadout_rows``). The seating writes every row; later, only the rows whose
    # number differs between the fight's loadouts are rewritten (``Static.varying``: the
    # others hold the one number the seating wrote; about half the rows in the bundled
    # fights: docs/engine-tricks.md, one number where the loadouts agree), a row at a time:
    # a (k, m) write through flat indices ``[:, flat]`` walks the values with a stride,
    # about twice the time of k one-row writes at a few thousand trials (one row's take).
    if pick is None and where is None:
        put(state.more[:len(MORE_LOADOUT)], s.loadout_rows.take(key, axis=1))
    else:
        values = s.varying_rows.take(key, axis=1)
        for i, row in enumerate(s.varying):
            put(state.more[row], values[i])


def fact(state, s: Static, pick: Pick, name: str) -> np.ndarray | np.int16:
    """A loadout fact (a ``MORE_LOADOUT`` row of ``more``: reach, kind of blow, style flags)
    at a pick, or the one number itself where every loadout of the fight has the same
    (``Static.varying``): no gather, and a rule that needs the fact to hold somewhere skips
    its work. (numpy 2 promotes a numpy scalar as an array of its dtype: the same numbers;
    docs/engine-tricks.md, one number where the loadouts agree.)"""
    row = ROW[name]
    if row not in s.varying:
        return s.loadout_rows[row, 0]
    return pick.get(state.more[row])


def penalty_now(state, s: Static) -> np.ndarray:
    """(c, n): wound + stun + fatigue penalties, a hold's attribute penalty (-skill a point)
    and -40 a broken limb."""
    x = state.x
    # (In place, in the table's dtype: one fresh array instead of one a term.)
    pen = TRACK_PENALTY.take(state.wounds)
    pen += TRACK_PENALTY.take(state.stuns)
    pen += tiredness(s, state.fatigue)
    if s.on.grapple:
        pen -= x("hold") * state.skill
        pen += BROKEN_LIMB_PENALTY * x("limbs")
    return pen


def sync_penalty(state, s: Static, rpen: np.ndarray | None) -> None:
    """Bring ``penalty`` (and this round's ``rpen``) up to date after changes."""
    new = penalty_now(state, s)
    if rpen is not None:
        rpen += new - state.penalty
    state.penalty[...] = new


def condition(state, s: Static, pick: Pick) -> np.ndarray:
    """Wound + stun + fatigue penalties of a pick's places: what skill checks suffer."""
    return (TRACK_PENALTY.take(pick.get(state.wounds)) + TRACK_PENALTY.take(pick.get(state.stuns))
            + tiredness(s, pick.get(state.fatigue)))


def helpless(state, s: Static, flat: np.ndarray | None = None) -> np.ndarray:
    """(c, n): held with a penalty at least its strength or agility (seed 000, Grapple); with
    ``flat``, at those flat indices only (docs/engine-tricks.md, the places a rule
    concerns)."""
    x = state.x
    if flat is None:
        if not s.on.grapple:
            return np.zeros(state.status.shape, dtype=bool)

        def get(arr):
            return arr
    else:
        if not s.on.grapple:
            return np.zeros(flat.shape, dtype=bool)

        def get(arr):
            return arr.ravel().take(flat)
    who = get(state.who).astype(np.intp)
    least = np.minimum(fighter(s, "strength", who), fighter(s, "agility", who))
    return (get(x("partner")) >= 0) & (get(x("holding")) == 0) & (get(x("hold")) >= least)


def order_key(state, s: Static) -> np.ndarray:
    """(c, n) float: acting order this round, ascending: speed class (prone, stunts and the
    wrong style are slow; grappled normal; a retreat defensive), then initiative, then tie."""
    x = state.x
    who = state.who.astype(np.intp)
    base = SPEED_OF[x("stance")]
    grappled = x("partner") >= 0
    slow = (x("prone") > 0) | (x("slow") > 0) | (x("stunting") > 0)
    slow |= fighter(s, "rank", who) == 2       # seed 000: the second rank's attacks are slow
    # (Picked by arithmetic, innermost first: ``np.where`` on a random mask is ~25x slower,
    # docs/engine-tricks.md.)
    speed = base + (SLOW - base) * (x("retreating") > 0)
    speed += (NORMAL_SPEED - speed) * grappled
    speed += (SLOW - speed) * slow
    if s.on.distance:   # a shot's own speed; an attack after a full Move is slow
        speed += (x("pace") - speed) * (x("pace") >= 0)
    return speed * 100000.0 - x("init") * 100.0 + x("tie")


def lose_weapon(state, s: Static, pick: Pick, recoverable: np.ndarray) -> None:
    """The weapon in the primary hand of a pick's places is lost (the off-hand item never
    is); a dropped weapon can be picked up, a broken or grabbed one cannot."""
    x = state.x
    weapons = pick.get(x("weapons"))
    pick.put(x("main_down"), np.maximum(pick.get(x("main_down")), (weapons == 0) * recoverable))
    pick.put(x("spare_down"), np.maximum(pick.get(x("spare_down")),
                                         (weapons == 1) * recoverable))
    pick.put(x("weapons"), np.full(weapons.shape, 2, dtype=np.int16))
    refresh(state, s, pick)


def knock_down(state, s: Static, pick: Pick) -> None:
    """Knocked to the ground: prone (a rider falls off its mount)."""
    x = state.x
    ones = np.ones(pick.get(x("prone")).shape, dtype=np.int16)
    pick.put(x("prone"), ones)
    pick.put(x("mounted"), 0 * ones)
    refresh(state, s, pick)


def settle(state, s: Static, rpen: np.ndarray | None = None) -> None:
    """Grapples with a fallen partner end; a rider whose mount has fallen falls, prone."""
    x = state.x
    changed = None
    if s.on.grapple:
        partner = x("partner")
        c, n = partner.shape
        up = state.status == STANDING
        held = partner >= 0
        if c == 2:
            # Two places: a place's partner is the other one, so both must stand (one row
            # for both, instead of a gather through intp flat indices; docs/engine-tricks.md,
            # two places: a comparison, not a sort).
            broken = held
            broken &= ~(up[0] & up[1])
        else:
            broken = up.ravel().take(flat_of(partner, n))
            broken &= up
            np.logical_not(broken, out=broken)
            broken &= held
        if broken.any():
            for name, value in (("partner", -1), ("holding", 0), ("hold", 0), ("neck", 0)):
                set_where(x(name), broken, value)
            changed = broken
    if s.on.mounted:
        fell = (x("mounted") > 0) & (x("m_status") != STANDING)
        if fell.any():
            set_where(x("mounted"), fell, 0)
            set_where(x("prone"), fell, 1)
            changed = fell if changed is None else changed | fell
    if changed is not None:
        refresh(state, s, where=changed)
        sync_penalty(state, s, rpen)


def mount_end_of_round(state, s: Static, rng: np.random.Generator) -> None:
    """Seed 000, End of Round, for mounts: at fatal wounds check at 20 or die; beaten, check
    at 20 or fall unconscious (and the rider with it)."""
    x = state.x
    status = x("m_status")
    health4 = 4 * fighter(s, "mount_health", state.who.astype(np.intp))
    ridden = x("mounted") > 0
    at_fatal = ridden & (status == STANDING) & (x("m_wounds") >= FATAL)
    if at_fatal.any():
        d = d20_where(rng, at_fatal)
        status[at_fatal & ((d == 1) | (health4 + d < HEALTH_CHECK_BASE))] = DEAD
    beaten = ridden & (status == STANDING) & (x("m_stuns") >= FATAL)
    if beaten.any():
        d = d20_where(rng, beaten)
        status[beaten & ((d == 1) | (health4 + d < HEALTH_CHECK_BASE))] = UNCONSCIOUS


def reroll_initiative(state, s: Static, rng: np.random.Generator) -> None:
    """Seed 000, Re-evaluating Initiative: at the end of the round, roll again and keep it."""
    x = state.x
    again = x("action") == REROLL
    if again.any():
        who = state.who.astype(np.intp)
        x("init")[again] = (s.initiative[who] + d20(rng, who.shape))[again]


def tiredness(s: Static, fatigue: np.ndarray) -> np.ndarray:
    """The penalty of each fatigue level (rules.fatigue_penalty; tracks.fatigue_penalty)."""
    # (The table covers every int16 level: tracks.MAX_FATIGUE.)
    return s.fatigue_pen.take(fatigue)


def exhausts(state, s: Static, p: Pick) -> np.ndarray:
    """Would a level of fatigue exhaust the places of ``p`` (rules.exhausted_at)?"""
    at = per_place(s, "exhausted_at", p.get(state.who).astype(np.intp))
    return p.get(state.fatigue) + 1 >= at


def tire(state, s: Static, ctx, who: Pick, mask: np.ndarray) -> None:
    """A level of fatigue for ``who`` where ``mask`` holds: ``tire_at``."""
    rows = flat_true(mask)
    if rows.size:
        tire_at(state, s, ctx, who.flat_at(rows))


def tire_at(state, s: Static, ctx, flat: np.ndarray) -> None:
    """A level of fatigue for the places at ``flat`` (distinct flat indices into the (c, n)
    arrays); one who becomes exhausted rests at once (seed 000: "If a character becomes
    Exhausted then they must immediately rest"), leaving the fight as yielded, even in the
    middle of the round. (In a basic fight ``state.penalty`` is made from the live penalty
    ``ctx.rpen`` at the end of the round, ``kernel.play_round``.)"""
    fatigue = state.fatigue.ravel()
    after = fatigue[flat] + 1
    fatigue[flat] = after
    step = s.fatigue_step.take(after)
    if s.on.any:
        state.penalty.ravel()[flat] += step
    ctx.rpen.ravel()[flat] += step
    # (Looked up only when some fatigue reached the lowest threshold: a reduction of the few
    # levels here, instead of gathers of who and status.)
    if s.on.exhaustion and after.max() >= s.fighter["exhausted_at"].min():
        status = state.status.ravel()
        at = per_place(s, "exhausted_at", state.who.ravel()[flat])
        status[flat[(after >= at) & (status[flat] == STANDING)]] = YIELDED
