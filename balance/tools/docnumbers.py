"""Every printed result in README.md and docs/ checked against what the code prints.

``python -m balance.tools.docnumbers`` runs every documented example and reports each
number that differs, by file, line and number; ``--update`` rewrites the documents with what
the code prints now (after a rule change moved the numbers: read the diff before committing
it); ``--slow`` also runs the examples marked slow; ``--list`` lists the examples. The tests
(``tests/docs/test_docnumbers.py``) run the same check, one test per example.

What counts as an example (Markdown that renders as before; the markers are HTML comments):

* every ``balance`` command of a ``sh`` block, which must run cleanly (exit 0) after the
  block's earlier commands; a synopsis with placeholders (``balance sweep FILE``) is left
  out, and ``<!-- docnumbers: slow -->`` or ``<!-- docnumbers: unchecked REASON -->`` before
  the block marks it slow or leaves it out;
* a fenced block whose first line starts with ``$ ``: each ``$ command`` line is run, and the
  lines after it, up to the next ``$`` line, are what it must print (a command followed at
  once by another has its output left unchecked: it runs for what it writes);
* ``<!-- docnumbers: COMMAND -->`` just before a fenced block: the block is what COMMAND
  prints (the command is in the prose or elsewhere);
* ``<!-- docnumbers: file NAME -->`` just before a fenced block: the block is written to NAME
  in the examples' folder before the commands run (the README's ``my_duel.yaml``);
* a command marker may end with ``| edit NAME: OLD => NEW; OLD => NEW`` to run on a copy of
  NAME with those replacements (``\\n`` for a new line): the README's misspelt duel; ``|
  edit NAME from PATH: ...`` starts the copy from a repository file (``scenarios/...``);
* ``<!-- docnumbers: slow COMMAND -->`` marks an example that takes too long for every test
  run: it is checked by ``--slow`` (``BALANCE_DOCS_SLOW=1`` for the tests) only;
* ``<!-- docnumbers: COMMAND | check PATH SHOWN; PATH SHOWN -->`` before a paragraph of
  prose: COMMAND prints JSON, the number at each dotted PATH formatted as SHOWN is written
  (``31%``, ``4.1``) must be SHOWN, and SHOWN must stand in that paragraph (``| edit`` works
  here too); ``--update`` rewrites both;
* ``<!-- docnumbers: unchecked REASON -->`` marks a block that looks like printed output but
  is not (a sketch, an excerpt of something else). Every other plain fenced block that is
  not a command synopsis (``balance solve FILE --vary PATH ...``) must be an example:
  :func:`unchecked` lists those that are neither, and a test keeps the list empty.

Commands run as written, with the repository's ``scenarios/`` and ``docs/`` (whose
``docs/examples/`` holds files the examples use) beside them in a scratch folder
(so ``results/`` lands there), the ``balance`` of this environment, and stdout compared (with
stderr added when the command fails, as for error examples). A line of ``...`` in the
expected output stands for any number of lines. Lines are matched by their shape (the text
with its numbers taken out), then compared exactly, so a moved number is reported as that
number: ``README.md:83: `balance run my_duel.yaml`: line 4 shows 70.00% where the code prints
70.10%``.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ("README.md", "docs")
_MARK = re.compile(r"^<!--\s*docnumbers:\s*(.*?)\s*-->\s*$")
_FENCE = re.compile(r"^(```+|~~~+)")
_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?%?")
ELLIPSIS = "..."


@dataclass
class Example:
    """One command and what a document says it prints."""

    doc: str                     # path relative to the repository
    line: int                    # 1-based line of the command (or of its marker)
    command: str
    expected: list[str] | None   # None: only run (its output is not shown)
    first: int = 0               # 1-based line in the doc of the first expected line
    slow: bool = False
    edits: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    before: list[str] = field(default_factory=list)   # run-only commands it needs first
    copies: dict[str, str] = field(default_factory=dict)   # file -> repository file it edits
    must_succeed: bool = False   # a shell block's command: it must exit 0
    checks: list[tuple[str, str]] = field(default_factory=list)   # (JSON path, as shown)
    prose: str = ""              # the paragraph the checks' numbers must appear in
    failure: str | None = None   # set by :func:`run`: what failed

    @property
    def name(self) -> str:
        return f"{self.doc}:{self.line}"


@dataclass
class Document:
    """A document's examples and the files its examples need, in order."""

    doc: str
    files: dict[str, str]
    examples: list[Example]


