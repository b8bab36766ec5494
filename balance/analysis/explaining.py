"""``explain``: every fighter's numbers before the first roll, and where they come from.

For each fighter: the compiled numbers the rule system fights with (attack and defence
totals, soak, damage, reach, style, speed, ... whatever the system compiles: the same
numbers its kernel and its scalar reference start from), what the scenario sets for it
(attributes, skills, equipment, stance, policy, situation: the overrides), and the table
rows it uses, each field marked where the scenario's ``tables:`` block patched it. Last,
every patched row field with its shipped value. Read from the compiled fight, never
recomputed, so the explanation cannot disagree with what is simulated.
"""

from __future__ import annotations

import dataclasses
import math
import os
import textwrap
from collections.abc import Mapping
from typing import Any

import pydantic

from balance.api import compile_scenario
from balance.io.scenario import LoadedScenario, load_scenario
from balance.io.tables import shipped_tables

# The numbers a designer looks at first, by rule system, in this order (others follow).
HEADLINE = {
    "yags": ("attack", "defence", "damage", "damage_type", "soak", "initiative", "health",
             "skill", "stance", "max_defences", "size", "move"),
    "percentile": ("hp", "dodge", "defence", "armour_text", "db_text", "move", "STR", "CON",
                   "SIZ", "DEX"),
    "ymlad": ("weapon", "skill", "style", "encumbrance", "speed", "reach", "armour", "shield",
              "threshold", "down_at", "dead_at", "strength", "dexterity"),
}


def labels(ruleset: str) -> dict[str, tuple[str, ...]]:
    """What the positions of a compiled fighter's tuple numbers mean, by field (Ymlad: one
    number per fighting style), so ``--explain`` prints ``weapon missile 0, formation 2,
    melee 4, close 4`` rather than ``weapon 0,2,4,4``."""
    if ruleset != "ymlad":
        return {}
    from balance.rules.ymlad.rules.tables import STYLE_NAMES

    return {"weapon": STYLE_NAMES, "skill": STYLE_NAMES, "effort_bonus": STYLE_NAMES,
            "resistance_bonus": STYLE_NAMES,
            "resist": ("slashing", "piercing", "pummeling", "grapple")}


def codes(ruleset: str) -> dict[str, tuple[str, ...]]:
    """The names of coded numbers, by field (Ymlad: a style's code is its index)."""
    if ruleset != "ymlad":
        return {}
    from balance.rules.ymlad.rules.tables import STYLE_NAMES

    return {"style": STYLE_NAMES, "contact_style": STYLE_NAMES}


# What a headline number means, where its name alone does not say (printed after it).
NOTES = {
    "ymlad": {"encumbrance": "the weight of armour and shield against the fighter's capacity, "
                             "added to every effort and resistance",
              "armour": "the combined armour score"},
}


def explain(scenario: str | os.PathLike | Mapping[str, Any] | LoadedScenario) -> dict[str, Any]:
    """The explanation as plain data (strict-JSON safe): fighters and patched rows."""
    loaded = scenario if isinstance(scenario, LoadedScenario) else load_scenario(scenario)
    _, fight = compile_scenario(loaded)
    members = _members(loaded)
    patches = _patches(loaded)
    fighters = []
    for i, f in enumerate(fight.fighters):
        numbers = _plain(f)
        first = [k for k in HEADLINE.get(loaded.ruleset, ()) if k in numbers]
        ordered = {k: numbers[k] for k in first} | {k: v for k, v in numbers.items()
                                                    if k not in first}
        entry: dict[str, Any] = {"name": f.name, "side": fight.side_names[f.side],
                                 "headline": first, "numbers": ordered}
        if members is not None:
            path, member = members[i]
            entry["scenario"] = member.model_dump(mode="json", exclude_unset=True)
            entry["rows"] = _rows(loaded, path, patches)
        fighters.append(entry)
    return {"scenario": loaded.model.name, "ruleset": loaded.ruleset, "fighters": fighters,
            "patched": [{"table": t, "row": r, "field": k, "shipped": s, "now": n}
                        for (t, r, k), (s, n) in patches.items()],
            "labels": {k: list(v) for k, v in labels(loaded.ruleset).items()},
            "codes": {k: list(v) for k, v in codes(loaded.ruleset).items()}}


def _labelled(doc: Mapping[str, Any], numbers: Mapping[str, Any]) -> dict[str, Any]:
    """Numbers with their positions named (``{missile: 0, formation: 2, ...}``) and their
    codes spelled (``melee (2)``), for the text."""
    names, coded = doc.get("labels", {}), doc.get("codes", {})
    out: dict[str, Any] = {}
    for k, v in numbers.items():
        if k in names and isinstance(v, list) and len(v) == len(names[k]):
            v = dict(zip(names[k], v, strict=True))
        elif k in coded and isinstance(v, int) and 0 <= v < len(coded[k]):
            v = f"{coded[k][v]} ({v})"
        out[k] = v
    return out


