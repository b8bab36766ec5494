"""The shipped tables (weapons, armour, ...) and a scenario's patches to them.

Tables ship as ``balance/data/<ruleset>/<table>.yaml``, a mapping of row name to row fields.
A scenario's ``tables:`` block changes fields of shipped rows or adds new rows; the result is
validated row by row so that a mistake names the scenario's own field and line.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import pydantic

from balance.errors import OptionError, Problem, ScenarioError, closest
from balance.io.problems import validate_model
from balance.io.yamlfile import Path, PathIndex, key_text, read_yaml
from balance.models import ROW_MODELS, TABLE_MODELS, unknown_ruleset


@dataclass(frozen=True)
class _Table:
    """One shipped table: raw rows as written (for merging) and validated rows."""

    raw: Mapping[str, Mapping[str, Any]]
    rows: Mapping[str, pydantic.BaseModel]


def shipped_rows(ruleset: str) -> dict[str, dict[str, dict[str, Any]]]:
    """Table name -> row name -> the row's fields as written in the data file (a fresh copy)."""
    return {name: copy.deepcopy(dict(table.raw)) for name, table in _shipped(ruleset).items()}


def shipped_tables(ruleset: str) -> pydantic.BaseModel:
    """The ruleset's tables exactly as shipped, validated (defaults filled in)."""
    return resolve_tables(ruleset, None, "<shipped>", PathIndex())


def resolve_tables(ruleset: str, patches: pydantic.BaseModel | None, source: str,
                   index: PathIndex) -> pydantic.BaseModel:
    """The shipped tables with a scenario's ``tables:`` patches applied, as the Tables model.

    A patch of a shipped row changes only the fields it sets; a new row must set every required
    field. Raises :class:`ScenarioError` with every problem, located in the scenario.
    """
    rows, problems, _ = resolve_rows(ruleset, patches, source, index)
    if problems:
        raise ScenarioError(problems)
    return TABLE_MODELS[ruleset].model_validate(rows, strict=True)


def resolve_rows(ruleset: str, patches: pydantic.BaseModel | None, source: str,
                 index: PathIndex) -> tuple[dict[str, dict[str, Any]], list[Problem],
                                            dict[str, set[str]]]:
    """Like :func:`resolve_tables`, but returns the good rows, the problems and the bad names.

    The loader uses the bad names to avoid reporting a member's reference to a row whose patch
    is already reported as wrong.
    """
    rows: dict[str, dict[str, Any]] = {}
    problems: list[Problem] = []
    bad: dict[str, set[str]] = {}
    for table, shipped in _shipped(ruleset).items():
        rows[table] = dict(shipped.rows)
        bad[table] = set()
        for name, patch in (getattr(patches, table, None) or {}).items():
            model = ROW_MODELS[ruleset][table]
            row, found = _patched_row(model, table, name, patch, shipped, source, index)
            if row is None:
                bad[table].add(name)
                rows[table].pop(name, None)
                problems += found
            else:
                rows[table][name] = row
    return rows, problems, bad


def _patched_row(model: type[pydantic.BaseModel], table: str, name: str,
                 patch: pydantic.BaseModel, shipped: _Table, source: str,
                 index: PathIndex) -> tuple[pydantic.BaseModel | None, list[Problem]]:
    """One patch merged onto its shipped row (or standing alone as a new row), validated.

    A field left out, or set to null, keeps the shipped value.
    """
    path: Path = ("tables", table, name)
    # Plain data (nested patches included), only the fields the scenario set.
    given = {f: v for f, v in patch.model_dump(mode="json", exclude_unset=True).items()
             if v is not None}
    if name not in shipped.raw:
        needed = [f for f, info in model.model_fields.items()
                  if info.is_required() and f not in given]
        if needed:
            kind = row_kind(table)
            message = f"a new {kind} needs {_and(needed)}"
            near = closest(name, shipped.raw, n=1)
            if near:
                message += f" (or did you mean to change the shipped {kind} {near[0]!r}?)"
            return None, [index.problem(message, path, source)]
    merged = _deep_merge(shipped.raw.get(name, {}), given)
    return validate_model(model, merged, source, index, base=path)


def defaulted_fields(ruleset: str, patches: pydantic.BaseModel | None,
                     tables: pydantic.BaseModel) -> list[tuple[str, str, dict[str, Any]]]:
    """(table, row, {field: value}) for each row a scenario adds (not a shipped row) that
    leaves fields out: the values they took from the row model's defaults (a new weapon
    without ``reach`` fights at reach 1). Notes only: the lab says so rather than refusing
    the row, so scenarios written before issue 30 keep working."""
    out = []
    for table, rows in (patches.model_dump(exclude_unset=True) if patches is not None
                        else {}).items():
        shipped = _shipped(ruleset)[table].raw
        model = ROW_MODELS[ruleset][table]
        for name, given in (rows or {}).items():
            if name in shipped:
                continue
            given = {k for k, v in (given or {}).items() if v is not None}
            row = getattr(tables, table)[name]
            left = {f: getattr(row, f) for f, info in model.model_fields.items()
                    if f not in given and not info.is_required() and f != "note"}
            if left:
                out.append((table, name, left))
    return out


def written_row(ruleset: str, table: str, name: str, patch: Any) -> dict[str, Any]:
    """A row as a scenario has it, in the form a scenario writes it: the shipped row's fields
    as its data file writes them, with the scenario's ``patch`` (plain data) laid over, a
    null keeping the shipped value. Written under another name it is the very same row (the
    fields a row leaves out stay left out: a roster entry's unset policy keys still give way
    to its side's default policy)."""
    shipped = _shipped(ruleset)[table].raw.get(name, {})
    given = {k: v for k, v in (patch or {}).items() if v is not None} \
        if isinstance(patch, Mapping) else {}
    return copy.deepcopy(_deep_merge(dict(shipped), given))


def _deep_merge(base: Any, over: Any) -> Any:
    """``over`` laid onto ``base``: mappings merge key by key, anything else is replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{k: _deep_merge(base.get(k), v) for k, v in over.items()}}
    return over


@functools.cache
def _shipped(ruleset: str) -> dict[str, _Table]:
    """Read and validate every table file of ``ruleset`` once per process."""
    if ruleset not in ROW_MODELS:
        raise OptionError(unknown_ruleset(ruleset))
    tables: dict[str, _Table] = {}
    problems: list[Problem] = []
    for table, model in ROW_MODELS[ruleset].items():
        resource = _data_dir() / ruleset / f"{table}.yaml"
        label = str(resource)
        try:
            data, index = read_yaml(resource.read_text(encoding="utf-8"), label)
        except (OSError, UnicodeDecodeError) as err:
            problems.append(Problem(f"cannot read the {table} table: {err}", "", label))
            continue
        except ScenarioError as err:
            problems += err.problems
            continue
        raw = {key_text(name): row for name, row in data.items()}
        rows: dict[str, pydantic.BaseModel] = {}
        for name, row in raw.items():
            valid, found = validate_model(model, row, label, index, base=(name,))
            problems += found
            if valid is not None:
                rows[name] = valid
        tables[table] = _Table(raw, rows)
    if problems:
        raise ScenarioError(problems)
    return tables


def _data_dir() -> Traversable:
    """``balance/data``, through importlib.resources so that it works from any install."""
    return resources.files("balance") / "data"


def row_kind(table: str) -> str:
    """``weapons`` -> ``weapon``: a row of the table, for messages."""
    return table[:-1] if table.endswith("s") else table


def _and(names: list[str]) -> str:
    quoted = [repr(n) for n in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"
