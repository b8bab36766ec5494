"""Per-trial fight state as a structure of arrays, with one way to drop finished trials."""

from __future__ import annotations

import dataclasses

import numpy as np


@dataclasses.dataclass
class TrialState:
    """Base of every rule system's state: each field is an array whose first axis is trials.

    ``status`` (n_trials, n_combatants) int8 holds the shared status codes of
    ``balance.engine.status``; rule systems add their own tracks as further fields.
    """

    status: np.ndarray

    def take(self, keep: np.ndarray) -> TrialState:
        """The same state restricted to the trials selected by ``keep`` (bool mask or index)."""
        return dataclasses.replace(
            self, **{f.name: getattr(self, f.name)[keep] for f in dataclasses.fields(self)}
        )
