"""The one small protocol every rule system implements, so the engine needs no special cases.

A rule system compiles a validated scenario into a *fight* (fixed per-fighter numbers), then
plays trials of it two ways: vectorised (``start`` + ``play_round``, driven by
``balance.engine.loop``) and one at a time in a readable scalar reference
(``reference_trial``), the oracle the fast path is tested against. Capability differences
are declared in ``tags``, never discovered with isinstance.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from balance.engine.state import TrialState
from balance.engine.status import TrialOutcome


class Fight(Protocol):
    """What the engine needs from a compiled fight."""

    side_names: tuple[str, ...]
    side_of: np.ndarray      # (n_combatants,) int8: side index of each fighter
    fighter_names: tuple[str, ...]
    max_rounds: int


class RuleSystem(Protocol):
    ruleset: str
    tags: frozenset[str]

    def compile(self, scenario: Any, tables: Any) -> Fight:
        """Per-fighter numbers from a validated scenario and its resolved tables."""
        ...

    def start(self, fight: Any, n: int, rng: np.random.Generator) -> TrialState:
        """The state of ``n`` fresh trials (initiative and the like rolled here)."""
        ...

    def play_round(self, fight: Any, state: Any, rng: np.random.Generator, round_no: int) -> None:
        """Advance every trial in ``state`` by one round, in place."""
        ...

    def reference_trial(self, fight: Any, rng: np.random.Generator) -> TrialOutcome:
        """One whole fight, played by the readable scalar reference."""
        ...
