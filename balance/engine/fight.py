"""What every compiled fight derives from its fighters, shared by the rule systems."""

from __future__ import annotations

from typing import Any

import numpy as np


class FighterList:
    """Mixin for a compiled fight whose ``fighters`` each have a ``side`` and a ``name``."""

    fighters: tuple[Any, ...]

    @property
    def n(self) -> int:
        return len(self.fighters)

    @property
    def side_of(self) -> np.ndarray:
        """(n_combatants,) int8: the side index of each fighter."""
        return np.array([f.side for f in self.fighters], dtype=np.int8)

    @property
    def fighter_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fighters)
