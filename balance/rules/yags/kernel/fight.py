"""The vectorised Yags round (seed 000, Basic Combat and Melee Combat), for every open trial.

Layout: every state array is (n_places, n_trials). At the start of a fight the fighters of
each trial are *seated in acting order* (fast, normal, slow stance; then initiative), so in a
fight where speed and initiative never change the fighter acting in slot k is always place k,
a contiguous row, and only the target needs a gather. The fixed numbers of each fighter are
seated with it. The detailed rules (``flags.Flags``) keep their per-place state in one
``(k, n_places, n_trials)`` array, ``more``, which is empty (k = 0) when no detailed rule can
act, so a basic fight pays nothing for them. Python loops run over slots, places and sides,
never over trials. The rules and every assumption: ``docs/rules/yags.md``; ``reference/``
is the readable scalar version of the same rules, the oracle this kernel is tested against.
Modules: ``declare`` (declarations), ``strikes`` (an attack and its strikes), ``blows``
(damage), ``moves`` (manoeuvres and grappling), ``gear`` (what a place fights with).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from balance.engine.pick import Pick, flat_of
from balance.engine.places import ascending
from balance.engine.sparse import flat_true
from balance.engine.state import TrialState, gather
from balance.engine.status import DEAD, STANDING, UNCONSCIOUS, YIELDED
from balance.engine.targeting import NO_TARGET
from balance.rules.yags.compile import YagsFight
from balance.rules.yags.kernel import blasts, declare, gear, groups, missiles, reach, strikes
from balance.rules.yags.kernel.prepare import static_of
from balance.rules.yags.kernel.rolls import d20, d20_at
from balance.rules.yags.rules.tracks import FATAL, HEALTH_CHECK_BASE

DEAD8, UNCONSCIOUS8, YIELDED8 = np.int8(DEAD), np.int8(UNCONSCIOUS), np.int8(YIELDED)
SEATED = ("attack", "defence", "damage", "damage_type", "soak", "health4", "skill",
          "max_defences", "fixed_defences", "yield_at")


@dataclass
class YagsState(TrialState):
    """Tracks and seated fixed numbers; every array is (n_places, n_trials)."""

    wounds: np.ndarray      # int8, held at 6 (fatal) while alive
    stuns: np.ndarray       # int8, held at 6 (beaten)
    fatigue: np.ndarray     # int16, points from fumbles and manoeuvres
    penalty: np.ndarray     # int16, wound + stun + fatigue (+ hold, limb) penalty, kept in step
    slow_start: np.ndarray  # bool, fumbled initiative: no action in round 1 (then unread)
    # This round's declarations; in a basic fight re-made only in trials where someone fell
    # (and in the first two rounds, when a fumbled initiative starts and ends).
    target: np.ndarray      # int8, place each place attacks (-1: none)
    attacking: np.ndarray   # bool
    defended: np.ndarray    # bool, indexed by attacker: its target defends against it
    defence_penalty: np.ndarray  # int16, the multiple-defence penalty of `declared`
    n_up: np.ndarray        # (n,) int8, fighters standing when declarations were last made
    exposed: np.ndarray     # bool, group fights: its target strikes back when it attacks (it
                            # declared no defence against it, and no spare one covers it)
    rear: np.ndarray        # bool, group fights: it attacks from the second rank
    attack: np.ndarray      # the seated fighter's fixed numbers (Static, stance folded in)
    defence: np.ndarray
    damage: np.ndarray
    damage_type: np.ndarray
    soak: np.ndarray
    health4: np.ndarray
    skill: np.ndarray
    max_defences: np.ndarray
    fixed_defences: np.ndarray
    yield_at: np.ndarray
    more: np.ndarray        # (k, c, n) int16: the detailed rules' state (gear.MORE rows)
    pos: np.ndarray         # (c, n) float64 metres on the line; (0, n) unless at a distance
    inside: np.ndarray      # (c, c, n) bool, rules.reach closing: place p got inside q's reach

    def x(self, name: str) -> np.ndarray:
        """One row of ``more`` by name, (c, n)."""
        return self.more[gear.ROW[name]]


def start(fight: YagsFight, n: int, rng: np.random.Generator) -> YagsState:
    """Roll initiative once per fight (agility x 4 + d20) and seat fighters in acting order."""
    s = static_of(fight)
    c = fight.n
    roll = d20(rng, (c, n))
    tie = rng.random((c, n))  # assumption: ties broken by a random order, fixed for the fight
    basic = not s.on.any
    if c == 2:   # one comparison seats both; no index arrays (their int64 temporaries cost)
        key = [_key(s, roll, tie, i) for i in range(2)]
        swapped = key[1] < key[0]
        order = np.stack([swapped, ~swapped]).view(np.int8)
        seat = partial(seat_two, swapped=swapped)
    else:
        order = acting_order(s.speed[:, None] * 1000.0 - (s.initiative[:, None] + roll) - tie)
        seat = partial(seat_table, order=order)
    zeros = np.zeros((c, n), dtype=np.int8)
    # (The tracks' penalty and fatigue below change: never a shared read-only array.)
    seated = {name: seat(getattr(s, name), fixed=basic) for name in SEATED}
    # Fatigue and exhaustion brought to the fight (a march): levels and their penalty; one
    # already exhausted must rest (it never fights).
    fatigue = seat(s.fighter["fatigue"])
    status = zeros.copy()
    if s.on.exhaustion:
        status += (fatigue >= seat(s.fighter["exhausted_at"])) * YIELDED8
    fumbled = roll == 1
    if c == 2:
        flips = (fumbled[0] ^ fumbled[1]) & swapped
        slow_start = np.stack([fumbled[0] ^ flips, fumbled[1] ^ flips])
    else:
        # where each place's fighter is in a (c, n) fighter array
        slow_start = fumbled.ravel()[flat_of(order, n)]
    state = YagsState(
        status=status,
        side=seat(s.side_of),
        who=order.astype(np.int8),
        wounds=zeros.copy(),
        stuns=zeros.copy(),
        fatigue=fatigue,
        penalty=seat(gear.tiredness(s, s.fighter["fatigue"]).astype(np.int16)),
        slow_start=slow_start,
        target=np.full((c, n), NO_TARGET, dtype=np.int8),
        attacking=np.zeros((c, n), dtype=bool),
        defended=np.zeros((c, n), dtype=bool),
        defence_penalty=np.zeros((c, n), dtype=np.int16),
        n_up=np.full(n, -1, dtype=np.int8),
        # (Arrays no rule of the fight reads are (0, n): nothing to fill or compact.)
        exposed=np.zeros((c if s.groups is not None else 0, n), dtype=bool),
        rear=np.zeros((c if s.on.any else 0, n), dtype=bool),
        more=np.zeros((len(gear.MORE) if s.on.any else 0, c, n), dtype=np.int16),
        pos=np.zeros((c if s.on.distance else 0, n)),
        inside=np.zeros((c, c, n) if s.on.reach and s.reach_closing else (0, 0, n), dtype=bool),
        **seated,
    )
    if s.on.any:
        flat = state.who.astype(np.intp) * n + np.arange(n)
        gear.seat(state, s, roll.ravel()[flat], tie.ravel()[flat])
    if s.on.distance:
        missiles.seat(state, s)
    return state


def acting_order(key: np.ndarray) -> np.ndarray:
    """(c, n) int8: the place acting k-th in each trial, by ascending ``key`` (keys never tie:
    they carry a random tie-break)."""
    return ascending(key, np.int8)


def seat_table(table: np.ndarray, order: np.ndarray, fixed: bool = False) -> np.ndarray:
    """(c, n): the value in ``table`` (one per fighter) of the fighter in each place of
    ``order``. A value every fighter shares fills the array, without a gather; with
    ``fixed`` (nothing in the fight changes it) it is a read-only broadcast of it (no memory
    to fill; ``TrialState.take`` keeps it so, ``Pick`` reads it without a gather)."""
    if (table == table[0]).all():
        if fixed:
            return np.broadcast_to(table[:1].reshape(1, 1), order.shape)
        return np.full(order.shape, table[0], dtype=table.dtype)
    return np.take(table, order)


def _key(s, roll: np.ndarray, tie: np.ndarray, i: int) -> np.ndarray:
    """Fighter ``i``'s seating key, speed x 1000 - (initiative + d20) - tie (smaller acts
    first), one row at a time in place: the same floats as on the whole array at once
    (integers are exact), a third of the temporary memory."""
    key = (s.speed[i] * 1000.0 - s.initiative[i]) - roll[i]
    key -= tie[i]
    return key


def seat_two(table: np.ndarray, swapped: np.ndarray, fixed: bool = False) -> np.ndarray:
    """``seat_table`` for two fighters, place 0 holding fighter 1 where ``swapped``: by
    arithmetic (a gather through an index array costs several times more)."""
    if table[0] == table[1]:
        if fixed:
            return np.broadcast_to(table[:1].reshape(1, 1), (2, swapped.size))
        return np.full((2, swapped.size), table[0], dtype=table.dtype)
    a, b = table[0], table[1]
    first = a + (b - a) * swapped.view(np.int8).astype(table.dtype)
    return np.stack([first, a + b - first])


def play_round(fight: YagsFight, state: YagsState, rng: np.random.Generator,
               round_no: int) -> None:
    """One round: declarations, then every place's action in acting order, then book-keeping."""
    if fight.explosions:   # blasts placed at the start of a round (blasts.py); () costs nothing
        blasts.blast_round(fight, state, rng, round_no)
    s = static_of(fight)
    c, n = state.status.shape
    standing = state.status == STANDING
    if s.on.any:
        ctx = declare.declare_detailed(state, s, standing, round_no, rng)
    else:
        can_act = standing & ~state.slow_start if round_no == 1 else standing
        declare.update_declarations(state, s, standing, can_act, round_no, rng)
        ctx = strikes.Round(round_no, can_act, state.penalty + state.defence_penalty)
    slots = [Pick(k, n) for k in range(c)]
    if s.on.dynamic_order:
        # Speed or initiative may have changed: act in this round's order (where nothing
        # changed it is the seating, and each slot stays a plain row).
        order = acting_order(gear.order_key(state, s))
        if not (order == np.arange(c, dtype=order.dtype)[:, None]).all():
            slots = [Pick(order[k], n) for k in range(c)]
    for me in slots:
        strikes.act(state, s, ctx, me, rng)
    if not s.on.any:
        # The basic rules keep only the round's live penalty in step as wounds, stuns and
        # fatigue change (``basic.apply``, ``gear.tire_at``; nothing reads the fighter's own
        # penalty during the round): the penalty is the live one less the declared defences'.
        np.subtract(ctx.rpen, state.defence_penalty, out=state.penalty)
    end_of_round(state, s, ctx, rng)
    if round_no == 2:
        _after_round_two(state, s)


