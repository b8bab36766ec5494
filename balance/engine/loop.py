"""The round loop every rule system shares: play rounds, decide finished fights, compact.

A rule system supplies ``start`` (the initial state of n trials) and ``play_round`` (one
round for every trial still running); this loop owns deciding who won, counting rounds,
draws by time, and removing decided trials from the arrays so later rounds only pay for
fights still open. Finished rows are scattered back through one index array (``rows``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from balance.engine.places import first_true
from balance.engine.status import DRAW, STANDING


@dataclass(frozen=True)
class BlockOutcome:
    """Outcomes of one block of trials: winner side (or DRAW), deciding round, final status."""

    winner: np.ndarray   # (n,) int8
    rounds: np.ndarray   # (n,) int16
    status: np.ndarray   # (n_combatants, n) int8, fighters in scenario order
    # Rule-specific tracks at the end (e.g. Yags wounds), (n_combatants, n), fighter order;
    # filled when the rule system defines ``tracks(state)``.
    tracks: dict[str, np.ndarray] = field(default_factory=dict)
    # (n,) int8: the fighter who went down first (-1: nobody); ties within a round go to the
    # one earlier in the state's place order (acting order, for Yags).
    first_down: np.ndarray | None = None


# Decided rows are dropped once the open ones fall below this share of the arrays (compaction
# copies every state array; 1/2, 2/3 and 3/4 measured within noise of each other for the
# Yags duel).
COMPACT_AT = 2 / 3


def sides_standing(state, n_sides: int, standing: np.ndarray | None = None) -> np.ndarray:
    """(n_sides, n) bool: does each side still have a fighter standing in each trial."""
    if standing is None:
        standing = state.status == STANDING
    return np.stack([(standing & (state.side == s)).any(axis=0) for s in range(n_sides)])


def _record(final: dict[str, np.ndarray], state, tracks, sel: np.ndarray,
            trials: np.ndarray) -> None:
    """Scatter status and tracks of state rows ``sel`` into ``final`` in fighter order."""
    now = {"status": state.status, **(tracks(state) if tracks else {})}
    for name, values in now.items():
        if name not in final:
            final[name] = np.zeros((state.status.shape[0], final["n"]), dtype=values.dtype)
        out = final[name]
        for place in range(state.status.shape[0]):
            out[state.who[place, sel], trials] = values[place, sel]


def simulate(system, fight, n: int, rng: np.random.Generator) -> BlockOutcome:
    """Play ``n`` independent fights of ``fight`` under ``system`` to a decision or time-out.

    A decided trial is recorded in the round it is decided and never again. It stays in the
    arrays (where, with at most one side standing, nothing recorded happens to it) until the
    decided rows are worth removing: compaction copies every state array, so it waits until
    a third of the rows are finished.
    """
    n_sides = len(fight.side_names)
    winner = np.full(n, DRAW, dtype=np.int8)
    rounds = np.full(n, fight.max_rounds, dtype=np.int16)
    final: dict = {"n": n}
    # Rule-specific tracks are only kept when something reads them (an aftermath).
    wanted = getattr(fight, "aftermath", None) is not None
    tracks = getattr(system, "tracks", None) if wanted else None
    rows = np.arange(n)                 # original trial of each state row
    open_ = np.ones(n, dtype=bool)      # rows not yet decided
    first_down = np.full(n, -1, dtype=np.int8)
    nobody_down = np.ones(n, dtype=bool)  # per state row
    duel = len(fight.side_of) == 2 and n_sides == 2
    state = system.start(fight, n, rng)
    for round_no in range(1, fight.max_rounds + 1):
        system.play_round(fight, state, rng, round_no)
        standing = state.status == STANDING
        if duel:   # the first fall decides: the same bookkeeping, in fewer steps
            done = np.flatnonzero(open_ & ~(standing[0] & standing[1]))
            if done.size:
                idx = rows[done]
                m = standing.shape[1]
                up0, up1 = standing[0, done], standing[1, done]
                first_down[idx] = state.who.ravel()[up0 * m + done]   # place 0 first on a tie
                alone = up0 ^ up1
                winner[idx] = alone * state.side.ravel()[up1 * m + done] + ~alone * DRAW
        else:
            fell = np.flatnonzero(nobody_down & ~standing.all(axis=0))
            if fell.size:
                place = first_true(~standing[:, fell])
                first_down[rows[fell]] = state.who[place, fell]
                nobody_down[fell] = False
            alive = sides_standing(state, n_sides, standing)
            n_alive = alive[0].astype(np.int8)
            for side in alive[1:]:
                n_alive += side
            done = np.flatnonzero(open_ & (n_alive <= 1))
            if done.size:
                idx = rows[done]
                one = n_alive[done] == 1
                winner[idx] = one * first_true(alive[:, done]) + ~one * DRAW
        if done.size:
            rounds[idx] = round_no
            _record(final, state, tracks, done, idx)
            open_[done] = False
            n_open = np.count_nonzero(open_)
            if n_open == 0:
                break
            if n_open < COMPACT_AT * open_.size:
                keep = np.flatnonzero(open_)
                rows, state, open_ = rows[keep], state.take(keep), open_[keep]
                nobody_down = nobody_down[keep]
    if open_.any():
        still = np.flatnonzero(open_)
        _record(final, state, tracks, still, rows[still])
    del final["n"]
    status = final.pop("status")
    return BlockOutcome(winner=winner, rounds=rounds, status=status, tracks=final,
                        first_down=first_down)
