"""Exact distribution of the kept dice of a pool: keep the highest (or lowest) ``k`` of ``n``.

One trick, one module. Sort the faces from the end that is kept first (the highest for
``kh``/``dl``, the lowest for ``kl``/``dh``) and walk them one by one; the state is how many
dice have shown a face already met (``u``) and the kept score so far. When ``c`` more dice
show the next face, the first ``min(u + c, k) - min(u, k)`` of them are kept, so the state
needs no more than ``u``: a pool of ``n`` dice costs about ``faces * n**2 / 2`` array
additions, not ``faces**n`` rolls. The weight of ``c`` dice on a face of probability ``p``
among the ``n - u`` not yet placed is ``C(n - u, c) p**c``, so the product over the faces is
the multinomial probability of the roll.

A die's *score* is what a kept die adds: its face for a sum, 1 or 0 for a count of successes.
Scores are whole numbers at least 0. Imports numpy and the standard library only.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

MAX_WORK = 400_000_000
"""Most multiply-adds :func:`kept_scores` will do (about a second of numpy here)."""


def work(faces: int, n: int, k: int, top_score: int) -> int:
    """About how many multiply-adds :func:`kept_scores` needs (to refuse a huge pool early)."""
    return faces * (n + 1) * (n + 2) // 2 * (k * top_score + 1)


def kept_scores(faces: NDArray[np.int64], probs: NDArray[np.float64],
                scores: NDArray[np.int64], n: int, k: int, highest: bool) -> NDArray[np.float64]:
    """P(total score of the kept dice = s) for s = 0, 1, ..., ``k * max(scores)``.

    ``faces`` are one die's outcomes (ascending or not), ``probs`` their probabilities (they
    may sum to a little less than 1 when the die's tail was cut off: the result then sums to
    that mass to the power ``n``) and ``scores`` what each face adds when kept. ``n`` dice
    are rolled; the ``k`` highest faces (``highest``) or the ``k`` lowest are kept.
    """
    order = np.argsort(faces, kind="stable")
    if highest:
        order = order[::-1]
    width = k * int(scores.max(initial=0)) + 1
    state = np.zeros((n + 1, width))
    state[0, 0] = 1.0
    binom = [[math.comb(a, c) for c in range(a + 1)] for a in range(n + 1)]
    for f in order.tolist():
        p, s = float(probs[f]), int(scores[f])
        if p == 0.0:
            continue
        powers = p ** np.arange(n + 1, dtype=np.float64)
        new = np.zeros_like(state)
        for u in range(n + 1):
            row = state[u]
            if not row.any():
                continue
            before = min(u, k)
            for c in range(n - u + 1):
                w = binom[n - u][c] * powers[c]
                if w == 0.0:
                    break
                shift = (min(u + c, k) - before) * s
                if shift:
                    new[u + c, shift:] += w * row[:width - shift]
                else:
                    new[u + c] += w * row
        state = new
    return state[n]
