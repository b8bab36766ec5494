"""Table rows and the fighters who use them: which fighters a change to a row reaches, and a
fighter's own copy of a row.

A table row is shared: ``tables.armour.helm.protection`` changes the helm of every fighter
who wears one. A designer asking "what is +1 helm worth to *my* knight?" got both fighters'
helms changed (issue 30: +0.038 skill with the shared row, +0.18 with the knight's own).
So every command that varies a table field says which fighters the change reaches
(:func:`reach`), and a path *through a fighter* changes that fighter's row only::

    sides.0.members.0.armour.helm.protection      # the knight's helm
    sides.knight.members.0.weapon.damage          # his weapon (its row name may be given too:
    sides.knight.members.0.weapon.long_sword.damage

:func:`own_row` turns such a path into an ordinary table path: it copies the row (as the
scenario has it: shipped values with the scenario's patches) to a new row named
``<row>@<side>`` (``<row>@<side>-<member>`` when the side lists several members), points
that member at the copy, and returns ``tables.<table>.<copy>.<field>``. The copy has every
field of the row, so nothing else changes: the fight with the copy plays the same numbers as
the fight without it (the tests check this on every bundled scenario). A member line with
``count: 3`` is one fighter's line: its three fighters share the copy.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from balance.errors import ScenarioError, closest
from balance.sweep.paths import FieldPath, PathError, resolve_path, show

OWN = "@"
"""Between a row's name and its owner's in a fighter's own copy (``helm@knight``)."""


@dataclass(frozen=True)
class Slot:
    """One table row a member uses, and where the member names it."""

    side: int
    member: int
    path: tuple[str | int, ...]       # within the member: ("armour", 1), ("weapon",)
    table: str
    row: str
    owner: str                        # the member as results name it (Sir A, knight, guard.1)
    count: int = 1
    via: str | None = None            # for a row reached through another (Ymlad materials)

    @property
    def where(self) -> str:
        return show(("sides", self.side, "members", self.member, *self.path))


@dataclass(frozen=True)
class Reach:
    """Which fighters a change to ``tables.<table>.<row>`` reaches."""

    table: str
    row: str
    slots: tuple[Slot, ...]
    every_fighter: bool = False       # a rules table every fighter reads (Ymlad skill modifiers)
    cells: int = 1                    # in a sweep: of how many cells (reached in ``reached``)
    reached: int = 1
    shared_in: int | None = None      # cells in which several member lines use the row
    swept: frozenset = frozenset()    # (side, member, slot path) a sweep axis changes

    @property
    def members(self) -> list[tuple[int, int]]:
        return list(dict.fromkeys((s.side, s.member) for s in self.slots))

    @property
    def fighters(self) -> list[str]:
        return list(dict.fromkeys(s.owner for s in self.slots))

    @property
    def shared(self) -> bool:
        """Several member lines use the row in one fight: is the change meant for all of
        them? (In a sweep, a row different fighters use in different cells, as a round robin
        deals a weapon to either seat, is not shared; in a mirror cell it is.)"""
        if self.every_fighter:
            return True
        if self.shared_in is not None:
            return self.shared_in > 0
        return len(self.members) > 1

    def own_paths(self, field: str, data: Mapping[str, Any]) -> list[str]:
        """The paths that change one fighter's copy only, one per member using the row (none
        for a slot a sweep axis fills: each cell would replace the copy)."""
        out = []
        for s in self.slots:
            if s.via is not None or (s.side, s.member, s.path[0]) in self.swept:
                continue
            side = _side_word(data, s.side)
            slot = list(s.path)
            if isinstance(slot[-1], int):
                slot[-1] = s.row
            out.append(".".join(map(str, ["sides", side, "members", s.member, *slot, field])))
        return list(dict.fromkeys(out))

    def sentence(self, label: str, field: str, data: Mapping[str, Any]) -> str:
        """One line for the terminal: who the change reaches, and when several are reached,
        that this is ambiguous and how to change one fighter only."""
        if self.every_fighter:
            return (f"{label}: a rules table every fighter reads; the change reaches all of "
                    "them")
        if not self.slots:
            return f"{label}: no fighter uses {self.table}.{self.row}; the change reaches nobody"
        names = ", ".join(f"{s.owner} ({s.where}{', via ' + s.via if s.via else ''})"
                          for s in _first_per_member(self.slots))
        cells = f" in {self.reached} of {self.cells} cells" if self.reached < self.cells else ""
        if not self.shared:
            return f"{label} reaches {names}{cells}"
        own = self.own_paths(field, data)
        hint = f"; to change one fighter's row only, use {' or '.join(own)}" if own else ""
        if self.shared_in is not None and self.shared_in < self.reached:
            return (f"note: {label} reaches {names}{cells}, and is one row shared by several "
                    f"of them in {self.shared_in} of {self.cells} cells: the change reaches "
                    f"all of them there{hint}")
        return (f"note: {label} is one row shared by {len(self.members)} fighters, {names}"
                f"{cells}: the change reaches all of them{hint}")

    def to_dict(self, field: str, data: Mapping[str, Any]) -> dict[str, Any]:
        return {"table": self.table, "row": self.row, "fighters": self.fighters,
                "where": [s.where for s in self.slots], "shared": self.shared,
                "every_fighter": self.every_fighter, "cells": self.cells,
                "reached_in": self.reached,
                "shared_in": self.shared_in if self.shared_in is not None else
                int(len(self.members) > 1),
                "own_paths": self.own_paths(field, data)}