def _after_round_two(state: YagsState, s) -> None:
    """From round 3 nothing reads who fumbled initiative (it costs round 1 and re-makes round
    2's declarations), nor, where declarations are never re-made after round 2 (a basic duel:
    the first fall decides it) or are made afresh each round (the detailed rules), how many
    were up when they were last made: both become read-only broadcasts of one number, which
    compaction fills instead of gathering (``TrialState.take``)."""
    c, n = state.status.shape
    state.slow_start = np.broadcast_to(np.False_, (c, n))
    if s.on.any or (s.groups is None and c == 2):
        state.n_up = np.broadcast_to(np.int8(-1), (n,))


def _check(status: np.ndarray, flat: np.ndarray, health4: np.ndarray, fail: int,
           rng: np.random.Generator) -> None:
    """Health checks at 20 of the places at ``flat`` (flat indices into the (c, n) arrays,
    ascending; seed 000, End of Round): a fumble or health x 4 + d20 below 20 sets ``fail``.
    The dice go to those places in C order, as ``d20_where`` would give them."""
    if not flat.size:
        return
    d = d20_at(rng, flat % status.shape[1])
    failed = flat[(d == 1) | (gather(health4, flat) + d < HEALTH_CHECK_BASE)]
    status.ravel()[failed] = fail


