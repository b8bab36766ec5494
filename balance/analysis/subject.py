"""The scenario a question is asked of: its data, its fields by path, and its variants.

Paths are the sweep's (``tables.weapons.rapier.damage``, ``sides.0.members.0.skills.fencing``)
and are checked the same way, against the ruleset's model, with the closest valid keys on a
typo. A variant is the scenario with some fields changed, validated exactly as a file is.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pydantic

from balance.dice import ladder
from balance.errors import OptionError, Problem, ScenarioError
from balance.io.scenario import LoadedScenario, load_scenario
from balance.io.tables import shipped_rows
from balance.models import ROW_MODELS, SCENARIO_MODELS
from balance.sweep.paths import FieldPath, PathError, assign, parse_path, show


@dataclass(frozen=True)
class Subject:
    """A checked scenario (without any ``sweep:`` block) and where it came from."""

    base: LoadedScenario
    data: dict[str, Any]
    label: str

    @classmethod
    def load(cls, source: str | os.PathLike | Mapping[str, Any] | Subject, *,
             sets: Any = ()) -> Subject:
        """Read and check a scenario file or mapping (a sweep block in it is left aside),
        with ``sets`` (``--set`` overrides) applied."""
        if isinstance(source, Subject):
            return source
        from balance.sweep.plan import load_plan

        plan = load_plan(source, sets=sets)
        return cls(plan.base, copy.deepcopy(plan.data), plan.path or "<dict>")

    @property
    def ruleset(self) -> str:
        return self.base.ruleset

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.base.model.sides)

    def side_index(self, side: str | None) -> int:
        """The index of ``side`` (default: the first side); a clean error naming the sides."""
        names = self.side_names
        if side is None:
            return 0
        if side not in names:
            from balance.errors import unknown_name

            raise OptionError(unknown_name("side", side, names))
        return names.index(side)

    def resolve(self, text: str, option: str = "--vary") -> FieldPath:
        """A path checked against the scenario's model, names of list entries as indices.

        A dice field (``tables.weapons.broadsword.damage``, ``1D8+1``) is stepped along a
        ladder (:mod:`balance.dice.ladder`): ``PATH.modifier`` (also the path alone) or
        ``PATH.die``; the ladder rides on the path as a last ``@modifier``/``@die`` segment.

        A path through a fighter (``sides.0.members.0.armour.helm.protection``) gives that
        fighter its own copy of the row (:mod:`balance.sweep.rows`): the subject's data gains
        the copy and its base is reloaded (the same numbers: the copy has every field), and
        the path returned is the copy's, ``tables.armour.helm@knight.protection``."""
        from balance.sweep.rows import resolve_through

        rows = {table: list(r) for table, r in shipped_rows(self.ruleset).items()}
        model = SCENARIO_MODELS[self.ruleset]
        try:
            parts = parse_path(text)
        except PathError as err:
            raise OptionError(f"{option}: {err}") from None
        before = copy.deepcopy(self.data)

        def through(p):
            found = resolve_through(p, model, self.data, self.ruleset, rows)
            if self.data != before:   # frozen for callers; the copy is part of the subject
                object.__setattr__(self, "base", load_scenario(self.data))
            return found

        try:
            path = through(parts)
        except PathError as err:
            real = None
            if len(parts) > 1 and parts[-1] in ladder.PARTS:
                try:
                    real = through(parts[:-1])
                except PathError:
                    real = None
            if real is None or not _dice(self.current(real)):
                raise OptionError(f"{option}: {err}") from None
            return (*real, f"@{parts[-1]}")
        return (*path, "@modifier") if _dice(self.current(path)) else path

    def reach(self, path: FieldPath) -> dict[str, Any] | None:
        """For a table field: which fighters changing it reaches, and whether that is
        ambiguous (a row several fighters use), as :func:`balance.sweep.rows.reach_record`
        gives it; None for any other field."""
        if len(path) < 4 or path[0] != "tables":
            return None
        from balance.sweep.rows import reach, reach_record

        real, _ = split_ladder(path)
        return reach_record(reach(self.base, str(real[1]), str(real[2])), real,
                            self.name_of(real), self.data)

    def name_of(self, path: FieldPath) -> str:
        """A short name for tables and charts, as sweeps name their axes:
        ``knight.skills.single_weapon``, ``long_sword.damage``, ``success_step``; a dice
        field names its ladder: ``broadsword.damage.modifier``, ``broadsword.damage.die``."""
        from balance.sweep.plan import _path_name

        real, part = split_ladder(path)
        return _path_name(real, self.data) + (f".{part}" if part else "")

    def spelled(self, path: FieldPath, value: Any) -> str | None:
        """The dice text at ladder position ``value`` of a dice field (None for others, or
        for a position off the ladder or between its steps)."""
        real, part = split_ladder(path)
        if part is None or not float(value).is_integer():
            return None
        try:
            return ladder.at(self.current(real), part, int(value))
        except ladder.LadderError:
            return None

    def current(self, path: FieldPath) -> Any:
        """The scenario's value at ``path``: as written, or the model's or table's default
        (for a dice field's ladder, the dice text itself)."""
        path, _ = split_ladder(path)
        node: Any = self.base.tables if path[0] == "tables" else self.base.model
        for seg in path[1:] if path[0] == "tables" else path:
            if isinstance(node, pydantic.BaseModel):
                node = getattr(node, str(seg), None)
            elif isinstance(node, Mapping):
                node = node.get(seg)
            elif isinstance(node, list | tuple) and isinstance(seg, int) and seg < len(node):
                node = node[seg]
            else:
                return None
        return node

    def numeric(self, path: FieldPath, option: str = "--vary") -> int | float:
        """The current value at ``path``, which must be a number (ints stay ints); for a dice
        field, its position on the ladder."""
        real, part = split_ladder(path)
        if part is not None:
            try:
                return ladder.position(self.current(real), part)
            except ladder.LadderError as err:
                raise OptionError(f"{option}: {show(real)}.{part}: {err}") from None
        value = self.current(path)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionError(f"{option}: {show(path)} is {value!r}, not a number; only "
                              "numeric fields can be varied by steps")
        return value

    def variant(self, changes: Mapping[FieldPath, Any]) -> LoadedScenario:
        """The scenario with ``changes`` set; :class:`ScenarioError` if a value is invalid."""
        if not changes:
            return self.base
        data = copy.deepcopy(self.data)
        for path, value in changes.items():
            real, part = split_ladder(path)
            if part is not None:
                try:
                    value = ladder.at(self.current(real), part, int(value))
                except ladder.LadderError as err:
                    raise ScenarioError([Problem(str(err), show(real))]) from None
            assign(data, real, value)
        return load_scenario(data)

    def row_paths(self, spec: str, fields: list[str] | None,
                  option: str = "--rows") -> list[FieldPath]:
        """``TABLE:ROW,ROW`` as the paths of each row's numeric fields (or of ``fields``)."""
        table, sep, names = spec.partition(":")
        models = ROW_MODELS[self.ruleset]
        if not sep or not names:
            raise OptionError(f"{option}: expected TABLE:ROW[,ROW...] such as "
                              f"weapons:long_sword, got {spec!r}")
        if table not in models:
            from balance.errors import unknown_name

            raise OptionError(f"{option}: " + unknown_name("table", table, models))
        row_model = models[table]
        numeric = [f for f, info in row_model.model_fields.items()
                   if info.annotation in (int, float) or _numeric(info)
                   or _dice_field(info)]
        chosen = fields or numeric
        for f in chosen:
            if f not in row_model.model_fields:
                from balance.errors import unknown_name

                raise OptionError("--fields: " + unknown_name(f"field of {table} rows", f,
                                                               row_model.model_fields))
        return [self.resolve(f"tables.{table}.{row}.{f}", option)
                for row in names.split(",") if row for f in chosen]


