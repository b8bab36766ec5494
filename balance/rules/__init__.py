"""Rule systems, one module each, registered by name (the scenario's ``ruleset``)."""

from __future__ import annotations

from balance.rules.base import RuleSystem
from balance.rules.percentile import PercentileSystem
from balance.rules.yags import YagsSystem
from balance.rules.ymlad import YmladSystem

REGISTRY: dict[str, RuleSystem] = {"yags": YagsSystem(), "ymlad": YmladSystem()}
REGISTRY["percentile"] = PercentileSystem()


def get(ruleset: str) -> RuleSystem:
    """The registered rule system called ``ruleset``."""
    return REGISTRY[ruleset]
