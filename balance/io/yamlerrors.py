"""YAML syntax errors in plain words: what is wrong on which line, and what to do.

PyYAML and libyaml describe the parser's state ("did not find expected '-' indicator while
parsing a block collection", "mapping values are not allowed here"), not the designer's
mistake. Nearly all of them come from a handful of slips: a tab used to indent, a line
indented more or less than its neighbours, a value holding ``': '``, a key without its colon,
an unclosed bracket or quote. :func:`explain` looks at the text around the error to say which
one, in words, with the line to fix; anything else keeps the parser's own message.
"""

from __future__ import annotations

import re

import yaml

Explained = tuple[str, int, int]   # message, 1-based line, 1-based column

_INDENT_PROBLEMS = ("expected '-' indicator", "expected <block end>", "did not find expected key")


def explain(err: yaml.MarkedYAMLError, text: str) -> Explained | None:
    """A plain-words message and its line and column, or None to keep the parser's words."""
    mark = err.problem_mark or err.context_mark
    if mark is None:
        return None
    lines = text.splitlines()
    problem = err.problem or ""
    tab = _tab_line(lines, mark.line)
    if tab is not None:
        return (f"line {tab + 1} is indented with a tab character; YAML indents with spaces "
                "only: replace the tab with spaces (most editors have 'convert tabs to spaces')",
                tab + 1, lines[tab].index("\t") + 1)
    here = lines[mark.line] if mark.line < len(lines) else ""
    if here[mark.column: mark.column + 1] == "\t":
        return (f"line {mark.line + 1} has a tab character in column {mark.column + 1}; YAML "
                "separates keys, values and items with spaces only: replace it with a space",
                mark.line + 1, mark.column + 1)
    if any(p in problem for p in _INDENT_PROBLEMS):
        return _indentation(err, lines, mark.line)
    if problem.startswith("mapping values are not allowed"):
        return _colon(lines, mark)
    if problem.startswith("could not find expected ':'") and err.context_mark is not None:
        line = err.context_mark.line
        return (f"line {line + 1} has no ':' after its key: write 'key: value' (a colon and a "
                "space), or start a list item with '- '", line + 1, err.context_mark.column + 1)
    flow = re.match(r"(?:did not find expected|expected) ',' or '([\]}])'", problem)
    if flow and err.context_mark is not None:
        close = flow.group(1)
        opened = "[" if close == "]" else "{"
        line = err.context_mark.line
        return (f"the '{opened}' opened on line {line + 1} is not closed where expected: end it "
                f"with '{close}' on the same line, with ', ' between the entries", line + 1,
                err.context_mark.column + 1)
    if "end of stream" in problem and "quoted scalar" in (err.context or ""):
        line = err.context_mark.line
        return (f"the quote opened on line {line + 1} is never closed: add the closing quote",
                line + 1, err.context_mark.column + 1)
    if problem.startswith("found undefined alias"):
        return ("an alias ('*name') refers to an anchor ('&name') that is not defined above it",
                mark.line + 1, mark.column + 1)
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _tab_line(lines: list[str], upto: int) -> int | None:
    """The first line up to the error's whose indentation (or key gap) holds a tab."""
    for n, line in enumerate(lines[: upto + 1]):
        if "\t" in line[: _indent(line)]:
            return n
    return None


def _key_column(line: str) -> int:
    """Where the key of a line starts: after the indentation and any '- ' markers."""
    m = re.match(r"[ ]*(?:-[ ]+)*", line)
    return m.end() if m else 0


def _previous(lines: list[str], n: int) -> int | None:
    """The nearest line above ``n`` with content (not blank, not only a comment)."""
    for k in range(n - 1, -1, -1):
        stripped = lines[k].strip()
        if stripped and not stripped.startswith("#"):
            return k
    return None


def _spaces(n: int) -> str:
    return "1 space" if n == 1 else f"{n} spaces"


def _indentation(err: yaml.MarkedYAMLError, lines: list[str], n: int) -> Explained:
    line = lines[n] if n < len(lines) else ""
    spaces = _indent(line)
    key = line.strip().split(":", 1)[0][:40]
    if err.context_mark is not None and "collection" in (err.context or ""):
        start = err.context_mark.line
        return (f"line {n + 1} ('{key}') is indented by {_spaces(spaces)}, which puts it in "
                f"neither the list begun on line {start + 1} nor the mapping around it: "
                f"indent it like the other keys of its item, or start a new item with '- '",
                n + 1, spaces + 1)
    above = _previous(lines, n)
    hint = (f" (line {above + 1} starts its key in column {_key_column(lines[above]) + 1})"
            if above is not None else "")
    return (f"line {n + 1} ('{key}') is indented by {_spaces(spaces)}, which matches no key "
            f"above it{hint}: keys of one mapping start in the same column; indent it to line "
            "up with its siblings", n + 1, spaces + 1)


def _colon(lines: list[str], mark: yaml.Mark) -> Explained:
    """'mapping values are not allowed here': an over-indented key, or ': ' in a value."""
    n = mark.line
    line = lines[n] if n < len(lines) else ""
    above = _previous(lines, n)
    if above is not None and mark.column >= _indent(line) and \
            _indent(line) > _key_column(lines[above]) and ":" in lines[above]:
        key = line.strip().split(":", 1)[0][:40]
        return (f"line {n + 1} ('{key}') is indented more than the key on line {above + 1}, "
                f"so YAML reads it as part of that line's value: indent it like the other keys "
                f"of its mapping (column {_key_column(lines[above]) + 1})", n + 1,
                _indent(line) + 1)
    message = (f"line {n + 1}: a value holds ': ' (a colon and a space), which YAML reads as a "
               "new key: put the value in quotes, e.g. name: 'Duel: round two'")
    nested = re.match(r"[ ]*(?:-[ ]+)*([A-Za-z_][\w-]*):[ ]+([A-Za-z_][\w-]*):[ ]+(\S.*)$", line)
    if nested:   # ``rules: reach: closing``: more likely a nested key written on one line
        outer, inner, value = nested.groups()
        message += (f"; or, if '{inner}' is a key inside '{outer}', write {outer}: "
                    f"{{{inner}: {value.strip()}}} or put '{inner}:' on its own line, indented "
                    f"under '{outer}:'")
    return message, n + 1, mark.column + 1
