"""Rule systems, one package each, registered by name (the scenario's ``ruleset``).

A system's package (numpy kernels, compiled tables) is imported the first time it is asked
for, so a Yags run never loads the percentile or Ymlad rules.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

from balance.registry import RULESETS
from balance.rules.base import RuleSystem


class _Registry(Mapping[str, RuleSystem]):
    """``{ruleset: system}``, each system built on first use and then kept."""

    def __init__(self) -> None:
        self._built: dict[str, RuleSystem] = {}

    def __getitem__(self, ruleset: str) -> RuleSystem:
        if ruleset not in self._built:
            if ruleset not in RULESETS:
                raise KeyError(ruleset)
            module = importlib.import_module(f"balance.rules.{ruleset}")
            self._built[ruleset] = getattr(module, RULESETS[ruleset].system)()
        return self._built[ruleset]

    def __iter__(self) -> Iterator[str]:
        return iter(RULESETS)

    def __len__(self) -> int:
        return len(RULESETS)


REGISTRY: Mapping[str, RuleSystem] = _Registry()


def get(ruleset: str) -> RuleSystem:
    """The registered rule system called ``ruleset``."""
    return REGISTRY[ruleset]
