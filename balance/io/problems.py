"""Plain data to strict validated models, and pydantic's errors in a game designer's words.

:func:`validate_model` turns the plain data :func:`~balance.io.yamlfile.read_yaml` returns
into a strict model; every pydantic error becomes a :class:`~balance.errors.Problem` located
by the file's :class:`~balance.io.yamlfile.PathIndex`, with a message that says what was
expected, what was found, and the closest valid name.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

import pydantic

from balance.errors import FieldValueError, Problem, closest
from balance.io.yamlfile import MAX_DEPTH, MAX_NODES, Path, PathIndex, key_text
from balance.io.yamlfile import show_value as _show

# --- Plain data to a validated model -------------------------------------------------------
# Models are strict. pydantic's strict *Python* mode refuses a YAML list for a tuple field; its
# strict *JSON* mode accepts it and still refuses ``no`` for an integer. So data goes via JSON.

M = TypeVar("M", bound=pydantic.BaseModel)

_YAML_BOOL = "YAML reads yes/no/on/off as true/false"
_NUMBER = re.compile(r"[-+]?[0-9]+(\.[0-9]*)?")             # a number YAML would have read
_SCIENTIFIC = re.compile(r"[-+]?[0-9]+(\.[0-9]*)?[eE][-+]?[0-9]{1,3}")  # 1e6: text in YAML 1.1
_NUMERIC = {"int_type", "int_parsing", "int_from_float", "float_type", "float_parsing"}
_EXPECTED = {
    "int_type": "an integer", "int_parsing": "an integer", "int_from_float": "a whole number",
    "float_type": "a number", "float_parsing": "a number", "string_type": "a string",
    "bool_type": "true or false", "bool_parsing": "true or false", "none_required": "nothing",
    "model_type": "a mapping (key: value lines)", "dict_type": "a mapping (key: value lines)",
    "model_attributes_type": "a mapping (key: value lines)",
    "list_type": "a list", "tuple_type": "a list",
}


def validate_model(model: type[M], data: Any, source: str, index: PathIndex,
                   base: Path = ()) -> tuple[M | None, list[Problem]]:
    """Validate ``data`` (found at ``base`` in the file) as ``model``, collecting every problem.

    Returns the model and no problems, or None and at least one located, friendly problem.
    """
    plain, problems, bad = _to_plain(data, source, index, base)
    try:
        result = model.model_validate_json(json.dumps(plain), strict=True)
    except pydantic.ValidationError as err:
        return None, problems + explain(err, model, source, index, base, skip=bad)
    return (None if problems else result), problems


def _to_plain(data: Any, source: str, index: PathIndex,
              base: Path) -> tuple[Any, list[Problem], list[Path]]:
    """A JSON-ready copy of ``data``, and problems (with their paths) for what JSON cannot hold.

    YAML data passes unchanged but for non-text keys and explicit tags (``!!binary``, ``!!set``);
    a dict from Python may hold anything, including itself.
    """
    problems: list[Problem] = []
    bad: list[Path] = []
    active: set[int] = set()
    budget = [MAX_NODES]

    def flag(path: Path, message: str, *, at_key: bool = False) -> None:
        problems.append(index.problem(message, path, source, at_key=at_key))
        bad.append(path)

    def conv(value: Any, path: Path) -> Any:
        budget[0] -= 1
        if budget[0] < 0 or len(path) - len(base) > MAX_DEPTH:
            flag(path[: len(base) + 1], f"too many values (more than {MAX_NODES})"
                 if budget[0] < 0 else f"nesting too deep (more than {MAX_DEPTH} levels)")
            return None
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 1024:
            flag(path, f"found a number of {len(str(value))} digits, far too large")
            return None
        if value is None or isinstance(value, bool | int | float):
            return value
        if isinstance(value, str):
            if value.encode("utf-8", "surrogatepass") == value.encode("utf-8", "replace"):
                return value
            flag(path, "the text holds an invalid character (a lone surrogate)")
            return None
        if not isinstance(value, Mapping | list | tuple):
            flag(path, f"found {_describe(value)}, which a scenario cannot hold")
            return None
        if id(value) in active:
            flag(path, "the value contains itself")
            return None
        active.add(id(value))
        try:
            if isinstance(value, Mapping):
                return {key(k, path): conv(v, (*path, key_text(k))) for k, v in value.items()}
            return [conv(item, (*path, i)) for i, item in enumerate(value)]
        finally:
            active.discard(id(value))

    def key(k: object, path: Path) -> str:
        if not isinstance(k, str):
            hint = f"{_YAML_BOOL}; quote it" if isinstance(k, bool) else "quote it"
            flag((*path, key_text(k)), f"key {k!r} is not text ({hint})", at_key=True)
        return key_text(k)

    return conv(data, base), problems, bad


def _describe(value: object) -> str:
    if isinstance(value, bytes | bytearray):
        return "binary data"
    if isinstance(value, set | frozenset):
        return "a set (use a list)"
    if isinstance(value, dt.date):
        return f"a date ({value.isoformat()}; quote it to make it text)"
    return f"a {type(value).__module__}.{type(value).__qualname__} object"


# --- pydantic errors as designers' messages -------------------------------------------------


@dataclass
class _Where:
    """An error's location, read along the model: union tags and ``[key]`` taken out."""

    path: Path
    at_key: bool = False
    union: bool = False
    parent: Any = None   # the type holding the last path element
    type: Any = None     # the type expected at the path


