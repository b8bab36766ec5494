"""Sweep cells: every combination the axes make, and each cell's identity and stream key.

A cell's random streams are keyed by *what it is* (the swept paths and values), not by where
it falls in the sweep: ``block_rng(seed, block, cell=stream)``. So a cell's numbers do not
depend on the executor, the worker count, the order of the cells or which other cells the
sweep holds; adding a value to an axis leaves every existing cell's numbers unchanged.

With common random numbers, the key leaves out the shared axes, so cells that differ only in
those axes draw the very same dice and their differences are measured with far less noise.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass
from typing import Any

from balance.sweep.paths import FieldPath, show

_DOMAIN = b"balance-cell/1\0"


@dataclass(frozen=True)
class Axis:
    """A resolved axis: its column name, the fields it sets, its values and their labels."""

    name: str
    paths: tuple[FieldPath, ...]
    values: tuple[Any, ...]
    labels: tuple[Any, ...]
    kind: str                   # grid | zip | round_robin
    factor: int
    source: tuple               # where its values sit in the sweep file (for messages)


@dataclass(frozen=True)
class Cell:
    """One point of a sweep: which value of each axis, its id and its stream key."""

    index: int                          # position in expansion order (for display only)
    picks: tuple[int, ...]              # value index per axis
    values: dict[str, Any]              # axis name -> label
    id: str                             # 16 hex digits of the cell's identity
    stream: tuple[int, int]             # spawn-key prefix of its random streams

    @property
    def stream_hex(self) -> str:
        return f"{self.stream[0]:08x}{self.stream[1]:08x}"

    def describe(self) -> str:
        """``knight.weapon=spear, armour=plate`` (or ``base`` for a sweep without axes)."""
        return ", ".join(f"{k}={v}" for k, v in self.values.items()) or "base"


def expand(axes: tuple[Axis, ...], *, crn: tuple[str, ...] = (),
           mirror: bool = True) -> list[Cell]:
    """Every cell: grid axes and zip groups crossed, round-robin pairs of their options.

    ``crn`` names the axes whose values are left out of the stream key; ``mirror=False``
    drops round-robin cells of an option against itself.
    """
    factors: dict[int, list[Axis]] = {}
    for axis in axes:
        factors.setdefault(axis.factor, []).append(axis)
    position = {id(a): i for i, a in enumerate(axes)}
    choices: list[list[dict[int, int]]] = []
    for group in factors.values():
        n = len(group[0].values)
        idx = [position[id(a)] for a in group]
        if group[0].kind == "round_robin":
            choices.append([{idx[0]: a, idx[1]: b} for a in range(n) for b in range(n)
                            if mirror or a != b])
        else:
            choices.append([dict.fromkeys(idx, k) for k in range(n)])
    cells = []
    for i, combo in enumerate(itertools.product(*choices)):
        picks_map: dict[int, int] = {}
        for part in combo:
            picks_map.update(part)
        picks = tuple(picks_map[j] for j in range(len(axes)))
        values = {a.name: a.labels[k] for a, k in zip(axes, picks, strict=True)}
        ident = identity(axes, picks)
        shared = identity(axes, picks, leave_out=crn)
        cells.append(Cell(i, picks, values, _digest(ident).hex(), _key(_digest(shared))))
    return cells


def identity(axes: tuple[Axis, ...], picks: tuple[int, ...],
             leave_out: tuple[str, ...] = ()) -> str:
    """Canonical text of a cell's swept fields and values (sorted by path)."""
    pairs = sorted((show(p), a.values[k]) for a, k in zip(axes, picks, strict=True)
                   if a.name not in leave_out for p in a.paths)
    return json.dumps(pairs, sort_keys=True, separators=(",", ":"), default=str)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(_DOMAIN + text.encode(), digest_size=8).digest()


def _key(digest: bytes) -> tuple[int, int]:
    return (int.from_bytes(digest[:4], "big"), int.from_bytes(digest[4:], "big"))
