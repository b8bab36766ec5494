"""The one list of rulesets: for each name, its rule system and its scenario model.

A new rule system is one entry here plus its packages ``balance.rules.<name>`` and
``balance.models.<name>``; the engine (``balance.rules.REGISTRY``), the loader, the
``schema`` and ``tables`` commands (``balance.models``) and the conformance suite
(``balance.rules.testing``) all read this list. Nothing is imported until asked for.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ruleset:
    """Where a ruleset's pieces live (class names in its two packages)."""

    system: str      # in balance.rules.<name>
    scenario: str    # in balance.models.<name>


RULESETS: dict[str, Ruleset] = {
    "yags": Ruleset("YagsSystem", "YagsScenario"),
    "ymlad": Ruleset("YmladSystem", "YmladScenario"),
    "percentile": Ruleset("PercentileSystem", "PercentileScenario"),
}
