"""The ladders a dice field is stepped along by ``solve``, ``sensitivity``, ``exchange`` and
``autobalance``: a dice expression read as one whole number on each of two ladders.

* ``modifier``: the expression's fixed number, by one (``1D6+1`` is 1; one step up is
  ``1D6+2``, one down ``1D6``, then ``1D6-1``). The dice stay as they are.
* ``die``: the size of its first die along d4, d6, d8, d10, d12 (``1D6+1`` is 1, the d6;
  one step up is ``1D8+1``). Several dice of that size move together (``2D6`` -> ``2D8``);
  later dice terms and the modifier stay. A die off the ladder (a d3, a d20) has no place
  on it and is refused; the ladder ends at d4 and d12.

The position is a plain integer so the questions' searches need not know about dice; the
text is spelled as the field was (``1D8+1`` stays upper case with its count written). Pure
functions over :mod:`balance.dice.expr`; imports the standard library only besides it.
"""

from __future__ import annotations

import dataclasses
import re

from balance.dice.expr import Constant, Dice, DiceExpr, Term, parse
from balance.dice.pool import Pool

DIE_LADDER = (4, 6, 8, 10, 12)
"""The die sizes of the ``die`` ladder, in order."""
PARTS = ("modifier", "die")
"""The two ladders; a dice field's path alone means ``modifier``."""


class LadderError(ValueError):
    """A dice expression that has no place on the ladder asked for (the message says why)."""


def position(text: str | DiceExpr, part: str) -> int:
    """Where ``text`` stands on ladder ``part``: its modifier, or its die's index in
    :data:`DIE_LADDER` (``1D6+1``: modifier 1, die 1)."""
    expr = parse(text)
    if part == "modifier":
        return sum(sign * term.value for sign, term in expr.terms if isinstance(term, Constant))
    _, term = _first_die(expr)
    if term.m not in DIE_LADDER:
        raise LadderError(f"{str(text)!r}: its die d{term.m} is not on the die ladder "
                          f"({', '.join(f'd{m}' for m in DIE_LADDER)})")
    return DIE_LADDER.index(term.m)


def at(text: str | DiceExpr, part: str, k: int) -> str:
    """The expression ``text`` moved to position ``k`` of ladder ``part``."""
    expr = parse(text)
    upper = "D" in expr.text
    if part == "modifier":
        dice = [(s, t) for s, t in expr.terms if not isinstance(t, Constant)]
        terms = dice + ([(1 if k > 0 else -1, Constant(abs(k)))] if k else [])
        if not terms:
            terms = [(1, Constant(0))]
        return _spell(terms, upper)
    if not 0 <= k < len(DIE_LADDER):
        raise LadderError(f"the die ladder runs from d{DIE_LADDER[0]} to d{DIE_LADDER[-1]}: "
                          f"no step {'below' if k < 0 else 'above'} it")
    index, term = _first_die(expr)
    terms = list(expr.terms)
    terms[index] = (terms[index][0], dataclasses.replace(term, m=DIE_LADDER[k]))
    return _spell(terms, upper)


def _first_die(expr: DiceExpr) -> tuple[int, Dice | Pool]:
    for i, (_, term) in enumerate(expr.terms):
        if isinstance(term, Dice | Pool):
            return i, term
    raise LadderError(f"{expr.text!r} has no die to step along the die ladder")


def _spell(terms: list[tuple[int, Term]], upper: bool) -> str:
    """Terms as text, in the family's spelling (``1D8+1``) when the field was upper case."""
    out = str(DiceExpr("", tuple(terms)))
    if upper:
        out = re.sub(r"(?<![0-9a-z])([0-9]*)d([0-9]+)",
                     lambda m: f"{m.group(1) or 1}D{m.group(2)}", out)
    return out
