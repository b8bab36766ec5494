"""The registry of rulesets: scenario model, resolved-tables model and row models by name.

A new ruleset is one line in each dict; the loader, the ``schema`` and ``tables`` commands
and the tests pick it up from here.
"""

from __future__ import annotations

from typing import Any

from pydantic.json_schema import models_json_schema

from balance.errors import closest
from balance.models import percentile, yags, ymlad

SCENARIO_MODELS: dict[str, type] = {"yags": yags.YagsScenario, "ymlad": ymlad.YmladScenario}
SCENARIO_MODELS["percentile"] = percentile.PercentileScenario
TABLE_MODELS: dict[str, type] = {"yags": yags.Tables, "ymlad": ymlad.Tables}
TABLE_MODELS["percentile"] = percentile.Tables
ROW_MODELS: dict[str, dict[str, type]] = {"yags": yags.ROW_MODELS, "ymlad": ymlad.ROW_MODELS}
ROW_MODELS["percentile"] = percentile.ROW_MODELS

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


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
