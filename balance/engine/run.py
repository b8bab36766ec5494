"""Run many trials of one fight in fixed-size blocks, each with its own random stream.

Trials are cut into blocks of ``BLOCK_TRIALS``; block ``b`` of a run (or of sweep cell
``cell``) draws from ``PCG64(SeedSequence(seed, spawn_key=(*cell, b)))``. So the numbers
depend only on the seed, the cell and the trial count, never on how many blocks run at once
or in which order, and all counts are integers summed in block order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from balance.engine import breakdown
from balance.engine.loop import BlockOutcome, has_aftermath, simulate_blocks
from balance.engine.status import DRAW, STANDING, STATUS_NAMES

BLOCK_TRIALS = 65_536
# Consecutive blocks of a fight the rule system can stack are played together up to this many
# trials (balance.engine.streams: the same numbers; the last rounds' fixed cost is shared).
STACK_TRIALS = 1_048_576


def block_rng(seed: int, block: int, cell: tuple[int, ...] = ()) -> np.random.Generator:
    """The random stream of one block of one cell of a run seeded with ``seed``."""
    sequence = np.random.SeedSequence(seed, spawn_key=(*cell, block))
    return np.random.Generator(np.random.PCG64(sequence))


def block_sizes(trials: int, block_trials: int = BLOCK_TRIALS) -> list[int]:
    """Trials in each block: full blocks, then the remainder."""
    full, rest = divmod(trials, block_trials)
    return [block_trials] * full + ([rest] if rest else [])


@dataclass
class Tally:
    """Integer counts of a run's outcomes; adding two tallies merges their trials."""

    exact: ClassVar[bool] = False   # counts, not the exact engine's probabilities

    n_sides: int
    n_fighters: int
    max_rounds: int
    trials: int = 0
    wins: np.ndarray = field(default=None)        # (n_sides + 1,): each side, then draws
    rounds: np.ndarray = field(default=None)      # (max_rounds + 1,): trials decided in round r
    status: np.ndarray = field(default=None)      # (n_fighters, 5): final status counts
    standing: np.ndarray = field(default=None)    # (n_sides, n_fighters + 1): standing at end
    alive_after: np.ndarray | None = None         # (n_fighters,): alive after the aftermath
    first_down: np.ndarray = field(default=None)  # (n_fighters + 1,): went down first; nobody
    breakdown: np.ndarray | None = None           # (K, n_fighters, 2): sum, sum of squares

    def __post_init__(self) -> None:
        if self.wins is None:
            self.wins = np.zeros(self.n_sides + 1, dtype=np.int64)
            self.rounds = np.zeros(self.max_rounds + 1, dtype=np.int64)
            self.status = np.zeros((self.n_fighters, len(STATUS_NAMES)), dtype=np.int64)
            self.standing = np.zeros((self.n_sides, self.n_fighters + 1), dtype=np.int64)
        if self.first_down is None:
            self.first_down = np.zeros(self.n_fighters + 1, dtype=np.int64)

    def add_block(self, out: BlockOutcome, side_of: np.ndarray) -> None:
        n = out.winner.size
        self.trials += n
        # (DRAW is -1: counted after the sides; arithmetic, as np.where on a random mask is
        # slow)
        winner = out.winner
        self.wins[:self.n_sides] += _counts(winner, self.n_sides)
        self.wins[self.n_sides] += np.count_nonzero(winner == DRAW)
        self.rounds += np.bincount(out.rounds, minlength=self.max_rounds + 1)
        if out.first_down is not None:
            first = out.first_down
            self.first_down[:self.n_fighters] += _counts(first, self.n_fighters)
            self.first_down[self.n_fighters] += np.count_nonzero(first < 0)
        for f in range(self.n_fighters):
            self.status[f] += _counts(out.status[f], len(STATUS_NAMES))
        up = out.status == STANDING
        for s in range(self.n_sides):
            count = up[side_of == s].sum(axis=0, dtype=np.int16)
            self.standing[s] += _counts(count, self.n_fighters + 1)
        if out.tracks and breakdown.PREFIX + breakdown.METRICS[0] in out.tracks:
            block = breakdown.sums(out.tracks)
            self.breakdown = block if self.breakdown is None else self.breakdown + block

    def merge(self, other: Tally) -> Tally:
        """A new tally holding the trials of both."""
        out = Tally(self.n_sides, self.n_fighters, self.max_rounds)
        out.trials = self.trials + other.trials
        for name in ("wins", "rounds", "status", "standing", "first_down"):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        if self.breakdown is not None or other.breakdown is not None:
            out.breakdown = sum(b for b in (self.breakdown, other.breakdown) if b is not None)
        if self.alive_after is not None or other.alive_after is not None:
            zero = np.zeros(self.n_fighters, dtype=np.int64)
            out.alive_after = ((zero if self.alive_after is None else self.alive_after)
                               + (zero if other.alive_after is None else other.alive_after))
        return out

    def add_alive_after(self, alive: np.ndarray) -> None:
        """Count who is alive after the battle's aftermath, (n_fighters, n) bool."""
        if self.alive_after is None:
            self.alive_after = np.zeros(self.n_fighters, dtype=np.int64)
        self.alive_after += alive.sum(axis=1)


