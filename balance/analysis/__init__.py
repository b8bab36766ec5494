"""The questions a designer asks of a scenario, answered with honest intervals.

* :func:`~balance.analysis.solving.solve`: the value of a field that brings a side's win
  probability (or another metric) to a target;
* :func:`~balance.analysis.sensitivities.sensitivity`: which single step of which field moves
  the win probability most, ranked, with paired intervals;
* :func:`~balance.analysis.exchange_rate.exchange`: how many steps of one field equal one step of
  another ("+1 armour is worth +0.7 skill");
* :mod:`~balance.analysis.lengths`: how long fights last (survival curve and hazard);
* :func:`~balance.analysis.explaining.explain`: every fighter's numbers before the first roll;
* :mod:`~balance.analysis.games`, :mod:`~balance.analysis.metagame`: game theory over round
  robins (equilibrium mix, domination, cycles, restricted play);
* :mod:`~balance.analysis.autobalance`: searching table values towards a target matrix.

Every question plays its variants from common random numbers and analyses them as paired
samples (see docs/questions.md). Names are imported lazily, as in :mod:`balance.sweep`; the
modules are named apart from the functions (``solving`` holds ``solve``) so that importing one
never hides a function behind its module.
"""

from __future__ import annotations

import importlib

_NAMES = {"solve": "solving", "Solution": "solving", "sensitivity": "sensitivities",
          "Sensitivity": "sensitivities", "exchange": "exchange_rate",
          "Exchange": "exchange_rate", "explain": "explaining", "survival": "lengths",
          "hazard": "lengths", "compare_run": "compare"}

__all__ = sorted(_NAMES)


def __getattr__(name: str):
    if name in _NAMES:
        return getattr(importlib.import_module(f"balance.analysis.{_NAMES[name]}"), name)
    raise AttributeError(f"module 'balance.analysis' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The lazily imported names, so ``dir(balance.analysis)`` shows them."""
    return sorted({*__all__, *(n for n in globals() if n.startswith("__"))})
