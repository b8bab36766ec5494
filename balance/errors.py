"""The lab's exceptions: one root, so the CLI can turn any user mistake into a clean message.

Every error a user can cause by what they typed or wrote derives from :class:`BalanceError`;
the CLI prints ``str(err)`` and exits non-zero, never a traceback.
"""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Iterable
from dataclasses import dataclass

BAD_INPUT = 2
"""The exit status of every command given a bad file or option (``balance validate`` of a bad
file too); 1 is kept for a result that fails (``balance check``'s failed claim)."""


class BalanceError(Exception):
    """Root of every error caused by user input (files, expressions, options)."""


class DiceExpressionError(BalanceError, ValueError):
    """A dice expression that does not parse; the message names the bad token."""


class FieldValueError(ValueError):
    """A model-wide check's finding about one field: ``loc`` is the field's path within the
    model (``("sides", 1, "name")``), so the problem points at it, not at the file's top."""

    def __init__(self, message: str, loc: tuple[str | int, ...]) -> None:
        super().__init__(message)
        self.loc = loc


class OptionError(BalanceError, ValueError):
    """A bad command-line or API argument (negative trials, unknown ruleset, ...)."""


MAX_TRIALS = 1_000_000_000
"""The most trials one fight or cell may be given (a scenario's ``trials:`` has the same cap):
a billion duels take minutes per core; a typo like 10**20 would otherwise fail deep inside
the block planner with a MemoryError."""


MAX_SEED = 2**63 - 1
"""The largest root seed (a scenario's ``seed:`` has the same cap)."""


def check_count(name: str, value: object, *, minimum: int = 0,
                maximum: int | None = None) -> int:
    """``value`` if it is an integer in [minimum, maximum], else an :class:`OptionError`
    naming ``name`` (the one check behind every trials, seed and budget argument). A whole
    number of another type (``1e6``, ``numpy.int64(1000)``) is taken as that integer."""
    if (isinstance(value, numbers.Integral) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise OptionError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if maximum is not None and value > maximum:
        raise OptionError(f"{name} must be at most {maximum:,}, got {value:,}")
    return value


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, located as precisely as we can."""

    message: str
    path: str = ""          # field path such as ``sides[1].members[0].armour``
    file: str = ""
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        field = f" {self.path}:" if self.path else ""
        return f"{where}:{field} {self.message}"


class ScenarioError(BalanceError):
    """A scenario or table file with one or more problems, reported all at once."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


CLOSE = 0.6
"""How alike (difflib's ratio) a name must be to be suggested. At 0.5 unrelated names got
suggested ('fencing' -> 'chain', 'mace' -> 'maul'); real typos ('long_swrod', 'maec', 'hrt',
'gird') score 0.75 and more."""


def closest(name: str, choices: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` valid names that look like ``name``, best first (only close ones)."""
    return difflib.get_close_matches(name, sorted(choices), n=n, cutoff=CLOSE)


def a_or_an(noun: str) -> str:
    """``an entry``, ``an axis key``, ``a field``: the noun with its indefinite article."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def unknown_name(kind: str, name: object, choices: Iterable[str]) -> str:
    """Message for an unknown table name, with the closest valid names."""
    choices = list(choices)
    near = closest(str(name), choices)
    hint = f" (did you mean {', '.join(repr(c) for c in near)}?)" if near else ""
    if not near and len(choices) <= 12:
        hint = f" (known: {', '.join(sorted(choices))})"
    return f"{name!r} is not a known {kind}{hint}"