def _counts(values: np.ndarray, k: int) -> np.ndarray:
    """How many of ``values`` are 0, 1, ..., k - 1 (others are not counted): a comparison a
    value in the narrow dtype the values come in, cheaper for a few values than
    ``np.bincount`` (which first copies them to intp); ``np.bincount`` beyond 16."""
    if k > 16:
        inside = values[(values >= 0) & (values < k)]
        return np.bincount(inside.astype(np.intp), minlength=k)[:k]
    return np.array([np.count_nonzero(values == v) for v in range(k)], dtype=np.int64)


def run_fight(system, fight, trials: int, seed: int, *, cell: tuple[int, ...] = (),
              blocks: Iterable[int] | None = None,
              on_block: Callable[[int], None] | None = None,
              block_trials: int = BLOCK_TRIALS,
              observe: Callable[[int, BlockOutcome], None] | None = None,
              with_breakdown: bool = False) -> Tally:
    """Simulate ``trials`` fights with the vectorised engine, block by block.

    ``blocks`` restricts the run to some block indices (for splitting work); ``on_block`` is
    called with each finished block's trial count (for progress bars). ``block_trials``
    changes the block size (sweeps use smaller blocks so adaptive precision stops sooner).
    ``observe`` sees each block's index and per-trial outcomes (paired comparisons).
    ``with_breakdown`` counts what each fighter did (``balance.engine.breakdown``) into the
    tally's ``breakdown``.
    """
    sizes = block_sizes(trials, block_trials)
    tally = Tally(len(fight.side_names), len(fight.side_of), fight.max_rounds)
    after = has_aftermath(fight)
    order = list(range(len(sizes)) if blocks is None else blocks)
    most = STACK_TRIALS if system.stackable(fight) else 1
    for chunk in _stacks(order, sizes, most):
        generators = [block_rng(seed, b, cell) for b in chunk]
        outs = simulate_blocks(system, fight, [sizes[b] for b in chunk], generators,
                               breakdown=with_breakdown)
        for b, out, rng in zip(chunk, outs, generators, strict=True):
            tally.add_block(out, fight.side_of)
            if observe is not None:
                observe(b, out)
            if after:  # who survives the hours after the fight (e.g. Yags untended wounds)
                tally.add_alive_after(system.after_battle(fight, out, rng))
            if on_block is not None:
                on_block(sizes[b])
    return tally


def _stacks(order: list[int], sizes: list[int], most: int) -> list[list[int]]:
    """The blocks in ``order``, cut into runs of consecutive blocks played together
    (``balance.engine.streams``) of at most ``most`` trials (one block when ``most`` is 1)."""
    out: list[list[int]] = []
    for b in order:
        last = out[-1] if out else None
        if (last is not None and b == last[-1] + 1
                and sum(sizes[i] for i in last) + sizes[b] <= most):
            last.append(b)
        else:
            out.append([b])
    return out


def run_reference(system, fight, trials: int, seed: int, *, cell: tuple[int, ...] = (),
                  on_block: Callable[[int], None] | None = None) -> Tally:
    """The same run played trial by trial by the rule system's scalar reference."""
    tally = Tally(len(fight.side_names), len(fight.side_of), fight.max_rounds)
    side_of = fight.side_of
    for b, size in enumerate(block_sizes(trials)):
        rng = block_rng(seed, b, cell)
        results = [system.reference_trial(fight, rng) for _ in range(size)]
        out = BlockOutcome(
            winner=np.array([r.winner for r in results], dtype=np.int8),
            rounds=np.array([r.rounds for r in results], dtype=np.int16),
            status=np.array([r.status for r in results], dtype=np.int8).T.copy(),
        )
        tally.add_block(out, side_of)
        if on_block is not None:
            on_block(size)
    return tally
