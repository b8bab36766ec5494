"""The one protocol every rule system implements, so the engine needs no special cases.

A rule system compiles a validated scenario into a *fight* (fixed per-fighter numbers), then
plays trials of it three ways: vectorised (``start`` + ``play_round``, driven by
``balance.engine.loop``), one at a time in a readable scalar reference (``reference_trial``,
the oracle the fast path is tested against), and, for the duels it can describe as a Markov
chain, exactly (``exact_duel``, solved by ``balance.exact``).

Every hook the engine calls is declared here, with its default (as icepool's evaluators
declare theirs and xarray's backend entry points list what a backend shall and may
implement): the engine never looks a hook up with ``getattr``. A system subclasses
:class:`RuleSystem`, implements the four required methods and overrides the optional ones
it supports. What a system can do is said by its capability attributes (``ClassVar`` flags),
which the conformance suite (``balance.rules.testing.check_rule_system``) reads to decide
which checks apply.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

import numpy as np

from balance.engine.state import TrialState
from balance.engine.status import TrialOutcome


class Fight(Protocol):
    """What the engine needs from a compiled fight."""

    side_names: tuple[str, ...]
    side_of: np.ndarray      # (n_combatants,) int8: side index of each fighter
    fighter_names: tuple[str, ...]
    max_rounds: int


class RuleSystem:
    """Base class of the rule systems: required methods raise, optional ones have defaults."""

    ruleset: ClassVar[str] = ""
    """The scenario's ``ruleset:`` value."""

    # --- capabilities (read by the engine and by the conformance suite) --------------------
    has_groups: ClassVar[bool] = True
    """Plays fights of more than two fighters and more than two sides."""
    has_distance: ClassVar[bool] = False
    """Scenarios may put the sides apart (``distance:``)."""
    has_aftermath: ClassVar[bool] = False
    """Fights may carry an aftermath (``after_battle``; who is alive hours later)."""
    has_exact_duels: ClassVar[bool] = False
    """Some duels can be solved exactly (``exact_duel``)."""
    exact_by_default: ClassVar[bool] = True
    """``--engine auto`` (the analysis commands' default) answers the covered duels exactly.
    False where the exact engine is slower than sampling this system's duels (measured by
    ``benchmarks/bench_exact.py``): ``auto`` then samples and says why, and ``--engine
    exact`` still solves them (``balance.exact.run.auto_declines``)."""
    breakdown_metrics: ClassVar[frozenset[str]] = frozenset({"rounds_standing"})
    """The per-fighter counters of ``balance.engine.breakdown`` the kernel fills (the engine
    counts ``rounds_standing`` itself)."""

    # --- required ---------------------------------------------------------------------------
    def compile(self, scenario: Any, tables: Any) -> Fight:
        """Per-fighter numbers from a validated scenario and its resolved tables."""
        raise NotImplementedError

    def start(self, fight: Any, n: int, rng: np.random.Generator) -> TrialState:
        """The state of ``n`` fresh trials (initiative and the like rolled here); ``fight``
        is what ``prepare`` returned."""
        raise NotImplementedError

    def play_round(self, fight: Any, state: Any, rng: np.random.Generator,
                   round_no: int) -> None:
        """Advance every trial in ``state`` by one round, in place."""
        raise NotImplementedError

    def reference_trial(self, fight: Any, rng: np.random.Generator) -> TrialOutcome:
        """One whole fight, played by the readable scalar reference."""
        raise NotImplementedError

    def examples(self):
        """The :class:`balance.rules.testing.Examples` the conformance suite plays."""
        raise NotImplementedError

    # --- optional ---------------------------------------------------------------------------
    def prepare(self, fight: Any) -> Any:
        """What the kernel builds once per compiled fight (its arrays and outcome tables);
        the engine passes it to ``start`` and ``play_round`` in place of the fight and keeps
        it while the fight lives (``balance.engine.prepared``). Default: the fight itself."""
        return fight

    def stackable(self, fight: Any) -> bool:
        """Can consecutive blocks of this fight be played stacked (``engine.streams``: every
        draw names its columns)? Default: no, each block is played alone."""
        return False

    def tracks(self, state: Any) -> dict[str, np.ndarray]:
        """Rule-specific tracks by place ((n_places, n) arrays), kept at the end of each
        trial when the fight has an aftermath. Default: none."""
        return {}

    def after_battle(self, fight: Any, out: Any, rng: np.random.Generator) -> np.ndarray:
        """(n_fighters, n) bool: who is alive after the fight's aftermath, from the block's
        outcomes ``out`` (with ``tracks``). Called only for fights whose ``aftermath`` is
        set, so only systems with ``has_aftermath`` implement it."""
        raise NotImplementedError(f"{self.ruleset} fights have no aftermath")

    def exact_duel(self, fight: Any):
        """The fight as a :class:`balance.exact.duel.DuelModel`, or raise
        :class:`balance.exact.duel.Unsupported` naming what the exact engine cannot play.
        Default: unsupported."""
        from balance.exact.duel import Unsupported

        raise Unsupported(f"the exact engine does not cover {self.ruleset} fights yet")
