"""The per-fight breakdown's counters in the percentile kernel (``balance.engine.breakdown``).

Called only where ``st.counts is not None`` (a run that asks for the breakdown); they read
the levels, masks and damage the rules already rolled and draw nothing, so counting changes
no outcome. What each metric counts in the percentile rules (docs/rules/percentile.md,
"Per-fight breakdown"):

* ``attacks``: attack rolls the fighter made: hand-to-hand blows of every mode (strike,
  knockback, disarm, entangle; free blows at a runner, ripostes, extra attacks, a pounce)
  and each missile shot;
* ``hits``: those that landed: succeeded and were neither stopped by a parry or dodge nor
  blocked by a shield (a blow only partly parried lands);
* ``damage_dealt``: hit points the fighter's blows took from their targets *after armour*
  (the rolled damage less the armour roll; a critical ignores armour), a blow's excess
  through a parrying weapon included; a poison's later hit points are not counted;
* ``fumbles``: fumbled attack rolls and fumbled parries and dodges, the fighter's own;
* ``criticals``: attack rolls at the critical level (specials and impales are not in it).

Not counted: ``damage_soaked``. A plain duel rolls a landed blow's damage after armour as
one exact distribution (``kernel.duel``), one draw: the armour's share of it is never
drawn, and drawing it would change every outcome after it.
"""

from __future__ import annotations

import numpy as np

from balance.engine.breakdown import ATTACKS, CRITICALS, DAMAGE_DEALT, FUMBLES, HITS, add_at
from balance.rules.percentile.rules import tables as tb

METRICS = frozenset({"attacks", "hits", "damage_dealt", "fumbles", "criticals",
                     "rounds_standing"})


def count(st, metric: int, who, rows: np.ndarray, values: np.ndarray | int = 1,
          mask: np.ndarray | None = None) -> None:
    """Add 1 (or ``values``, one per row) to ``metric`` of place ``who`` (one, or one per
    row) in trials ``rows``, in the rows where ``mask`` (all if None)."""
    if mask is not None:
        idx = np.flatnonzero(mask)
        if not idx.size:
            return
        rows = rows.take(idx)
        who = who.take(idx) if np.ndim(who) else who
        values = values.take(idx) if np.ndim(values) else values
    if not rows.size:
        return
    flat = np.asarray(who, dtype=np.intp) * st.status.shape[1] + rows
    add_at(st, metric, flat, values)


def roll(st, who, rows: np.ndarray, level: np.ndarray) -> None:
    """Attack rolls of ``who`` in trials ``rows`` at ``level`` (after a helpless target's
    automatic hit): the attacks, their criticals and fumbles."""
    count(st, ATTACKS, who, rows)
    count(st, CRITICALS, who, rows, mask=level == tb.CRITICAL)
    count(st, FUMBLES, who, rows, mask=level == tb.FUMBLE)


def landed(st, who, rows: np.ndarray, mask: np.ndarray) -> None:
    """The blows of ``who`` in trials ``rows`` that landed where ``mask``."""
    count(st, HITS, who, rows, mask=mask)


def dealt(st, who, rows: np.ndarray, points: np.ndarray) -> None:
    """Hit points (after armour) the blows of ``who`` in trials ``rows`` took."""
    count(st, DAMAGE_DEALT, who, rows, np.asarray(points, dtype=np.int32),
          mask=np.asarray(points) > 0)


def fumbled(st, who, rows: np.ndarray) -> None:
    """Fumbled defence rolls of ``who`` in trials ``rows``."""
    count(st, FUMBLES, who, rows)
