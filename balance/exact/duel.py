"""Exact duel odds: a rule system's duel model solved as a Markov chain, as a tally.

A rule system that can describe a duel exactly returns a :class:`DuelModel` (its start
distribution, one round as a :data:`~balance.exact.chain.Step`, and each state's fighter
statuses) from ``RuleSystem.exact_duel``; this module builds the chain, steps it to
``max_rounds`` and turns the result into an :class:`ExactTally`, the same counts the Monte
Carlo engine keeps but as probabilities, so a :class:`~balance.result.RunResult` reads it
alike. The engine's decision rule is the Monte Carlo loop's (``balance.engine.loop``): a
fight is over once at most one side has a fighter standing; a fighter down in the same round
as its foe shares "first down" with it half and half (the loop credits one of them uniformly
at random).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from balance.engine.run import Tally
from balance.engine.status import STANDING, STATUS_NAMES
from balance.exact.chain import MAX_STATES, Chain, Solution, Step, build, solve


class Unsupported(Exception):
    """The exact engine cannot play this scenario; ``features`` names what it uses that the
    exact engine does not model (each a short phrase: "distance between the sides")."""

    def __init__(self, features: list[str] | str):
        self.features = [features] if isinstance(features, str) else list(features)
        super().__init__("; ".join(self.features))


@dataclass(frozen=True)
class DuelModel:
    """A duel as a Markov chain over packed state codes (``balance.engine.bits``).

    ``start``: codes and probabilities of the state before round 1 (initiative rolled once
    for the fight, say); ``round``: one round; ``status``: ``(n_fighters, m)`` int8 statuses
    of each code's fighters in scenario order (``balance.engine.status``). Anything a round
    depends on (the round number, a charge not yet made) must be in the state."""

    start_codes: np.ndarray
    start_p: np.ndarray
    round: Step
    status: Callable[[np.ndarray], np.ndarray]
    describe: Callable[[np.ndarray], dict[str, np.ndarray]] | None = None
    steps_per_round: int = 1
    """``round`` plays one of this many parts of a round (the part to come kept in the
    state): a round of two actions in turn as two steps keeps the chain's matrix at one
    action's branches a state, where the whole round's would be their product. The mass
    decided in any step of round r is round r's."""


@dataclass
class ExactTally(Tally):
    """A :class:`~balance.engine.run.Tally` whose counts are probabilities (``trials`` 1):
    the exact answer, with no sampling error. ``states``/``transitions``: the chain's size."""

    exact: ClassVar[bool] = True
    states: int = 0
    transitions: int = 0
    rounds_played: int = 0
    build_seconds: float = 0.0
    solve_seconds: float = 0.0
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.wins is None:
            self.wins = np.zeros(self.n_sides + 1)
            self.rounds = np.zeros(self.max_rounds + 1)
            self.status = np.zeros((self.n_fighters, len(STATUS_NAMES)))
            self.standing = np.zeros((self.n_sides, self.n_fighters + 1))
        if self.first_down is None:
            self.first_down = np.zeros(self.n_fighters + 1)


def decided(status: np.ndarray, side_of: np.ndarray, n_sides: int) -> np.ndarray:
    """(m,) bool: at most one side has a fighter standing (the loop's rule)."""
    up = status == STANDING
    sides = np.stack([up[side_of == s].any(axis=0) for s in range(n_sides)])
    return sides.sum(axis=0) <= 1


def chain_of(model: DuelModel, side_of: np.ndarray, n_sides: int,
             max_states: int = MAX_STATES) -> Chain:
    """The reachable chain of a duel model."""
    return build(model.start_codes, model.start_p, model.round,
                 lambda codes: decided(model.status(codes), side_of, n_sides),
                 max_states=max_states)


def tally_of(model: DuelModel, chain: Chain, solution: Solution, side_of: np.ndarray,
             n_sides: int, max_rounds: int) -> ExactTally:
    """The solved chain's outcomes as an :class:`ExactTally`."""
    c = side_of.size
    out = ExactTally(n_sides, c, max_rounds)
    out.trials = 1
    status = model.status(chain.codes)                  # (c, n)
    up = status == STANDING
    ended, still = solution.absorbed, solution.open_end
    # Winner: the one side with someone standing, else a draw (by a mutual kill, or time).
    side_up = np.stack([up[side_of == s].any(axis=0) for s in range(n_sides)])   # (S, n)
    alone = side_up.sum(axis=0) == 1
    for s in range(n_sides):
        out.wins[s] = float(ended[alone & side_up[s]].sum())
    out.wins[n_sides] = float(ended[~alone].sum() + still.sum())
    out.rounds[:] = solution.by_round
    out.rounds[max_rounds] += float(still.sum())
    mass = ended + still
    for f in range(c):
        out.status[f] = np.bincount(status[f], weights=mass, minlength=len(STATUS_NAMES))
    for s in range(n_sides):
        count = up[side_of == s].sum(axis=0)
        out.standing[s] = np.bincount(count, weights=mass, minlength=c + 1)[: c + 1]
    # First down: whoever is down in the state the fight ended in; two down in one round
    # share it equally (the loop's uniform credit).
    down = ~up
    n_down = down.sum(axis=0)
    share = np.where(n_down > 0, ended / np.maximum(n_down, 1), 0.0)
    for f in range(c):
        out.first_down[f] = float((share * down[f]).sum())
    out.first_down[c] = float(still.sum() + ended[n_down == 0].sum())
    out.states, out.transitions = chain.n_states, chain.n_transitions
    out.rounds_played = solution.rounds_played
    return out


def by_rounds(solution: Solution, k: int) -> Solution:
    """A solution stepped ``k`` steps a round, as rounds: step ``s`` is in round
    ``ceil(s / k)``."""
    steps = solution.by_round
    rounds = np.zeros((steps.size - 1) // k + 1)
    rounds[1:] = steps[1:].reshape(-1, k).sum(axis=1)
    return Solution(solution.absorbed, rounds, solution.open_end,
                    -(-solution.rounds_played // k))


def solve_duel(model: DuelModel, side_of: np.ndarray, n_sides: int, max_rounds: int,
               max_states: int = MAX_STATES) -> ExactTally:
    """Build, solve and tally a duel model (timings recorded on the tally)."""
    import time

    t0 = time.perf_counter()
    chain = chain_of(model, side_of, n_sides, max_states)
    t1 = time.perf_counter()
    k = model.steps_per_round
    solution = solve(chain, max_rounds * k)
    if k > 1:
        solution = by_rounds(solution, k)
    t2 = time.perf_counter()
    out = tally_of(model, chain, solution, side_of, n_sides, max_rounds)
    out.build_seconds, out.solve_seconds = t1 - t0, t2 - t1
    return out
