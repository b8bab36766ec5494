"""A pool of dice with modifiers: exploding (``d6!``), keep or drop (``4d6kh3``, ``4d6dl1``)
and counts of successes (``5d10>=7``: how many dice show 7 or more).

A :class:`Pool` is one term of a dice expression, like :class:`~balance.dice.expr.Dice`, with
the same three faces: ``sample`` (whole arrays, for the engine and ``balance dice
--samples``), ``roll`` (one roll, die by die, for the scalar references) and ``pmf`` (exact,
for the kernels' tables and ``balance dice``). The modifiers apply in the order written and
read: each die explodes, then dice are kept or dropped, then the kept dice are summed or
counted.

Exploding dice have no largest roll. The exact pmf keeps every roll with up to
:func:`explosions` re-rolls a die (the first ``K`` with ``m**-(K+1)`` below
:data:`EXPLODE_TAIL`) and leaves the rest out: :meth:`Pool.left_out` says how much
probability that is, and ``balance dice`` prints it. The samplers roll the literal dice,
with no cap.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from balance.dice.exact import Pmf
from balance.dice.keep import kept_scores

EXPLODE_TAIL = 1e-16
"""Per die, the exact pmf of an exploding die leaves out at most this much probability."""
CHUNK_ELEMENTS = 1 << 22
"""Most single dice a pool draws at once (memory stays bounded for large pools)."""

COMPARE: dict[str, Callable[[object, object], object]] = {
    ">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt,
    "=": operator.eq}
"""The comparisons a count of successes (and an expression) may use; ``==`` reads as ``=``."""

KEEPS = ("kh", "kl", "dh", "dl")
"""Keep highest, keep lowest, drop highest, drop lowest (``k`` alone reads as ``kh``)."""


def explosions(m: int, tail: float = EXPLODE_TAIL) -> int:
    """The most re-rolls of an exploding dM the exact pmf keeps: the least K with
    ``m**-(K+1) < tail`` (a d6: 20, leaving out 6**-21 = 4.6e-17)."""
    k = 0
    while float(m) ** -(k + 1) >= tail:
        k += 1
    return k


def exploding_die(m: int, tail: float = EXPLODE_TAIL) -> tuple[Pmf, float]:
    """One exploding dM (a top face adds another roll, again and again): its pmf with up to
    :func:`explosions` re-rolls, and the probability left out (``m**-(K+1)``).

    P(j*m + r) = m**-(j+1) for j re-rolls and a last face r in 1..m-1.
    """
    k = explosions(m, tail)
    probs = np.zeros(m * (k + 1) - 1)
    for j in range(k + 1):
        probs[j * m:j * m + m - 1] = float(m) ** -(j + 1)
    return Pmf._trusted(1, probs), float(m) ** -(k + 1)


@dataclass(frozen=True)
class Pool:
    """``n`` dice of ``m`` faces: each exploding on its top face (``explode``), then kept or
    dropped (``keep`` one of :data:`KEEPS` with ``keep_count`` dice), then summed, or counted
    where they meet ``count`` (a comparison and a threshold, such as ``('>=', 7)``)."""

    n: int
    m: int
    explode: bool = False
    keep: str | None = None
    keep_count: int = 1
    count: tuple[str, int] | None = None

    # ---------------------------------------------------------------- reading
    @property
    def kept(self) -> int:
        """How many dice count toward the result."""
        if self.keep is None:
            return self.n
        return self.keep_count if self.keep in ("kh", "kl") else self.n - self.keep_count

    @property
    def highest(self) -> bool:
        """Whether the kept dice are the highest (``kh``, ``dl``) rather than the lowest."""
        return self.keep in ("kh", "dl")

    def __str__(self) -> str:
        text = f"d{self.m}" if self.n == 1 else f"{self.n}d{self.m}"
        if self.explode:
            text += "!"
        if self.keep is not None:
            text += f"{self.keep}{self.keep_count}"
        if self.count is not None:
            text += f"{self.count[0]}{self.count[1]}"
        return text

    def describe(self) -> str:
        """The term in words (``balance dice`` prints it under the expression)."""
        parts = [f"{self.n} {'exploding ' if self.explode else ''}d{self.m}"]
        if self.keep is not None:
            which = "highest" if self.highest else "lowest"
            parts.append(f"keep the {which} {self.kept}")
        if self.count is not None:
            parts.append(f"count the dice {self.count[0]} {self.count[1]}")
        else:
            parts.append("sum them")
        return ", ".join(parts)

    # ------------------------------------------------------------------ exact
    def die(self) -> tuple[Pmf, float]:
        """One die of the pool (exploding or not) and the probability its pmf leaves out."""
        return exploding_die(self.m) if self.explode else (Pmf.die(self.m), 0.0)

    def score(self, faces: NDArray[np.int64]) -> NDArray[np.int64]:
        """What a kept die showing each face adds: the face, or 1 or 0 for a count."""
        if self.count is None:
            return faces
        op, t = self.count
        return np.asarray(COMPARE[op](faces, t), dtype=np.int64)

    def pmf(self) -> Pmf:
        """The exact distribution of the pool's result (see the module's note on exploding)."""
        die, _ = self.die()
        faces = die.outcomes
        scores = self.score(faces)
        if self.keep is None:
            one: dict[int, float] = {}
            for s, p in zip(scores.tolist(), die.probs.tolist(), strict=True):
                one[s] = one.get(s, 0.0) + p
            lo = min(one)
            arr = np.zeros(max(one) - lo + 1)
            for s, p in one.items():
                arr[s - lo] += p
            return _n_fold(Pmf._trusted(lo, arr), self.n)
        probs = kept_scores(faces, die.probs, scores, self.n, self.kept, self.highest)
        return Pmf._trusted(0, probs)

    def left_out(self) -> float:
        """Probability the exact pmf leaves out (only exploding dice leave any)."""
        _, tail = self.die()
        return -math.expm1(self.n * math.log1p(-tail)) if tail else 0.0

    def span(self) -> int:
        """How many outcomes wide the result can be (to refuse a huge pmf early)."""
        if self.count is not None:
            return self.kept
        top = self.m * (explosions(self.m) + 1) if self.explode else self.m
        return self.kept * top

    # --------------------------------------------------------------- sampling
    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.int32]:
        """Roll the pool for every element of ``shape``: int32 results of that shape.

        The dice of up to :data:`CHUNK_ELEMENTS` // n results are drawn at once, as an
        ``(n, results)`` array: explode, sort along the dice, keep, score, sum.
        """
        size = math.prod(shape)
        out = np.empty(size, dtype=np.int32)
        per = max(1, CHUNK_ELEMENTS // self.n)
        for start in range(0, size, per):
            k = min(per, size - start)
            dice = rng.integers(1, self.m + 1, size=(self.n, k), dtype=np.int32)
            if self.explode:
                _explode(rng, dice, self.m)
            out[start:start + k] = self._total(dice)
        return out.reshape(shape)

    def _total(self, dice: NDArray[np.int32]) -> NDArray[np.int32]:
        """Keep, score and sum an ``(n, results)`` array of rolled dice."""
        if self.keep is not None:
            dice = np.sort(dice, axis=0)
            dice = dice[self.n - self.kept:] if self.highest else dice[:self.kept]
        if self.count is not None:
            op, t = self.count
            return np.count_nonzero(COMPARE[op](dice, t), axis=0).astype(np.int32)
        return dice.sum(axis=0, dtype=np.int32)

    def roll(self, rng: np.random.Generator) -> int:
        """One roll, die by die, as the rulebook reads: roll each die (again on its top face
        when exploding), put the dice in order, keep or drop, then add or count."""
        dice = []
        for _ in range(self.n):
            face = total = int(rng.integers(1, self.m + 1))
            while self.explode and face == self.m:
                face = int(rng.integers(1, self.m + 1))
                total += face
            dice.append(total)
        dice.sort()
        if self.keep is not None:
            dice = dice[self.n - self.kept:] if self.highest else dice[:self.kept]
        if self.count is not None:
            op, t = self.count
            return sum(1 for d in dice if COMPARE[op](d, t))
        return sum(dice)


def _explode(rng: np.random.Generator, dice: NDArray[np.int32], m: int) -> None:
    """Add re-rolls in place to every die showing its top face, again while they do."""
    flat = dice.reshape(-1)
    hot = np.flatnonzero(flat == m)
    while hot.size:
        again = rng.integers(1, m + 1, size=hot.size, dtype=np.int32)
        flat[hot] += again
        hot = hot[again == m]


def _n_fold(one: Pmf, n: int) -> Pmf:
    """The sum of ``n`` independent copies of ``one``, by repeated doubling."""
    total, base = Pmf.constant(0), one
    while n:
        if n & 1:
            total = total + base
        n >>= 1
        if n:
            base = base + base
    return total
