"""Progress on stderr: a tqdm bar on a terminal, a plain line every ~10 s anywhere else.

tqdm draws nothing when stderr is not a terminal, so a CI log would stay silent for the
minutes a sweep takes. :func:`progress_bar` gives the same small interface either way
(``update``, ``set_postfix_str``, ``clear``, ``close``); off a terminal it prints lines such as
``weapon_vs_armour: 40/100 cells (40%), 3.1 cells/s, ETA 19 s``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

LINE_INTERVAL = 10.0
"""Seconds between progress lines when stderr is not a terminal."""


def progress_bar(total: int, *, unit: str, desc: str = "", initial: int = 0,
                 file: TextIO | None = None, interval: float | None = None,
                 delay: float = 1.0) -> Any:
    """A progress display for ``total`` units on ``file`` (default stderr): tqdm on a
    terminal (shown after ``delay`` seconds), else a line every ``interval`` seconds
    (default :data:`LINE_INTERVAL`)."""
    stream = file if file is not None else sys.stderr
    if _is_terminal(stream):
        from tqdm import tqdm

        return tqdm(total=total, initial=initial, unit=unit, desc=desc, file=stream,
                    leave=False, delay=delay, dynamic_ncols=True,
                    unit_scale=unit == "trial")
    return LineProgress(total, unit=unit, desc=desc, initial=initial, file=stream,
                        interval=LINE_INTERVAL if interval is None else interval)


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class LineProgress:
    """Progress as occasional whole lines: done/total, rate, ETA (for logs, not terminals).

    The first line comes ``interval`` seconds after the start, so short runs print nothing;
    a run that printed a line or lasted an interval ends with a line of its total time from
    :meth:`close`. No line is printed at the total (an "ETA" there would have nothing to say).
    """

    def __init__(self, total: int, *, unit: str, desc: str = "", initial: int = 0,
                 file: TextIO, interval: float = LINE_INTERVAL,
                 clock: Callable[[], float] = time.monotonic):
        self.total, self.unit, self.desc, self.file = total, unit, desc, file
        self.n = self.start_n = initial
        self.interval, self.clock = interval, clock
        self.started = self.last = clock()
        self.postfix = ""
        self.printed = 0

    def update(self, n: int = 1) -> None:
        self.n += n
        # at the total there is nothing left to estimate: :meth:`close` says "done in"
        if self.n < self.total and self.clock() - self.last >= self.interval:
            self._line()

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        """Set the text after the counts; with ``refresh``, also print a line if an interval
        has passed (work inside one unit, such as the cells of one claim, still shows)."""
        self.postfix = text
        if refresh and self.n < self.total and self.clock() - self.last >= self.interval:
            self._line()

    def clear(self) -> None:
        """Nothing to clear: lines are never redrawn (tqdm's interface)."""

    def close(self) -> None:
        if self.printed or self.clock() - self.started >= self.interval:
            self._line(final=True)

    def _line(self, final: bool = False) -> None:
        now = self.clock()
        self.last = now
        elapsed = now - self.started
        done = self.n - self.start_n
        rate = done / elapsed if elapsed > 0 else 0.0
        share = f" ({100 * self.n / self.total:.0f}%)" if self.total else ""
        parts = [f"{self.n:,}/{self.total:,} {self.unit}s{share}"]
        if final:
            parts.append(f"done in {_duration(elapsed)}")
        else:
            parts.append(f"{_rate(rate)} {self.unit}s/s")
            left = self.total - self.n
            parts.append(f"ETA {_duration(left / rate)}" if rate > 0 and left > 0 else "ETA ?")
        if self.postfix:
            parts.append(self.postfix)
        head = f"{self.desc}: " if self.desc else ""
        self.file.write(head + ", ".join(parts) + "\n")
        self.file.flush()
        self.printed += 1


def _rate(rate: float) -> str:
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.1f}" if rate >= 1 else f"{rate:.2f}"


def _duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``1 h 02 min``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"
