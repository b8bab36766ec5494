"""The table fields ``balance autobalance`` varies: ``--vary`` paths checked against the rule
system's table models, their start values (the scenario's patch, else the shipped row), whether
they hold integers, and their search bounds (``--bounds``, within the field's own limits)."""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from balance.analysis.racing import Field
from balance.analysis.subject import _dice_field
from balance.dice import ladder
from balance.errors import OptionError
from balance.sweep.paths import PathError, parse_path, resolve_path
from balance.sweep.rows import own_row


def varied_fields(plan: Any, texts: Sequence[str],
                  bounds: Mapping[str, tuple[float, float]]) -> list[Field]:
    """The ``--vary`` paths checked against the tables: numeric fields, start values, bounds."""
    from balance.io.tables import shipped_rows
    from balance.models import ROW_MODELS, SCENARIO_MODELS

    if not texts:
        raise OptionError("--vary: name at least one table field, e.g. "
                          "tables.weapons.spear.damage")
    rows = shipped_rows(plan.ruleset)
    fields = []
    for text in texts:
        try:
            parts = parse_path(text)
            part = None
            if len(parts) >= 5 and str(parts[-1]) in ladder.PARTS and (
                    parts[0] == "sides" or len(parts) == 5):
                parts, part = parts[:-1], str(parts[-1])    # a dice field's ladder
            # a path through a fighter (sides.0.members.0.armour.helm.protection) becomes
            # the field of that fighter's own copy of the row (balance.sweep.rows)
            parts = own_row(parts, plan.data, plan.ruleset) or parts
            if parts[0] != "tables" or len(parts) != 4:
                hint = f" (did you mean tables.{text}?)" if parts[0] in rows else ""
                raise PathError(f"{text}: expected a table field, tables.<table>.<row>."
                                f"<field> (e.g. tables.weapons.spear.damage), or one through "
                                f"a fighter (sides.0.members.0.weapon.damage){hint}")
            parts = resolve_path(parts, SCENARIO_MODELS[plan.ruleset], plan.data,
                                 {t: [*r, *((plan.data.get("tables") or {}).get(t) or {})]
                                  for t, r in rows.items()})
        except PathError as err:
            raise OptionError(f"--vary: {err}") from None
        _worn_everywhere(plan, text, parts)
        _, table, row, name = parts
        info = ROW_MODELS[plan.ruleset][table].model_fields[name]
        patch = ((plan.data.get("tables") or {}).get(table) or {}).get(row)
        start = patch.get(name) if isinstance(patch, dict) else None
        if start is None:
            start = rows.get(table, {}).get(row, {}).get(name, info.default)
        dice = None
        if isinstance(start, str) and _dice_field(info):
            dice, part = start, part or "modifier"
            try:
                start = ladder.position(dice, part)
            except ladder.LadderError as err:
                raise OptionError(f"--vary {text}: {err}") from None
            integer, lo, hi = True, (0 if part == "die" else -math.inf), \
                (len(ladder.DIE_LADDER) - 1 if part == "die" else math.inf)
        elif part is not None:
            raise OptionError(f"--vary {text}: .{part} steps a dice field, and "
                              f"{table}.{row}.{name} holds {start!r}")
        else:
            integer, lo, hi = _numeric(info.annotation, info.metadata, f"--vary {text}")
        if not isinstance(start, int | float) or isinstance(start, bool):
            raise OptionError(f"--vary {text}: the row has no number here to start from; set "
                              "one in the scenario's tables: first")
        low, high = bounds.get(text) or _default_bounds(start, integer)
        if low > high:
            raise OptionError(f"--bounds {text}: {low:g} is above {high:g}")
        low, high = max(low, lo), min(high, hi)
        if low > high:
            raise OptionError(f"--bounds {text}: outside the field's range {lo:g} to {hi:g}")
        if integer and (low != int(low) or high != int(high)):
            raise OptionError(f"--bounds {text}: the field holds whole numbers; give whole "
                              f"bounds, not {low:g}:{high:g}")
        fields.append(Field(text, parts, float(start), float(low), float(high), integer,
                            part if dice is not None else None, dice))
    unknown = sorted(set(bounds) - {f.path for f in fields})
    if unknown:
        raise OptionError(f"--bounds: {', '.join(unknown)} is not one of the --vary fields")
    seen = [f.parts for f in fields]
    if len(set(seen)) < len(seen):
        raise OptionError("--vary: a field is named twice (a dice field is searched along "
                          "one ladder at a time: .modifier or .die)")
    return fields


def _worn_everywhere(plan: Any, text: str, parts: tuple) -> None:
    """A fighter's own copy of a row must be in use in every cell: a round robin that
    changes the very slot (the fighter's weapon) would leave the copy unused."""
    from balance.io.scenario import load_scenario
    from balance.sweep.rows import owner_label, reach_over

    if owner_label(str(parts[2]))[1] is None:
        return
    found = reach_over([load_scenario(plan.cell_data(c)) for c in plan.cells],
                       str(parts[1]), str(parts[2]))
    if found.reached < found.cells:
        raise OptionError(f"--vary {text}: the sweep changes what this fighter uses there, so "
                          f"its own copy of the row is used in {found.reached} of "
                          f"{found.cells} cells; vary the shared row "
                          f"(tables.{parts[1]}.{owner_label(str(parts[2]))[0]}.{parts[3]})")


def reach_of(plan: Any, fields: Sequence[Field]) -> tuple[dict[str, Any], ...]:
    """Who each varied field's change reaches over the round robin's cells."""
    from balance.io.scenario import load_scenario
    from balance.sweep.plan import _path_name
    from balance.sweep.rows import reach_over, reach_record, swept_slots

    cells = [load_scenario(plan.cell_data(c)) for c in plan.cells]
    swept = swept_slots([p for a in plan.axes for p in a.paths])
    return tuple(reach_record(reach_over(cells, f.parts[1], f.parts[2], swept), f.parts,
                              _path_name(f.parts, plan.data), plan.data) for f in fields)


def _numeric(annotation: Any, metadata: list[Any], where: str) -> tuple[bool, float, float]:
    """Whether a row field is an integer (else a float), and its allowed range."""
    lo, hi = -math.inf, math.inf
    tp = annotation
    metadata = list(metadata)
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            args = typing.get_args(tp)
            tp = args[0]
            for extra in args[1:]:
                metadata += list(getattr(extra, "metadata", [extra]))
        elif origin in (typing.Union, types.UnionType):
            numbers = [a for a in typing.get_args(tp) if _base(a) in (int, float)]
            if not numbers:
                break
            tp = numbers[0]
        else:
            break
    if tp not in (int, float):
        raise OptionError(f"{where}: not a number field (autobalance varies numbers and "
                          "dice fields; names are not searched)")
    for m in metadata:
        if getattr(m, "ge", None) is not None:
            lo = max(lo, m.ge)
        if getattr(m, "gt", None) is not None:
            lo = max(lo, m.gt + (1 if tp is int else 1e-6))
        if getattr(m, "le", None) is not None:
            hi = min(hi, m.le)
        if getattr(m, "lt", None) is not None:
            hi = min(hi, m.lt - (1 if tp is int else 1e-6))
    return tp is int, lo, hi


def _base(tp: Any) -> Any:
    return typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp


def _default_bounds(start: float, integer: bool) -> tuple[float, float]:
    """Half the value either side, at least 2 (integers) or 1 (numbers with a fraction)."""
    half = max(2, math.ceil(abs(start) / 2)) if integer else max(1.0, abs(start) / 2)
    return start - half, start + half
