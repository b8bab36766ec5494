"""YAML text to plain data, safely, with the line and column of every field.

PyYAML alone is not enough at the edge: it keeps the last of two duplicate keys without a word,
recurses until ``RecursionError`` on ~1 KB of brackets, and expands a 200-byte alias document
to millions of values. :func:`read_yaml` guards against all three and returns, beside the data,
a :class:`PathIndex` that turns a field path (as pydantic reports it) into ``line:column``.
:func:`validate_model` then turns plain data into a strict model, and every pydantic error
into a located :class:`~balance.errors.Problem` in a game designer's words.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import NoneType, UnionType
from typing import Annotated, Any, ClassVar, Literal, NoReturn, TypeVar, Union, get_args, get_origin

import pydantic
import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from balance.errors import Problem, ScenarioError, closest

MAX_BYTES = 1 << 20       # a scenario is a few KB; 1 MiB of YAML takes ~1-5 s to read
MAX_DEPTH = 64            # scenarios nest ~6 deep; PyYAML's recursion fails near ~300
MAX_ALIASES = 100         # anchors are for reusing a member or a row, not for bombs
MAX_NODES = 200_000       # values after alias expansion

Path = tuple[str | int, ...]
Pos = tuple[int, int]     # 1-based line and column

_MERGE = "tag:yaml.org,2002:merge"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")


def format_path(path: Path) -> str:
    """``("sides", 1, "members", 0, "armour")`` as ``sides[1].members[0].armour``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENT.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]"
    return out


def key_text(key: object) -> str:
    """The text a mapping key stands for, as JSON would write it (``True`` -> ``"true"``)."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool) or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    return str(key)


@dataclass(frozen=True)
class PathIndex:
    """Where each field of a file sits: path -> (line, column) of its value and of its key."""

    values: Mapping[Path, Pos] = field(default_factory=dict)
    keys: Mapping[Path, Pos] = field(default_factory=dict)

    def __getitem__(self, path: Path) -> Pos:
        return self.values[path]

    def __contains__(self, path: object) -> bool:
        return path in self.values

    def locate(self, path: Path, *, at_key: bool = False) -> Pos | None:
        """Position of ``path`` (its key if ``at_key``), else of its nearest existing parent."""
        if at_key and path in self.keys:
            return self.keys[path]
        for end in range(len(path), -1, -1):
            if path[:end] in self.values:
                return self.values[path[:end]]
        return None

    def problem(self, message: str, path: Path, file: str, *, at: Path | None = None,
                at_key: bool = False) -> Problem:
        """A :class:`Problem` about ``path``, placed at ``at`` (default: ``path``) if known."""
        line, column = self.locate(path if at is None else at, at_key=at_key) or (None, None)
        return Problem(message, format_path(path), file, line, column)


class _Abort(Exception):
    """A limit hit while composing; carries the problem so the reader can stop at once."""

    def __init__(self, message: str, mark: yaml.Mark | None):
        super().__init__(message)
        self.message, self.mark = message, mark


class _Checks:
    """Loader mix-in: limits on aliases, nesting and size while composing; dates left as text.

    Scenarios have no date fields, so ``name: 2024-05-01 test`` should stay a string rather than
    become a ``datetime.date`` that every text field then rejects.
    """

    yaml_implicit_resolvers: ClassVar = {
        first: [(tag, rx) for tag, rx in resolvers if tag != _TIMESTAMP]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    aliases = depth = nodes = 0

    def compose_node(self, parent: Node | None, index: object) -> Node:
        mark = self.peek_event().start_mark
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _Abort(f"too many aliases (alias bomb?): more than {MAX_ALIASES}", mark)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Abort(f"the file holds more than {MAX_NODES} values; is it a scenario?", mark)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Abort(f"nesting too deep (more than {MAX_DEPTH} levels)", mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        """Turn the bare ``ValueError`` of e.g. ``!!int abc`` into a located YAML error."""
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except (ValueError, TypeError, AttributeError, OverflowError) as err:
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {_show(node.value)} as {node.tag.rsplit(':', 1)[-1]}",
                node.start_mark) from err


class _PyLoader(_Checks, yaml.SafeLoader):
    """The checked loader on PyYAML's pure-Python parser."""


