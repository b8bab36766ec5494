"""Scenario files in, validated frozen models out: the one place user files are checked.

:func:`load_scenario` reads a file (or takes a mapping), checks it against its ruleset's model,
applies its table patches and checks every table reference. Every problem of a file is raised
at once in one :class:`ScenarioError`, sorted by line: a designer fixes a file in one pass and
never sees a traceback or gets half a scenario.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import pydantic

from balance.errors import OptionError, Problem, ScenarioError, closest, unknown_name
from balance.io import jsonout
from balance.io.problems import validate_model
from balance.io.tables import resolve_rows, row_kind
from balance.io.yamlfile import MAX_BYTES, PathIndex, parse_path, read_yaml
from balance.models import SCENARIO_MODELS, TABLE_MODELS, scenario_schema, unknown_ruleset

DICT_SOURCE = "<dict>"


@dataclass(frozen=True)
class LoadedScenario:
    """A checked scenario: its model, its resolved tables, and where it came from."""

    model: pydantic.BaseModel
    tables: pydantic.BaseModel
    ruleset: str
    text: str | None          # the file's text; None for a mapping
    path: str | None          # the file's path as given; None for a mapping
    notes: tuple[str, ...] = ()   # what the file leaves to defaults worth saying (new rows)


def load_scenario(source: str | os.PathLike[str] | Mapping[str, Any]) -> LoadedScenario:
    """Load and check a scenario from a file path or a mapping.

    Raises :class:`ScenarioError` listing every problem found, each with the field path and,
    for files, ``line:column``.
    """
    if isinstance(source, Mapping):
        data, index, label, text, path = source, PathIndex(), DICT_SOURCE, None, None
    elif isinstance(source, str | os.PathLike):
        path = label = os.fsdecode(source)
        text = read_text(path)
        data, index = read_yaml(text, label)
    else:
        raise ScenarioError([Problem("a scenario source must be a file path or a mapping, not "
                                     f"{type(source).__name__}", "", "<input>")])
    return load_parsed(data, index, label, text, path)


def load_parsed(data: Mapping[str, Any], index: PathIndex, label: str, text: str | None,
                path: str | None) -> LoadedScenario:
    """Check plain data already read from ``text`` (``index`` locates its fields in it).

    For callers that read a file once and load part of it: a sweep file's scenario without
    its ``sweep:`` block keeps the file's own lines and columns in every problem, however the
    block is written (block or flow style, one line or many).
    """
    ruleset = _ruleset(data, label, index)
    if "sweep" in data:      # not a typo of 'seed': a sweep file given where one fight is read
        raise ScenarioError([index.problem(
            "this file holds a sweep, and this command plays one fight: run the sweep with "
            "'balance sweep FILE', or leave out the sweep: block", ("sweep",), label,
            at_key=True)])
    model, problems = validate_model(SCENARIO_MODELS[ruleset], data, label, index)
    if model is None:
        raise ScenarioError(_in_order(problems))
    rows, problems, bad = resolve_rows(ruleset, getattr(model, "tables", None), label, index)
    problems += _reference_problems(model, rows, bad, label, index)
    if problems:
        raise ScenarioError(_in_order(problems))
    tables = TABLE_MODELS[ruleset].model_validate(rows, strict=True)
    return LoadedScenario(model, tables, ruleset, text, path,
                          _default_notes(ruleset, model, tables, label, index))


def _default_notes(ruleset: str, model: pydantic.BaseModel, tables: pydantic.BaseModel,
                   label: str, index: PathIndex) -> tuple[str, ...]:
    """``file:line:col: note: tables.weapons.bastard_sword: a new weapon; fields left at
    their defaults: defence 0, ...`` for each row the scenario adds without every field
    (compiler style: editors jump to the row)."""
    from balance.io.tables import defaulted_fields, row_kind

    out = []
    for table, name, left in defaulted_fields(ruleset, getattr(model, "tables", None), tables):
        at = index.problem("", ("tables", table, name), label)
        where = label + "".join(f":{n}" for n in (at.line, at.column) if n is not None)
        values = ", ".join(f"{k} {_short(v)}" for k, v in left.items())
        out.append(f"{where}: note: {at.path}: a new {row_kind(table)}; fields left at their "
                   f"defaults: {values} (write them in the row to choose)")
    return tuple(out)


def _short(value: Any) -> str:
    if isinstance(value, tuple | list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def read_text(path: str) -> str:
    """A scenario file's text; a missing, huge, binary or unreadable file is a clean error."""
    try:
        if os.path.isdir(path):
            _fail(path, "is a directory, not a scenario file")
        if os.stat(path).st_size > MAX_BYTES:
            _fail(path, f"the file is larger than {MAX_BYTES // (1 << 20)} MiB; is it a scenario?")
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        _fail(path, f"no such file{_near_file(path)}")
    except PermissionError:
        _fail(path, "cannot read the file: permission denied")
    except OSError as err:
        _fail(path, f"cannot read the file: {err.strerror or err}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line_start = raw.rfind(b"\n", 0, err.start) + 1
        line = raw.count(b"\n", 0, err.start) + 1
        raise ScenarioError([Problem(
            f"the file is not UTF-8 text (byte 0x{raw[err.start]:02x}); is it a scenario?",
            "", path, line, err.start - line_start + 1)]) from None


def locate_problems(loaded: LoadedScenario, problems: Iterable[Problem]) -> list[Problem]:
    """Problems found after loading (when the fighters are compiled), each given the file
    and the line and column of its field path."""
    problems = list(problems)
    where = loaded.path or DICT_SOURCE
    index = PathIndex()
    if loaded.text is not None:
        try:
            index = read_yaml(loaded.text, where)[1]
        except ScenarioError:   # it was read once already; never hide the real problem
            pass
    out = []
    for p in problems:
        line, column = p.line, p.column
        if line is None:
            line, column = index.locate(parse_path(p.path)) or (None, None)
        out.append(dataclasses.replace(p, file=p.file or where, line=line, column=column))
    return out


def schema_text(ruleset: str | None = None) -> str:
    """The JSON Schema of scenario files (all rulesets, or one) as indented JSON text."""
    if ruleset is not None and ruleset not in SCENARIO_MODELS:
        raise OptionError(unknown_ruleset(ruleset))
    schema = scenario_schema(None if ruleset is None else [ruleset])
    return jsonout.dumps(schema, indent=2) + "\n"


def write_schema(path: str | os.PathLike[str], ruleset: str | None = None) -> None:
    """Write :func:`schema_text` to ``path`` for editors (see ``balance schema --help``),
    whole or not at all; a path that cannot be written is an :class:`OptionError`."""
    from balance.io.atomic import check_writable, write_text

    if os.path.isdir(path):
        raise OptionError(f"{os.fsdecode(path)}: is a folder; give --out a file name such as "
                          "balance-scenario.schema.json")
    check_writable(path, what="file")
    text = schema_text(ruleset)
    try:
        write_text(path, text)
    except OSError as err:
        raise OptionError(f"{os.fsdecode(path)}: cannot write the schema: "
                          f"{err.strerror or err}") from None


def _ruleset(data: Any, label: str, index: PathIndex) -> str:
    """The scenario's ruleset name, checked first: it decides which model reads the rest."""
    available = ", ".join(sorted(SCENARIO_MODELS))
    if not isinstance(data, Mapping):   # read_yaml guarantees a mapping; a Mapping input too
        raise ScenarioError([index.problem("a scenario must be a mapping", (), label)])
    if "ruleset" not in data:
        message = f"missing required key 'ruleset' (one of: {available})"
        raise ScenarioError([index.problem(message, (), label)])
    name = data["ruleset"]
    if not isinstance(name, str):
        message = f"expected a ruleset name (one of: {available}), found {name!r}"
        raise ScenarioError([index.problem(message, ("ruleset",), label)])
    if name not in SCENARIO_MODELS:
        raise ScenarioError([index.problem(unknown_ruleset(name), ("ruleset",), label)])
    return name


def _reference_problems(model: pydantic.BaseModel, rows: Mapping[str, Mapping[str, Any]],
                        bad: Mapping[str, set[str]], label: str,
                        index: PathIndex) -> list[Problem]:
    """A problem for each table name a member uses that no table row has."""
    problems = []
    references = model.references() if hasattr(model, "references") else []
    for path, table, name in references:
        if name in rows[table] or name in bad[table]:
            continue
        message = unknown_name(row_kind(table), name, rows[table])
        problems.append(index.problem(message, path, label))
    return problems


def _in_order(problems: list[Problem]) -> list[Problem]:
    """Problems without repeats, by line then column (unlocated ones last)."""
    unique = dict.fromkeys(problems)
    return sorted(unique, key=lambda p: (p.line is None, p.line or 0, p.column or 0))


def _near_file(path: str) -> str:
    """`` (did you mean 'duel.yaml'?)`` when a file of a close name sits beside ``path``.

    Names are compared without their shared extension, which would otherwise make any two
    ``.yaml`` names look alike."""
    folder, name = os.path.split(path)
    stem, ext = os.path.splitext(name)
    try:
        files = {os.path.splitext(f)[0]: f for f in os.listdir(folder or ".")
                 if os.path.splitext(f)[1] == ext and os.path.isfile(os.path.join(folder, f))}
    except OSError:
        return ""
    near = closest(stem, files, n=1)
    return f" (did you mean {os.path.join(folder, files[near[0]])!r}?)" if near else ""


def _fail(path: str, message: str) -> NoReturn:
    raise ScenarioError([Problem(message, "", path)])
