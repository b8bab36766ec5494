"""YAML text to plain data, safely, with the line and column of every field.

PyYAML alone is not enough at the edge: it keeps the last of two duplicate keys without a word,
recurses until ``RecursionError`` on ~1 KB of brackets, and expands a 200-byte alias document
to millions of values. :func:`read_yaml` guards against all three and returns, beside the data,
a :class:`PathIndex` that turns a field path (as pydantic reports it) into ``line:column``.
``balance.io.problems`` then turns plain data into a strict model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from balance.errors import Problem, ScenarioError
from balance.io.yamlerrors import explain as explain_yaml_error

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


_PART = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_\-]*)|\[(\d+)\]|\[('(?:[^'\\]|\\.)*'|\"[^\"]*\")\]")


def parse_path(text: str) -> Path:
    """The inverse of :func:`format_path`: ``sides[1].members[0]`` as a tuple (best effort:
    an unreadable rest is dropped, so the caller still finds the nearest known parent)."""
    out: list[str | int] = []
    at = 0
    while at < len(text):
        m = _PART.match(text, at)
        if m is None:
            break
        name, index, quoted = m.groups()
        out.append(name if name is not None else int(index) if index is not None
                   else quoted[1:-1])
        at = m.end()
    return tuple(out)


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
                None, None,
                f"cannot read {show_value(node.value)} as {node.tag.rsplit(':', 1)[-1]}",
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
        found = "a list" if isinstance(root, SequenceNode) else show_value(root.value)
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


def _raise_yaml(err: yaml.YAMLError, text: str, source: str) -> NoReturn:
    """Re-raise a PyYAML error as a one-line located Problem, in plain words where the usual
    slips (tabs, indentation, ': ' in a value, unclosed brackets) explain it."""
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
    plain = explain_yaml_error(err, text)
    if plain is not None:
        message, line, column = plain
        _fail(message, source, (line, column))
    message = err.problem or err.context or "invalid YAML"
    context_mark = err.context_mark
    if err.context and err.problem:
        where = f" at line {context_mark.line + 1}" if context_mark is not None else ""
        message += f" ({err.context}{where})"
    _fail(message, source, _pos(err.problem_mark or context_mark))


def show_value(value: object) -> str:
    """A found value as the designer would recognise it, kept short."""
    if value is None:
        return "nothing"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