def explain_text(doc: Mapping[str, Any]) -> str:
    """The explanation for the terminal."""
    lines = [f"{doc['scenario']}  ({doc['ruleset']}): the numbers before the first roll", ""]
    for group in _same(doc["fighters"]):
        f = group[0]
        if len(group) == 1:
            lines.append(f"{f['name']}  (side {f['side']})")
        else:   # a member's count: eight bandits with the same numbers are one block
            lines.append(f"{f['name']} to {group[-1]['name']}  (side {f['side']}; "
                         f"{len(group)} fighters with the same numbers)")
        head = f["headline"] or list(f["numbers"])[:8]
        numbers = _labelled(doc, f["numbers"])
        lines += _wrapped({k: numbers[k] for k in head}, "  fights with   ")
        notes = [f"{k}: {note}" for k, note in NOTES.get(doc["ruleset"], {}).items()
                 if k in head]
        if notes:
            lines += textwrap.wrap(f"({'; '.join(notes)})", 96, initial_indent=" " * 16,
                                   subsequent_indent=" " * 17)
        if "scenario" in f:
            sets = {k: v for k, v in f["scenario"].items() if k != "name"}
            lines.append("  scenario sets " + _pairs(sets))
            for row, fields in f["rows"].items():
                mark = {k for k in fields.get("patched", [])}
                shown = {(f"{k}*" if k in mark else k): v for k, v in fields.items()
                         if k not in ("patched", "note")}
                lines.append(f"  table row     {row}: {_pairs(shown)}")
        rest = {k: v for k, v in numbers.items() if k not in head
                and (len(group) == 1 or k not in IDENTITY)}
        lines += _wrapped(rest, "  all numbers   ")
        lines.append("")
    if doc["patched"]:
        lines.append("Table fields the scenario patches (* above):")
        for p in doc["patched"]:
            lines.append(f"  {p['table']}.{p['row']}.{p['field']}: {p['shipped']} -> {p['now']}")
    else:
        lines.append("The scenario patches no table row (every row as shipped).")
    return "\n".join(lines)


# Numbers that say which fighter it is, not how it fights (Yags: its place in the line).
IDENTITY = ("name", "line")


def _same(fighters: list[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """Runs of neighbouring fighters that differ only by name (and place in the line)."""
    def key(f: Mapping[str, Any]) -> dict[str, Any]:
        numbers = {k: v for k, v in f["numbers"].items() if k not in IDENTITY}
        return {**f, "name": None, "numbers": numbers}

    groups: list[list[Mapping[str, Any]]] = []
    for f in fighters:
        if groups and key(groups[-1][0]) == key(f):
            groups[-1].append(f)
        else:
            groups.append([f])
    return groups


def _members(loaded: LoadedScenario) -> list[tuple[tuple, Any]] | None:
    """(member path, member) for each fighter in compile order (members with ``count: k``
    become k fighters), or None if the counts do not match the compiled fight."""
    out = []
    for s, side in enumerate(loaded.model.sides):
        for m, member in enumerate(side.members):
            out += [(("sides", s, "members", m), member)] * int(getattr(member, "count", 1) or 1)
    _, fight = compile_scenario(loaded)
    return out if len(out) == len(fight.fighters) else None


def _patches(loaded: LoadedScenario) -> dict[tuple[str, str, str], tuple[Any, Any]]:
    """(table, row, field) -> (shipped value, value now) for every field the scenario sets."""
    patch = getattr(loaded.model, "tables", None)
    if patch is None:
        return {}
    shipped = shipped_tables(loaded.ruleset)
    out = {}
    for table, rows in patch.model_dump(mode="json", exclude_unset=True).items():
        for row, fields in (rows or {}).items():
            for name in fields or {}:
                before = getattr(getattr(shipped, table).get(row), name, None) \
                    if row in getattr(shipped, table) else None
                now = getattr(getattr(loaded.tables, table)[row], name, None)
                out[(table, row, name)] = (_json(before), _json(now))
    return out


def _rows(loaded: LoadedScenario, path: tuple, patches: Mapping) -> dict[str, Any]:
    """The table rows the member at ``path`` refers to, with their patched fields named."""
    out = {}
    refs = loaded.model.references() if hasattr(loaded.model, "references") else []
    for where, table, name in refs:
        if tuple(where[:4]) != path:
            continue
        row = getattr(loaded.tables, table).get(name)
        if row is None:
            continue
        fields = {k: _json(v) for k, v in row.model_dump(mode="json").items()}
        patched = [k for (t, r, k) in patches if t == table and r == name]
        if patched:
            fields["patched"] = patched
        out[f"{table}.{name}"] = fields
    return out


def _plain(obj: Any) -> dict[str, Any]:
    """A compiled fighter's fields as JSON-safe values; nested records as dicts, a tuple of
    records (loadouts, items) by its first entry (the main one)."""
    out = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if dataclasses.is_dataclass(v):
            out[f.name] = _plain(v)
        elif isinstance(v, tuple) and v and all(dataclasses.is_dataclass(x) for x in v):
            out[f"{f.name}[0]"] = _plain(v[0])
        else:
            out[f.name] = _json(v)
    return out


def _json(v: Any) -> Any:
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return _plain(v)
    if isinstance(v, pydantic.BaseModel):
        return v.model_dump(mode="json")
    if hasattr(v, "item") and not isinstance(v, list | tuple | dict):
        try:
            v = v.item()
        except (ValueError, AttributeError):
            return str(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, tuple | list):
        return [_json(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _json(x) for k, x in v.items()}
    if v is None or isinstance(v, bool | int | float | str):
        return v
    return str(v)


def _wrapped(d: Mapping[str, Any], first: str) -> list[str]:
    """``name value`` pairs wrapped to 96 columns, never between a name and its value."""
    glue = "\u00a0"
    text = ", ".join(f"{k}{glue}{_short(v).replace(' ', glue)}" for k, v in d.items())
    return [line.replace(glue, " ") for line in textwrap.wrap(
        text, 96, initial_indent=first, subsequent_indent=" " * 16, break_on_hyphens=False,
        break_long_words=False)]


def _pairs(d: Mapping[str, Any], limit: int | None = 12) -> str:
    items = list(d.items())
    shown = items if limit is None else items[:limit]
    text = ", ".join(f"{k} {_short(v)}" for k, v in shown)
    return text + (f", ... ({len(items) - limit} more)" if limit and len(items) > limit else "")


def _short(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_short(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return ",".join(_short(x) for x in v) or "[]"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)