def documents(root: Path = ROOT) -> list[Path]:
    """README.md and every Markdown file under docs/."""
    out = [root / "README.md"]
    out += sorted((root / "docs").rglob("*.md"))
    return [p for p in out if p.exists()]


def read(path: Path, root: Path = ROOT) -> Document:
    """Find the examples of one Markdown document."""
    lines = path.read_text(encoding="utf-8").splitlines()
    doc = str(path.relative_to(root))
    files: dict[str, str] = {}
    examples: list[Example] = []
    mark: tuple[int, str] | None = None
    prose: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        text = lines[i]
        m = _MARK.match(text)
        if m and " | check " in m.group(1):     # prose checks: they wait for their paragraph
            prose.append((i + 1, m.group(1)))
            i += 1
            continue
        if m:
            mark = (i + 1, m.group(1))
            i += 1
            continue
        fence = _FENCE.match(text)
        if not fence:
            if text.strip() and prose:
                end = i
                while end < len(lines) and lines[end].strip() and not _FENCE.match(lines[end]) \
                        and not _MARK.match(lines[end]):
                    end += 1
                examples += [_prose(doc, pm, lines[i:end], i + 1) for pm in prose]
                prose, mark, i = [], None, end
                continue
            if text.strip():
                mark = None
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].startswith(fence.group(1)):
            end += 1
        body = lines[i + 1:end]
        language = text[len(fence.group(1)):].strip()
        if language in SHELLS:
            if mark is None or mark[1] == "slow":
                examples += _shell(doc, body, i + 2, slow=mark is not None)
        elif mark is not None:
            _marked(doc, mark, body, i + 2, files, examples)
        elif body and body[0].startswith("$ "):
            examples += _dollar(doc, body, i + 2)
        mark = None
        i = end + 1
    return Document(doc, files, examples)


_SYNOPSIS = re.compile(r"^balance [\w-]+ (?!.*: error)")


