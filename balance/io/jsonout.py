"""Strict JSON out: every JSON file and ``--json`` line the lab writes goes through here.

Python's :mod:`json` writes ``NaN``, ``Infinity`` and ``-Infinity`` by default, which are not
JSON: JavaScript's ``JSON.parse``, ``jq`` and strict parsers reject the whole document. Here
a value that is not a finite number becomes ``null`` (an unbounded side of a claim, a mean of
nothing), numpy scalars and arrays become plain numbers and lists, and ``allow_nan=False``
makes any leftover a bug that fails loudly rather than a file CI cannot read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any


def strict(value: Any) -> Any:
    """``value`` with every non-finite float as None and numpy values as plain Python."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, Mapping):
        return {k: strict(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [strict(v) for v in value]
    tolist = getattr(value, "tolist", None)      # numpy arrays and scalars
    if callable(tolist):
        return strict(tolist())
    return value


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps`` of :func:`strict` ``(value)``, refusing anything strict JSON cannot hold."""
    return json.dumps(strict(value), allow_nan=False, **options)
