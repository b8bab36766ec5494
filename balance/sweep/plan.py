"""A sweep file in, a checked plan out: the base scenario, resolved axes, and every cell
validated by :func:`~balance.io.scenario.load_scenario` before anything runs.

Every problem of the file is raised at once in one :class:`~balance.errors.ScenarioError`:
problems of the base scenario with ``line:column`` as ``balance validate`` gives them, a bad
path with the closest valid keys, and a bad value with the axis value that caused it.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from balance.errors import OptionError, Problem, ScenarioError
from balance.io.scenario import (
    DICT_SOURCE,
    LoadedScenario,
    load_parsed,
    load_scenario,
    read_text,
)
from balance.io.tables import shipped_rows
from balance.io.yamlfile import PathIndex, read_yaml
from balance.models import SCENARIO_MODELS
from balance.sweep.baseline import resolve_baseline
from balance.sweep.cells import Axis, Cell, expand
from balance.sweep.paths import FieldPath, PathError, assign, show
from balance.sweep.rows import resolve_through
from balance.sweep.spec import AxisSpec, SweepSpec, parse_sweep

RESERVED = {"cell", "stream", "trials", "seed", "blocks", "rounds_mean", "rounds_p50",
            "rounds_p95", "precision_met", "paired", "baseline"}
RESERVED_PREFIXES = ("p_", "lo_", "hi_", "n_", "dead_", "fallen_", "alive_after_", "delta_")


@dataclass(frozen=True)
class Plan:
    """A checked sweep: the base scenario, the axes, the cells and each cell's scenario."""

    name: str
    ruleset: str
    base: LoadedScenario
    data: dict[str, Any]                 # the base scenario as plain data (no sweep block)
    axes: tuple[Axis, ...]
    cells: tuple[Cell, ...]
    scenarios: tuple[LoadedScenario, ...]
    crn: tuple[str, ...]                 # axes that share random streams
    mirror: bool
    text: str                            # the file's text (JSON for a mapping or new sweep)
    path: str | None
    baseline: Cell | None = None         # the cell deltas are measured from
    index: PathIndex = dataclasses.field(default_factory=PathIndex, repr=False, compare=False)
    sets: tuple[Any, ...] = ()           # --set overrides applied to the base scenario

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.base.model.sides)

    @property
    def round_robin(self) -> tuple[str, str] | None:
        rr = [a.name for a in self.axes if a.kind == "round_robin"]
        return (rr[0], rr[1]) if rr else None

    def compile(self) -> dict[str, Any]:
        """Every cell's compiled fight, by cell id.

        Some problems show only once the fighters are put together (a weapon too heavy for its
        wielder): they are raised like the loader's, all at once, each blamed on the axis
        value that made it, with the file's line and column, before anything runs.
        """
        from balance import rules

        system = rules.get(self.ruleset)
        fights: dict[str, Any] = {}
        problems: dict[tuple, list] = {}
        for cell, sc in zip(self.cells, self.scenarios, strict=True):
            try:
                fights[cell.id] = system.compile(sc.model, sc.tables)
            except ScenarioError as err:
                _collect(problems, err.problems, self.axes, cell)
        if problems:
            raise ScenarioError(_located(problems, self.index, self.path or DICT_SOURCE))
        return fights

    def reach(self) -> list[dict[str, Any]]:
        """For each swept table field: which fighters its change reaches over the cells, and
        whether that is ambiguous (one row several fighters use); see
        :mod:`balance.sweep.rows`."""
        from balance.sweep.rows import reach_over, reach_record, swept_slots

        out = []
        swept = swept_slots([p for a in self.axes for p in a.paths])
        for axis in self.axes:
            for path in axis.paths:
                if path[0] == "tables" and len(path) >= 4:
                    found = reach_over(list(self.scenarios), str(path[1]), str(path[2]),
                                       swept)
                    label = _path_name(path, self.data)
                    out.append({"axis": axis.name,
                                **reach_record(found, path, label, self.data)})
        return out

    def cell_data(self, cell: Cell) -> dict[str, Any]:
        """The plain scenario data of one cell (the base with the cell's values set)."""
        data = copy.deepcopy(self.data)
        for axis, k in zip(self.axes, cell.picks, strict=True):
            for path in axis.paths:
                assign(data, path, axis.values[k])
        return data


