"""A strict JSON parser for the tests: NaN, Infinity and -Infinity are errors, as in
JavaScript's JSON.parse (Python's json.loads accepts them by default)."""

from __future__ import annotations

import json
from typing import Any


def _reject(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def loads_strict(text: str) -> Any:
    return json.loads(text, parse_constant=_reject)