def _first_per_member(slots: tuple[Slot, ...]) -> list[Slot]:
    seen, out = set(), []
    for s in slots:
        if (s.side, s.member) not in seen:
            seen.add((s.side, s.member))
            out.append(s)
    return out


def _side_word(data: Mapping[str, Any], side: int) -> str | int:
    sides = data.get("sides") or []
    name = sides[side].get("name") if side < len(sides) and isinstance(sides[side], Mapping) \
        else None
    return name if isinstance(name, str) and name.isidentifier() else side


# --- which rows each member uses ----------------------------------------------------------

RULE_TABLES = {"ymlad": {"talent_modifiers", "skill_modifiers", "harm_track", "encumbrance"}}
"""Tables every fighter reads through the rules, not through an item it carries."""


def slots(loaded: Any) -> list[Slot]:
    """Every (member, table row) the scenario's fighters use, with where each is named.

    Yags and percentile: the rows a member names (``references``). Ymlad: the rows of each
    member's merged spec (its roster entry filled in), and the rows those rows name in turn
    (a weapon's material, an armour piece's construction, thickness, parts and material)."""
    model = loaded.model
    out: list[Slot] = []
    for s, side in enumerate(model.sides):
        for j, member in enumerate(side.members):
            owner = member.name or (side.name if len(side.members) == 1 else f"{side.name}.{j}")
            count = int(getattr(member, "count", 1) or 1)
            if loaded.ruleset == "ymlad":
                out += _ymlad_slots(loaded, s, j, owner, count)
    if loaded.ruleset != "ymlad":
        names = {}
        for s, side in enumerate(model.sides):
            for j, member in enumerate(side.members):
                names[s, j] = (member.name or (side.name if len(side.members) == 1
                                               else f"{side.name}.{j}"),
                               int(getattr(member, "count", 1) or 1))
        for path, table, row in model.references():
            if path[0] != "sides" or path[2] != "members":
                continue
            owner, count = names[path[1], path[3]]
            out.append(Slot(path[1], path[3], tuple(path[4:]), table, row, owner, count))
    return out


def _ymlad_slots(loaded: Any, s: int, j: int, owner: str, count: int) -> list[Slot]:
    from balance.models.ymlad import _ROW_REFS, _SPEC_REFS, resolve_member

    side = loaded.model.sides[s]
    member = side.members[j]
    policy = side.policy if side.policy.model_fields_set else None
    name, spec = resolve_member(member, loaded.tables.roster, policy)
    owner = name or owner
    out = []
    for field, table in _SPEC_REFS:
        value = getattr(spec, field)
        if value is not None and table not in RULE_TABLES["ymlad"]:
            out.append(Slot(s, j, (field,), table, value, owner, count))
    out += [Slot(s, j, ("armour", k), "armour", a, owner, count)
            for k, a in enumerate(spec.armour)]
    if member.roster is not None:
        out.append(Slot(s, j, ("roster",), "roster", member.roster, owner, count))
    nested = []
    for slot in out:                       # rows named by rows, followed to the end
        todo = [(slot.table, slot.row, f"{slot.table}.{slot.row}")]
        while todo:
            table, row, via = todo.pop()
            entry = getattr(loaded.tables, table).get(row)
            for field, target in _ROW_REFS.get(table, ()):
                value = getattr(entry, field, None) if entry is not None else None
                if value is not None:
                    nested.append(Slot(s, j, slot.path, target, value, owner, count, via))
                    todo.append((target, value, f"{via} -> {target}.{value}"))
            if table == "armour" and entry is not None:
                nested += [Slot(s, j, slot.path, "body_parts", p, owner, count, via)
                           for p in entry.parts]
    return out + nested


