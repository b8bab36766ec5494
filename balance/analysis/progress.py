"""Progress of a question on stderr: a bar on a terminal, one line per step otherwise.

A question runs in steps (a value tried, a set of variants extended); on a terminal a tqdm bar
counts the trials played and shows the current step, and in a log or CI (stderr not a
terminal) each step is one plain line, so a long solve still says what it is doing.
"""

from __future__ import annotations

import sys
from typing import Any


class Progress:
    """``step(text)`` for each step, ``trials(n)`` as blocks finish, ``close()`` at the end."""

    def __init__(self, name: str, *, enabled: bool = True, stream: Any = None):
        self.name = name
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.bar = None
        if enabled and _isatty(self.stream):
            from tqdm import tqdm

            self.bar = tqdm(unit="trial", unit_scale=True, file=self.stream, leave=False,
                            desc=name, dynamic_ncols=True)

    def step(self, text: str) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.set_description_str(f"{self.name}: {text}"[:70])
        else:
            self.stream.write(f"{self.name}: {text}\n")
            self.stream.flush()

    def trials(self, n: int) -> None:
        if self.bar is not None:
            self.bar.update(n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
