"""Distance and closing on a line, shared by every rule system.

Fighters stand on a line; positions are (n_places, n_trials) float32 arrays in the rule
system's own unit (metres for Yags and Ymlad, yards for the percentile system, whose tables
count in yards). Side 0 starts at 0 and every other side at its start distance from side 0
(a scenario's top-level ``distance:``, or the side's own). A rule system decides how far a
fighter may move in a round (Yags: half Move freely, full Move with only a slow attack); the
functions here decide where a movement policy takes it, vectorised over trials.
"""

from __future__ import annotations

import numpy as np

# Movement policies (a fighter's ``policy.movement``).
CLOSE, HOLD, KEEP_DISTANCE, RETREAT = 0, 1, 2, 3
MOVEMENT = {"close": CLOSE, "hold": HOLD, "keep_distance": KEEP_DISTANCE, "retreat": RETREAT}


def start_positions(side_of: np.ndarray, side_distance: list[float]) -> np.ndarray:
    """(c,) float32: each fighter's starting position; ``side_distance[s]`` is side s's
    distance from side 0 (side 0's own entry is ignored)."""
    starts = np.array([0.0] + [float(d) for d in side_distance[1:]], dtype=np.float32)
    return starts[side_of]


def gap(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance between two positions (arrays of equal shape)."""
    return np.abs(a - b)


def step(me: np.ndarray, foe: np.ndarray, policy: int | np.ndarray, max_move: np.ndarray,
         near: np.ndarray | float, far: np.ndarray | float) -> np.ndarray:
    """Where a fighter at ``me`` ends a round of movement relative to a foe at ``foe``.

    ``near``/``far`` bound the distance the policy wants: CLOSE walks in until within
    ``near`` (its reach), KEEP_DISTANCE keeps the foe between ``near`` and ``far`` (a missile
    user's comfortable band: backing off when closer, walking in when farther), RETREAT walks
    away, HOLD stays. Never moves more than ``max_move`` and never walks through the foe.
    """
    d = foe - me
    dist = np.abs(d)
    toward = np.sign(d)
    toward = np.where(toward == 0, 1.0, toward).astype(np.float32)
    policy = np.asarray(policy)
    # Signed distance wanted along ``toward`` (positive: closer to the foe).
    close_by = np.maximum(dist - near, 0)
    keep_by = np.where(dist < near, -(near - dist), np.maximum(dist - far, 0))
    want = np.where(policy == CLOSE, close_by,
                    np.where(policy == KEEP_DISTANCE, keep_by,
                             np.where(policy == RETREAT, -max_move, 0)))
    moved = np.clip(want, -max_move, max_move)
    return (me + toward * moved).astype(np.float32)