def load_plan(source: str | os.PathLike[str] | Mapping[str, Any], *,
              sweep: Mapping[str, Any] | None = None,
              crn: bool | list[str] | None = None, baseline: Any = None,
              sets: Any = ()) -> Plan:
    """Read a scenario with a ``sweep:`` block (a file path or a mapping) and check it all.

    ``sweep`` replaces the file's block (for notebooks); ``crn`` overrides its ``crn:`` and
    ``baseline`` its ``baseline:``; ``sets`` (:class:`~balance.sweep.overrides.Override`s,
    ``--set``) change fields of the base scenario first (a swept field cannot also be set).
    A scenario without a sweep block is a plan of one cell.
    """
    if isinstance(source, Mapping):
        # a copy: an axis through a fighter writes the fighter's own row into the data
        data, index, label, text, path = (copy.deepcopy(dict(source)), PathIndex(),
                                          DICT_SOURCE, None, None)
    else:
        path = label = os.fsdecode(source)
        text = read_text(path)
        data, index = read_yaml(text, label)
    if sweep is not None:
        block, index_block = dict(sweep), PathIndex()
    else:
        block, index_block = data.get("sweep"), index
    base_data = {k: v for k, v in data.items() if k != "sweep"}
    base = _load_base(base_data, text, label, index)
    resolved_sets: list = []
    if sets:                     # the file as written is good; now the command line's changes
        from balance.sweep.overrides import apply_sets, relocate

        base_data, resolved_sets = apply_sets(base_data, sets)
        try:
            base = _load_base(base_data, text, label, index)
        except ScenarioError as err:
            raise relocate(err, resolved_sets) from None
    spec = SweepSpec(())
    if block is not None:
        spec, problems = parse_sweep(block, label if sweep is None else "<sweep>", index_block)
        if spec is None:
            raise ScenarioError(problems)
    if crn is not None:
        spec = dataclasses.replace(spec, crn=tuple(crn) if isinstance(crn, list) else crn)
    before = copy.deepcopy(base_data)
    axes = _resolve(spec, base, base_data, label, index_block)
    if base_data != before:      # an axis through a fighter copied a row for it
        base = _load_base(base_data, text, label, index)
    for o, set_path in resolved_sets:
        swept = next((a.name for a in axes for p in a.paths if p == set_path), None)
        if swept is not None:
            raise OptionError(f"--set {o.text}: {show(set_path)} is swept by the axis "
                              f"{swept!r}; each cell sets it, so --set would change nothing")
    crn_axes = _crn_axes(spec.crn, axes, label, index_block)
    cells = expand(axes, crn=crn_axes, mirror=spec.mirror)
    scenarios = _check_cells(axes, cells, base_data, base, label, index_block)
    base_cell = None
    if baseline is not None or spec.baseline is not None:
        base_cell, message = resolve_baseline(spec.baseline if baseline is None else baseline,
                                              axes, cells)
        if base_cell is None:
            if baseline is not None:
                raise OptionError(f"--{message}")
            raise ScenarioError([_problem(index_block, message, ("sweep", "baseline"),
                                          label)])
    if text is None or sweep is not None:   # the exact inputs, for the manifest and its hash
        whole = {**base_data, **({"sweep": block} if block is not None else {})}
        text = json.dumps(whole, indent=2, default=str) + "\n"
    if sets:                     # the file as written, and what the command line changed
        from balance.sweep.overrides import as_comment

        text = text + ("" if text.endswith("\n") else "\n") + as_comment(sets, "balance")
    return Plan(base.model.name, base.ruleset, base, base_data, axes, tuple(cells),
                tuple(scenarios), crn_axes, spec.mirror, text, path, base_cell, index_block,
                tuple(sets))