def unchecked(path: Path, root: Path = ROOT) -> list[str]:
    """``doc:line: first line`` of each plain fenced block that looks like printed output but
    is neither an example nor marked ``unchecked``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    doc = str(path.relative_to(root))
    out, mark, i = [], None, 0
    while i < len(lines):
        m, fence = _MARK.match(lines[i]), _FENCE.match(lines[i])
        if m:
            mark = m.group(1)
        elif fence:
            end = i + 1
            while end < len(lines) and not lines[end].startswith(fence.group(1)):
                end += 1
            body, language = lines[i + 1:end], lines[i][len(fence.group(1)):].strip()
            if not language and body and mark is None and not body[0].startswith("$ ") \
                    and not _SYNOPSIS.match(body[0]):
                out.append(f"{doc}:{i + 1}: {body[0][:80]}")
            mark, i = None, end
        elif lines[i].strip():
            mark = None
        i += 1
    return out


def _prose(doc: str, mark: tuple[int, str], para: list[str], first: int) -> Example:
    """A marker before a paragraph: ``COMMAND | check PATH SHOWN; PATH SHOWN``. COMMAND
    prints JSON; the value at each dotted PATH, formatted as SHOWN is (``31%``: a share in
    whole percent; ``4.1``: one decimal), must be SHOWN, and SHOWN must be in the paragraph."""
    line, text = mark
    command, _, spec = text.partition(" | check ")
    slow = command.startswith("slow ")
    command = command[5:] if slow else command
    edits: dict[str, list[tuple[str, str]]] = {}
    copies: dict[str, str] = {}
    if " | edit " in command:
        command, espec = command.split(" | edit ", 1)
        name, _, pairs = espec.partition(":")
        name, _, source = name.strip().partition(" from ")
        if source:
            copies[name] = source.strip()
        edits[name] = [tuple(p.strip().replace("\\n", "\n") for p in pair.split("=>"))
                       for pair in pairs.split(";") if pair.strip()]
    checks = [tuple(c.split()) for c in spec.split(";") if c.strip()]
    return Example(doc, line, command.strip(), None, first, slow, edits, copies=copies,
                   checks=[c for c in checks if len(c) == 2], prose="\n".join(para))


def json_value(doc: object, path: str) -> object:
    """The value at a dotted path of a JSON document (list items by index)."""
    node = doc
    for part in path.split("."):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def formatted(value: float, shown: str) -> str:
    """``value`` printed as ``shown`` is: a share as a percent (``31%``, ``60.2%``), else a
    number with as many decimals as ``shown`` has."""
    body = shown.rstrip("%")
    decimals = len(body.split(".")[1]) if "." in body else 0
    number = 100 * float(value) if shown.endswith("%") else float(value)
    return f"{number:.{decimals}f}" + ("%" if shown.endswith("%") else "")


def _marked(doc: str, mark: tuple[int, str], body: list[str], first: int,
            files: dict[str, str], examples: list[Example]) -> None:
    line, text = mark
    if text.startswith("unchecked"):
        return
    if text.startswith("file "):
        files[text[5:].strip()] = "\n".join(body) + "\n"
        return
    slow = text.startswith("slow ")
    command = text[5:].strip() if slow else text
    edits: dict[str, list[tuple[str, str]]] = {}
    copies: dict[str, str] = {}
    if " | edit " in command:
        command, spec = command.split(" | edit ", 1)
        name, _, pairs = spec.partition(":")
        name, _, source = name.strip().partition(" from ")
        if source:
            copies[name] = source.strip()
        edits[name] = [tuple(p.strip().replace("\\n", "\n") for p in pair.split("=>"))
                       for pair in pairs.split(";") if pair.strip()]
    examples.append(Example(doc, line, command.strip(), body, first, slow, edits,
                            copies=copies))


SHELLS = ("sh", "bash", "shell", "console")
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]+\b|\.\.\.")


def _shell(doc: str, body: list[str], first: int, *, slow: bool) -> list[Example]:
    """The ``balance`` commands of a shell block: each must run cleanly (exit 0), after the
    block's earlier commands (a sweep before its report). Synopses with placeholders
    (``FILE``, ``PATH ...``) and other programs (``make``, ``jupyter``) are left out."""
    commands: list[tuple[int, str]] = []
    pending, start = "", 0
    for k, raw in enumerate(body):
        line = raw.rstrip()
        if not pending:
            start = k
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        full = (pending + line).strip()
        pending = ""
        try:
            words = shlex.split(full, comments=True)
        except ValueError:
            continue
        if words and words[0] == "balance":
            commands.append((first + start, shlex.join(words)))
    out: list[Example] = []
    done: list[str] = []
    for line, command in commands:
        words = shlex.split(command)
        reads = len(words) > 2 and words[2].startswith("results/")   # a run folder: its
        if not _PLACEHOLDER.search(command):                           # sweep runs first
            out.append(Example(doc, line, command, None, slow=slow,
                               before=list(done) if reads else [], must_succeed=True))
        done.append(command)
    return out


def _dollar(doc: str, body: list[str], first: int) -> list[Example]:
    out: list[Example] = []
    for k, text in enumerate(body):
        if text.startswith("$ "):
            out.append(Example(doc, first + k, text[2:].strip(), [], first + k + 1))
        elif out:
            out[-1].expected.append(text)
    kept: list[Example] = []
    waiting: list[str] = []
    for ex in out:
        if not ex.expected:      # shown without output: runs first, for what it writes
            waiting.append(ex.command)
            continue
        ex.before, waiting = waiting, []
        kept.append(ex)
    kept += [Example(doc, first, c, None) for c in waiting]
    return kept


# ---------------------------------------------------------------------------- running
def workspace(root: Path = ROOT) -> Path:
    """A scratch folder with the repository's scenarios (read-only use) beside it."""
    where = Path(tempfile.mkdtemp(prefix="balance-docs-"))
    link(where, root)
    return where