def explain(err: pydantic.ValidationError, model: type[pydantic.BaseModel], source: str,
            index: PathIndex, base: Path = (), skip: Iterable[Path] = ()) -> list[Problem]:
    """Every error of ``err`` as a located :class:`Problem`; union branches become one."""
    skip = list(skip)
    groups: dict[tuple[Path, bool, int], list[tuple[dict[str, Any], _Where]]] = {}
    for n, error in enumerate(err.errors(include_url=False)):
        found = error.get("ctx", {}).get("error")     # a model-wide check naming its field
        if isinstance(found, FieldValueError):
            error = {**error, "loc": (*error["loc"], *found.loc)}
        where = _walk(model, error["loc"])
        where.path = (*base, *where.path)
        if any(where.path[: len(s)] == s for s in skip):
            continue
        group = (where.path, where.at_key, -1 if where.union else n)
        groups.setdefault(group, []).append((error, where))
    return [_problem(errors, source, index, model) for errors in groups.values()]


def _problem(errors: list[tuple[dict[str, Any], _Where]], source: str,
             index: PathIndex, model: type[pydantic.BaseModel] | None = None) -> Problem:
    """One problem for one error, or for all the failed branches of one union field."""
    error, where = errors[0]
    kind, path, last = error["type"], where.path, where.path[-1:] or ("",)
    if kind == "missing":
        return index.problem(f"missing required key {last[0]!r}", path[:-1], source)
    if kind == "extra_forbidden":
        return index.problem(_unknown_key(str(last[0]), where.parent, model), path[:-1],
                             source, at=path, at_key=True)
    bounds = [(e, w) for e, w in errors if not _is_type_error(e)]
    if bounds:   # a value of the right type (of one union branch) says best what is wrong
        error, where = bounds[0]
        message = _constraint(error, where)
    else:
        message = _type_message(errors)
    if where.at_key:
        message = f"key {error['input']!r}: {message}"
    return index.problem(message, path, source, at_key=where.at_key)


def _is_type_error(error: dict[str, Any]) -> bool:
    return error["type"] in _EXPECTED or error["type"] == "literal_error"


