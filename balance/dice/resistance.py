"""The Resistance Table of the percentile family: an active characteristic against a passive.

Seed 004 pits a poison's POT (active) against a victim's CON (passive), and STR against STR to
wrench a weapon away, "on the Resistance Table", without printing it. The table is the
family's public one: 50% when the two are equal, 5 percentiles more for every point the
active side is higher (less for every point it is lower), so a difference of 10 or more
either way is certain. The chance is rolled on d100 (roll <= chance succeeds).

``base``, ``step``, ``floor`` and ``ceiling`` are the table's numbers, arguments so that a
table that keeps 5% / 95% limits can be modelled (``floor=5, ceiling=95``).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from balance.errors import OptionError

BASE = 50      # percent, equal characteristics
STEP = 5       # percentiles per point of difference
FLOOR = 0      # percent: a passive side 10+ points higher always resists
CEILING = 100  # percent: an active side 10+ points higher always overcomes


def _check_table(base: int, step: int, floor: int, ceiling: int) -> None:
    if not 0 <= floor <= ceiling <= 100:
        raise OptionError(f"need 0 <= floor <= ceiling <= 100, got floor {floor}, "
                          f"ceiling {ceiling}")
    if step < 0:
        raise OptionError(f"step must not be negative, got {step}")
    if not 0 <= base <= 100:
        raise OptionError(f"base must be a percentage (0-100), got {base}")


def resistance_chance(active: ArrayLike, passive: ArrayLike, *, base: int = BASE,
                      step: int = STEP, floor: int = FLOOR,
                      ceiling: int = CEILING) -> NDArray[np.int16] | int:
    """Percent chance (an integer 0-100) that ``active`` overcomes ``passive``.

    Works on ints (returns an int) and on integer arrays of any broadcastable shapes
    (returns int16). ``base + step * (active - passive)``, clipped to ``[floor, ceiling]``.
    """
    _check_table(base, step, floor, ceiling)
    scalar = np.ndim(active) == 0 and np.ndim(passive) == 0
    diff = np.asarray(active, dtype=np.int64) - np.asarray(passive, dtype=np.int64)
    chance = np.clip(base + step * diff, floor, ceiling)
    return int(chance) if scalar else chance.astype(np.int16)


def resistance_p(active: int, passive: int, **table: int) -> float:
    """The exact probability (0.0-1.0) that ``active`` overcomes ``passive`` on d100."""
    return int(resistance_chance(int(active), int(passive), **table)) / 100


def resistance_roll(rng: np.random.Generator, active: ArrayLike, passive: ArrayLike,
                    size: int | tuple[int, ...] | None = None, **table: int) -> NDArray[np.bool_]:
    """Roll the Resistance Table: a bool array, True where the active side overcomes.

    ``active`` and ``passive`` broadcast against each other (and against ``size`` if given);
    one d100 is drawn per element of the result.
    """
    chance = np.asarray(resistance_chance(active, passive, **table))
    shape = chance.shape if size is None else np.broadcast_shapes(
        chance.shape, (size,) if isinstance(size, int) else tuple(size))
    roll = rng.integers(1, 101, size=shape, dtype=np.int16)
    return roll <= chance
