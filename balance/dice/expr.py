"""Dice expressions such as ``2d6+1d4-1``, ``4d6kh3``, ``d6!+2``, ``5d10>=7`` or
``d20+5>=15``: parsed once, then sampled, rolled die by die, or solved exactly.

Grammar (case-insensitive, whitespace allowed around operators and brackets)::

    expr    := sum [cmp sum]                 cmp  := '>=' | '>' | '<=' | '<' | '=' | '=='
    sum     := [sign] term (sign term)*      sign := '+' | '-'
    term    := INT | pool | 'drift' | '(' expr ')'
    pool    := [N]'d'M ['!'] [keep [K]]      M    := INT | '%'
    keep    := 'kh' | 'kl' | 'dh' | 'dl' | 'k'   (``k`` is ``kh``; K defaults to 1)

What a comparison means (the lab's reading; the two dice communities differ, so it is
written down here and in ``balance dice``'s output):

* a pool of two or more dice compared with a whole number **counts the dice** that meet it,
  as dice-pool games read it: ``5d10>=7`` is how many of the five d10 show 7 or more (0-5);
  ``4d6kh3>=5`` counts among the kept dice;
* anything else compared **compares the total**, 1 when it holds and 0 when not, as AnyDice
  and icepool read it: ``d20+5>=15``, ``(3d6)>=12``, ``2d6>=d6+3``. Brackets make a pool a
  total: ``(5d10)>=7`` is whether the sum of 5d10 reaches 7.

A count no die can meet (``3d6>=12``: no d6 shows 12) is refused with the bracketed
spelling, rather than silently giving 0. A parse error is one
:class:`~balance.errors.DiceExpressionError` line that quotes the whole expression and names
the bad token and its 1-based column.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from balance.dice.exact import Pmf
from balance.dice.keep import MAX_WORK, work
from balance.dice.pool import COMPARE, Pool, explosions
from balance.dice.sample import Size, drift, ndm, shape_of
from balance.errors import DiceExpressionError

MAX_DICE = 1000
"""Most dice in one NdM term."""
MAX_FACES = 10_000
"""Most faces on one die."""
MAX_TERMS = 50
"""Most terms in one expression (brackets included)."""
MAX_CONSTANT = 1_000_000
"""Largest constant term; with the limits above every sum fits int32."""
MAX_PMF_OUTCOMES = 10_000_000
"""Widest support :meth:`DiceExpr.pmf` will compute (80 MB of float64)."""
MAX_KEEP_DICE = 200
"""Most dice in a pool that keeps or drops some (its exact pmf costs ~ n**2 per face)."""
MAX_DEPTH = 10
"""Most brackets inside one another."""


@dataclass(frozen=True)
class Constant:
    """A fixed number such as the ``12`` in ``d20+12``."""

    value: int

    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.int32]:
        return np.full(shape, self.value, dtype=np.int32)

    def roll(self, rng: np.random.Generator) -> int:
        return self.value

    def pmf(self) -> Pmf:
        return Pmf.constant(self.value)

    def left_out(self) -> float:
        return 0.0

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Dice:
    """``n`` dice of ``m`` faces, summed (``2d6``; ``d20`` is ``Dice(1, 20)``)."""

    n: int
    m: int

    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.integer]:
        return ndm(rng, self.n, self.m, shape)

    def roll(self, rng: np.random.Generator) -> int:
        """The dice one at a time, summed (the scalar references' literal roll)."""
        return sum(int(rng.integers(1, self.m + 1)) for _ in range(self.n))

    def pmf(self) -> Pmf:
        return Pmf.ndm(self.n, self.m)

    def left_out(self) -> float:
        return 0.0

    def __str__(self) -> str:
        return f"d{self.m}" if self.n == 1 else f"{self.n}d{self.m}"


@dataclass(frozen=True)
class Drift:
    """The Ymlad open-ended drift die (see :func:`balance.dice.drift`)."""

    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.int8]:
        return drift(rng, shape)

    def roll(self, rng: np.random.Generator) -> int:
        return int(drift(rng, 1)[0])

    def pmf(self) -> Pmf:
        return Pmf.drift()

    def left_out(self) -> float:
        """The two tails :meth:`Pmf.drift` cuts off: 2 (1/3)**(K+1)."""
        return 2 * 3.0 ** -(Pmf.drift().max_outcome + 1)

    def __str__(self) -> str:
        return "drift"


