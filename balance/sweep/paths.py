"""Field paths into a scenario (``tables.weapons.long_sword.damage``): parse, check, assign.

A sweep axis names the scenario field it changes by a dotted path. Paths are checked against
the ruleset's scenario *model* (not only the file's data), so a path to a field the file leaves
at its default (``rules.success_step``) or to a shipped table row the file never mentions
(``tables.weapons.mace.damage``) is valid, and a typo is an error that names the path and the
closest valid keys. List entries are chosen by index or by the entry's ``name``
(``sides.knight.members.0.weapon``).
"""

from __future__ import annotations

import copy
import itertools
import re
import types
import typing
from collections.abc import Mapping
from typing import Any

import pydantic

from balance.errors import a_or_an, closest
from balance.io.yamlfile import format_path

FieldPath = tuple[str | int, ...]

# Keys a sweep may not change: they name the run or the cell, or choose the model itself.
FIXED_KEYS = {"name": "the scenario's name", "ruleset": "the rule system",
              "trials": "the trial count (use --trials or --precision)",
              "seed": "the seed (use --seed)", "description": "the description",
              "sweep": "the sweep itself"}
_SEGMENT = re.compile(r"\[(-?\d+)\]|\[['\"]([^'\"]+)['\"]\]|([^.\[\]]+)")


class PathError(ValueError):
    """A path that does not lead to a scenario field; the message says why and what is near."""


def parse_path(text: object) -> FieldPath:
    """``"sides.0.members[1].armour"`` as ``("sides", 0, "members", 1, "armour")``."""
    if not isinstance(text, str) or not text.strip():
        raise PathError(f"a field path must be text such as 'sides.0.members.0.weapon', "
                        f"not {text!r}")
    parts: list[str | int] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        if text[pos] == "." and parts:
            pos += 1
        m = _SEGMENT.match(text, pos)
        if m is None:
            raise PathError(f"cannot read the field path {text!r} at character {pos + 1}")
        index, quoted, word = m.groups()
        if index is not None:
            parts.append(int(index))
        elif quoted is not None:
            parts.append(quoted)
        else:
            parts.append(int(word) if word.isdigit() else word)
        pos = m.end()
    return tuple(parts)


def show(path: FieldPath) -> str:
    """A path as the lab prints field paths elsewhere: ``sides[0].members[0].weapon``; a
    dice field's ladder (a last ``@die`` segment) as ``....damage.die``."""
    if path and isinstance(path[-1], str) and path[-1].startswith("@"):
        return f"{format_path(path[:-1])}.{path[-1][1:]}"
    return format_path(path)


def resolve_path(path: FieldPath, model: type[pydantic.BaseModel], data: Mapping[str, Any],
                 table_rows: Mapping[str, Any]) -> FieldPath:
    """Check ``path`` against a scenario model and its data; return it with names as indices.

    ``table_rows`` maps each table to its shipped row names (rows a path may reach without
    the scenario mentioning them). Raises :class:`PathError` naming the first bad segment
    and the closest valid keys.
    """
    if not path:
        raise PathError("empty field path")
    if isinstance(path[0], str) and path[0] in FIXED_KEYS:
        raise PathError(f"{path[0]!r} is {FIXED_KEYS[path[0]]} and cannot be swept")
    out: list[str | int] = []
    tp: Any = model
    node: Any = data
    for seg in path:
        tp = _unwrap(tp)
        where = show(tuple(out)) or "the scenario"
        if _is_model(tp):
            fields = tp.model_fields
            if not isinstance(seg, str) or seg not in fields:
                raise PathError(_unknown(path, where, seg, fields))
            tp = fields[seg].annotation
            node = node.get(seg) if isinstance(node, Mapping) else None
            out.append(seg)
        elif typing.get_origin(tp) in (dict, Mapping):
            _, value_tp = typing.get_args(tp) or (str, Any)
            known = set(node) if isinstance(node, Mapping) else set()
            if len(out) == 2 and out[0] == "tables":
                known |= set(table_rows.get(str(out[1]), ()))
                if str(seg) not in known:
                    raise PathError(_unknown(path, where, seg, known, kind="row"))
            tp = value_tp
            node = node.get(seg) if isinstance(node, Mapping) else None
            out.append(str(seg))
        elif typing.get_origin(tp) in (list, tuple):
            items = node if isinstance(node, list | tuple) else []
            index = _index(seg, items, path, where)
            args = [a for a in typing.get_args(tp) if a is not Ellipsis]
            tp = args[0] if args else Any
            node = items[index]
            out.append(index)
        else:
            raise PathError(f"{show(path)}: {where} is a single value, not a mapping or a "
                            f"list; the path should end there")
    if len(out) == 3 and out[0] == "sides" and out[2] == "name":
        raise PathError(f"{show(path)}: side names label the outcome columns and cannot be "
                        "swept")
    return tuple(out)


def assign(data: dict[str, Any], path: FieldPath, value: Any) -> None:
    """Set the field at a resolved ``path`` in plain scenario data, making mappings as needed."""
    node: Any = data
    for seg, nxt in itertools.pairwise(path):
        if isinstance(node, list):
            node = node[seg]
            continue
        child = node.get(seg)
        if child is None:
            child = [] if isinstance(nxt, int) else {}
            node[seg] = child
        node = child
    node[path[-1]] = copy.deepcopy(value)


def _index(seg: str | int, items: list | tuple, path: FieldPath, where: str) -> int:
    """A list entry by position, or by the ``name`` of one of its entries."""
    if isinstance(seg, int):
        if 0 <= seg < len(items):
            return seg
        span = f"entries 0 to {len(items) - 1}" if items else "no entries"
        raise PathError(f"{show(path)}: {where} has {span}; there is no entry {seg}")
    names = {str(it.get("name")): i for i, it in enumerate(items)
             if isinstance(it, Mapping) and it.get("name") is not None}
    if seg in names:
        return names[seg]
    raise PathError(_unknown(path, where, seg, names, kind="entry (by index or name)"))


def _unknown(path: FieldPath, where: str, seg: object, choices: typing.Iterable[str],
             kind: str = "field") -> str:
    choices = sorted(map(str, choices))
    near = closest(str(seg), choices)
    if near:
        hint = f"did you mean {', '.join(map(repr, near))}?"
    else:
        shown = ", ".join(choices[:12]) + (", ..." if len(choices) > 12 else "")
        hint = f"valid: {shown}" if choices else "it has none"
    return f"{show(path)}: {seg!r} is not {a_or_an(kind)} of {where} ({hint})"


def _unwrap(tp: Any) -> Any:
    """The container or model type behind ``Annotated[...]`` and ``X | None``."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            structured = [a for a in args if _is_model(_strip(a))
                          or typing.get_origin(_strip(a)) in (dict, list, tuple, Mapping)]
            tp = structured[0] if structured else args[0]
        else:
            return tp


def _strip(tp: Any) -> Any:
    return typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, pydantic.BaseModel)
