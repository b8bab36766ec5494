"""The exact dice core: vectorised roll primitives, exact pmfs and dice expressions.

``sample`` draws arrays of rolls from an explicit ``numpy.random.Generator``; ``exact``
holds :class:`Pmf`, the exact distributions the samplers are tested against; ``expr``
parses expressions such as ``2d6+1d4-1``, ``4d6kh3``, ``d6!`` or ``5d10>=7`` once into a
:class:`DiceExpr` that can do both (``pool`` holds keep/drop, exploding and counted dice).
Imports numpy and the standard library only.
"""

from balance.dice.exact import Pmf
from balance.dice.expr import Compare, Constant, Dice, DiceExpr, Drift, Group, Term, parse
from balance.dice.pool import Pool
from balance.dice.resistance import resistance_chance, resistance_p, resistance_roll
from balance.dice.sample import Size, d20, d100, drift, ndm

__all__ = [
    "Compare",
    "Constant",
    "Dice",
    "DiceExpr",
    "Drift",
    "Group",
    "Pmf",
    "Pool",
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
