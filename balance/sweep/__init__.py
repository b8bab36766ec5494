"""Sweeps: one scenario, many cells (weapon x armour, stances, table values), each with its
own reproducible random streams, run on any executor and stored as one tidy table.

::

    from balance.sweep import run_sweep
    res = run_sweep("scenarios/sweeps/weapon_vs_armour.yaml", trials=20_000, out=None)
    res.table            # one row per cell

See ``docs/sweeps.md``. Names are imported lazily: worker processes import only
:mod:`balance.sweep.task` (numpy and the engine), not pydantic, pandas or YAML.
"""

from __future__ import annotations

import importlib

_NAMES = {"Paired": "paired", "compare": "paired", "Plan": "plan", "load_plan": "plan",
          "SweepResult": "run", "run_sweep": "run"}

__all__ = sorted(_NAMES)


def __getattr__(name: str):
    if name in _NAMES:
        return getattr(importlib.import_module(f"balance.sweep.{_NAMES[name]}"), name)
    raise AttributeError(f"module 'balance.sweep' has no attribute {name!r}")