def _load_base(data: dict[str, Any], text: str | None, label: str,
               index: PathIndex) -> LoadedScenario:
    """The scenario without its sweep block; a file's problems keep their line numbers."""
    if text is None:
        return load_scenario(data)
    return load_parsed(data, index, label, text, label)


def _resolve(spec: SweepSpec, base: LoadedScenario, data: dict[str, Any], label: str,
             index: PathIndex) -> tuple[Axis, ...]:
    """Each axis's paths checked against the scenario model, and its column name."""
    model = SCENARIO_MODELS[base.ruleset]
    rows = {table: list(r) for table, r in shipped_rows(base.ruleset).items()}
    problems: list[Problem] = []
    resolved: list[tuple[AxisSpec, tuple[FieldPath, ...]]] = []
    owner: dict[FieldPath, str] = {}
    for a in spec.axes:
        paths = []
        for p in a.paths:
            try:        # a path through a fighter gives it its own copy of the row (in data)
                paths.append(resolve_through(p, model, data, base.ruleset, rows))
            except PathError as err:
                at = a.source[:-1] if a.source[-1] == "values" else a.source
                problems.append(_problem(index, str(err), at, label, at_key=True))
        for p in paths:
            if p in owner:
                problems.append(_problem(index, f"{show(p)} is already swept by another axis;"
                                         " zip them or give one axis both paths", a.source,
                                         label))
            owner[p] = a.name or show(p)
        resolved.append((a, tuple(paths)))
    if problems:
        raise ScenarioError(problems)
    names = [a.name or _default_name(paths, data) for a, paths in resolved]
    for i, (a, paths) in enumerate(resolved):     # a fighter's own row: named by the fighter
        if a.name is None and len(a.paths) == 1 and paths and paths[0][0] == "tables" \
                and a.paths[0][0] == "sides":
            names[i] = _path_name(paths[0], data)
    for i, (a, paths) in enumerate(resolved):
        if a.name is None and names.count(names[i]) > 1:
            names[i] = "+".join(show(p) for p in paths)
    for name, (a, _) in zip(names, resolved, strict=True):
        if name in RESERVED or name.startswith(RESERVED_PREFIXES) or names.count(name) > 1:
            problems.append(_problem(index, f"axis name {name!r} is taken (by another axis or "
                                     "a result column); give the axis another name",
                                     a.source, label))
    if problems:
        raise ScenarioError(problems)
    return tuple(Axis(name, paths, a.values, a.labels, a.kind, a.factor, a.source)
                 for name, (a, paths) in zip(names, resolved, strict=True))


def _crn_axes(crn: bool | tuple[str, ...], axes: tuple[Axis, ...], label: str,
              index: PathIndex) -> tuple[str, ...]:
    names = [a.name for a in axes]
    if crn is True:
        return tuple(names)
    if crn is False:
        return ()
    unknown = [n for n in crn if n not in names]
    if unknown:
        raise ScenarioError([_problem(
            index, f"crn: {', '.join(map(repr, unknown))} is not an axis (axes: "
            f"{', '.join(names)})", ("sweep", "crn"), label)])
    return tuple(crn)