def split_ladder(path: FieldPath) -> tuple[FieldPath, str | None]:
    """A path without its ladder segment, and the ladder (``modifier``, ``die`` or None)."""
    if path and isinstance(path[-1], str) and path[-1].startswith("@"):
        return path[:-1], path[-1][1:]
    return path, None


def _dice(value: Any) -> bool:
    """Is a field's value a dice expression with at least one die (``1D8+1``, not a name)?"""
    if not isinstance(value, str):
        return False
    from balance.dice import Dice, Pool, parse
    from balance.errors import DiceExpressionError

    try:
        expr = parse(value)
    except DiceExpressionError:
        return False
    return any(isinstance(t, Dice | Pool) for _, t in expr.terms)


def _dice_field(info: Any) -> bool:
    """Does a table field hold a dice expression (marked :class:`DiceField` in its model,
    alone or as one arm of a union such as an armour's ``int | dice``)?"""
    import typing

    from balance.models.base import DiceField

    def marked(tp: Any) -> bool:
        if typing.get_origin(tp) is typing.Annotated:
            return any(isinstance(m, DiceField) for m in typing.get_args(tp)[1:]) or \
                marked(typing.get_args(tp)[0])
        return any(marked(a) for a in typing.get_args(tp))

    return any(isinstance(m, DiceField) for m in info.metadata) or marked(info.annotation)


def _numeric(info: Any) -> bool:
    """Is a pydantic field a number (``int`` or ``float``, possibly constrained)?"""
    import typing

    tp = info.annotation
    while typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    return isinstance(tp, type) and issubclass(tp, int | float) and not issubclass(tp, bool)