def reach(loaded: Any, table: str, row: str) -> Reach:
    """Which fighters of ``loaded`` a change to ``tables.<table>.<row>`` reaches."""
    if table in RULE_TABLES.get(loaded.ruleset, ()):
        return Reach(table, row, (), every_fighter=True)
    found = tuple(s for s in slots(loaded) if s.table == table and s.row == row)
    return Reach(table, row, found)


def reach_over(scenarios: list[Any], table: str, row: str,
               swept: frozenset = frozenset()) -> Reach:
    """:func:`reach` over a sweep's cells: every fighter reached in some cell, in how many
    cells the row is used at all, and in how many several member lines share it. ``swept``:
    the (side, member, slot) an axis fills, for which no fighter's copy is offered."""
    each = [reach(sc, table, row) for sc in scenarios]
    merged = tuple(dict.fromkeys(s for r in each for s in r.slots))
    return Reach(table, row, merged, any(r.every_fighter for r in each), len(each),
                 sum(bool(r.slots) or r.every_fighter for r in each),
                 sum(len(r.members) > 1 for r in each), swept)


def swept_slots(paths: Any) -> frozenset:
    """(side, member, first slot key) for each axis path into a member (``sides.0.members.0
    .weapon`` fills the weapon slot of that member in every cell)."""
    return frozenset((p[1], p[3], p[4]) for p in paths
                     if len(p) > 4 and p[0] == "sides" and p[2] == "members")


# --- a path through a fighter: its own copy of the row -------------------------------------


def own_row(path: FieldPath, data: dict[str, Any], ruleset: str) -> FieldPath | None:
    """For ``sides.S.members.M.<slot>[.<row>].<field>...``: give member M of side S its own
    copy of the row in ``data`` (changed in place) and return ``tables.<table>.<copy>.<field>
    ...``; None for any other path (it is resolved as written). S and M go by index or
    name; a list slot (``armour``) by index or by the row's name."""
    if len(path) < 6 or path[0] != "sides" or path[2] != "members":
        return None
    try:
        s = _pick(data.get("sides"), path[1])
        m = _pick(data["sides"][s].get("members"), path[3])
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    from balance.io.scenario import load_scenario

    try:
        loaded = load_scenario(data)
    except ScenarioError:       # a broken scenario reports itself where it is loaded
        return None
    rest = tuple(path[4:])
    for slot in (x for x in slots(loaded) if (x.side, x.member) == (s, m) and x.via is None):
        field = _after_slot(rest, slot)
        if field is None:
            continue
        if not field:
            return None                # the member's own field (the row's name): as written
        return _copy_for(slot, field, data, loaded)
    return None


def _pick(items: Any, seg: str | int) -> int:
    if isinstance(seg, int):
        if not 0 <= seg < len(items):
            raise IndexError(seg)
        return seg
    names = [it.get("name") if isinstance(it, Mapping) else None for it in items]
    return names.index(seg)


def _after_slot(rest: FieldPath, slot: Slot) -> FieldPath | None:
    """What follows the slot in ``rest`` (the row's field path), or None if ``rest`` does
    not go through this slot. The row may be named after the slot (``weapon.long_sword``,
    ``armour.helm``) or, in a list, the entry given by index (``armour.1``)."""
    head, last = slot.path[:-1], slot.path[-1]
    names = {slot.row, slot.row.split(OWN)[0]}
    if isinstance(last, int):            # a list entry: by index or by row name
        n = len(head)
        if rest[:n] == head and len(rest) > n and (rest[n] == last or rest[n] in names):
            return rest[n + 1:]
        return None
    n = len(slot.path)
    if rest[:n] != slot.path:
        return None
    after = rest[n:]
    if after and after[0] in names:
        after = after[1:]
    return after