def _type_message(errors: list[tuple[dict[str, Any], _Where]]) -> str:
    """``expected an integer, found False (...)``, for one error or a union's branches."""
    wanted: list[str] = []
    options: list[object] = []
    for error, where in errors:
        if error["type"] == "literal_error":
            choices = _literal_options(where.type) or ()
            options += choices
            wanted.append(_one_of(choices) if choices else
                          f"one of {error.get('ctx', {}).get('expected', '?')}")
        else:
            wanted.append(_EXPECTED[error["type"]])
    found = errors[0][0]["input"]
    message = f"expected {' or '.join(dict.fromkeys(wanted))}, found {_show(found)}"
    return message + _hint(found, {e["type"] for e, _ in errors}, options)


def _hint(found: object, kinds: set[str], options: list[object]) -> str:
    """The likely cause of a wrong type, from what YAML makes of unquoted text."""
    numeric = bool(kinds & _NUMERIC) or any(isinstance(o, int) for o in options)
    if isinstance(found, bool) and not kinds & {"bool_type", "bool_parsing"}:
        return f" ({_YAML_BOOL}; quote it or use a number)" if numeric else \
               f" ({_YAML_BOOL}; quote it)"
    if found is None:
        return " (the key has no value)"
    if isinstance(found, str):
        near = closest(found, [o for o in options if isinstance(o, str)], n=1)
        if near:
            return f" (did you mean {near[0]!r}?)"
        if numeric and _NUMBER.fullmatch(found):
            return " (remove the quotes)"
        if numeric and _SCIENTIFIC.fullmatch(found):
            exact = float(found)
            plain = f"{int(exact)}" if exact.is_integer() else f"{exact}"
            return f" (YAML reads {found} as text; write {plain})"
        if kinds & {"list_type", "tuple_type"}:
            return f" (write [{found}] for a list of one)"
    if isinstance(found, float) and found.is_integer() and kinds & _NUMERIC - {"float_type"}:
        return f" (write {int(found)})"
    if isinstance(found, int | float) and "string_type" in kinds:
        return " (quote it to make it text)"
    return ""


def _constraint(error: dict[str, Any], where: _Where) -> str:
    """A value of the right type that breaks a bound: pydantic's words plus what was found."""
    kind, ctx, found = error["type"], error.get("ctx", {}), error["input"]
    if kind in {"too_short", "too_long"} and where.path and isinstance(where.path[-1], str):
        noun, actual = where.path[-1], ctx.get("actual_length", len(found))
        if kind == "too_short":
            n = ctx["min_length"]
            return f"{_owner(where.parent)} needs at least {n} {_noun(noun, n)}, found {actual}"
        n = ctx["max_length"]
        return f"{_owner(where.parent)} allows at most {n} {_noun(noun, n)}, found {actual}"
    if kind == "string_too_short" and ctx.get("min_length") == 1:
        return "must not be empty"
    if kind in {"string_too_short", "string_too_long"}:
        return f"{_should(error['msg'])}, found {len(found)}"
    if kind in {"value_error", "assertion_error"}:
        return error["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return f"{_should(error['msg'])}, found {_show(found)}"


def _unknown_key(key: str, parent: Any, root: type[pydantic.BaseModel] | None = None) -> str:
    fields = list(getattr(_unwrap(parent), "model_fields", {}))
    near = closest(key, fields)
    if near:
        return f"unknown key {key!r} (did you mean {', '.join(map(repr, near))}?)"
    homes = [h for h in _homes(key, root) if h[1] is not _unwrap(parent)] if root else []
    if homes:   # ``rules: {step_back: false}``: a real key, in the wrong place
        return (f"unknown key {key!r} here; it is a key of "
                f"{' or '.join(sorted({h[0] for h in homes})[:3])}")
    known = f" (known keys: {', '.join(fields)})" if 0 < len(fields) <= 12 else ""
    return f"unknown key {key!r}{known}"


def _homes(key: str, root: type[pydantic.BaseModel]) -> list[tuple[str, Any]]:
    """Where in ``root``'s tree a field called ``key`` exists: (path as a designer writes it,
    e.g. ``sides[].members[].policy``, the model holding it)."""
    found: list[tuple[str, Any]] = []
    seen: set[Any] = set()

    def visit(tp: Any, path: str, depth: int) -> None:
        for model in _models_in(tp):
            if model in seen or depth > 8:
                continue
            seen.add(model)
            for name, info in model.model_fields.items():
                if name == key:
                    found.append((path or "the top level", model))
                here = f"{path}.{name}" if path else name
                visit(info.annotation, here + _container(info.annotation), depth + 1)
            seen.discard(model)

    visit(root, "", 0)
    return found


def _container(tp: Any) -> str:
    """``[]`` after a list field's name, ``.<name>`` after a mapping's, else nothing."""
    origin = get_origin(_unwrap(tp))
    return "[]" if origin in (list, tuple, set, frozenset) else \
        ".<name>" if origin is dict else ""


def _models_in(tp: Any) -> list[type[pydantic.BaseModel]]:
    """The models a type annotation holds, through ``Annotated``, unions and containers
    (a list or dict of models is written ``[]`` in the path: see :func:`_homes`)."""
    tp = _unwrap(tp)
    if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        return [tp]
    out = []
    for arg in get_args(tp):
        if arg is not Ellipsis and arg is not NoneType:
            out += _models_in(arg)
    return out


def _walk(model: type[pydantic.BaseModel], loc: tuple[str | int, ...]) -> _Where:
    """Follow ``loc`` through the model's annotations, dropping union tags and ``[key]``."""
    where = _Where(path=(), type=model)
    for item in loc:
        if item == "[key]":
            where.at_key = True
            continue
        inner = _unwrap(where.type)
        if _is_union(inner):
            where.union, where.type = True, _branch(inner, str(item))
            continue
        where.parent, where.type = inner, _step(inner, item)
        where.path = (*where.path, item)
    return where


def _unwrap(tp: Any) -> Any:
    """The type under ``Annotated[...]`` and ``X | None``."""
    while True:
        origin = get_origin(tp)
        if origin is Annotated:
            tp = get_args(tp)[0]
        elif _is_union(tp) and len(args := [a for a in get_args(tp) if a is not NoneType]) == 1:
            tp = args[0]
        else:
            return tp


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, UnionType)


