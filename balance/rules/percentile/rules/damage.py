"""Damage and armour rolls as exact distributions: built once per fight, sampled in bulk.

Every damage roll of the percentile family is a dice expression (weapon "1D8+1", damage
bonus "1D4", armour "1D6-1") or a simple transform of one (an impale rolls the weapon twice,
a pulled blow halves the dice and drops the modifiers). The compile step turns each roll a
fight can make into an exact :class:`~balance.dice.Pmf`; the kernel samples any mix of them
with one uniform per roll (inverse CDF over one keyed table), so trials with different
weapons roll in one vectorised call. The scalar reference rolls the literal dice instead
(:func:`roll_dice`); the agreement tests compare the two.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.typing import NDArray

from balance.dice import Constant, Dice, Drift, Pmf, parse


def weapon_pmf(text: str) -> Pmf:
    """The exact distribution of a damage expression such as ``1D8+1`` or ``-1D4``."""
    return parse(text).pmf()


def impale_pmf(text: str) -> Pmf:
    """An impale: the weapon's damage (dice and modifier) rolled twice (family convention)."""
    once = weapon_pmf(text)
    return once + once


def is_dice(term: object) -> bool:
    """A term that is rolled dice (plain, kept, exploding, counted or bracketed), not a
    plus or minus modifier (a number) and not Ymlad's drift."""
    return not isinstance(term, Constant | Drift)


def dice_only_pmf(text: str) -> Pmf:
    """Only the dice of an expression, its plus and minus modifiers ignored."""
    total = Pmf.constant(0)
    for sign, term in parse(text).terms:
        if is_dice(term):
            total = total + term.pmf() if sign > 0 else total - term.pmf()
    return total


