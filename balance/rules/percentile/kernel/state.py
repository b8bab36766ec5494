"""The percentile kernel's per-trial state and fresh trials (see ``kernel/fight.py``)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from balance.engine.distance import start_positions
from balance.engine.state import TrialState
from balance.engine.targeting import NO_TARGET
from balance.rules.percentile.compile import MAIN, PercentileFight
from balance.rules.percentile.kernel.prepare import static_of


@dataclass
class PercentileState(TrialState):
    """Everything that changes in a fight; (c, n) arrays unless marked (4, c, n)."""

    hp: np.ndarray            # int16
    down: np.ndarray          # bool: fallen (seed 004, fighting while down)
    stunned: np.ndarray       # bool
    mounted: np.ndarray       # bool
    pos: np.ndarray           # float32, yards on the shared line
    wield: np.ndarray         # int8: item slot in hand
    item_ok: np.ndarray       # (4, c, n) bool: present and not broken or dropped
    item_hp: np.ndarray       # (4, c, n) int16
    ammo: np.ndarray          # int16
    reload: np.ndarray        # int8: rounds until the missile weapon can shoot again
    entangled: np.ndarray     # bool
    netted: np.ndarray        # bool: entangled by a thrown net (a knife can cut it)
    held_until: np.ndarray    # int16: an entangled fighter is held through this round
    forfeit: np.ndarray       # bool: no attack this round
    forfeit_next: np.ndarray
    no_parry: np.ndarray      # bool: dropped weapon, no parry this round
    no_parry_next: np.ndarray
    draw_pending: np.ndarray  # bool: five DEX ranks owed for drawing
    item_loose: np.ndarray    # (4, c, n) bool: knocked from the hand by a disarm, on the ground
    no_draw: np.ndarray       # bool: a disarm keeps it from drawing another weapon
    defences: np.ndarray      # int8: parries and dodges made this round
    volleyed: np.ndarray      # int16: rounds of volley fire
    target: np.ndarray        # int8, this round
    moved: np.ndarray         # float32, yards moved this round
    backed: np.ndarray        # bool: moved away from its target this round (not straight ahead)
    charging: np.ndarray      # bool, this round
    bracing: np.ndarray       # bool, this round
    key: np.ndarray           # int16: 4 x DEX rank of this round's action
    aim: np.ndarray           # int8: aiming steps this round
    attacked: np.ndarray      # bool: made an attack this round
    order: np.ndarray         # int8: this round's rank among equal DEX ranks (higher first)
    major: np.ndarray         # bool: has taken a major wound
    wake_at: np.ndarray       # int16: knocked out, comes to in this round (0: not waking)
    surprised: np.ndarray     # bool: caught by an ambush (acts and defends from round 2)
    armour_damaged: np.ndarray   # bool: its armour is partly destroyed (halved roll)
    airborne: np.ndarray      # bool: aloft before its pounce (seed 004, the pouncing stick)
    flank: np.ndarray         # bool: strikes its target from the side this round
    poison_doses: np.ndarray  # int16: doses left on the main weapon ((0, n) if no poison)
    poison_hp: np.ndarray     # int16: poison loss still to come ((0, n) without onsets)
    poison_at: np.ndarray     # int16: ... in this round (0: none)
    rising: np.ndarray        # bool: down at the round's start, spending its defence to stand
    inside: np.ndarray        # int8: the foe whose longer weapon it got inside (-1: none)


# What a plain duel's round (kernel_duel and the general steps it calls) reads and writes
DUEL_FIELDS = frozenset({"status", "side", "who", "hp", "down", "wield", "item_ok", "forfeit",
                         "forfeit_next", "no_parry", "no_parry_next", "draw_pending",
                         "no_draw", "major", "stunned", "rising", "inside", "attacked"})


def start(fight: PercentileFight, n: int, rng: np.random.Generator, *,
          lean: bool = False) -> PercentileState:
    """Fresh trials: full hit points, side positions, main weapons in hand. No dice.
    ``lean`` (a plain duel, as the engine plays it): the fields outside ``DUEL_FIELDS``
    are empty ((0, n)), so removing finished trials copies a third of the bytes."""
    S = static_of(fight)
    c = S.c

    def per_fighter(values, dtype) -> np.ndarray:
        return np.repeat(np.asarray(values, dtype=dtype)[:, None], n, axis=1)

    def per_item(values, dtype) -> np.ndarray:
        return np.repeat(np.asarray(values, dtype=dtype)[:, :, None], n, axis=2)

    def zeros(dtype=bool, items: bool = False) -> np.ndarray:
        return np.zeros((4, c, n) if items else (c, n), dtype=dtype)

    def poison(rows: int) -> np.ndarray:
        return np.zeros((rows, n), dtype=np.int16)

    made = {
        "status": lambda: zeros(np.int8),
        "side": lambda: per_fighter(S.side, np.int8),
        "who": lambda: per_fighter(np.arange(c), np.int8),
        "hp": lambda: per_fighter(S.hp, np.int16),
        "down": lambda: per_fighter(S.starts_down, bool),
        "mounted": lambda: per_fighter(S.mounted, bool),
        "pos": lambda: per_fighter(start_positions(fight.side_of, list(fight.side_distance)),
                                   np.float32),
        "wield": lambda: np.full((c, n), MAIN, dtype=np.int8),
        "item_ok": lambda: per_item(S.item_present, bool),
        "item_hp": lambda: per_item(np.minimum(S.item_hp, 30_000), np.int16),
        "item_loose": lambda: zeros(items=True),
        "ammo": lambda: per_fighter(S.ammo, np.int16),
        "reload": lambda: zeros(np.int8), "defences": lambda: zeros(np.int8),
        "aim": lambda: zeros(np.int8), "order": lambda: zeros(np.int8),
        "held_until": lambda: zeros(np.int16), "volleyed": lambda: zeros(np.int16),
        "key": lambda: zeros(np.int16), "wake_at": lambda: zeros(np.int16),
        "target": lambda: np.full((c, n), NO_TARGET, dtype=np.int8),
        "inside": lambda: np.full((c, n), -1, dtype=np.int8),
        "moved": lambda: zeros(np.float32),
        "armour_damaged": lambda: per_fighter(S.armour_damaged, bool),
        "airborne": lambda: per_fighter(S.pounce, bool),
        "poison_doses": lambda: per_fighter(S.poison_doses, np.int16)
        if "poison" in fight.uses else poison(0),
        "poison_hp": lambda: poison(c if "poison_onset" in fight.uses else 0),
        "poison_at": lambda: poison(c if "poison_onset" in fight.uses else 0),
    }
    return PercentileState(**{
        f.name: np.zeros((0, n), dtype=bool) if lean and f.name not in DUEL_FIELDS
        else made.get(f.name, zeros)()       # (any other field: all False)
        for f in dataclasses.fields(PercentileState)
        if f.name != "counts"})    # (the breakdown's: None unless the run asks for it)
