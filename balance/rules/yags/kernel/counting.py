"""The per-fight breakdown's counters in the Yags kernel (``balance.engine.breakdown``).

Called only where ``state.counts is not None`` (a run that asks for the breakdown); they
read the dice and masks the rules already made and draw nothing, so counting changes no
outcome. What each metric counts in Yags (docs/rules/yags.md, "Per-fight breakdown"):

* ``attacks``: attack rolls the fighter made: declared attacks and manoeuvres, free
  strikes and counter strikes, each missile shot;
* ``hits``: those that beat the parry (or the base difficulty, or a shot's range
  difficulty), at the level a manoeuvre requires;
* ``damage_dealt``: wound and stun levels the fighter's attacks put on its targets'
  tracks (the tracks' rise, held at fatal: "levels" as seed 000 counts them, not the
  damage roll's points), including knockback stuns and a vital strike's fall, and the
  levels its blows put on a rider's mount (seed 000, Fighting Large Animals);
* ``fumbles``: natural 1s on the fighter's own attack and defence rolls in melee (and a
  failed stunt, which seed 000 makes a fumble), and on its missile shots;
* ``criticals``: vital strikes that hit (seed 000, Vital strike: "By aiming for your
  foe's vitals, you can try to take them out in a single blow"), the one named critical
  blow the seed has.
"""

from __future__ import annotations

import numpy as np

from balance.engine.breakdown import ATTACKS, CRITICALS, DAMAGE_DEALT, FUMBLES, HITS, add_at
from balance.engine.pick import Pick
from balance.engine.sparse import flat_true

METRICS = frozenset({"attacks", "hits", "damage_dealt", "fumbles", "criticals",
                     "rounds_standing"})


def count(state, metric: int, pick: Pick, mask: np.ndarray,
          values: np.ndarray | None = None) -> None:
    """Add 1 (or ``values``, one per trial of the pick) to ``metric`` at ``pick``'s places in
    the trials where ``mask``."""
    idx = flat_true(mask)
    if idx.size:
        add_at(state, metric, pick.flat_at(idx), 1 if values is None else values[idx])


def body(state, pick: Pick) -> np.ndarray:
    """Wounds plus stuns (int16) at ``pick``, its mount's too (the detailed rules): what a
    blow's levels raise."""
    out = pick.get(state.wounds).astype(np.int16) + pick.get(state.stuns)
    if state.more.shape[0]:
        out += pick.get(state.x("m_wounds")) + pick.get(state.x("m_stuns"))
    return out


def dealt(state, att: Pick, tgt: Pick, before: np.ndarray) -> None:
    """Credit ``att`` with the levels its target's tracks rose by since ``before``."""
    rise = body(state, tgt) - before
    count(state, DAMAGE_DEALT, att, rise > 0, rise)


def roll(state, att: Pick, tgt: Pick, acting: np.ndarray, hit: np.ndarray,
         attack_fumble: np.ndarray, defence_fumble: np.ndarray,
         vital: np.ndarray | None = None) -> None:
    """One attack roll in the trials where ``acting``: the attack, the hit, the attacker's
    and the defender's fumbles, and (``vital``) a vital strike that hit."""
    count(state, ATTACKS, att, acting)
    count(state, HITS, att, hit)
    count(state, FUMBLES, att, attack_fumble & acting)
    count(state, FUMBLES, tgt, defence_fumble & acting)
    if vital is not None:
        count(state, CRITICALS, att, vital & hit)
