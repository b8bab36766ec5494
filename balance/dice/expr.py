"""Dice expressions such as ``2d6+1d4-1``, ``d20+12`` or ``drift+3``: parsed once, then
sampled or solved exactly.

Grammar (case-insensitive, whitespace allowed around operators)::

    expr := [sign] term (sign term)*        sign := '+' | '-'
    term := INT | [N]'d'M | 'd20' | 'd100' | 'd%' | 'drift'

A parse error is one :class:`~balance.errors.DiceExpressionError` line that quotes the whole
expression and names the bad token and its 1-based column.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from balance.dice.exact import Pmf
from balance.dice.sample import Size, drift, ndm, shape_of
from balance.errors import DiceExpressionError

MAX_DICE = 1000
"""Most dice in one NdM term."""
MAX_FACES = 10_000
"""Most faces on one die."""
MAX_TERMS = 50
"""Most terms in one expression."""
MAX_CONSTANT = 1_000_000
"""Largest constant term; with the limits above every sum fits int32."""
MAX_PMF_OUTCOMES = 10_000_000
"""Widest support :meth:`DiceExpr.pmf` will compute (80 MB of float64)."""


@dataclass(frozen=True)
class Constant:
    """A fixed number such as the ``12`` in ``d20+12``."""

    value: int

    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.int32]:
        return np.full(shape, self.value, dtype=np.int32)

    def pmf(self) -> Pmf:
        return Pmf.constant(self.value)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Dice:
    """``n`` dice of ``m`` faces, summed (``2d6``; ``d20`` is ``Dice(1, 20)``)."""

    n: int
    m: int

    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.integer]:
        return ndm(rng, self.n, self.m, shape)

    def pmf(self) -> Pmf:
        return Pmf.ndm(self.n, self.m)

    def __str__(self) -> str:
        return f"d{self.m}" if self.n == 1 else f"{self.n}d{self.m}"


@dataclass(frozen=True)
class Drift:
    """The Ymlad open-ended drift die (see :func:`balance.dice.drift`)."""

    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.int8]:
        return drift(rng, shape)

    def pmf(self) -> Pmf:
        return Pmf.drift()

    def __str__(self) -> str:
        return "drift"


Term = Constant | Dice | Drift


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: ``text`` as written and its signed ``terms``.

    ``terms`` holds ``(sign, term)`` pairs with sign +1 or -1; ``str()`` gives the canonical
    spelling (``'3D6 - 2'`` becomes ``'3d6-2'``). Build one with :func:`parse`.
    """

    text: str
    terms: tuple[tuple[int, Term], ...]

    def __str__(self) -> str:
        parts = [("-" if sign < 0 else "+") + str(term) for sign, term in self.terms]
        return "".join(parts).removeprefix("+")

    def sample(self, rng: np.random.Generator, size: Size) -> NDArray[np.int32]:
        """Roll the expression: int32 array of shape ``size``; terms are drawn left to right."""
        shape = shape_of(size)
        out = np.zeros(shape, dtype=np.int32)
        for sign, term in self.terms:
            if sign > 0:
                out += term.sample(rng, shape)
            else:
                out -= term.sample(rng, shape)
        return out

    def pmf(self) -> Pmf:
        """Exact distribution of the total (drift terms truncated as :meth:`Pmf.drift` says)."""
        width = 1 + sum(_span(term) for _, term in self.terms)
        if width > MAX_PMF_OUTCOMES:
            raise DiceExpressionError(
                f"dice expression {self.text!r} has {width:,} possible outcomes, more than "
                f"the {MAX_PMF_OUTCOMES:,} an exact pmf allows")
        total = Pmf.constant(0)
        for sign, term in self.terms:
            total = total + term.pmf() if sign > 0 else total - term.pmf()
        return total


def _span(term: Term) -> int:
    """How many outcomes wider a term makes the support."""
    if isinstance(term, Dice):
        return term.n * (term.m - 1)
    return 0 if isinstance(term, Constant) else 2 * Pmf.drift().max_outcome