def _libyaml_loader() -> type | None:
    """The checked loader on libyaml's parser (same composer and limits), if libyaml is here.

    libyaml tokenises ~5x faster on ordinary files and ~40x on deeply bracketed ones, where
    PyYAML's scanner needs 20 s for 1 MiB; only the wording of syntax errors differs.
    """
    if not yaml.__with_libyaml__:
        return None

    class _CLoader(_Checks, yaml.composer.Composer, yaml.cyaml.CParser,
                   yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
        def __init__(self, text: str):
            yaml.cyaml.CParser.__init__(self, text)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

    return _CLoader


_Loader: type = _libyaml_loader() or _PyLoader


def read_yaml(text: str, source: str) -> tuple[Any, PathIndex]:
    """Parse one YAML document holding a mapping; raise :class:`ScenarioError` on any problem.

    ``source`` names the file in messages. The data holds only what ``yaml.safe_load`` makes
    (minus dates); the index locates every key and value by field path.
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        _fail(f"the file is larger than {MAX_BYTES // (1 << 20)} MiB; is it a scenario?", source)
    if not text.strip():
        _fail("the file is empty; a scenario needs at least name:, ruleset: and sides:", source)
    try:
        loader = _Loader(text)
    except yaml.YAMLError as err:    # the reader refuses control characters up front
        _raise_yaml(err, text, source)
    try:
        root = _compose(loader, text, source)
        index, duplicates = _index(loader, root)
        if duplicates:
            raise ScenarioError(Problem(m, format_path(p), source, *at) for m, p, at in duplicates)
        data = _construct(loader, root, text, source)
    finally:
        loader.dispose()
    return data, index


def _fail(message: str, source: str, pos: Pos | tuple[None, None] = (None, None)) -> NoReturn:
    raise ScenarioError([Problem(message, "", source, *pos)])


def _compose(loader: Any, text: str, source: str) -> MappingNode:
    """The document's node graph, checked for size, depth, alias expansion and shape."""
    try:
        root = loader.get_single_node()
    except _Abort as err:
        _fail(err.message, source, _pos(err.mark))
    except RecursionError:
        _fail(f"nesting too deep (more than {MAX_DEPTH} levels)", source)
    except yaml.YAMLError as err:
        _raise_yaml(err, text, source)
    if root is None or (isinstance(root, ScalarNode) and root.tag.endswith(":null")):
        _fail("the file holds no scenario (an empty or null document)", source)
    if not isinstance(root, MappingNode):
        found = "a list" if isinstance(root, SequenceNode) else _show(root.value)
        _fail(f"a scenario file must be a mapping of keys (name:, ruleset:, sides:, ...), "
              f"found {found}", source, _pos(root.start_mark))
    _check_expansion(root, source)
    return root


def _construct(loader: Any, root: Node, text: str, source: str) -> Any:
    """Python data for the checked node graph (merge keys applied)."""
    try:
        return loader.construct_document(root)
    except RecursionError:
        _fail(f"nesting too deep (more than {MAX_DEPTH} levels)", source)
    except yaml.YAMLError as err:
        _raise_yaml(err, text, source)


def _check_expansion(root: Node, source: str) -> None:
    """Refuse graphs that expand (through aliases) past MAX_NODES values or MAX_DEPTH levels."""
    sizes: dict[int, tuple[int, int]] = {}      # id -> (values, height), memoised over aliases
    active: set[int] = set()

    def visit(node: Node, depth: int) -> tuple[int, int]:
        key = id(node)
        if key in active:
            _fail("an alias refers to the node that contains it", source, _pos(node.start_mark))
        if key not in sizes:
            active.add(key)
            count, height = 1, 0
            for child in _children(node):
                c, h = visit(child, depth + 1)
                count, height = count + c, max(height, h + 1)
                if count > MAX_NODES:
                    _fail(f"too many aliases (alias bomb?): the file expands to more than "
                          f"{MAX_NODES} values", source, _pos(node.start_mark))
            active.discard(key)
            sizes[key] = (count, height)
        if depth + sizes[key][1] > MAX_DEPTH:
            _fail(f"nesting too deep (more than {MAX_DEPTH} levels, counting aliases)", source,
                  _pos(node.start_mark))
        return sizes[key]

    visit(root, 1)


def _children(node: Node) -> Iterator[Node]:
    if isinstance(node, SequenceNode):
        yield from node.value
    elif isinstance(node, MappingNode):
        for key, value in node.value:
            yield key
            yield value


def _index(loader: Any, root: MappingNode) -> tuple[PathIndex, list[tuple[str, Path, Pos]]]:
    """Positions of every value and key by path, and the duplicate keys found on the way."""
    values: dict[Path, Pos] = {(): _pos(root.start_mark)}
    keys: dict[Path, Pos] = {}
    duplicates: dict[Pos, tuple[str, Path, Pos]] = {}   # by position: aliases repeat nodes

    def walk(node: Node, path: Path) -> None:
        if isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                values[(*path, i)] = _pos(item.start_mark)
                walk(item, (*path, i))
        elif isinstance(node, MappingNode):
            mapping(node, path, explicit=True)

    def mapping(node: MappingNode, path: Path, *, explicit: bool) -> None:
        for merged in _merged(node):          # ``<<: *base`` entries, overridden by explicit ones
            mapping(merged, path, explicit=False)
        seen: dict[object, Pos] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                continue
            key = _key(loader, key_node)
            if key is None:
                continue
            here = _pos(key_node.start_mark)
            if key in seen and explicit:
                duplicates[here] = (f"duplicate key {key!r} (first at line {seen[key][0]}; YAML "
                                    f"would silently keep only the last)", path, here)
            seen[key] = here
            child = (*path, key_text(key))
            keys[child], values[child] = here, _pos(value_node.start_mark)
            walk(value_node, child)

    walk(root, ())
    return PathIndex(values, keys), sorted(duplicates.values(), key=lambda d: d[2])


def _merged(node: MappingNode) -> list[MappingNode]:
    """The mappings a ``<<`` key merges into ``node``, lowest precedence first (as PyYAML)."""
    out: list[MappingNode] = []
    for key_node, value_node in node.value:
        if key_node.tag != _MERGE:
            continue
        if isinstance(value_node, MappingNode):
            out.append(value_node)
        elif isinstance(value_node, SequenceNode):
            out.extend(reversed([n for n in value_node.value if isinstance(n, MappingNode)]))
    return out


def _key(loader: Any, node: Node) -> object | None:
    """A scalar key's value, or None when it has none (bad tags fail later, located)."""
    if not isinstance(node, ScalarNode):
        return None
    try:
        key = loader.construct_object(node, deep=True)
    except (yaml.YAMLError, RecursionError):
        return None
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _pos(mark: yaml.Mark | None) -> Pos | tuple[None, None]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


_PARSER_HINTS = (   # the usual causes of PyYAML's terser messages
    ("mapping values are not allowed", "; a value that contains ': ' needs quotes"),
    ("found character '\\t' that cannot start", "; YAML indents with spaces, never tabs"),
)


def _raise_yaml(err: yaml.YAMLError, text: str, source: str) -> NoReturn:
    """Re-raise a PyYAML error as a one-line located Problem."""
    if isinstance(err, yaml.reader.ReaderError):   # the first bad character; libyaml counts
        at = text.find(chr(err.character))         # its position in bytes, PyYAML in characters
        before = text[: at if at >= 0 else err.position]
        pos = (before.count("\n") + 1, len(before) - before.rfind("\n"))
        _fail(f"unacceptable character #x{err.character:04x}: {err.reason}", source, pos)
    if not isinstance(err, yaml.MarkedYAMLError):
        _fail(f"cannot read YAML: {err}", source)
    if err.problem == "exceeded maximum nesting depth":      # libyaml's own limit, at 1000
        _fail(f"nesting too deep (more than {MAX_DEPTH} levels)", source, _pos(err.problem_mark))
    if err.problem == "but found another document":
        _fail("a scenario file holds one YAML document; found a second one (a '---' line)",
              source, _pos(err.problem_mark))
    message = err.problem or err.context or "invalid YAML"
    context_mark = err.context_mark
    if err.context and err.problem:
        where = f" at line {context_mark.line + 1}" if context_mark is not None else ""
        message += f" ({err.context}{where})"
    message += next((hint for start, hint in _PARSER_HINTS if message.startswith(start)), "")
    _fail(message, source, _pos(err.problem_mark or context_mark))



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
        where = _walk(model, error["loc"])
        where.path = (*base, *where.path)
        if any(where.path[: len(s)] == s for s in skip):
            continue
        group = (where.path, where.at_key, -1 if where.union else n)
        groups.setdefault(group, []).append((error, where))
    return [_problem(errors, source, index) for errors in groups.values()]


def _problem(errors: list[tuple[dict[str, Any], _Where]], source: str,
             index: PathIndex) -> Problem:
    """One problem for one error, or for all the failed branches of one union field."""
    error, where = errors[0]
    kind, path, last = error["type"], where.path, where.path[-1:] or ("",)
    if kind == "missing":
        return index.problem(f"missing required key {last[0]!r}", path[:-1], source)
    if kind == "extra_forbidden":
        return index.problem(_unknown_key(str(last[0]), where.parent), path[:-1], source,
                             at=path, at_key=True)
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


def _unknown_key(key: str, parent: Any) -> str:
    fields = list(getattr(_unwrap(parent), "model_fields", {}))
    near = closest(key, fields)
    if near:
        return f"unknown key {key!r} (did you mean {', '.join(map(repr, near))}?)"
    known = f" (known keys: {', '.join(fields)})" if 0 < len(fields) <= 12 else ""
    return f"unknown key {key!r}{known}"


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


def _show(value: object) -> str:
    """A found value as the designer would recognise it, kept short."""
    if value is None:
        return "nothing"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