def link(where: Path, root: Path = ROOT) -> None:
    """The repository's ``scenarios/`` and ``docs/`` (its example files) inside ``where``."""
    for name in ("scenarios", "docs"):
        if (root / name).exists():
            (where / name).symlink_to(root / name)


def balance_exe() -> list[str]:
    """The ``balance`` command of this environment."""
    exe = Path(sys.executable).parent / "balance"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("balance")
    return [found] if found else [sys.executable, "-c",
                                  "import sys; from balance.cli import main; sys.exit(main())"]


def run(example: Example, where: Path, files: dict[str, str]) -> list[str]:
    """Run one example's command in ``where`` (files written, edits applied): its lines."""
    for name, text in files.items():
        (where / name).write_text(text, encoding="utf-8")
    for name, pairs in example.edits.items():
        source = example.copies.get(name)
        text = (where / source).read_text(encoding="utf-8") if source else files[name]
        for old, new in pairs:
            if old not in text:
                raise ValueError(f"{example.name}: edit {old!r} is not in {name}")
            text = text.replace(old, new, 1)
        (where / name).write_text(text, encoding="utf-8")
    example.failure = None
    for command in example.before:
        rc, lines = _run(command, where)
        if rc != 0 and example.must_succeed and not _PLACEHOLDER.search(command):
            example.failure = f"`{command}` (run first) exited {rc}: " + " / ".join(lines[-3:])
            return lines
    rc, lines = _run(example.command, where)
    if rc != 0 and example.must_succeed:
        example.failure = f"exited {rc}: " + " / ".join(lines[-3:])
    return lines


def _run(command: str, where: Path) -> tuple[int, list[str]]:
    argv = shlex.split(command)
    if argv and argv[0] == "balance":
        argv = balance_exe() + argv[1:]
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
    env.pop("GITHUB_STEP_SUMMARY", None)
    done = subprocess.run(argv, cwd=where, capture_output=True, text=True, env=env,
                          timeout=900)
    out = done.stdout.rstrip("\n").splitlines()
    if done.returncode != 0:
        out += _errors(done.stderr) or done.stderr.rstrip("\n").splitlines()[-3:]
    return done.returncode, out


_ERROR = re.compile(r"^(balance [\w-]+: |\S+:\d+(?::\d+)?: )")


def _errors(stderr: str) -> list[str]:
    """The error lines of a failed command's stderr (``balance run: error: ...``,
    ``file:line:col: ...`` and their indented continuations), without progress lines."""
    out: list[str] = []
    keep = False
    for line in stderr.rstrip("\n").splitlines():
        if _ERROR.match(line):
            keep = True
        elif not line.startswith((" ", "\t")):
            keep = False
        if keep:
            out.append(line)
    return out


# ------------------------------------------------------------------------- comparing
def shape(line: str) -> str:
    """A line without its numbers and with its spaces squeezed: how lines are matched."""
    return " ".join(_NUMBER.sub("#", line).split())


def _cut(want: str) -> str | None:
    """The shown start of a line the doc cuts short with a trailing ``...`` (else None)."""
    text = want.rstrip()
    if text.endswith(ELLIPSIS) and text.strip() != ELLIPSIS:
        return text[:-len(ELLIPSIS)].rstrip()
    return None


def same_shape(want: str, got: str) -> bool:
    """Do a doc's line and a printed line have one shape (a cut line: its start)?"""
    cut = _cut(want)
    if cut is None:
        return shape(want) == shape(got)
    return shape(got).startswith(shape(cut))