_SPACE = re.compile(r"\s*")
_WORD = re.compile(r"[^\s+\-]+")
_INT = re.compile(r"[0-9]+")
_DICE = re.compile(r"([0-9]*)d([0-9]+|%)", re.IGNORECASE)
_NO_FACES = re.compile(r"[0-9]*d", re.IGNORECASE)
_PREFIX = re.compile(r"drift|[0-9]*d(?:[0-9]+|%)|[0-9]+", re.IGNORECASE)


def parse(text: str | DiceExpr) -> DiceExpr:
    """Parse a dice expression (a :class:`DiceExpr` is returned unchanged).

    Raises :class:`~balance.errors.DiceExpressionError` naming the first bad token, e.g.
    ``bad dice expression '2d6+x': unexpected 'x' at column 5``.
    """
    if isinstance(text, DiceExpr):
        return text
    if not isinstance(text, str):
        raise DiceExpressionError(f"a dice expression must be a string, not {type(text).__name__}")

    def fail(detail: str) -> DiceExpressionError:
        return DiceExpressionError(f"bad dice expression {text!r}: {detail}")

    terms: list[tuple[int, Term]] = []
    pos = _SPACE.match(text).end()
    if pos == len(text):
        raise fail("empty expression")
    sign, op = 1, None
    if text[pos] in "+-":
        sign, op = (-1 if text[pos] == "-" else 1), (text[pos], pos + 1)
        pos = _SPACE.match(text, pos + 1).end()
    while True:
        if pos == len(text):
            raise fail(f"{op[0]!r} at column {op[1]} has no term after it")
        if text[pos] in "+-":
            raise fail(f"unexpected {text[pos]!r} at column {pos + 1}")
        word = _WORD.match(text, pos).group()
        terms.append((sign, _term(word, pos + 1, fail)))
        if len(terms) > MAX_TERMS:
            raise fail(f"more than {MAX_TERMS} terms ({word!r} at column {pos + 1})")
        pos = _SPACE.match(text, pos + len(word)).end()
        if pos == len(text):
            return DiceExpr(text, tuple(terms))
        if text[pos] not in "+-":
            word = _WORD.match(text, pos).group()
            raise fail(f"unexpected {word!r} at column {pos + 1} (expected '+' or '-')")
        sign, op = (-1 if text[pos] == "-" else 1), (text[pos], pos + 1)
        pos = _SPACE.match(text, pos + 1).end()


def _bounded_int(digits: str, cap: int) -> int:
    """``int(digits)``, or ``cap + 1`` for any longer digit string (no giant ints)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(cap)) else cap + 1


def _term(word: str, col: int, fail: Callable[[str], DiceExpressionError]) -> Term:
    """One term from its word (no spaces or signs in it); ``col`` is its 1-based column."""
    if _INT.fullmatch(word):
        if _bounded_int(word, MAX_CONSTANT) > MAX_CONSTANT:
            raise fail(f"constant {word!r} at column {col} is larger than {MAX_CONSTANT:,}")
        return Constant(int(word))
    if word.lower() == "drift":
        return Drift()
    dice = _DICE.fullmatch(word)
    if dice:
        n_text, m_text = dice.groups()
        n = _bounded_int(n_text, MAX_DICE) if n_text else 1
        m = 100 if m_text == "%" else _bounded_int(m_text, MAX_FACES)
        if n < 1:
            raise fail(f"{word!r} at column {col} rolls no dice (need at least 1)")
        if n > MAX_DICE:
            raise fail(f"{word!r} at column {col} rolls more than {MAX_DICE} dice")
        if m < 1:
            raise fail(f"{word!r} at column {col} has a die with no faces (need at least 1)")
        if m > MAX_FACES:
            raise fail(f"{word!r} at column {col} has more than {MAX_FACES} faces")
        return Dice(n, m)
    if _NO_FACES.fullmatch(word):
        raise fail(f"{word!r} at column {col} is missing the number of faces")
    prefix = _PREFIX.match(word)
    if prefix and prefix.end() < len(word) and not word[prefix.end()].isalnum():
        # '3*2', '2.5': name the odd character rather than the whole word
        raise fail(f"unexpected {word[prefix.end()]!r} at column {col + prefix.end()}")
    if not word[0].isalnum():
        raise fail(f"unexpected {word[0]!r} at column {col}")
    raise fail(f"unexpected {word!r} at column {col}")
