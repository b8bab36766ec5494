"""The ``sweep:`` block of a scenario: named axes over field paths, as a grid, zipped, or a
round robin, plus which axes share random streams.

::

    sweep:
      grid:                                        # every combination
        tables.weapons.long_sword.damage: [6, 7, 8, 9]          # short form
        armour:                                                 # long form, named
          path: sides.1.members.0.armour
          values: [[], [mail_hauberk], [plate]]
          labels: [none, mail, plate]
      zip:                                         # advance together, one value each per cell
        sides.0.members.0.stance: [normal, aggressive]
        sides.1.members.0.stance: [normal, defensive]
      round_robin:                                 # every option against every other
        paths: [sides.0.members.0.weapon, sides.1.members.0.weapon]
        values: [long_sword, spear, mace]
      crn: true                                    # or a list of axis names
      baseline: {weapon: long_sword}               # or a cell index: deltas against it

Parsing only checks the block's shape; :mod:`balance.sweep.plan` resolves the paths against
the scenario model and validates every cell.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from balance.errors import Problem, a_or_an, closest
from balance.io.yamlfile import PathIndex
from balance.sweep.paths import FieldPath, PathError, parse_path

SECTIONS = ("grid", "zip", "round_robin", "crn", "baseline")
AXIS_KEYS = ("path", "paths", "values", "labels")
ROUND_ROBIN_KEYS = ("paths", "values", "labels", "names", "mirror")
MAX_CELLS = 100_000


@dataclass(frozen=True)
class AxisSpec:
    """One swept axis as written: its column name (None: named from the path), the paths it
    sets to the same value, its values and their labels, and where its values sit in the file."""

    name: str | None
    paths: tuple[FieldPath, ...]
    values: tuple[Any, ...]
    labels: tuple[Any, ...]
    kind: str                  # grid | zip | round_robin
    factor: int                # axes with the same factor advance together (zip)
    source: FieldPath          # file path of the values list: value k is at (*source, k)


@dataclass(frozen=True)
class SweepSpec:
    """A parsed ``sweep:`` block."""

    axes: tuple[AxisSpec, ...]
    crn: bool | tuple[str, ...] = False
    mirror: bool = True        # round robin: include each option against itself
    baseline: Any = None       # a cell index or {axis: value}: what deltas are measured from

    @property
    def round_robin(self) -> tuple[int, int] | None:
        """Indices of the two round-robin axes, if the sweep has a round robin."""
        rr = [i for i, a in enumerate(self.axes) if a.kind == "round_robin"]
        return (rr[0], rr[1]) if rr else None


def label_of(value: Any) -> Any:
    """A scalar that names a value in tables and figures: ``[mail_hauberk, helm]`` ->
    ``mail_hauberk+helm``, ``[]`` -> ``none``; numbers and text stay as they are."""
    if value is None:
        return "none"
    if isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return "+".join(str(label_of(v)) for v in value) if value else "none"
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def parse_sweep(block: Any, label: str, index: PathIndex,
                base: FieldPath = ("sweep",)) -> tuple[SweepSpec | None, list[Problem]]:
    """The sweep block at ``base`` in the file ``label``, and every problem found in it."""
    problems: list[Problem] = []

    def bad(message: str, at: FieldPath) -> None:
        problems.append(index.problem(message, at, label))

    if not isinstance(block, Mapping) or not block:
        bad("expected a mapping with grid:, zip: and/or round_robin: (see docs/sweeps.md)", base)
        return None, problems
    for key in block:
        if key not in SECTIONS:
            bad(_unknown_key(key, SECTIONS, "sweep section"), (*base, key))
    axes: list[AxisSpec] = []
    factor = 0
    grid = block.get("grid")
    if grid is not None:
        if not isinstance(grid, Mapping):
            bad("expected a mapping of field path (or axis name) to values", (*base, "grid"))
        else:
            for key, spec in grid.items():
                axis = _axis(key, spec, "grid", factor, (*base, "grid", key), bad)
                if axis is not None:
                    axes.append(axis)
                    factor += 1
    zipped = block.get("zip")
    if zipped is not None:
        groups = [zipped] if isinstance(zipped, Mapping) else zipped
        if not isinstance(groups, list) or not all(isinstance(g, Mapping) for g in groups):
            bad("expected a mapping of field paths to values (or a list of such mappings)",
                (*base, "zip"))
            groups = []
        for g, group in enumerate(groups):
            at = (*base, "zip") if isinstance(zipped, Mapping) else (*base, "zip", g)
            members = [a for key, spec in group.items()
                       if (a := _axis(key, spec, "zip", factor, (*at, key), bad, unique=False))
                       is not None]
            if len({len(a.values) for a in members}) > 1:
                sizes = ", ".join(f"{a.name or key}: {len(a.values)}"
                                  for a, key in zip(members, group, strict=False))
                bad(f"zipped axes advance together and need the same number of values ({sizes})",
                    at)
            elif members:
                # one axis may repeat a value; the zipped combination names the cell
                combos = [tuple(str(a.labels[k]) for a in members)
                          for k in range(len(members[0].values))]
                repeats = sorted({"/".join(c) for c in combos if combos.count(c) > 1})
                if repeats:
                    bad(f"zipped values repeat ({', '.join(repeats)}): each combination names "
                        "one cell", at)
            axes += members
            factor += 1
    if "round_robin" in block:
        axes += _round_robin(block["round_robin"], factor, (*base, "round_robin"), bad)
    if not axes and not problems:
        bad("the sweep has no axes: add grid:, zip: or round_robin:", base)
    crn = _crn(block.get("crn", False), (*base, "crn"), bad)
    mirror = block.get("round_robin", {}).get("mirror", True) \
        if isinstance(block.get("round_robin"), Mapping) else True
    if problems:
        return None, problems
    spec = SweepSpec(tuple(axes), crn, bool(mirror), block.get("baseline"))
    cells = 1
    for f in {a.factor: a for a in spec.axes}.values():
        cells *= len(f.values) ** (2 if f.kind == "round_robin" else 1)
    if cells > MAX_CELLS:
        bad(f"the sweep has {cells:,} cells; the limit is {MAX_CELLS:,} (split it)", base)
        return None, problems
    return spec, problems


def _axis(key: Any, spec: Any, kind: str, factor: int, at: FieldPath, bad,
          unique: bool = True) -> AxisSpec | None:
    """One axis from ``key: [values]`` (key is the path) or ``name: {path:, values:}``."""
    if isinstance(spec, list):
        paths_text, values, labels, name, source = [key], spec, None, None, at
    elif isinstance(spec, Mapping):
        for k in spec:
            if k not in AXIS_KEYS:
                bad(_unknown_key(k, AXIS_KEYS, "axis key"), (*at, k))
        if ("path" in spec) == ("paths" in spec):
            bad("an axis needs exactly one of path: or paths:", at)
            return None
        paths_text = [spec["path"]] if "path" in spec else spec["paths"]
        values, labels, name = spec.get("values"), spec.get("labels"), str(key)
        source = (*at, "values")
        if not isinstance(paths_text, list) or not paths_text:
            bad("paths: expected a list of field paths", (*at, "paths"))
            return None
    else:
        bad("expected a list of values, or a mapping with path: and values:", at)
        return None
    paths = _paths(paths_text, at, bad)
    values = _values(values, source, bad)
    if paths is None or values is None:
        return None
    labels = _labels(labels, values, at, bad, unique=unique)
    if labels is None:
        return None
    return AxisSpec(name, paths, tuple(values), tuple(labels), kind, factor, source)


def _round_robin(spec: Any, factor: int, at: FieldPath, bad) -> list[AxisSpec]:
    if not isinstance(spec, Mapping):
        bad("expected a mapping with paths: (two field paths) and values:", at)
        return []
    for k in spec:
        if k not in ROUND_ROBIN_KEYS:
            bad(_unknown_key(k, ROUND_ROBIN_KEYS, "round_robin key"), (*at, k))
    paths_text = spec.get("paths")
    if not isinstance(paths_text, list) or len(paths_text) != 2:
        bad("paths: expected two field paths, one per opponent (e.g. each side's weapon)",
            (*at, "paths"))
        return []
    if not isinstance(spec.get("mirror", True), bool):
        bad("mirror: expected true or false", (*at, "mirror"))
    names = spec.get("names", [None, None])
    if not isinstance(names, list) or len(names) != 2 or \
            not all(n is None or isinstance(n, str) for n in names):
        bad("names: expected two column names", (*at, "names"))
        return []
    values = _values(spec.get("values"), (*at, "values"), bad)
    paths = _paths(paths_text, at, bad)
    if values is None or paths is None:
        return []
    if len(values) < 2:
        bad("a round robin needs at least two options", (*at, "values"))
        return []
    labels = _labels(spec.get("labels"), values, at, bad)
    if labels is None:
        return []
    return [AxisSpec(names[i], (paths[i],), tuple(values), tuple(labels), "round_robin", factor,
                     (*at, "values")) for i in range(2)]


def _paths(texts: list[Any], at: FieldPath, bad) -> tuple[FieldPath, ...] | None:
    out = []
    for text in texts:
        try:
            out.append(parse_path(text))
        except PathError as err:
            bad(str(err), at)
            return None
    return tuple(out)


def _values(values: Any, at: FieldPath, bad) -> list[Any] | None:
    if not isinstance(values, list) or not values:
        bad("values: expected a non-empty list of values", at)
        return None
    return values


def _labels(labels: Any, values: list[Any], at: FieldPath, bad,
            unique: bool = True) -> list[Any] | None:
    if labels is None:
        labels = [label_of(v) for v in values]
        where = at
    else:
        where = (*at, "labels")
        if not isinstance(labels, list) or len(labels) != len(values) or \
                not all(isinstance(v, str | int | float) for v in labels):
            bad(f"labels: expected {len(values)} names or numbers, one per value", where)
            return None
    seen = [str(v) for v in labels]
    repeats = sorted({v for v in seen if seen.count(v) > 1})
    if repeats and unique:
        bad(f"values repeat ({', '.join(repeats)}): each value of an axis names one cell", where)
        return None
    return labels


def _crn(value: Any, at: FieldPath, bad) -> bool | tuple[str, ...]:
    if isinstance(value, bool):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    bad("crn: expected true, false or a list of axis names", at)
    return False


def _unknown_key(key: Any, valid: tuple[str, ...], kind: str) -> str:
    near = closest(str(key), valid)
    hint = f"did you mean {', '.join(map(repr, near))}?" if near else f"valid: {', '.join(valid)}"
    return f"{key!r} is not {a_or_an(kind)} ({hint})"