def align(expected: list[str], actual: list[str]) -> list[tuple[int, int]] | str:
    """Pairs (expected index, actual index) for every expected line that is not ``...``,
    matched by shape in order; or a message saying where the shapes part."""
    pairs: list[tuple[int, int]] = []
    segments: list[list[int]] = [[]]
    for k, text in enumerate(expected):
        if text.strip() == ELLIPSIS:
            segments.append([])
        else:
            segments[-1].append(k)
    cursor = 0
    for s, seg in enumerate(segments):
        if not seg:
            continue
        free = s > 0           # after a '...' the segment may start anywhere later
        start = _find(seg, expected, actual, cursor, free)
        if start is None:
            k = seg[0]
            if not free:       # the first line of the segment whose shape differs
                for j, kk in enumerate(seg):
                    at = cursor + j
                    if at >= len(actual) or not same_shape(expected[kk], actual[at]):
                        k = kk
                        cursor = at
                        break
            got = actual[cursor] if cursor < len(actual) else "(nothing more)"
            best = _closest(expected[k], actual[cursor:]) if free else got
            return (f"expected line {k + 1} {expected[k].strip()!r} is not printed "
                    f"(the code prints {best.strip()!r} there)")
        pairs += [(k, start + j) for j, k in enumerate(seg)]
        cursor = start + len(seg)
    if segments[-1] and cursor < len(actual):
        return (f"the code prints {len(actual) - cursor} more line(s) after the shown "
                f"output, from {actual[cursor].strip()!r} (end the block with '...' if the "
                "rest is left out on purpose)")
    return pairs


def _find(seg: list[int], expected: list[str], actual: list[str], cursor: int,
          free: bool) -> int | None:
    starts = range(cursor, len(actual) - len(seg) + 1) if free else [cursor]
    for start in starts:
        if start + len(seg) <= len(actual) and all(
                same_shape(expected[k], actual[start + j]) for j, k in enumerate(seg)):
            return start
    return None


def _closest(line: str, candidates: list[str]) -> str:
    import difflib

    best = difflib.get_close_matches(line, candidates, n=1, cutoff=0.0)
    return best[0] if best else "(nothing)"


def differences(example: Example, actual: list[str]) -> list[str]:
    """What differs, one message per line, naming the doc, the line and the numbers."""
    where = f"{example.name}: `{example.command}`"
    if example.failure is not None:
        return [f"{where}: {example.failure}"]
    if example.checks:
        return _check_prose(example, actual)
    if example.expected is None:
        return []
    pairs = align(example.expected, actual)
    if isinstance(pairs, str):
        return [f"{where}: {pairs}"]
    out = []
    for k, j in pairs:
        want, got = example.expected[k], actual[j]
        cut = _cut(want)
        if cut is not None:
            want, got = cut, got[:len(cut)]
        if want.rstrip() == got.rstrip():
            continue
        doc_line = example.first + k
        w_nums, g_nums = _NUMBER.findall(want), _NUMBER.findall(got)
        moved = [(a, b) for a, b in zip(w_nums, g_nums, strict=False) if a != b]
        if moved:
            shown = ", ".join(f"{a} where the code prints {b}" for a, b in moved)
            out.append(f"{example.doc}:{doc_line}: `{example.command}`: shows {shown}")
        else:
            out.append(f"{example.doc}:{doc_line}: `{example.command}`: shows {want!r} where "
                       f"the code prints {got!r}")
    return out


def _check_prose(example: Example, actual: list[str]) -> list[str]:
    import json

    where = f"{example.name}: `{example.command}`"
    try:
        doc = json.loads("\n".join(actual))
    except ValueError:
        return [f"{where}: prints no JSON for its checks"]
    out = []
    for path, shown in example.checks:
        try:
            got = formatted(json_value(doc, path), shown)
        except (KeyError, IndexError, TypeError, ValueError):
            out.append(f"{where}: no number at {path}")
            continue
        if got != shown:
            out.append(f"{where}: the text shows {path} as {shown} where the code prints {got}")
        elif shown not in example.prose:
            out.append(f"{where}: {shown} ({path}) is not in the paragraph after the marker")
    return out


