"""A fight as a Markov chain: states reached from the start, one round's transition, stepped.

Between rounds a duel is a handful of small integers (hit points, harm levels, wounds and
stuns, a few flags), packed into one int64 *code* per state (``balance.engine.bits``). A rule
system describes one round as a :data:`Step`: a function from an array of codes to the
:class:`Branches` leaving each of them (where it can go, and with what probability), built
from exact per-action pmfs. This module, shared by every rule system, enumerates the states
reachable from the start (never a full product space), stores the round as a sparse matrix
once, and steps the distribution round by round up to ``max_rounds``, keeping the mass that
enters a terminal state (a fight decided) per round: winners, statuses and the full
distribution of fight length then come out exact.

Steps compose (:func:`then`): a round is usually several actions in turn, each a Step, with
the states between them deduplicated, so a round with four dice rolls never enumerates the
product of their faces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# Beyond this many states (or transitions) a chain is refused with a clear message rather
# than allowed to exhaust memory: at about 60 bytes a transition (row, column, probability,
# and scipy's copies while building), 40 M transitions are ~2.4 GB at the peak.
MAX_STATES = 2_000_000
MAX_TRANSITIONS = 40_000_000


class ChainTooLarge(ValueError):
    """The reachable states or transitions pass the documented limits."""


@dataclass(frozen=True)
class Branches:
    """Where each of ``m`` input states goes: row ``k`` moves mass ``p[k]`` of input state
    ``src[k]`` to the state with code ``dst[k]``. The ``p`` of one ``src`` sum to 1."""

    src: np.ndarray   # (t,) intp
    dst: np.ndarray   # (t,) int64
    p: np.ndarray     # (t,) float64

    @staticmethod
    def table(dst: np.ndarray, p: np.ndarray) -> Branches:
        """Branches from ``(m, k)`` arrays: input state ``i`` goes to ``dst[i, j]`` with
        probability ``p[i, j]`` (entries of probability 0 are dropped)."""
        dst, p = np.asarray(dst, dtype=np.int64), np.asarray(p, dtype=np.float64)
        dst, p = np.broadcast_arrays(dst, p)
        src = np.broadcast_to(np.arange(dst.shape[0])[:, None], dst.shape)
        keep = p.ravel() > 0
        return Branches(src.ravel()[keep].astype(np.intp), dst.ravel()[keep],
                        p.ravel()[keep])

    @staticmethod
    def stay(codes: np.ndarray) -> Branches:
        """Every state stays where it is (probability 1)."""
        codes = np.asarray(codes, dtype=np.int64)
        return Branches(np.arange(codes.size, dtype=np.intp), codes.copy(),
                        np.ones(codes.size))

    def __len__(self) -> int:
        return int(self.src.size)


Step = Callable[[np.ndarray], Branches]
"""One stochastic step of a round: input codes ``(m,)`` int64 -> the branches leaving them."""


def merged(br: Branches) -> Branches:
    """The same branches with repeated (source, destination) pairs summed into one."""
    if br.src.size == 0:
        return br
    # One sort where the pair packs into one int64 (source above the destination's offset
    # from the smallest: the same order as sorting by (source, destination)), else two.
    low = int(br.dst.min())
    width = (int(br.dst.max()) - low).bit_length()
    if width + int(br.src.max()).bit_length() <= 62:
        key = (br.src.astype(np.int64) << width) | (br.dst.astype(np.int64) - low)
        keys, k_inv = np.unique(key, return_inverse=True)
        p = np.bincount(k_inv.ravel(), weights=br.p, minlength=keys.size)
        keep = p > 0
        keys = keys[keep]
        return Branches((keys >> width).astype(np.intp),
                        ((keys & ((1 << width) - 1)) + low).astype(br.dst.dtype), p[keep])
    dst, d_inv = np.unique(br.dst, return_inverse=True)
    key = br.src.astype(np.int64) * dst.size + d_inv.ravel()
    keys, k_inv = np.unique(key, return_inverse=True)
    p = np.bincount(k_inv.ravel(), weights=br.p, minlength=keys.size)
    src, col = np.divmod(keys, dst.size)
    keep = p > 0
    return Branches(src[keep].astype(np.intp), dst[col[keep]], p[keep])


def _join(first: Branches, step: Step) -> Branches:
    """``step`` played after ``first``: each branch of ``first`` continued by every branch
    leaving its destination (the destinations played once each, deduplicated)."""
    if first.src.size == 0:
        return first
    mid, inv = np.unique(first.dst, return_inverse=True)
    inv = inv.ravel()
    second = step(mid)
    src2, dst2, p2 = second.src, second.dst, second.p
    if src2.size > 1 and not (src2[1:] >= src2[:-1]).all():
        # (the steps give their branches in source order, as ``then``, ``only`` and
        # ``Branches.stay`` build them: then the stable sort is skipped, its order the same)
        order = np.argsort(src2, kind="stable")
        src2, dst2, p2 = src2[order], dst2[order], p2[order]
    count = np.bincount(src2, minlength=mid.size)
    start = np.concatenate([[0], np.cumsum(count)[:-1]])
    reps = count[inv]                               # continuations of each first branch
    row = np.repeat(np.arange(first.src.size), reps)
    offset = np.arange(row.size) - np.repeat(np.cumsum(reps) - reps, reps)
    at = start[inv][row] + offset
    return merged(Branches(first.src[row], dst2[at], first.p[row] * p2[at]))


def then(*steps: Step) -> Step:
    """The step that plays ``steps`` one after another (the states between them merged)."""
    if len(steps) == 1:
        return steps[0]

    def run(codes: np.ndarray) -> Branches:
        codes = np.asarray(codes, dtype=np.int64)
        out = merged(steps[0](codes))
        for step in steps[1:]:
            out = _join(out, step)
        return out

    return run


def mix(*weighted: tuple[float, Step]) -> Step:
    """With probability ``w`` play step ``s``, for each ``(w, s)`` (the ``w`` sum to 1): a
    round whose order of action is itself a die roll."""

    def run(codes: np.ndarray) -> Branches:
        parts = [(w, step(codes)) for w, step in weighted if w > 0]
        return Branches(np.concatenate([br.src for _, br in parts]),
                        np.concatenate([br.dst for _, br in parts]),
                        np.concatenate([w * br.p for w, br in parts]))

    return run


def only(where: Callable[[np.ndarray], np.ndarray], step: Step) -> Step:
    """``step`` for the states where ``where(codes)`` holds; the others stay as they are."""

    def run(codes: np.ndarray) -> Branches:
        codes = np.asarray(codes, dtype=np.int64)
        mask = np.asarray(where(codes), dtype=bool)
        if mask.all():
            return step(codes)
        idle = np.flatnonzero(~mask)
        if not mask.any():
            return Branches.stay(codes)
        some = np.flatnonzero(mask)
        br = step(codes[some])
        return Branches(np.concatenate([some[br.src], idle]),
                        np.concatenate([br.dst, codes[idle]]),
                        np.concatenate([br.p, np.ones(idle.size)]))

    return run


@dataclass(frozen=True)
class Chain:
    """The reachable states of a fight (``codes``, in the order found), which are terminal
    (decided: never left), the start distribution and one round's transition matrix
    (``(n, n)`` CSR, row ``i``: where state ``i`` goes in a round; terminal rows empty)."""

    codes: np.ndarray       # (n,) int64
    terminal: np.ndarray    # (n,) bool
    start: np.ndarray       # (n,) float64
    matrix: object          # scipy.sparse.csr_matrix (n, n)

    @property
    def n_states(self) -> int:
        return int(self.codes.size)

    @property
    def n_transitions(self) -> int:
        return int(self.matrix.nnz)


def build(start_codes: np.ndarray, start_p: np.ndarray, step: Step,
          terminal: Callable[[np.ndarray], np.ndarray], *, max_states: int = MAX_STATES,
          max_transitions: int = MAX_TRANSITIONS) -> Chain:
    """The chain of the states reachable from the start distribution by rounds of
    ``step``; ``terminal(codes)`` says which states end the fight (they are not expanded).

    States are found breadth first, one round's frontier at a time, each frontier expanded by
    one call of ``step`` over all its states (vectorised); a code's id is found by a binary
    search in the sorted codes seen so far."""
    from scipy import sparse

    start_codes = np.asarray(start_codes, dtype=np.int64)
    codes, inverse = np.unique(start_codes, return_inverse=True)
    start_mass = np.bincount(inverse.ravel(), weights=np.asarray(start_p, dtype=np.float64),
                             minlength=codes.size)
    found = [codes]                     # codes by id, in blocks as found
    n = codes.size
    order = np.arange(n)                # ids of ``sorted_codes``
    sorted_codes = codes.copy()
    is_terminal = [np.asarray(terminal(codes), dtype=bool)]
    frontier = np.flatnonzero(~is_terminal[0])
    rows, cols, probs = [], [], []
    transitions = 0
    while frontier.size:
        all_codes = found[0] if len(found) == 1 else np.concatenate(found)
        found = [all_codes]
        br = step(all_codes[frontier])
        transitions += len(br)
        if transitions > max_transitions:
            raise ChainTooLarge(f"more than {max_transitions:,} transitions (the exact "
                                f"engine's limit); found {n:,} states so far")
        pos = np.searchsorted(sorted_codes, br.dst)
        pos_c = np.minimum(pos, sorted_codes.size - 1)
        known = sorted_codes[pos_c] == br.dst
        ids = np.empty(br.dst.size, dtype=np.int64)
        ids[known] = order[pos_c[known]]
        new_codes, new_inverse = np.unique(br.dst[~known], return_inverse=True)
        ids[~known] = n + new_inverse.ravel()
        rows.append(frontier[br.src])
        cols.append(ids)
        probs.append(br.p)
        if new_codes.size:
            if n + new_codes.size > max_states:
                raise ChainTooLarge(f"more than {max_states:,} reachable states (the exact "
                                    "engine's limit)")
            new_ids = n + np.arange(new_codes.size)
            found.append(new_codes)
            new_terminal = np.asarray(terminal(new_codes), dtype=bool)
            is_terminal.append(new_terminal)
            merged = np.concatenate([sorted_codes, new_codes])
            by = np.argsort(merged, kind="stable")
            sorted_codes, order = merged[by], np.concatenate([order, new_ids])[by]
            frontier = new_ids[~new_terminal]
            n += new_codes.size
        else:
            frontier = np.zeros(0, dtype=np.int64)
    all_codes = np.concatenate(found)
    term = np.concatenate(is_terminal)
    start = np.zeros(n)
    start[: start_mass.size] = start_mass
    if rows:
        matrix = sparse.csr_matrix((np.concatenate(probs),
                                    (np.concatenate(rows), np.concatenate(cols))),
                                   shape=(n, n))
        matrix.sum_duplicates()
    else:
        matrix = sparse.csr_matrix((n, n))
    return Chain(all_codes, term, start, matrix)


@dataclass(frozen=True)
class Solution:
    """The exact course of a chain over ``max_rounds`` rounds.

    ``absorbed[i]``: the probability that the fight ends in terminal state ``i`` (0 for the
    others); ``by_round[r]``: the probability the fight is decided in round ``r`` (r = 1 ..
    max_rounds; entry 0 is 0); ``open_end[i]``: the probability of being in (non-terminal)
    state ``i`` when time runs out (a draw by time)."""

    absorbed: np.ndarray
    by_round: np.ndarray
    open_end: np.ndarray
    rounds_played: int        # rounds stepped before no open mass was left (<= max_rounds)


# Open mass below this is taken as none left (the rounds after it would add less than this
# to any probability; far below a float's resolution of the results shown).
NEGLIGIBLE = 1e-300


def solve(chain: Chain, max_rounds: int) -> Solution:
    """Step the start distribution through ``max_rounds`` rounds of the chain."""
    transient = np.flatnonzero(~chain.terminal)
    ending = np.flatnonzero(chain.terminal)
    m = chain.matrix
    stay = m[transient][:, transient].T.tocsr()      # v_next = stay @ v
    leave = m[transient][:, ending].T.tocsr()
    v = chain.start[transient].copy()
    absorbed = np.zeros(chain.n_states)
    gone = chain.start[ending].copy()   # a start already decided (no round played)
    absorbed[ending] += gone
    by_round = np.zeros(max_rounds + 1)
    played = 0
    for r in range(1, max_rounds + 1):
        if not v.size or v.sum() <= NEGLIGIBLE:
            break
        ended = leave @ v
        v = stay @ v
        absorbed[ending] += ended
        by_round[r] = ended.sum()
        played = r
    open_end = np.zeros(chain.n_states)
    open_end[transient] = v
    return Solution(absorbed, by_round, open_end, played)