def _check_cells(axes: tuple[Axis, ...], cells: list[Cell], data: dict[str, Any],
                 base: LoadedScenario, label: str, index: PathIndex) -> list[LoadedScenario]:
    """Every cell's scenario validated; each problem blamed on the axis value that made it."""
    problems: dict[tuple, list] = {}
    loaded: list[LoadedScenario] = []
    sides = tuple(s.name for s in base.model.sides)
    for cell in cells:
        cell_data = copy.deepcopy(data)
        for axis, k in zip(axes, cell.picks, strict=True):
            for p in axis.paths:
                assign(cell_data, p, axis.values[k])
        try:
            sc = load_scenario(cell_data)
        except ScenarioError as err:
            _collect(problems, err.problems, axes, cell)
            continue
        if tuple(s.name for s in sc.model.sides) != sides:
            message = (f"the sides differ from the base scenario's ({', '.join(sides)}); every "
                       "cell needs the same side names")
            problems.setdefault(("sides",), [message, ("sweep",), []])[2].append(cell)
            continue
        loaded.append(sc)
    if problems:
        raise ScenarioError(_located(problems, index, label))
    return loaded


def _collect(problems: dict[tuple, list], found: list[Problem], axes: tuple[Axis, ...],
             cell: Cell) -> None:
    """Group a cell's problems by the axis value that made them (one message, many cells)."""
    for p in found:
        at = _blame(p.path, axes, cell)
        key = (at, p.path, p.message)
        message = f"{p.path}: {p.message}" if p.path else p.message
        problems.setdefault(key, [message, at or ("sweep",), []])[2].append(cell)


def _located(problems: dict[tuple, list], index: PathIndex, label: str) -> list[Problem]:
    """Each grouped problem placed at its axis value, naming one cell or how many."""
    out = []
    for message, at, bad in problems.values():
        where = (f"in cell {bad[0].describe()}" if len(bad) == 1 else
                 f"in {len(bad)} cells, e.g. {bad[0].describe()}")
        out.append(_problem(index, f"{message} ({where})", at, label))
    return out


def _problem(index: PathIndex, message: str, at: tuple, label: str, *,
             at_key: bool = False) -> Problem:
    """A problem placed at ``at`` in the sweep file; the message carries its own field path."""
    line, column = index.locate(at, at_key=at_key) or (None, None)
    return Problem(message, "", label, line, column)


def _blame(problem_path: str, axes: tuple[Axis, ...], cell: Cell) -> tuple | None:
    """The file position of the axis value that a cell's problem is about, if any."""
    for axis, k in zip(axes, cell.picks, strict=True):
        for p in axis.paths:
            shown = show(p)
            if problem_path.startswith(shown) or shown.startswith(problem_path or "\0"):
                return (*axis.source, k)
    return None


def _default_name(paths: tuple[FieldPath, ...], data: dict[str, Any]) -> str:
    """A readable column name from the paths: ``knight.weapon``, ``long_sword.damage``."""
    names = [_path_name(p, data) for p in paths]
    if len(set(names)) == 1:
        return names[0]
    tails = [n.split(".") for n in names]
    common: list[str] = []
    while all(len(t) > len(common) for t in tails) and \
            len({t[-1 - len(common)] for t in tails}) == 1:
        common.insert(0, tails[0][-1 - len(common)])
    return ".".join(common) if common else "+".join(names)


def _path_name(path: FieldPath, data: dict[str, Any]) -> str:
    head, rest = path[0], list(path[1:])
    if head == "tables" and len(path) >= 3:
        from balance.sweep.rows import owner_label

        row, owner = owner_label(str(path[2]))
        if owner is not None:        # a fighter's own copy: helm@knight -> knight.helm
            return ".".join([owner, row, *map(str, path[3:])])
        return ".".join(map(str, path[2:]))
    if head == "sides" and rest and isinstance(rest[0], int):
        side = data["sides"][rest[0]]
        words = [str(side.get("name", f"side{rest[0]}"))]
        rest = rest[1:]
        if len(rest) >= 2 and rest[0] == "members":
            members = side.get("members", [])
            if len(members) > 1:
                words.append(str(members[rest[1]].get("name") or f"member{rest[1]}"))
            rest = rest[2:]
        return ".".join(words + [str(r) for r in rest])
    if head == "rules" and rest:
        return ".".join(map(str, rest))
    return ".".join(map(str, path))
