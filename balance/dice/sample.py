"""Vectorised roll primitives: every function draws a whole array of rolls in one go.

Each sampler takes an explicit ``rng: numpy.random.Generator`` and a ``size`` (an int or a
shape tuple) and never touches global RNG state. Rolls come back in small integer dtypes
(``int8`` for d20 and drift, ``int16`` for d100 and most NdM sums) so that a
``(n_trials, n_combatants)`` state stays compact; widen before accumulating large totals.
"""

from __future__ import annotations

import operator

import numpy as np
from numpy.typing import NDArray

from balance.errors import OptionError

Size = int | tuple[int, ...]

#: Largest number of dice drawn at once by :func:`ndm`, so memory stays bounded for huge n.
CHUNK_ELEMENTS = 1 << 22


class Count(int):
    """A number of dice to pass as ``Generator.integers``' ``size``: the same int, so the
    same numbers, drawn about 1 us sooner (docs/engine-tricks.md, numpy's Python wrappers).
    numpy's bounded-integer sampler first asks ``np.prod(size)``, which for a plain int
    makes an array and reduces it, about 1.1 us of a 3.6 us call of 50 dice; ``np.prod``
    calls an object's own ``prod`` method instead, and this one returns the int. (An
    implementation detail of numpy: were it to change, the numbers would be the same and
    only the saving lost.)"""

    __slots__ = ()

    def prod(self, *args, **kwargs) -> int:
        return int(self)


def shape_of(size: Size) -> tuple[int, ...]:
    """Normalise ``size`` (int or tuple of ints) to a shape tuple, naming it if it is bad."""
    try:
        shape = (operator.index(size),) if not isinstance(size, tuple) else tuple(
            operator.index(s) for s in size)
    except TypeError:
        raise OptionError(f"size must be an int or a tuple of ints, got {size!r}") from None
    if any(s < 0 for s in shape):
        raise OptionError(f"size must not be negative, got {size!r}")
    return shape


def _count(name: str, value: int, least: int) -> int:
    """``value`` as a Python int that is at least ``least``; else an error naming ``name``."""
    try:
        value = operator.index(value)
    except TypeError:
        raise OptionError(f"{name} must be an integer, got {value!r}") from None
    if value < least:
        raise OptionError(f"{name} must be at least {least}, got {value}")
    return value


def _draw_dtype(m: int) -> type[np.integer]:
    """Smallest dtype holding one face of an m-sided die (draws in it are fastest)."""
    return np.uint8 if m <= 0xFF else np.uint16 if m <= 0xFFFF else np.int64


def sum_dtype(n: int, m: int) -> type[np.integer]:
    """Dtype for the sum of n dice of m faces: int16 unless n*m could overflow it."""
    top = n * m
    return np.int16 if top <= np.iinfo(np.int16).max else (
        np.int32 if top <= np.iinfo(np.int32).max else np.int64)


def d20(rng: np.random.Generator, size: Size) -> tuple[NDArray[np.int8], NDArray[np.bool_]]:
    """Roll d20s: ``(roll, fumble)``, both of shape ``size``.

    ``roll`` is int8 in 1..20; ``fumble`` is the bool mask of natural 1s, which rules treat
    apart from the total (a fumble whatever the bonus).
    """
    roll = rng.integers(1, 21, size=shape_of(size), dtype=np.int8)
    return roll, roll == 1


def d100(rng: np.random.Generator, size: Size) -> NDArray[np.int16]:
    """Roll percentile dice: int16 array of shape ``size`` in 1..100.

    int16 rather than int8 so that ``skill - d100`` and similar sums cannot overflow.
    """
    return rng.integers(1, 101, size=shape_of(size), dtype=np.int16)


def ndm(rng: np.random.Generator, n: int, m: int, size: Size) -> NDArray[np.signedinteger]:
    """Sum of ``n`` dice with ``m`` faces each (NdM): array of shape ``size``.

    The dtype is int16, or int32 (int64) when ``n*m`` could overflow it. Dice are drawn in
    chunks of at most :data:`CHUNK_ELEMENTS` values, so memory stays about the size of the
    result however large ``n`` is. ``n == 0`` gives zeros.
    """
    n = _count("n (number of dice)", n, 0)
    m = _count("m (number of faces)", m, 1)
    shape = shape_of(size)
    out = np.zeros(shape, dtype=sum_dtype(n, m))
    count = out.size
    if count == 0 or n == 0:
        return out
    per_chunk = max(1, min(n, CHUNK_ELEMENTS // count))
    draw = _draw_dtype(m)
    for start in range(0, n, per_chunk):
        k = min(per_chunk, n - start)
        dice = rng.integers(1, m + 1, size=(k, *shape), dtype=draw)
        out += dice.sum(axis=0, dtype=out.dtype)
    return out


def _drift_class(face: NDArray[np.int8]) -> NDArray[np.int8]:
    """Read d6 faces as drift classes: 1-2 is 1 (a step of -1), 3-4 is 2 (0), 5-6 is 3 (+1);
    the step is the class less 2 (int8, same shape; a shift: int8 floor division is slower,
    faces >= 1)."""
    out = face + np.int8(1)
    out >>= np.int8(1)
    return out


def drift(rng: np.random.Generator, size: Size,
          cols: NDArray[np.integer] | None = None) -> NDArray[np.int8]:
    """Roll the Ymlad open-ended drift die: int8 array of shape ``size``.

    Ymlad, drift: throw a d6; 1-2 is a step of -1, 3-4 is 0 and stops, 5-6 is +1. After a
    step, throw again: the same direction adds a step and goes on; a neutral throw ends the
    drift; a reversing throw ends it and does not count. Hence P(0) = 1/3 and
    P(+k) = P(-k) = (2/3)(1/3)**k for k >= 1 (see :meth:`balance.dice.Pmf.drift`).

    The dice are thrown literally. The first two throws are drawn for every row (cheaper
    than gathering the two thirds still drifting; the second throw of a row that stopped is
    ignored); later throws only for the rows still drifting, a third of them each step, so
    the loop ends after about log3(count) steps. Nothing is clipped; int8 would overflow
    only past 127 steps, which has probability below 1e-60.

    ``cols`` (1-d ``size``): the state columns (trials) of the rows, for a stream that
    deals each column its own dice (``Streams.at``: scripted dice in the conformance tests,
    ``balance.engine.scripted``); a plain ``Generator`` draws the same numbers either way.
    """
    shape = shape_of(size)
    if cols is not None and not isinstance(rng, np.random.Generator):
        def throw(k: int, rows: NDArray[np.integer] | None = None) -> NDArray[np.int8]:
            return rng.at(cols if rows is None else cols[rows], 1, 7, np.int8)
    else:
        def throw(k, rows=None, integers=rng.integers):
            return integers(1, 7, size=Count(k) if isinstance(k, int) else k, dtype=np.int8)

    # The throws compared by class (a throw goes on in the same direction when its class is
    # the first throw's), the rows still drifting by their indices: the same dice, thrown in
    # the same calls, with fewer numpy calls a throw (~7% of a drift at 50-3,000 rows).
    first = _drift_class(throw(shape[0] if len(shape) == 1 else shape)).reshape(-1)
    going = _drift_class(throw(first.size)) == first
    going &= first != np.int8(2)
    out = first - np.int8(2)
    running = going.nonzero()[0]
    if running.size:
        cls, direction = first[running], out[running]
        while running.size:
            out[running] += direction
            same = (_drift_class(throw(running.size, running)) == cls).nonzero()[0]
            running, cls, direction = running[same], cls[same], direction[same]
    return out.reshape(shape)