def halved(pmf: Pmf) -> Pmf:
    """The distribution of x // 2 (rounded down: damage rounds in the victim's favour)."""
    out: dict[int, float] = {}
    for x, p in pmf:
        out[x // 2] = out.get(x // 2, 0.0) + p
    return Pmf.from_dict(out)


def at_least_zero(pmf: Pmf) -> Pmf:
    """The distribution of max(x, 0): damage never goes below nothing."""
    if pmf.min_outcome >= 0:
        return pmf
    out: dict[int, float] = {}
    for x, p in pmf:
        out[max(x, 0)] = out.get(max(x, 0), 0.0) + p
    return Pmf.from_dict(out)


def pulled_pmf(text: str, impale: bool = False) -> Pmf:
    """Seed 004, pulled blow: halve the dice result, ignore modifiers (and the bonus)."""
    dice = dice_only_pmf(text)
    return halved(dice + dice if impale else dice)


def half_bonus_text(text: str) -> str:
    """Half a damage bonus, by halving its dice (1D4 -> 1D2, 1D6 -> 1D3, 2D6 -> 1D6,
    3D6 -> 1D6+1D3): the family's half bonus for thrown objects. Only plain dice can be
    halved so; the models refuse a damage bonus with kept, exploding or counted dice."""
    parts: list[str] = []
    for sign, term in parse(text).terms:
        if not isinstance(term, Dice):
            continue
        pieces = []
        if term.n // 2:
            pieces.append(f"{term.n // 2}D{term.m}")
        if term.n % 2:
            pieces.append(f"1D{max(1, term.m // 2)}")
        parts += [("-" if sign < 0 else "+") + p for p in pieces]
    return "".join(parts).removeprefix("+") or "0"


def damaged_armour_text(text: str) -> str:
    """Seed 004, partly destroyed armour: "roughly halve its defense roll, rounding in the
    wearer's favor (1D6-1 becomes 1D3)". The lab halves the dice as a half damage bonus does
    (1D6 -> 1D3, 2D6 -> 1D6, 1D10 -> 1D5) and each fixed number rounding up (-1 -> 0,
    +2 -> +1, 7 -> 4), which gives the seed's example exactly."""
    parts: list[str] = []
    for sign, term in parse(text).terms:
        if isinstance(term, Dice):
            pieces = [f"{term.n // 2}D{term.m}"] if term.n // 2 else []
            if term.n % 2:
                pieces.append(f"1D{max(1, term.m // 2)}")
            parts += [("-" if sign < 0 else "+") + p for p in pieces]
        else:
            value = -(-(sign * term.value) // 2)
            if value:
                parts.append(f"{value:+d}")
    return "".join(parts).removeprefix("+") or "0"


def minimum(text: str) -> int:
    """The least a damage expression can roll (seed 004: a knockout's minor-wound damage)."""
    return weapon_pmf(text).min_outcome


@functools.cache
def _terms(text: str) -> tuple:
    return parse(text).terms


def roll_dice(text: str, rng: np.random.Generator) -> int:
    """Roll a dice expression die by die (the scalar reference's literal roll: each term's
    own ``roll``, so kept, exploding and counted dice are rolled as the rulebook reads)."""
    return sum(sign * term.roll(rng) for sign, term in _terms(text))


class PmfTable:
    """A fixed list of pmfs, sampled by index: ``sample(index, rng)`` rolls pmf ``index[k]``
    for every element k with one uniform each.

    The cumulative distributions sit in one sorted array keyed ``k + cdf_k(x)``; the last
    entry of each is exactly ``k + 1``, so a key ``k + u`` (u in [0, 1)) always lands inside
    pmf k. Index 0 is always the constant 0 (no roll).

    Sampling finds the roll ``searchsorted(keys, k + u, side="right")`` names, without the
    binary search (~50 ns an element here): a guide table cuts each pmf's [0, 1) into
    ``B`` equal buckets, and u's bucket holds at most one key in nearly every case, so the
    roll is the bucket's lower value, or its upper one when ``k + u`` reaches that key (one
    comparison). The few buckets two or more keys share are searched as before. Bucket
    bounds are exact binary fractions, so the rolls are the binary search's, bit for bit.
    """

    def __init__(self) -> None:
        self._pmfs: list[Pmf] = [Pmf.constant(0)]
        self._index: dict[tuple[int, tuple[float, ...]], int] = {}
        self._keys: NDArray[np.float64] | None = None
        self._values: NDArray[np.int16] | None = None

    def add(self, pmf: Pmf) -> int:
        """The index of ``pmf`` in the table (equal pmfs share one entry)."""
        key = (pmf.min_outcome, tuple(pmf.probs.tolist()))
        if key not in self._index:
            self._index[key] = len(self._pmfs)
            self._pmfs.append(pmf)
            self._keys = None
        return self._index[key]

    def __len__(self) -> int:
        return len(self._pmfs)

    def __getitem__(self, index: int) -> Pmf:
        return self._pmfs[index]

    def _build(self) -> None:
        keys, values = [], []
        for k, pmf in enumerate(self._pmfs):
            cdf = np.minimum(np.cumsum(pmf.probs), 1.0)    # sorted, even where rounding
            cdf[-1] = 1.0                                   # lifts a partial sum past 1
            keys.append(k + cdf)
            values.append(pmf.outcomes)
        self._keys = np.concatenate(keys)
        self._values = np.concatenate(values).astype(np.int16)
        self._build_guide()

    def _build_guide(self) -> None:
        """Per pmf k and bucket j (u in [j/B, (j+1)/B)): the roll below the bucket's one
        key, the roll above it and the key (+inf: no key inside), or a flag for a bucket
        holding two or more keys. ``k + u`` rounds into the closed bucket [k + j/B,
        k + (j+1)/B] (its bounds are exact), so the keys counted are those up to the
        upper bound, inclusive."""
        most = max(len(pmf.outcomes) for pmf in self._pmfs)
        self._buckets = b = int(min(1024, 1 << int(np.ceil(np.log2(4 * most)))))
        k = np.repeat(np.arange(len(self._pmfs), dtype=np.float64), b)
        j = np.tile(np.arange(b, dtype=np.float64), len(self._pmfs))
        lo = np.searchsorted(self._keys, k + j / b, side="right")
        hi = np.searchsorted(self._keys, k + (j + 1) / b, side="right")
        inside = hi - lo
        top = len(self._values)
        values = np.append(self._values, self._values[-1])   # lo + 1 may run off the end
        self._lower = values[np.minimum(lo, top)]
        self._upper = values[np.minimum(lo + 1, top)]
        keys = np.append(self._keys, np.inf)
        self._split = np.where(inside == 1, keys[np.minimum(lo, top)], np.inf)
        self._shared = inside >= 2

    def sample(self, index: NDArray[np.integer], rng: np.random.Generator) -> NDArray[np.int16]:
        """One roll of pmf ``index[k]`` for each k: int16 array of index's shape."""
        if self._keys is None:
            self._build()
        index = np.asarray(index)
        u = rng.random(index.shape)
        x = index + u
        g = index.astype(np.intp) * self._buckets + (u * self._buckets).astype(np.intp)
        out = np.where(x >= self._split.take(g), self._upper.take(g), self._lower.take(g))
        shared = self._shared.take(g)
        if np.count_nonzero(shared):   # (the last pmf's k + u may round up to its end)
            pos = np.searchsorted(self._keys, x[shared], side="right")
            out[shared] = self._values[np.minimum(pos, len(self._values) - 1)]
        return out


class CountTable:
    """Pmfs whose probabilities are whole multiples of ``1/D`` (dice rolls: ``D`` divides the
    product of the faces), sampled exactly: ``sample(index, rng)`` draws one integer in
    0..D-1 per element and reads the roll off a table of D outcomes per pmf (the rolls
    the dice would give, each as often as the dice give it).
    """

    def __init__(self, pmfs: list[Pmf], denominator: int) -> None:
        self.denominator = d = denominator
        rows = []
        for pmf in pmfs:
            counts = np.rint(pmf.probs * d).astype(np.int64)
            rows.append(np.repeat(pmf.outcomes, counts))
        self._values = np.concatenate(rows).astype(np.int16)

    @classmethod
    def of(cls, table: PmfTable, limit: int = 1 << 14) -> CountTable | None:
        """The pmfs of ``table`` as counts, if one denominator of at most ``limit`` makes
        every probability whole (to 1e-9); else None."""
        pmfs = [table[k] for k in range(len(table))]
        # a dice roll's rarest outcome (all faces at an end) has probability 1/D
        d = math.lcm(*(round(1 / pmf.probs.min()) for pmf in pmfs))
        if d > limit:
            return None
        for pmf in pmfs:
            exact = pmf.probs * d
            if np.abs(exact - np.rint(exact)).max() > 1e-9 or np.rint(exact).sum() != d:
                return None
        return cls(pmfs, d)

    def sample(self, index: NDArray[np.integer], rng: np.random.Generator) -> NDArray[np.int16]:
        """One roll of pmf ``index[k]`` for each k: int16 array of index's shape."""
        at = index.astype(np.int32) * np.int32(self.denominator)
        at += rng.integers(0, self.denominator, size=at.shape, dtype=np.int32)
        return self._values.take(at)