def _copy_for(slot: Slot, field: FieldPath, data: dict[str, Any], loaded: Any) -> FieldPath:
    """Copy the slot's row for its member (once), point the member at it, and return the
    copy's field path."""
    from balance.models import ROW_MODELS

    table, row = slot.table, slot.row
    model = ROW_MODELS[loaded.ruleset][table]
    if not isinstance(field[0], str) or field[0] not in model.model_fields:
        choices = sorted(model.model_fields)
        near = closest(str(field[0]), choices)
        hint = f"did you mean {', '.join(map(repr, near))}?" if near else \
            f"valid: {', '.join(choices)}"
        raise PathError(f"{show(('sides', slot.side, 'members', slot.member, *slot.path))}: "
                        f"{field[0]!r} is not a field of {table} rows ({hint})")
    base = row.split(OWN)[0]
    sides = data["sides"]
    owner = str(sides[slot.side].get("name", f"side{slot.side}"))
    several = len(sides[slot.side].get("members") or []) > 1
    name = f"{base}{OWN}{owner}" + (f"-{slot.member}" if several else "")
    tables = data.setdefault("tables", {})
    rows = tables.setdefault(table, {})
    if name not in rows:
        from balance.io.tables import written_row

        rows[name] = written_row(loaded.ruleset, table, row, rows.get(row))
    member = sides[slot.side]["members"][slot.member]
    _point(member, slot, name, loaded)
    return ("tables", table, name, *field)


def _point(member: dict[str, Any], slot: Slot, name: str, loaded: Any) -> None:
    """Set the member's slot to the copy (writing out a roster entry's list where the member
    takes it from its roster entry)."""
    *head, last = slot.path
    node: Any = member
    for k, seg in enumerate(head):
        if isinstance(node, dict) and seg not in node:
            value = _resolved(loaded, slot, tuple(head[: k + 1]))
            node[seg] = copy.deepcopy(value)
        node = node[seg]
    node[last] = name


def _resolved(loaded: Any, slot: Slot, path: FieldPath) -> Any:
    """The member's value at ``path`` as the rules see it (a Ymlad roster entry's armour
    list), as plain data."""
    if loaded.ruleset == "ymlad":
        from balance.models.ymlad import resolve_member

        side = loaded.model.sides[slot.side]
        policy = side.policy if side.policy.model_fields_set else None
        _, spec = resolve_member(side.members[slot.member], loaded.tables.roster, policy)
        node: Any = spec.model_dump(mode="json")
    else:
        node = loaded.model.sides[slot.side].members[slot.member].model_dump(mode="json")
    for seg in path:
        node = node[seg]
    return list(node) if isinstance(node, tuple) else node


def resolve_through(path: FieldPath, model: Any, data: dict[str, Any], ruleset: str,
                    table_rows: Mapping[str, Any]) -> FieldPath:
    """:func:`~balance.sweep.paths.resolve_path`, where a path through a fighter first gets
    the fighter its own copy of the row (:func:`own_row`; ``data`` gains the copy)."""
    own = own_row(path, data, ruleset)
    if own is not None:
        rows = {t: [*r, *((data.get("tables") or {}).get(t) or {})]
                for t, r in table_rows.items()}
        return resolve_path(own, model, data, rows)
    return resolve_path(path, model, data, table_rows)


def owner_label(row: str) -> tuple[str, str | None]:
    """``helm@knight`` -> (``helm``, ``knight``); a shared row -> (row, None)."""
    base, sep, owner = row.partition(OWN)
    return (base, owner) if sep else (row, None)


def reach_record(found: Reach, path: FieldPath, label: str,
                 data: Mapping[str, Any]) -> dict[str, Any]:
    """What the JSON of a command says about a table field it varies: the path, its label,
    who the change reaches, whether that is ambiguous, and the one sentence the text shows."""
    field = str(path[3]) if len(path) > 3 else ""
    return {"path": show(path), "label": label, **found.to_dict(field, data),
            "sentence": found.sentence(label, field, data)}


def reach_lines(records: Any) -> list[str]:
    """The text lines saying who each varied table field reaches (nothing for none)."""
    return ["", *(f"  {r['sentence']}" for r in records)] if records else []
