"""The round loop every rule system shares: play rounds, decide finished fights, compact.

A rule system supplies ``start`` (the initial state of n trials) and ``play_round`` (one
round for every trial still running); this loop owns deciding who won, counting rounds,
draws by time, and removing decided trials from the arrays so later rounds only pay for
fights still open. Finished rows are scattered back through one index array (``rows``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from balance.engine.status import DRAW, STANDING


@dataclass(frozen=True)
class BlockOutcome:
    """Outcomes of one block of trials: winner side (or DRAW), deciding round, final status."""

    winner: np.ndarray   # (n,) int8
    rounds: np.ndarray   # (n,) int16
    status: np.ndarray   # (n, n_combatants) int8


def sides_standing(status: np.ndarray, side_of: np.ndarray, n_sides: int) -> np.ndarray:
    """(n, n_sides) bool: does each side still have a fighter standing in each trial."""
    standing = status == STANDING
    return np.stack([standing[:, side_of == s].any(axis=1) for s in range(n_sides)], axis=1)


def simulate(system, fight, n: int, rng: np.random.Generator) -> BlockOutcome:
    """Play ``n`` independent fights of ``fight`` under ``system`` to a decision or time-out."""
    side_of = fight.side_of
    n_sides = len(fight.side_names)
    winner = np.full(n, DRAW, dtype=np.int8)
    rounds = np.full(n, fight.max_rounds, dtype=np.int16)
    final = np.empty((n, len(side_of)), dtype=np.int8)
    rows = np.arange(n)
    state = system.start(fight, n, rng)
    for round_no in range(1, fight.max_rounds + 1):
        system.play_round(fight, state, rng, round_no)
        alive = sides_standing(state.status, side_of, n_sides)
        n_alive = alive.sum(axis=1)
        done = n_alive <= 1
        if done.any():
            idx = rows[done]
            winner[idx] = np.where(n_alive[done] == 1, alive[done].argmax(axis=1), DRAW)
            rounds[idx] = round_no
            final[idx] = state.status[done]
            keep = ~done
            rows = rows[keep]
            if rows.size == 0:
                break
            state = state.take(keep)
    if rows.size:
        final[rows] = state.status
    return BlockOutcome(winner=winner, rounds=rounds, status=final)