@dataclass(frozen=True)
class Group:
    """A bracketed expression used as a term: ``(3d6)`` in ``(3d6)>=12``."""

    expr: DiceExpr

    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.int32]:
        return self.expr.sample(rng, shape)

    def roll(self, rng: np.random.Generator) -> int:
        return self.expr.roll(rng)

    def pmf(self) -> Pmf:
        return self.expr.pmf()

    def left_out(self) -> float:
        return self.expr.left_out()

    def __str__(self) -> str:
        return f"({self.expr})"


@dataclass(frozen=True)
class Compare:
    """``left op right``, 1 when it holds and 0 when not (AnyDice's and icepool's reading):
    ``d20+5>=15``. The two sides are rolled independently."""

    left: DiceExpr
    op: str
    right: DiceExpr

    def sample(self, rng: np.random.Generator, shape: tuple[int, ...]) -> NDArray[np.int32]:
        left = self.left.sample(rng, shape)
        return COMPARE[self.op](left, self.right.sample(rng, shape)).astype(np.int32)

    def roll(self, rng: np.random.Generator) -> int:
        left = self.left.roll(rng)
        return int(COMPARE[self.op](left, self.right.roll(rng)))

    def p(self) -> float:
        """The exact chance that the comparison holds."""
        diff = self.left.pmf() - self.right.pmf()
        holds = COMPARE[self.op](diff.outcomes, 0)
        return min(1.0, float(diff.probs[holds].sum()))

    def pmf(self) -> Pmf:
        p = self.p()
        total = self.left.pmf().probs.sum() * self.right.pmf().probs.sum()
        return Pmf._trusted(0, np.array([max(0.0, float(total) - p), p]))

    def left_out(self) -> float:
        return _either((self.left.left_out(), self.right.left_out()))

    def __str__(self) -> str:
        return f"{self.left}{self.op}{self.right}"


