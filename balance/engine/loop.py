"""The round loop every rule system shares: play rounds, decide finished fights, compact.

A rule system supplies ``start`` (the initial state of n trials) and ``play_round`` (one
round for every trial still running); this loop owns deciding who won, counting rounds,
draws by time, and removing decided trials from the arrays so later rounds only pay for
fights still open. Finished rows are scattered back through one index array (``rows``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from balance.engine import breakdown as counters
from balance.engine.places import first_true, kth_true
from balance.engine.prepared import prepared
from balance.engine.status import DRAW, STANDING
from balance.engine.streams import Streams, integers_at


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
# Group fights compact sooner: every place's action runs over every column, decided or not,
# so a decided trial carried costs more rounds of work than its share of a compaction
# (measured in one process, alternating: 5 v 5 1.04x, percentile two guards 1.08x, Ymlad
# party 1.05x, Yags bridge 1.01x at 0.9 against 2/3).
COMPACT_AT_GROUPS = 0.9


def has_aftermath(fight) -> bool:
    """Does the compiled fight carry an aftermath (``RuleSystem.after_battle``)? (A data
    attribute of the fight; a fight without one need not define it.)"""
    return getattr(fight, "aftermath", None) is not None


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
        out = final[name].ravel()
        for place in range(state.status.shape[0]):   # (flat indices: a 2-d scatter costs more)
            out[state.who[place, sel].astype(np.intp) * final["n"] + trials] = values[place, sel]


def simulate(system, fight, n: int, rng: np.random.Generator, *,
             breakdown: bool = False) -> BlockOutcome:
    """Play ``n`` independent fights of ``fight`` under ``system`` to a decision or time-out.

    A decided trial is recorded in the round it is decided and never again. It stays in the
    arrays (where, with at most one side standing, nothing recorded happens to it) until the
    decided rows are worth removing: compaction copies every state array, so it waits until
    a third of the rows are finished.
    """
    return simulate_blocks(system, fight, [n], [rng], breakdown=breakdown)[0]


def simulate_blocks(system, fight, sizes: list[int],
                    generators: list[np.random.Generator], *,
                    breakdown: bool = False) -> list[BlockOutcome]:
    """``simulate`` for consecutive blocks of ``sizes`` trials, block ``b`` drawing from
    ``generators[b]``, for a system whose ``stackable(fight)`` says so: the same outcomes as
    one block at a time, bit for bit. The blocks play their rounds side by side, each in its
    own arrays (small enough to stay in the processor's cache); once their open trials
    together are few (``MERGE_AT``, ``MERGE_EACH``), they go on in one set of arrays, each
    block keeping its own stream (``balance.engine.streams``), so that the last rounds' fixed
    cost (a few hundred numpy calls a round) is paid once. Each block's trials are compacted
    when its own would have been. ``breakdown`` keeps the per-fighter counters
    (``balance.engine.breakdown``) and records them with each trial."""
    n = sum(sizes)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp)
    out = _Outcomes(system, fight, n, breakdown)
    kernel_fight = prepared(system, fight)
    parts = [_Part(system.start(kernel_fight, size, g), g, offsets[b] + np.arange(size), [g],
                   np.array([0, size], dtype=np.intp))
             for b, (size, g) in enumerate(zip(sizes, generators, strict=True))]
    if breakdown:
        for part in parts:
            part.state.counts = counters.fresh(*part.state.status.shape)
    for round_no in range(1, fight.max_rounds + 1):
        for part in parts:
            if breakdown:   # a round each fighter starts standing, in a trial still open
                part.state.counts[counters.ROUNDS_STANDING] += (
                    (part.state.status == STANDING) & part.open_)
            system.play_round(kernel_fight, part.state, part.rng, round_no)
            out.decide(part, round_no)
        parts = [part for part in parts if part.rows.size]
        if not parts:
            break
        if len(parts) > 1 and (sum(part.rows.size for part in parts)
                               <= max(MERGE_AT, MERGE_EACH * len(parts))):
            parts = [_merged(parts)]
    for part in parts:
        if part.open_.any():
            still = np.flatnonzero(part.open_)
            _record(out.final, part.state, out.tracks, still, part.rows[still])
    return out.blocks(offsets)


# Stacked blocks go on in one set of arrays once they have MERGE_AT trials left between them,
# or MERGE_EACH a block on average if that is more (before that, each block's own arrays stay
# in the processor's cache and run faster than one large set; after, a round's fixed cost,
# ~150-200 us of a few hundred numpy calls, is paid once, not once a block). Measured for the
# Yags duel: MERGE_AT 16,384-65,536 alike at first; once its rounds cost fewer operations
# (steps D1-D6), 16 blocks merging at 262,144 ran 1.07-1.09x faster than at 65,536, but 4
# blocks merging at 262,144 (at once) 1.12x slower.
MERGE_AT = 65_536
MERGE_EACH = 16_384


@dataclass
class _Part:
    """One set of arrays: a block, or blocks merged (``starts``: where each begins)."""

    state: object
    rng: np.random.Generator | Streams
    rows: np.ndarray          # the (stacked) trial of each column
    generators: list
    starts: np.ndarray
    open_: np.ndarray = None  # columns not yet decided
    nobody_down: np.ndarray = None

    def __post_init__(self) -> None:
        self.open_ = np.ones(self.rows.size, dtype=bool)
        self.nobody_down = np.ones(self.rows.size, dtype=bool)


def _first_down(down: np.ndarray, rng, cols: np.ndarray) -> np.ndarray:
    """(n,) intp: the place credited with going down first in each of the trials (columns
    ``cols``) where the places ``down`` (c, n) are the first to be down, all in this round.
    The loop looks once a round, so **assumption**: several down in one round are credited
    one of them uniformly at random (drawn from the trial's own stream), never listing
    order; one draw per such trial (the bias of k = u mod t, u < 2^30, is below 2^-25)."""
    place = first_true(down)
    # (Counts in the places' own narrow dtype: ``np.count_nonzero`` on an axis sums in intp.)
    small = np.int8 if down.shape[0] < 128 else np.intp
    how_many = down.sum(axis=0, dtype=small)
    many = np.flatnonzero(how_many > 1)
    if many.size:
        some = down[:, many]
        k = integers_at(rng, cols[many], 0, 1 << 30, dtype=np.int32)
        place[many] = kth_true(some, k % how_many[many])
    return place


def _merged(parts: list[_Part]) -> _Part:
    """The parts (consecutive blocks, at the same round) as one set of arrays."""
    sizes = [int(size) for p in parts for size in np.diff(p.starts)]
    generators = [g for p in parts for g in p.generators]
    merged = _Part(parts[0].state.join([p.state for p in parts]),
                   Streams(generators, sizes), np.concatenate([p.rows for p in parts]),
                   generators, np.concatenate([[0], np.cumsum(sizes)]).astype(np.intp))
    merged.open_ = np.concatenate([p.open_ for p in parts])
    merged.nobody_down = np.concatenate([p.nobody_down for p in parts])
    return merged


class _Outcomes:
    """Each trial's winner, deciding round, first fighter down and final status and tracks,
    filled as rounds decide trials."""

    def __init__(self, system, fight, n: int, breakdown: bool = False):
        self.n_sides = len(fight.side_names)
        self.duel = len(fight.side_of) == 2 and self.n_sides == 2
        self.winner = np.full(n, DRAW, dtype=np.int8)
        self.rounds = np.full(n, fight.max_rounds, dtype=np.int16)
        self.first_down = np.full(n, -1, dtype=np.int8)
        self.final: dict = {"n": n}
        # Rule-specific tracks are only kept when something reads them (an aftermath), and
        # the breakdown's counters when the run asks for them.
        after = has_aftermath(fight)
        if breakdown:
            self.tracks = (lambda state: {**(system.tracks(state) if after else {}),
                                          **counters.as_tracks(state)})
        else:
            self.tracks = system.tracks if after else None

    def decide(self, part: _Part, round_no: int) -> None:
        """Record the trials of ``part`` decided this round (at most one side standing);
        compact its arrays when worth it (all gone when every trial is decided)."""
        state, rows, open_ = part.state, part.rows, part.open_
        standing = state.status == STANDING
        if self.duel:   # the first fall decides: the same bookkeeping, in fewer steps
            done = np.flatnonzero(open_ & ~(standing[0] & standing[1]))
            if not done.size:
                return
            idx = np.take(rows, done)
            # Both places' status, fighter and side on the decided trials, one gather each;
            # a place's value by arithmetic on the pair (place 0's, plus the difference
            # where it is place 1's).
            status, who = np.take(state.status, done, axis=1), np.take(state.who, done, axis=1)
            side = np.take(state.side, done, axis=1)
            up0, up1 = status == STANDING
            down = up0.view(np.int8)            # the place down (place 1 if place 0 stands)
            both = np.flatnonzero(~(up0 | up1))
            if both.size:       # both fell this round: one of them, at random
                down = down.copy()
                down[both] = integers_at(part.rng, done[both], 0, 2, dtype=np.int8)
            self.first_down[idx] = who[0] + (who[1] - who[0]) * down
            alone = up0 ^ up1
            self.winner[idx] = alone * (side[0] + (side[1] - side[0]) * up1) + ~alone * DRAW
            if self.tracks is None:   # (the status recorded from the gathered pair)
                self._record_pair(status, who, idx)
                self.rounds[idx] = round_no
                open_[done] = False
                self._compact(part, done)
                return
        else:
            c = standing.shape[0]
            small = np.int8 if c < 128 else np.int32
            n_up = standing.sum(axis=0, dtype=small)
            fell = np.flatnonzero(part.nobody_down & (n_up < c))
            if fell.size:   # (``np.take``, not fancy indexing: a gather on the last axis)
                place = _first_down(~np.take(standing, fell, axis=1), part.rng, fell)
                self.first_down[rows[fell]] = np.take(state.who, place * standing.shape[1]
                                                      + fell)
                part.nobody_down[fell] = False
            if self.n_sides == 2:
                # Two sides: side 1's standing fighters counted, side 0's are the rest (the
                # same decisions as ``sides_standing``, in fewer whole-array steps).
                n_one = (standing & (state.side == 1)).sum(axis=0, dtype=small)
                done = np.flatnonzero(open_ & ((n_one == 0) | (n_one == n_up)))
                if not done.size:
                    return
                idx = rows[done]
                one = n_up[done] > 0                  # one side standing, else nobody
                self.winner[idx] = one * (n_one[done] > 0) + ~one * DRAW
            else:
                alive = sides_standing(state, self.n_sides, standing)
                n_alive = alive[0].astype(np.int8)
                for side in alive[1:]:
                    n_alive += side
                done = np.flatnonzero(open_ & (n_alive <= 1))
                if not done.size:
                    return
                idx = rows[done]
                one = n_alive[done] == 1
                self.winner[idx] = one * first_true(alive[:, done]) + ~one * DRAW
        self.rounds[idx] = round_no
        _record(self.final, state, self.tracks, done, idx)
        open_[done] = False
        self._compact(part, done)

    def _record_pair(self, status: np.ndarray, who: np.ndarray, idx: np.ndarray) -> None:
        """``_record`` of a duel's status, from both places' (2, k) status and fighter on
        the decided trials ``idx``."""
        n = self.final["n"]
        if "status" not in self.final:
            self.final["status"] = np.zeros((2, n), dtype=status.dtype)
        out = self.final["status"].ravel()
        for place in range(2):
            out[who[place].astype(np.intp) * n + idx] = status[place]

    def _compact(self, part: _Part, done: np.ndarray) -> None:
        """Drop the decided rows of ``part`` when worth it (``_kept``)."""
        rows, state, open_ = part.rows, part.state, part.open_
        keep = _kept(open_, done, part.starts, COMPACT_AT if self.duel else COMPACT_AT_GROUPS)
        if keep is None:
            return
        part.rows, part.state, part.open_ = rows[keep], state.take(keep), open_[keep]
        part.nobody_down = part.nobody_down[keep]
        part.starts = np.searchsorted(keep, part.starts).astype(np.intp)
        if isinstance(part.rng, Streams):
            part.rng.keep(keep)

    def blocks(self, offsets: np.ndarray) -> list[BlockOutcome]:
        """The outcomes cut into the blocks starting at ``offsets``."""
        final = dict(self.final)
        del final["n"]
        status = final.pop("status")
        return [BlockOutcome(winner=self.winner[a:b], rounds=self.rounds[a:b],
                             status=status[:, a:b],
                             tracks={k: v[:, a:b] for k, v in final.items()},
                             first_down=self.first_down[a:b])
                for a, b in itertools.pairwise(offsets)]


def _kept(open_: np.ndarray, done: np.ndarray, starts: np.ndarray,
          at: float = COMPACT_AT) -> np.ndarray | None:
    """The rows to keep after this round's decisions (``done``), or None to keep all: each
    block (rows ``starts[b]:starts[b + 1]``) that decided a trial this round drops its
    decided rows once its open ones fall below ``at`` of its rows, all of them when
    none is open (its fights are over)."""
    if starts.size == 2:
        n_open = np.count_nonzero(open_)
        if n_open == 0:
            return np.zeros(0, dtype=np.intp)
        return np.flatnonzero(open_) if n_open < at * open_.size else None
    counted = np.concatenate([[0], np.cumsum(open_)])
    n_open = counted[starts[1:]] - counted[starts[:-1]]
    size = np.diff(starts)
    decided = np.bincount(np.searchsorted(starts, done, side="right") - 1,
                          minlength=size.size)
    compact = (decided > 0) & (n_open < at * size)
    if not compact.any():
        return None
    return np.flatnonzero(open_ | ~np.repeat(compact, size))
