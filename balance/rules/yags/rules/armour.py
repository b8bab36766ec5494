"""A suit of armour from its pieces (seed 000, "Advanced Armour"), computed once per fighter.

No hit locations: a suit's protection is the total of the pieces that count, against each
kind of blow (``tracks.IMPALING | HEAVY | STUNLIKE``). Only numpy-free Python here; the table
rows are read by attribute.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from balance.rules.yags.rules.tracks import HEAVY, IMPALING, N_KINDS, STUNLIKE

# Seed 000, Stacking Armour: soft leather under mail under plate, and a helm over a mail
# coif. The lab reads the coif as the head's mail and the helm as the head's plate, so one
# rule covers both; pieces of the same class (or of class "other") that share a covered area
# do not layer: only the better one counts.
LAYER_CLASS = {"soft": "soft", "mail": "mail", "coif": "mail", "plate": "plate",
               "helm": "plate", "other": "other"}
TORSO_AND = (("torso", "arms"), ("torso", "legs"))


@dataclass(frozen=True)
class Suit:
    """What a fighter's armour adds up to."""

    protection: tuple[int, ...]   # against each blow kind 0..7
    heavy: bool                   # heavy pieces cover torso + arms or torso + legs
    vitals: int                   # bonus to health checks right after being hit
    restrictive: int              # agility lost in combat (initiative included)
    counted: tuple[str, ...]      # the pieces whose protection counts


NO_ARMOUR = Suit((0,) * N_KINDS, False, 0, 0, ())


def layers(a: Any, b: Any) -> bool:
    """Can pieces ``a`` and ``b`` both count where they overlap?"""
    ca, cb = LAYER_CLASS[a.layer], LAYER_CLASS[b.layer]
    return ca != cb and "other" not in (ca, cb)


def counted_pieces(names: Sequence[str], rows: dict[str, Any]) -> list[str]:
    """The pieces whose protection counts: best first, a piece is dropped when it overlaps a
    counted piece it cannot layer with (seed: "simply take the best protection value")."""
    order = sorted(range(len(names)), key=lambda i: (-rows[names[i]].protection, i))
    kept: list[str] = []
    for i in order:
        piece = rows[names[i]]
        clash = any(set(piece.covers) & set(rows[k].covers) and not layers(piece, rows[k])
                    for k in kept)
        if not clash:
            kept.append(names[i])
    return [n for n in names if n in kept]


def piece_value2(piece: Any, kind: int, shield: bool) -> int:
    """Twice a piece's protection against one kind of blow (seed 000: mail halved against
    impaling; soft doubled against stun and mixed, halved against impaling; lab: a single
    vambrace without a shield gives half)."""
    value = 2 * piece.protection
    if piece.pair_with_shield and not shield:
        value //= 2
    if kind & IMPALING and ("mail" in piece.properties or "soft" in piece.properties):
        return value // 2
    if kind & STUNLIKE and "soft" in piece.properties:
        return value * 2
    return value


def suit_of(names: Sequence[str], rows: dict[str, Any], *, shield: bool = False) -> Suit:
    """The suit made of the pieces ``names`` (armour table ``rows``); ``shield``: the wearer
    carries a shield (for a single vambrace).

    Halves are rounded down after the pieces are added up (lab's assumption). A heavy weapon
    halves the whole protection of a light suit (seed: "use the 'half armour' column").
    """
    if not names:
        return NO_ARMOUR
    counted = counted_pieces(names, rows)
    worn = [rows[n] for n in names]
    covered_heavy = {area for p in worn if p.heavy for area in p.covers}
    heavy = any(set(pair) <= covered_heavy for pair in TORSO_AND)
    protection = []
    for kind in range(N_KINDS):
        total = sum(piece_value2(rows[n], kind, shield) for n in counted) // 2
        if kind & HEAVY and not heavy:
            total //= 2
        protection.append(total)
    return Suit(
        protection=tuple(protection),
        heavy=heavy,
        # Lab's assumption: vitals do not add up (two pieces guard the same vitals); the best
        # worn piece counts. Restrictive values add up.
        vitals=max((p.vitals for p in worn), default=0),
        restrictive=sum(p.restrictive for p in worn),
        counted=tuple(counted),
    )
