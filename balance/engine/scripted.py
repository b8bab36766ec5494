"""Scripted dice: stand-ins for ``numpy.random.Generator`` that deal the faces a test names.

For exact conformance between a kernel and its reference (``tests/rules/test_*_conformance
.py``): one trial per dice combination, each trial's dice written down, both sides played
on the same dice, outcomes compared for equality. Production code never imports this
module; it only answers the calls the kernels and references already make, so nothing in
them changes for the test.

A *script* is a sequence of faces, each ``(sides, face)`` (a die) or a float in [0, 1) (a
uniform, for ``random``). A draw of ``integers(low, high)`` is read as dice by its span
``high - low``: a span of ``sides`` takes one face (``low + face - 1``), a span of
``sides ** 2`` two faces as one number (``low + (first - 1) * sides + (second - 1)``: the
Yags kernel's d20 pair in 0..399, the percentile duel's d100 pair in 0..9999). Any other
span, a float where a die is due (or the reverse) or a script run dry raises
:class:`ScriptError` naming the position in the script and the call, so a test also finds
out when the two sides use the dice differently.

* :class:`ScriptedDice`: one trial's script, for a scalar reference (or a kernel run on
  one trial).
* :class:`ScriptedColumns`: one script per trial (column) of a vectorised kernel: a draw
  over all columns deals each column the next faces of its own script, and a draw that
  names its columns (``balance.engine.streams.integers_at``, ``Streams.at``) deals those
  columns theirs, so each trial sees its own dice in its own order. It is a
  :class:`~balance.engine.streams.Streams` (the kernels that can play stacked blocks
  already name every column they draw for); a draw of some other size names no trials and
  raises.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from balance.engine.streams import Streams

Face = tuple[int, int] | float


class ScriptError(AssertionError):
    """The dice a side asked for are not the ones scripted (an AssertionError: a test fails
    with this message)."""


def die(sides: int, face: int) -> tuple[int, int]:
    """One scripted face of a die of ``sides`` (1 <= face <= sides)."""
    if not 1 <= face <= sides:
        raise ValueError(f"face {face} is not on a d{sides}")
    return (int(sides), int(face))


class Constant:
    """Every draw at one quantile ``u`` in [0, 1): ``random`` gives ``u``, ``integers(low,
    high)`` gives ``low + floor(u * (high - low))``, for any size (a draw that names no
    trials is answered the same for all of them). So ``u = 0`` rolls every die at its
    lowest face and samples every distribution at its minimum (an inverse-cdf sampler, or a
    table of outcomes in ascending order), and ``u`` just under 1 at its highest: a die
    rolled face by face and the same dice sampled from their exact distribution agree at
    those two ends. In between they need not (the faces of several dice at one quantile are
    not the sum's quantile)."""

    def __init__(self, u: float):
        if not 0.0 <= u < 1.0:
            raise ValueError(f"a quantile in [0, 1), not {u}")
        self.u = float(u)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        high = int(high) + bool(endpoint)
        value = int(low) + int(self.u * (high - int(low)))
        return np.array(value, dtype=dtype)[()] if size is None else \
            np.full(size, value, dtype=dtype)

    def random(self, size=None, dtype=np.float64):
        return self.u if size is None else np.full(size, self.u, dtype=dtype)

    def permutation(self, x):
        return np.arange(x) if np.isscalar(x) else np.asarray(x).copy()


LAST = 1.0 - 2.0 ** -40     # a quantile just under 1: every die at its highest face


class ScriptedDice:
    """One trial's scripted dice (see the module docstring). ``used`` counts the faces
    dealt; ``rest`` is what is left; ``calls`` logs every draw as text, for messages.

    ``then`` (e.g. a :class:`Constant`): the draws after the script. The script ends at its
    last face, or at the first draw that does not fit its next face (a uniform where a die
    is due, a die of other sides): that draw and every later one go to ``then``, and the
    faces left are never dealt (``rest``). So a script of the dice a rule may roll first
    (an attack die, then a defence die) serves exactly the ones it does roll, whatever
    comes after. Without ``then`` a draw that does not fit raises :class:`ScriptError`.
    """

    def __init__(self, script: Sequence[Face], label: str = "", then: Constant | None = None):
        self.script = list(script)
        self.used = 0
        self.label = label
        self.then = then
        self.over = False
        self.calls: list[str] = []

    @property
    def rest(self) -> list[Face]:
        return self.script[self.used:]

    def _fits(self, span: int | None) -> bool:
        """Does the next face fit a draw of ``span`` (None: a uniform)?"""
        if self.over or self.used >= len(self.script):
            return False
        face = self.script[self.used]
        if span is None or isinstance(face, float):
            return span is None and isinstance(face, float)
        return span in (face[0], face[0] * face[0]) and (
            span == face[0] or self.used + 1 < len(self.script))

    def _routed(self, span: int | None) -> bool:
        """Send this draw to ``then`` (ending the script), if there is one and the draw does
        not fit."""
        if self.then is None or self._fits(span):
            return False
        self.over = True
        return True

    def _next(self, what: str) -> Face:
        if self.used >= len(self.script):
            raise ScriptError(f"{self.label}: the script ran dry at {what} (dealt "
                              f"{self.script}; draws {self.calls})")
        face = self.script[self.used]
        self.used += 1
        return face

    def _number(self, low: int, span: int, what: str) -> int:
        face = self._next(what)
        if isinstance(face, float):
            raise ScriptError(f"{self.label}: {what} met the uniform {face} at position "
                              f"{self.used - 1} of {self.script}")
        sides, value = face
        if span == sides:
            return low + value - 1
        if span == sides * sides:
            second = self._next(what)
            if isinstance(second, float) or second[0] != sides:
                raise ScriptError(f"{self.label}: {what} (a pair of d{sides}) met {second} at "
                                  f"position {self.used - 1} of {self.script}")
            return low + (value - 1) * sides + second[1] - 1
        raise ScriptError(f"{self.label}: {what} does not fit the scripted d{sides} at "
                          f"position {self.used - 1} of {self.script}")

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        low, high = int(low), int(high) + bool(endpoint)
        what = f"integers({low}, {high}, size={size})"
        self.calls.append(what)
        if self._routed(high - low):
            return self.then.integers(low, high, size, dtype)
        if size is None:
            return np.array(self._number(low, high - low, what), dtype=dtype)[()]
        shape = (size,) if np.isscalar(size) else tuple(size)
        out = [self._number(low, high - low, what) for _ in range(math.prod(shape))]
        return np.array(out, dtype=dtype).reshape(shape)

    def random(self, size=None, dtype=np.float64):
        what = f"random(size={size})"
        self.calls.append(what)
        if self._routed(None):
            return self.then.random(size, dtype)
        count = 1 if size is None else math.prod((size,) if np.isscalar(size) else size)
        out = []
        for _ in range(count):
            face = self._next(what)
            if not isinstance(face, float):
                raise ScriptError(f"{self.label}: {what} met the die {face} at position "
                                  f"{self.used - 1} of {self.script}")
            out.append(face)
        if size is None:
            return out[0]
        return np.array(out, dtype=dtype).reshape((size,) if np.isscalar(size) else size)

    def permutation(self, x):
        """Scripted as uniforms, one per item: the order that sorts them (a script of
        ``k`` equal-spaced uniforms gives any order of ``k`` items)."""
        k = x if np.isscalar(x) else len(x)
        keys = self.random(int(k))
        order = np.argsort(keys, kind="stable")
        return order if np.isscalar(x) else np.asarray(x)[order]


class ScriptedColumns(Streams):
    """One script per column of a vectorised kernel's arrays (see the module docstring).

    ``scripts`` is a 2-d sequence (trials, faces): the faces of each trial in the order its
    draws take them (rows of unequal length are padded; a trial that uses fewer faces
    leaves the rest). Held as arrays (the faces' sides, 0 for a uniform, and values) with a
    cursor per column, so a draw over 160,000 columns is a few numpy operations. A draw
    over all columns is any ``Generator`` call whose last axis is the number of columns; a
    draw for chosen columns comes through ``Streams.at`` or ``integers_at``/``random_at``
    (a column named twice takes its next faces in turn).
    """

    def __init__(self, sides: np.ndarray, values: np.ndarray, label: str = "kernel",
                 then: Constant | None = None):
        """From arrays (trials, faces): each face's sides (0: a uniform; -1: none, the
        script is over) and value. :meth:`of` builds them from scripts. ``then``: where a
        draw goes that names no trials (its last axis is not the columns), or once every
        column's script is dealt (e.g. a :class:`Constant`); else such a draw raises."""
        n = len(sides)
        pad = np.full((n, 1), -1)       # (a pad column: a script always ends)
        self.sides = np.concatenate([np.asarray(sides, dtype=np.int64), pad], axis=1)
        self.values = np.concatenate([np.asarray(values, dtype=np.float64), pad * 0.0],
                                     axis=1)
        self.cursor = np.zeros(n, dtype=np.int64)
        self.label = label
        self._pending: np.ndarray | None = None
        self.then = then
        super().__init__([_Named(self)], [n])

    def _dealt(self) -> bool:
        """Every column's script is over."""
        return bool((self.sides[np.arange(self.n), self.cursor] < 0).all())

    @classmethod
    def of(cls, scripts: Sequence[Sequence[Face]], label: str = "kernel") -> ScriptedColumns:
        """From one script (a sequence of faces) per trial."""
        width = max((len(s) for s in scripts), default=0)
        sides = np.full((len(scripts), width), -1, dtype=np.int64)
        values = np.zeros((len(scripts), width))
        for j, script in enumerate(scripts):
            for k, face in enumerate(script):
                if isinstance(face, float):
                    sides[j, k], values[j, k] = 0, face
                else:
                    sides[j, k], values[j, k] = face
        return cls(sides, values, label)

    @classmethod
    def of_dice(cls, faces: np.ndarray, sides: np.ndarray | int, label: str = "kernel",
                then: Constant | None = None) -> ScriptedColumns:
        """From an int array (trials, k) of die faces, every one a die of ``sides`` (or
        (k,) sides, one per column of faces; 0 marks a uniform, its value in ``faces``)."""
        faces = np.asarray(faces)
        return cls(np.broadcast_to(np.asarray(sides), faces.shape), faces, label, then)

    def used(self) -> np.ndarray:
        """(trials,) int: the faces each trial's script has dealt."""
        return self.cursor.copy()

    def keep(self, idx: np.ndarray) -> None:
        idx = np.asarray(idx)
        self.sides, self.values, self.cursor = self.sides[idx], self.values[idx], \
            self.cursor[idx]
        super().keep(idx)

    def segments_of(self, cols: np.ndarray):
        """One segment (the named proxy draws for ``cols``): see ``integers_at``."""
        self._pending = np.asarray(cols)
        if self._pending.size:
            yield 0, slice(None), self._pending.size

    # --- dealing ---------------------------------------------------------------------------

    def _faces(self, cols: np.ndarray, sides_wanted, what: str) -> np.ndarray:
        """The next face of each of ``cols`` (in order; repeats take successive faces),
        checked against ``sides_wanted`` (0: a uniform; else a callable on the sides)."""
        order = np.argsort(cols, kind="stable")
        sorted_cols = cols[order]
        first = np.r_[True, sorted_cols[1:] != sorted_cols[:-1]] if cols.size else \
            np.zeros(0, bool)
        run_start = np.maximum.accumulate(np.where(first, np.arange(cols.size), 0))
        occ = np.empty(cols.size, dtype=np.int64)
        occ[order] = np.arange(cols.size) - run_start
        at = self.cursor[cols] + occ
        width = self.sides.shape[1]
        dry = at >= width - 1
        if dry.any():
            j = int(cols[dry][0])
            raise ScriptError(f"{self.label} trial {j}: the script ran dry at {what}")
        sides = self.sides[cols, at]
        ok = sides_wanted(sides)
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            raise ScriptError(f"{self.label} trial {int(cols[j])}: {what} does not fit the "
                              f"scripted face {self._show(int(cols[j]), int(at[j]))} at "
                              f"position {int(at[j])}")
        np.add.at(self.cursor, cols, 1)
        return sides, self.values[cols, at]

    def _show(self, j: int, k: int) -> str:
        s, v = int(self.sides[j, k]), self.values[j, k]
        return "the end of the script" if s < 0 else (f"uniform {v}" if s == 0 else
                                                      f"d{s} {int(v)}")

    def _number(self, cols: np.ndarray, low: int, span: int, what: str) -> np.ndarray:
        sides, value = self._faces(cols, lambda s: (s > 0) & ((s == span) | (s * s == span)),
                                   what)
        out = low + value.astype(np.int64) - 1
        pair = sides * sides == span
        if pair.any() and not (sides == span).any():   # two faces a number
            _, v2 = self._faces(cols, lambda s: s == sides, what + " (its second die)")
            out = low + (value.astype(np.int64) - 1) * sides + v2.astype(np.int64) - 1
        elif pair.any():
            raise ScriptError(f"{self.label}: {what} mixes single dice and pairs")
        return out

    def _all(self, size, what: str) -> tuple[tuple[int, ...], int]:
        shape = (size,) if np.isscalar(size) else tuple(size)
        if not shape or shape[-1] != self.n:
            raise ScriptError(f"{self.label}: {what} names no trials (scripted columns: "
                              f"{self.n})")
        return shape, math.prod(shape[:-1])

    def draw_integers(self, cols: np.ndarray, rows: int, low, high, dtype) -> np.ndarray:
        what = f"integers({low}, {high})"
        out = [self._number(cols, int(low), int(high) - int(low), what) for _ in range(rows)]
        return np.array(out, dtype=dtype).reshape(rows, cols.size)

    def draw_random(self, cols: np.ndarray, rows: int) -> np.ndarray:
        out = [self._faces(cols, lambda s: s == 0, "random()")[1] for _ in range(rows)]
        return np.array(out).reshape(rows, cols.size)

    def _to_then(self, size) -> bool:
        if self.then is None:
            return False
        shape = (size,) if np.isscalar(size) else tuple(size or ())
        return not shape or shape[-1] != self.n or self._dealt()

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if high is None:
            low, high = 0, low
        high = int(high) + bool(endpoint)
        if self._to_then(size):
            return self.then.integers(low, high, size, dtype)
        shape, rows = self._all(size, f"integers({low}, {high}, size={size})")
        cols = np.arange(self.n)
        return self.draw_integers(cols, rows, low, high, dtype).reshape(shape)

    def random(self, size=None, dtype=np.float64):
        if self._to_then(size):
            return self.then.random(size, dtype)
        shape, rows = self._all(size, f"random(size={size})")
        return self.draw_random(np.arange(self.n), rows).astype(dtype).reshape(shape)

    def at(self, cols: np.ndarray, low, high, dtype=np.int16) -> np.ndarray:
        return self.draw_integers(np.asarray(cols), 1, low, high, dtype)[0]


class _Named:
    """The one 'generator' of :class:`ScriptedColumns`: draws for the columns its last
    ``segments_of`` named (how ``integers_at`` and ``random_at`` draw for chosen columns)."""

    def __init__(self, owner: ScriptedColumns):
        self.owner = owner

    def integers(self, low, high, size, dtype=np.int64):
        cols = self.owner._pending
        rows = math.prod(size[:-1]) if isinstance(size, tuple) else 1
        return self.owner.draw_integers(cols, rows, low, high, dtype).reshape(size)

    def random(self, size, dtype=np.float64):
        cols = self.owner._pending
        rows = math.prod(size[:-1]) if isinstance(size, tuple) else 1
        return self.owner.draw_random(cols, rows).astype(dtype).reshape(size)
