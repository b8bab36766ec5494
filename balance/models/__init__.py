"""The registry of rulesets: scenario model, resolved-tables model and row models by name.

The rulesets are listed once, in :data:`balance.registry.RULESETS`; the loader, the
``schema`` and ``tables`` commands and the tests pick them up from here. Each ruleset's
module (pydantic models of a few hundred fields) is imported the first time one of its
models is asked for, so loading a Yags scenario never builds the Ymlad or percentile models.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from balance.errors import closest
from balance.registry import RULESETS

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class _ByRuleset(Mapping[str, Any]):
    """A read-only ``{ruleset: <a module attribute>}`` that imports each module on first use."""

    def __init__(self, attribute: str | None):
        self._attribute = attribute      # None: the ruleset's scenario model (RULESETS)

    def __getitem__(self, ruleset: str) -> Any:
        if ruleset not in RULESETS:
            raise KeyError(ruleset)
        module = importlib.import_module(f"balance.models.{ruleset}")
        return getattr(module, self._attribute or RULESETS[ruleset].scenario)

    def __iter__(self) -> Iterator[str]:
        return iter(RULESETS)

    def __len__(self) -> int:
        return len(RULESETS)

    def __contains__(self, ruleset: object) -> bool:
        return ruleset in RULESETS


SCENARIO_MODELS: Mapping[str, type] = _ByRuleset(None)
TABLE_MODELS: Mapping[str, type] = _ByRuleset("Tables")
ROW_MODELS: Mapping[str, dict[str, type]] = _ByRuleset("ROW_MODELS")


def unknown_ruleset(name: object) -> str:
    """Message for a ruleset name that is not registered, with the closest names."""
    available = ", ".join(sorted(SCENARIO_MODELS))
    near = closest(str(name), SCENARIO_MODELS)
    hint = f"did you mean {', '.join(map(repr, near))}? " if near else ""
    return f"{name!r} is not an available ruleset ({hint}available: {available})"


def scenario_schema(rulesets: list[str] | None = None) -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of a scenario file: one of the rulesets' scenario models.

    All models share one ``$defs``, so the ``$ref`` inside each branch resolve from the root.
    """
    from pydantic.json_schema import models_json_schema

    names = sorted(SCENARIO_MODELS) if rulesets is None else rulesets
    models = [(SCENARIO_MODELS[n], "validation") for n in names]
    refs, top = models_json_schema(models, ref_template="#/$defs/{model}")
    return {
        "$schema": SCHEMA_DIALECT,
        "title": "balance scenario",
        "description": "A fight for the balance lab. Pick the rules with `ruleset:`.",
        "oneOf": [refs[m] for m in models],
        **top,
    }