def end_of_round(state: YagsState, s, ctx, rng: np.random.Generator) -> None:
    """Fatal and beaten checks at 20 for fighters still up (and mounts), exhaustion, then
    yielding (seed 000 step 5), broken sides running away; in detailed fights, re-rolled
    initiatives."""
    if state.inside.size:   # foes inside the reach of those who gave ground are outside
        reach.open_distance(state, s)
    # Every mask below holds only where the status is STANDING (0), so adding the new code
    # sets it: a boolean assignment on a random mask costs ~20 times more.
    status = state.status
    standing = status == STANDING
    worst = np.maximum(state.wounds, state.stuns)
    # The places still up at fatal wounds or beaten stuns (few), then each check among them:
    # fatal wounds first, then beaten stuns among those still standing.
    due = flat_true(standing & (worst >= FATAL))
    if due.size:
        _check(status, due[state.wounds.ravel()[due] >= FATAL], state.health4, DEAD, rng)
        still = status.ravel()[due] == STANDING
        _check(status, due[still & (state.stuns.ravel()[due] >= FATAL)], state.health4,
               UNCONSCIOUS, rng)
        standing.ravel()[due] = status.ravel()[due] == STANDING
    if s.on.mounted:
        gear.mount_end_of_round(state, s, rng)
        standing = status == STANDING
    yields = standing & (worst >= state.yield_at)
    if s.on.exhaustion and s.on.any:
        # Lab's option: exhausted fighters must rest (they leave the fight). (In a basic fight
        # fatigue grows only by ``gear.tire_at``, which sends one exhausted to rest at once,
        # and one exhausted before the fight never stands: nobody standing is exhausted here.)
        yields |= standing & (state.fatigue >= gear.per_place(s, "exhausted_at", state.who))
    status += yields * YIELDED8
    if s.groups is not None and s.groups.morale:
        groups.run_away(state, s, ctx, rng)
    if s.on.any:
        gear.settle(state, s)
        if s.on.reroll:
            gear.reroll_initiative(state, s, rng)