Term = Constant | Dice | Drift | Pool | Group | Compare


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: ``text`` as written and its signed ``terms``.

    ``terms`` holds ``(sign, term)`` pairs with sign +1 or -1; ``str()`` gives the canonical
    spelling (``'3D6 - 2'`` becomes ``'3d6-2'``). A whole expression that is a comparison is
    one :class:`Compare` term. Build one with :func:`parse`.
    """

    text: str
    terms: tuple[tuple[int, Term], ...]

    def __str__(self) -> str:
        parts = [("-" if sign < 0 else "+") + str(term) for sign, term in self.terms]
        return "".join(parts).removeprefix("+")

    @property
    def plain(self) -> bool:
        """Only numbers, plain NdM dice and drift: the expressions rules may rewrite term by
        term (halve the dice of a damage bonus, say)."""
        return all(isinstance(term, Constant | Dice | Drift) for _, term in self.terms)

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

    def roll(self, rng: np.random.Generator) -> int:
        """One roll, term by term and die by die (the scalar references' literal roll)."""
        return sum(sign * term.roll(rng) for sign, term in self.terms)

    def pmf(self) -> Pmf:
        """Exact distribution of the total. Drift and exploding dice have no largest roll:
        their rarest rolls are left out (:meth:`left_out` says how much probability)."""
        width = 1 + sum(_span(term) for _, term in self.terms)
        if width > MAX_PMF_OUTCOMES:
            raise DiceExpressionError(
                f"dice expression {self.text!r} has {width:,} possible outcomes, more than "
                f"the {MAX_PMF_OUTCOMES:,} an exact pmf allows")
        total = Pmf.constant(0)
        for sign, term in self.terms:
            total = total + term.pmf() if sign > 0 else total - term.pmf()
        return total

    def left_out(self) -> float:
        """Probability the exact pmf leaves out (0 unless drift or exploding dice)."""
        return _either(term.left_out() for _, term in self.terms)

    def cuts(self) -> list[str]:
        """Where the exact pmf stops, in words, for each term with no largest roll."""
        out: list[str] = []
        for _, term in self.terms:
            if isinstance(term, Drift):
                out.append(f"drift past {Pmf.drift().max_outcome} steps either way")
            elif isinstance(term, Pool) and term.explode:
                out.append(f"each exploding d{term.m} past {explosions(term.m)} re-rolls")
            elif isinstance(term, Group):
                out += term.expr.cuts()
            elif isinstance(term, Compare):
                out += term.left.cuts() + term.right.cuts()
        return list(dict.fromkeys(out))

    def describe(self) -> list[str]:
        """How the terms that are more than a sum read, in words (for ``balance dice``)."""
        out: list[str] = []
        for _, term in self.terms:
            if isinstance(term, Pool):
                out.append(f"{term}: {term.describe()}")
            elif isinstance(term, Compare):
                out.append(f"{term}: 1 when {term.left} {term.op} {term.right}, else 0 "
                           "(the totals compared)")
            elif isinstance(term, Group):
                out += term.expr.describe()
        return out


def _either(tails: Iterable[float]) -> float:
    """P(any of independent events) from their probabilities, exact for tiny ones."""
    return -math.expm1(sum(math.log1p(-t) for t in tails))


def _span(term: Term) -> int:
    """How many outcomes wider a term makes the support."""
    if isinstance(term, Dice):
        return term.n * (term.m - 1)
    if isinstance(term, Pool):
        return term.span()
    if isinstance(term, Group):
        return sum(_span(t) for _, t in term.expr.terms)
    if isinstance(term, Compare):
        return 1
    return 0 if isinstance(term, Constant) else 2 * Pmf.drift().max_outcome


_SPACE = re.compile(r"\s*")
_WORD = re.compile(r"[^\s+\-<>=()]+")
_CMP = re.compile(r"==|>=|<=|>|<|=")
_INT = re.compile(r"[0-9]+")
_POOL = re.compile(r"([0-9]*)d([0-9]+|%)(!?)(?:(kh|kl|dh|dl|k)([0-9]*))?", re.IGNORECASE)
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
    parser = _Parser(text)
    if _SPACE.match(text).end() == len(text):
        raise parser.fail("empty expression")
    expr, pos = parser.expr(0, depth=0)
    if pos < len(text):   # only a ')' with no '(' stops the top level early
        raise parser.fail(f"unexpected {text[pos]!r} at column {pos + 1} (no '(' before it)")
    return expr


class _Parser:
    """Recursive descent over one expression's text; positions are 0-based, columns 1-based."""

    def __init__(self, text: str):
        self.text = text
        self.terms = 0

    def fail(self, detail: str) -> DiceExpressionError:
        return DiceExpressionError(f"bad dice expression {self.text!r}: {detail}")

    def expr(self, pos: int, depth: int) -> tuple[DiceExpr, int]:
        """``sum [cmp sum]`` from ``pos``: the expression and where it stopped (at the end,
        or at a ``)`` for the caller to close)."""
        text = self.text
        start = pos
        left, pos = self.sum(pos, depth)
        cmp = _CMP.match(text, pos)
        if not cmp:
            return (_sub(left) if depth else DiceExpr(text, left)), pos
        op = "=" if cmp.group() == "==" else cmp.group()
        op_col = pos + 1
        pos = _SPACE.match(text, cmp.end()).end()
        if pos == len(text) or text[pos] == ")":
            raise self.fail(f"{cmp.group()!r} at column {op_col} has nothing to compare with")
        right, pos = self.sum(pos, depth)
        again = _CMP.match(text, pos)
        if again:
            raise self.fail(f"a second comparison {again.group()!r} at column {pos + 1} "
                            "(bracket one side: (d6>=4)+(d6>=4)>=2)")
        whole = None if depth else text
        l_expr, r_expr = _sub(left), _sub(right)
        counted = self._count(left, op, right, start)
        terms: tuple[tuple[int, Term], ...] = ((1, counted if counted is not None else
                                                 Compare(l_expr, op, r_expr)),)
        return (_sub(terms) if whole is None else DiceExpr(whole, terms)), pos

    def _count(self, left: tuple, op: str, right: tuple, start: int) -> Pool | None:
        """A pool of 2+ dice compared with a whole number: the count of dice that meet it."""
        if len(left) != 1 or len(right) != 1 or left[0][0] < 0 or right[0][0] < 0:
            return None
        (_, pool), (_, threshold) = left[0], right[0]
        if not isinstance(threshold, Constant):
            return None
        if isinstance(pool, Dice):
            pool = Pool(pool.n, pool.m)
        if not isinstance(pool, Pool) or pool.count is not None or pool.n < 2:
            return None
        counted = Pool(pool.n, pool.m, pool.explode, pool.keep, pool.keep_count,
                       (op, threshold.value))
        top = None if pool.explode else pool.m
        faces = np.arange(1, (top or pool.m * (explosions(pool.m) + 1)) + 1)
        if not np.any(COMPARE[op](faces, threshold.value)):
            word = self.text[start:].split(op, 1)[0].strip()
            raise self.fail(
                f"{word}{op}{threshold.value} counts the dice of {word} that are "
                f"{op} {threshold.value}, and no d{pool.m} can be; for whether the total "
                f"is, bracket it: ({word}){op}{threshold.value}")
        return counted

    def sum(self, pos: int, depth: int) -> tuple[tuple[tuple[int, Term], ...], int]:
        """``[sign] term (sign term)*`` from ``pos``; stops before a comparison, a ``)`` or
        the end."""
        text = self.text
        terms: list[tuple[int, Term]] = []
        pos = _SPACE.match(text, pos).end()
        sign, op = 1, None
        if pos < len(text) and text[pos] in "+-":
            sign, op = (-1 if text[pos] == "-" else 1), (text[pos], pos + 1)
            pos = _SPACE.match(text, pos + 1).end()
        while True:
            if pos == len(text) or (text[pos] == ")" and op is not None):
                if op is not None:
                    raise self.fail(f"{op[0]!r} at column {op[1]} has no term after it")
                raise self.fail("empty expression")
            if text[pos] in "+-" or _CMP.match(text, pos) or text[pos] == ")":
                raise self.fail(f"unexpected {text[pos]!r} at column {pos + 1}")
            term, end = self.term(pos, depth)
            terms.append((sign, term))
            self.terms += 1
            if self.terms > MAX_TERMS:
                raise self.fail(f"more than {MAX_TERMS} terms ({text[pos:end]!r} at column "
                                f"{pos + 1})")
            pos = _SPACE.match(text, end).end()
            if pos == len(text) or text[pos] == ")" or _CMP.match(text, pos):
                return tuple(terms), pos
            if text[pos] not in "+-":
                word = _WORD.match(text, pos)
                word = word.group() if word else text[pos]
                raise self.fail(f"unexpected {word!r} at column {pos + 1} (expected '+' or '-')")
            sign, op = (-1 if text[pos] == "-" else 1), (text[pos], pos + 1)
            pos = _SPACE.match(text, pos + 1).end()

    def term(self, pos: int, depth: int) -> tuple[Term, int]:
        """One term at ``pos``: a bracket, or a word (a number, a pool, ``drift``)."""
        text = self.text
        if text[pos] == "(":
            if depth >= MAX_DEPTH:
                raise self.fail(f"more than {MAX_DEPTH} brackets inside one another "
                                f"(column {pos + 1})")
            if text[_SPACE.match(text, pos + 1).end():].startswith(")"):
                raise self.fail(f"'(' at column {pos + 1} has nothing inside")
            inner, end = self.expr(pos + 1, depth + 1)
            if end == len(text):
                raise self.fail(f"'(' at column {pos + 1} is never closed")
            return Group(inner), end + 1
        word = _WORD.match(text, pos)
        if not word:
            raise self.fail(f"unexpected {text[pos]!r} at column {pos + 1}")
        return _term(word.group(), pos + 1, self.fail), word.end()


def _sub(terms: tuple[tuple[int, Term], ...]) -> DiceExpr:
    """A part of an expression (a bracket's inside, a side of a comparison), its text the
    canonical spelling so that equal parts compare equal whatever the spacing."""
    return DiceExpr(str(DiceExpr("", terms)), terms)


def _bounded_int(digits: str, cap: int) -> int:
    """``int(digits)``, or ``cap + 1`` for any longer digit string (no giant ints)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(cap)) else cap + 1


def _term(word: str, col: int, fail: Callable[[str], DiceExpressionError]) -> Term:
    """One term from its word (no spaces, signs, comparisons or brackets in it); ``col`` is
    its 1-based column."""
    if _INT.fullmatch(word):
        if _bounded_int(word, MAX_CONSTANT) > MAX_CONSTANT:
            raise fail(f"constant {word!r} at column {col} is larger than {MAX_CONSTANT:,}")
        return Constant(int(word))
    if word.lower() == "drift":
        return Drift()
    dice = _POOL.fullmatch(word)
    if dice:
        return _pool(word, col, fail, *dice.groups())
    if _NO_FACES.fullmatch(word):
        raise fail(f"{word!r} at column {col} is missing the number of faces")
    prefix = _PREFIX.match(word)
    if prefix and prefix.end() < len(word) and _POOL.fullmatch(prefix.group()) and \
            word[prefix.end()].isalpha():
        raise fail(f"unexpected {word[prefix.end():]!r} at column {col + prefix.end()} after "
                   f"{prefix.group()!r} (dice take '!', then kh, kl, dh or dl and a count)")
    if prefix and prefix.end() < len(word) and not word[prefix.end()].isalnum():
        # '3*2', '2.5': name the odd character rather than the whole word
        raise fail(f"unexpected {word[prefix.end()]!r} at column {col + prefix.end()}")
    if not word[0].isalnum():
        raise fail(f"unexpected {word[0]!r} at column {col}")
    raise fail(f"unexpected {word!r} at column {col}")


def _pool(word: str, col: int, fail: Callable[[str], DiceExpressionError], n_text: str,
          m_text: str, bang: str, keep: str | None, k_text: str) -> Dice | Pool:
    """``NdM``, with ``!`` and a keep or drop, checked against the limits."""
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
    if not bang and keep is None:
        return Dice(n, m)
    if bang and m == 1:
        raise fail(f"{word!r} at column {col} explodes a d1, which always shows its top face "
                   "and would roll for ever")
    mode = None if keep is None else ("kh" if keep.lower() == "k" else keep.lower())
    count = _bounded_int(k_text, MAX_DICE) if k_text else 1
    if mode is not None:
        if n > MAX_KEEP_DICE:
            raise fail(f"{word!r} at column {col} keeps or drops among more than "
                       f"{MAX_KEEP_DICE} dice")
        if mode in ("kh", "kl") and not 1 <= count <= n:
            raise fail(f"{word!r} at column {col} keeps {count} of {n} dice (keep 1 to {n})")
        if mode in ("dh", "dl") and not 0 <= count < n:
            raise fail(f"{word!r} at column {col} drops {count} of {n} dice "
                       f"(drop 0 to {n - 1})")
    pool = Pool(n, m, bool(bang), mode, count)
    top = m * (explosions(m) + 1) if bang else m
    if mode is not None and work(top, n, pool.kept, top) > MAX_WORK:
        raise fail(f"{word!r} at column {col} is too large a pool to keep or drop exactly")
    return pool
