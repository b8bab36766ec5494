"""``--set PATH=VALUE``: what-ifs from the command line, without editing the YAML.

``balance run FILE --set tables.weapons.spear.damage=6 --set sides.0.members.0.stance=aggressive``
plays the file with those fields changed. The paths are the sweep's (``balance.sweep.paths``:
any scenario field, any table cell, list entries by index or name, a path through a fighter
for its own copy of a row); values are read as YAML, as they would be in the file (``6``,
``aggressive``, ``[mail_hauberk, helm]``, ``{damage: 7}``, ``null``; ``no`` is false, as
YAML reads it). The file is checked as written first, so its own mistakes keep their lines;
a mistake an override makes is reported with the override that made it.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from balance.errors import OptionError, Problem, ScenarioError
from balance.sweep.paths import FieldPath, PathError, assign, parse_path, show


@dataclass(frozen=True)
class Override:
    """One ``PATH=VALUE`` as given, its path and its value (as YAML reads it)."""

    text: str
    path: str
    value: Any

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "value": self.value}


def parse_sets(items: Sequence[str] | None, option: str = "--set") -> tuple[Override, ...]:
    """``["a.b=6", "c=[x, y]"]`` as overrides; a malformed item is an :class:`OptionError`
    naming it and showing the form."""
    import yaml

    out = []
    for item in items or ():
        path, sep, text = str(item).partition("=")
        path = path.strip()
        if not sep or not path:
            raise OptionError(f"{option} {item!r}: expected PATH=VALUE, e.g. {option} "
                              "tables.weapons.spear.damage=6")
        if not text.strip():
            raise OptionError(f"{option} {item}: no value after '='; write {path}=null to "
                              "clear an optional field")
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError as err:
            problem = getattr(err, "problem", None) or str(err).splitlines()[0]
            raise OptionError(f"{option} {item}: cannot read the value {text!r} as YAML "
                              f"({problem}); quote text that holds ': ' or starts with "
                              "a bracket") from None
        out.append(Override(str(item), path, value))
    paths = [o.path for o in out]
    for p in paths:
        if paths.count(p) > 1:
            raise OptionError(f"{option}: {p} is set twice")
    return tuple(out)


def resolve_sets(data: dict[str, Any], sets: Sequence[Override], ruleset: str,
                 option: str = "--set") -> list[tuple[Override, FieldPath]]:
    """Each override's path checked against the scenario model (as a sweep's axis is), a
    path through a fighter giving the fighter its own copy of the row in ``data``."""
    from balance.io.tables import shipped_rows
    from balance.models import SCENARIO_MODELS
    from balance.sweep.rows import resolve_through

    rows = {table: list(r) for table, r in shipped_rows(ruleset).items()}
    out = []
    for o in sets:
        try:
            path = resolve_through(parse_path(o.path), SCENARIO_MODELS[ruleset], data, ruleset,
                                   rows)
        except PathError as err:
            message = str(err).replace("cannot be swept", "cannot be set here")
            raise OptionError(f"{option} {o.text}: {message}") from None
        out.append((o, path))
    return out


def apply_sets(data: Mapping[str, Any], sets: Sequence[Override],
               option: str = "--set") -> tuple[dict[str, Any], list[tuple[Override, FieldPath]]]:
    """A copy of plain scenario ``data`` with the overrides set, and each with its path."""
    out = copy.deepcopy(dict(data))
    ruleset = out.get("ruleset")
    if not isinstance(ruleset, str):
        raise OptionError(f"{option}: the scenario names no ruleset, so its fields are unknown")
    resolved = resolve_sets(out, sets, ruleset, option)
    for o, path in resolved:
        assign(out, path, o.value)
    return out, resolved


def relocate(err: ScenarioError, resolved: Sequence[tuple[Override, FieldPath]],
             option: str = "--set") -> ScenarioError:
    """A problem at (or under) a field an override set is the override's: it names the
    override, and loses the file's line (the file's value there is not the one checked)."""
    out = []
    for p in err.problems:
        own = next((o for o, path in resolved if _under(p.path, show(path))), None)
        if own is None:
            out.append(p)
        else:
            out.append(Problem(f"{p.message} (from {option} {own.text})", p.path, p.file))
    return ScenarioError(out)


def _under(problem_path: str, field: str) -> bool:
    return bool(problem_path) and (problem_path == field or
                                   problem_path.startswith((field + ".", field + "[")))


def load_with_sets(source: str | os.PathLike | Mapping[str, Any], sets: Sequence[Override],
                   option: str = "--set") -> Any:
    """The scenario at ``source`` with the overrides set, checked like a file: its own
    problems first (with their lines), then the overrides' (naming them), then what only
    the compiled fighters show."""
    from balance.api import compile_scenario
    from balance.io.scenario import DICT_SOURCE, load_parsed, load_scenario, read_text
    from balance.io.yamlfile import PathIndex, read_yaml

    if not sets:
        return load_scenario(source)
    if isinstance(source, Mapping):
        data, index, label, text, path = dict(source), PathIndex(), DICT_SOURCE, None, None
    else:
        path = label = os.fsdecode(source)
        text = read_text(path)
        data, index = read_yaml(text, label)
    load_parsed(data, index, label, text, path)          # the file as written
    changed, resolved = apply_sets(data, sets, option)
    try:
        loaded = load_parsed(changed, index, label, text, path)
        compile_scenario(loaded)
    except ScenarioError as err:
        raise relocate(err, resolved, option) from None
    return loaded


def note(sets: Sequence[Override], option: str = "--set") -> str:
    """``with --set a=1, --set b=2``: what the output played beyond the file."""
    return "with " + ", ".join(f"{option} {o.text}" for o in sets)


def as_comment(sets: Sequence[Override], command: str, option: str = "--set") -> str:
    """Lines to add under a scenario's text in a manifest: the run's overrides."""
    if not sets:
        return ""
    return "".join(f"# {command} {option} {o.text}\n" for o in sets)