def _branch(union: Any, tag: str) -> Any:
    """The member of ``union`` that pydantic's tag (``literal['auto']``, ``int``) names."""
    for member in get_args(union):
        inner = _unwrap(member)
        name = getattr(inner, "__name__", "")
        if get_origin(inner) is Literal and tag.startswith("literal["):
            return inner
        if name and (tag == name or tag.endswith(f"-{name}") or tag == name.lower()):
            return inner
    return None


def _step(tp: Any, item: str | int) -> Any:
    """The type one path element below ``tp``."""
    if isinstance(tp, type) and issubclass(tp, pydantic.BaseModel):
        field_info = tp.model_fields.get(str(item))
        return field_info.annotation if field_info else None
    origin, args = get_origin(tp), get_args(tp)
    if origin is dict and len(args) == 2:
        return args[1]
    if origin in (list, set, frozenset) and args:
        return args[0]
    if origin is tuple and args:
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0]
        return args[item] if isinstance(item, int) and item < len(args) else None
    return None


def _literal_options(tp: Any) -> tuple[object, ...] | None:
    inner = _unwrap(tp)
    return get_args(inner) if get_origin(inner) is Literal else None


def _one_of(options: tuple[object, ...]) -> str:
    if len(options) == 1:
        return repr(options[0])
    return f"one of {', '.join(map(repr, options))}"


def _owner(parent: Any) -> str:
    """``a scenario``, ``a side``: the thing that holds a list, for length messages."""
    name = getattr(parent, "__name__", "")
    if not name:
        return "this list"
    word = "scenario" if name.endswith("Scenario") else name.lower()
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _noun(plural: str, n: int) -> str:
    return plural[:-1] if n == 1 and plural.endswith("s") else plural


def _should(msg: str) -> str:
    return msg.replace("Input should", "should", 1).replace("String should", "should", 1)
