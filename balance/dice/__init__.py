"""The exact dice core: vectorised roll primitives, exact pmfs and dice expressions.

``sample`` draws arrays of rolls from an explicit ``numpy.random.Generator``; ``exact``
holds :class:`Pmf`, the exact distributions the samplers are tested against; ``expr``
parses expressions such as ``2d6+1d4-1`` once into a :class:`DiceExpr` that can do both.
Imports numpy and the standard library only.
"""

from balance.dice.exact import Pmf
from balance.dice.expr import Constant, Dice, DiceExpr, Drift, Term, parse
from balance.dice.resistance import resistance_chance, resistance_p, resistance_roll
from balance.dice.sample import Size, d20, d100, drift, ndm

__all__ = [
    "Constant",
    "Dice",
    "DiceExpr",
    "Drift",
    "Pmf",
    "Size",
    "Term",
    "d20",
    "d100",
    "drift",
    "ndm",
    "parse",
    "resistance_chance",
    "resistance_p",
    "resistance_roll",
]
