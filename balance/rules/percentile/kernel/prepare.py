"""The percentile kernel's prepare step: a compiled fight as the kernel reads it, built once.

``Static`` turns the compiled fight's fighters into arrays (``x.STR`` (c,), ``x.item_attack``
(4, c)); a plain duel also gets its outcome table (``kernel.duel.DuelTable``, built by
evaluating the rule functions). Both are kept while the fight lives
(``balance.engine.prepared.once``), as Ymlad's ``kernel.fight.static_of`` and Yags's
``vector.prepare.static_of`` keep theirs, so the compiled fight (``compile.py``) holds no
kernel arrays and imports no kernel module: the fighters <-> kernel_duel import circle
(a cached ``duel_table`` property importing ``kernel.duel`` lazily) is gone. The kernel
modules never import this one: they read the arrays and the table off their ``Ctx``
(``kernel.strike.Ctx.S``, ``Ctx.table``), which ``kernel.fight.play_round`` fills from here.
"""

from __future__ import annotations

import numpy as np

from balance.engine.prepared import once
from balance.rules.percentile.compile import (
    MELEE,
    OFF,
    UNBREAKABLE,
    Fighter,
    Item,
    PercentileFight,
    off_hand_parries,
)
from balance.rules.percentile.kernel.duel import DuelTable
from balance.rules.percentile.rules.tables import deployable


def static_of(fight: PercentileFight) -> Static:
    """The fight's fixed numbers as arrays (``Static``), computed once per live fight."""
    return once(Static, fight)


def duel_table_of(fight: PercentileFight) -> DuelTable:
    """A plain duel's outcome table (``kernel.duel.DuelTable``), computed once per live
    fight."""
    return once(_duel_table, fight)


def _duel_table(fight: PercentileFight) -> DuelTable:
    return DuelTable(fight, static_of(fight))


class Static:
    """The fixed numbers of a fight as arrays: ``x.STR`` is (c,), ``x.item_attack`` (4, c)
    (item slot, fighter), ``x.limits`` (4, c, 3) (slot, fighter, target's space)."""

    def __init__(self, fight: PercentileFight) -> None:
        floats = ("clearance", "depth", "space", "width")   # yards of room, had and needed
        fs = fight.fighters
        self.c = len(fs)
        self.n_sides = len(fight.side_names)
        for name in Fighter.__dataclass_fields__:
            if name in ("items", "name", "threat") or name.endswith("_text"):
                continue
            values = [getattr(f, name) for f in fs]
            dtype = np.float64 if name in floats else (
                bool if isinstance(values[0], bool) else np.int32)
            setattr(self, name, np.array(values, dtype=dtype))
        self.mounted = np.array([f.mounted for f in fs], dtype=bool)
        for name in Item.__dataclass_fields__:
            if name in ("name", "limits", "damage"):
                continue
            values = [[getattr(f.items[k], name) for f in fs] for k in range(4)]
            dtype = np.float64 if name in floats else (
                bool if isinstance(values[0][0], bool) else np.int32)
            setattr(self, f"item_{name}", np.array(values, dtype=dtype))
        # Seed 004: an item that cannot be deployed in its holder's space, or a
        # non-thrusting one underwater, is used at a quarter of the skill (fixed per fight).
        self.item_quartered = ~deployable(self.item_width, self.item_space, self.clearance,
                                          self.depth) | (self.underwater
                                                         & ~self.item_thrusting)
        # a weapon's length class if it is a melee weapon, else -1 (seed 004: up close)
        self.melee_length = np.where(self.item_kind == MELEE, self.item_length, -1)
        self.mains_one_length = len({int(x) for x in self.melee_length[0]}) == 1
        self.fumble_cumulative = np.cumsum(fight.fumble_weights)
        # with both hands able to parry, does the off hand parry rather than item slot k?
        self.off_first = off_hand_parries(self.parry_with, self.item_parry[OFF],
                                          self.item_parry)
        # does each fighter's off hand parry rather than every other slot? (``kernel.strike.
        # parry_slot``'s shortcut, read a place at a time)
        self.off_first_all = self.off_first.all(axis=0)
        # can each fighter's off-hand item parry at all (a shield not underwater)? (``parry_slot``)
        self.off_can_parry = self.item_can_parry[OFF] & ~(self.item_shield[OFF] & self.underwater)
        # the fewest hit points of anything each fighter may parry with (before any wear)
        self.weakest_parry = np.where(self.item_can_parry, self.item_hp, UNBREAKABLE).min(axis=0)
        self.item_is_fist = np.array([[f.items[k].name == "fist" for f in fs]
                                      for k in range(4)], dtype=bool)
        self.limits = np.array([[f.items[k].limits for f in fs] for k in range(4)],
                               dtype=np.int32)
        self.item_threat = np.array([f.threat for f in fs], dtype=np.int32).reshape(-1, 4).T
        # Attackers-per-target rows, smallest first (group fights choose in this order).
        rows = sorted({f.items[k].limits for f in fs for k in range(4)})
        self.limit_classes = np.array(rows, dtype=np.int16).reshape(-1, 3)
        self.item_limit_class = np.array([[rows.index(f.items[k].limits) for f in fs]
                                          for k in range(4)], dtype=np.intp)
        # Group fights: can the attackers-per-target limits ever bind? Not when no fighter
        # has more foes than the smallest limit any of its foes' items allow in its space.
        self.limits_bind = any(
            sum(g.side != f.side for g in fs) > min(
                (g.items[k].limits[f.space_class] for g in fs if g.side != f.side
                 for k in range(4) if g.items[k].present), default=99)
            for f in fs)