def updated(example: Example, actual: list[str]) -> list[str] | None:
    """The expected block rewritten with what the code prints (``...`` lines kept), or None
    when the shapes do not match (the doc then needs a hand)."""
    if example.expected is None:
        return None
    pairs = align(example.expected, actual)
    if isinstance(pairs, str):
        if ELLIPSIS not in [t.strip() for t in example.expected]:
            return list(actual)
        return None
    new = list(example.expected)
    for k, j in pairs:
        cut = _cut(new[k])
        new[k] = actual[j] if cut is None else \
            _cut_like(cut, actual[j]) + " " + ELLIPSIS
    return new


def _cut_like(cut: str, line: str) -> str:
    """``line`` cut after as many comma-separated items as ``cut`` shows."""
    items = cut.count(",")
    parts = line.split(",")
    return ",".join(parts[:items + 1]).rstrip() + ("," if cut.endswith(",") else "")


# ----------------------------------------------------------------------------- driver
def check(docs: Iterable[Path] | None = None, *, slow: bool = False, update: bool = False,
          root: Path = ROOT, echo=print) -> int:
    """Run every example; print the differences (or rewrite the docs); the number of
    examples that differ (or could not be rewritten)."""
    bad = 0
    for path in docs or documents(root):
        doc = read(path, root)
        if not doc.examples:
            continue
        where = workspace(root)
        rewrites: list[tuple[Example, list[str]]] = []
        try:
            for ex in doc.examples:
                if ex.slow and not slow:
                    echo(f"{ex.name}: slow, skipped (--slow runs it)")
                    continue
                actual = run(ex, where, doc.files)
                diffs = differences(ex, actual)
                if not diffs:
                    continue
                if update and ex.checks:
                    if _rewrite_prose(path, ex, actual):
                        continue
                    bad += 1
                    echo(f"{ex.name}: cannot rewrite: {diffs[0]}")
                    continue
                if update:
                    new = updated(ex, actual)
                    if new is None:
                        bad += 1
                        echo(f"{ex.name}: cannot rewrite (the output's shape changed): "
                             f"{diffs[0]}")
                    else:
                        rewrites.append((ex, new))
                else:
                    bad += 1
                    for d in diffs:
                        echo(d)
        finally:
            shutil.rmtree(where, ignore_errors=True)
        if rewrites:
            _rewrite(path, rewrites)
            echo(f"{doc.doc}: rewrote {len(rewrites)} example(s)")
    return bad


def _rewrite_prose(path: Path, ex: Example, actual: list[str]) -> bool:
    """Put the printed numbers into a prose check's marker and paragraph (first match)."""
    import json

    try:
        doc = json.loads("\n".join(actual))
        pairs = [(shown, formatted(json_value(doc, p), shown)) for p, shown in ex.checks]
    except (ValueError, KeyError, IndexError, TypeError):
        return False
    lines = path.read_text(encoding="utf-8").splitlines()
    marker = ex.line - 1
    end = ex.first - 1 + len(ex.prose.splitlines())
    para = "\n".join(lines[ex.first - 1:end])
    for old, new in pairs:
        if old not in para:
            return False
        lines[marker] = lines[marker].replace(f" {old}", f" {new}", 1)
        para = para.replace(old, new, 1)
    lines[ex.first - 1:end] = para.split("\n")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return True


def _rewrite(path: Path, rewrites: list[tuple[Example, list[str]]]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    for ex, new in sorted(rewrites, key=lambda r: -r[0].first):
        lines[ex.first - 1:ex.first - 1 + len(ex.expected)] = new
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m balance.tools.docnumbers",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("docs", nargs="*", type=Path, help="documents (default: all)")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the documents with what the code prints now")
    parser.add_argument("--slow", action="store_true", help="also run the slow examples")
    parser.add_argument("--list", action="store_true", help="list the examples and stop")
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.docs] or None
    if args.list:
        for path in paths or documents():
            for ex in read(path).examples:
                print(f"{ex.name}{'  (slow)' if ex.slow else ''}  {ex.command}")  # noqa: T201
        return 0
    bad = check(paths, slow=args.slow, update=args.update)
    print(f"{bad} example(s) differ" if bad else "every example prints what the docs show")  # noqa: T201
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
