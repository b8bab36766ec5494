"""balance: a Monte Carlo balance and statistics lab for tabletop combat rules.

For notebooks::

    import balance
    sc = balance.load_scenario("scenarios/yags/reference_duel.yaml")
    res = balance.run(sc, trials=100_000, seed=7)
    res                      # a short summary; print(res) gives the table
    res.outcomes, res.ci95, res.rounds
    res.to_frame()

    sw = balance.run_sweep("scenarios/sweeps/weapon_vs_armour.yaml", trials=20_000, out=None)
    table = balance.load("results/weapon_vs_armour")   # a stored sweep's tidy table (pandas)

Every name is imported on first use, so ``import balance`` (and the ``balance`` command's
start-up) costs only what is used: ``import balance.engine`` pulls in numpy alone.
"""

from __future__ import annotations

import importlib

# name -> (module, attribute): the public API, imported lazily.
_API: dict[str, tuple[str, str]] = {
    "run": ("balance.api", "run"),
    "compile_scenario": ("balance.api", "compile_scenario"),
    "load_scenario": ("balance.io.scenario", "load_scenario"),
    "load": ("balance.io.store", "load"),
    "load_tallies": ("balance.io.store", "load_tallies"),
    "run_sweep": ("balance.sweep.run", "run_sweep"),
    "load_plan": ("balance.sweep.plan", "load_plan"),
    "compare": ("balance.sweep.paired", "compare"),
    "check_budget": ("balance.gate.run", "check_budget"),
    "load_budget": ("balance.gate.budget", "load_budget"),
    "write_report": ("balance.report.build", "write_report"),
    "parse_dice": ("balance.dice", "parse"),
    "wilson": ("balance.report.stats", "wilson"),
    "solve": ("balance.analysis.solving", "solve"),
    "sensitivity": ("balance.analysis.sensitivities", "sensitivity"),
    "exchange": ("balance.analysis.exchange_rate", "exchange"),
    "explain": ("balance.analysis.explaining", "explain"),
    "compare_run": ("balance.analysis.compare", "compare_run"),
    "autobalance": ("balance.analysis.autobalance", "autobalance"),
    "RunResult": ("balance.result", "RunResult"),
    "BalanceError": ("balance.errors", "BalanceError"),
    "OptionError": ("balance.errors", "OptionError"),
    "ScenarioError": ("balance.errors", "ScenarioError"),
}
_SUBPACKAGES = ("analysis", "dice", "engine", "gate", "io", "models", "report", "rules",
                "sweep")

__all__ = ["__version__", *sorted(_API)]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("balance-lab")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0+unknown"


def __getattr__(name: str):
    if name == "__version__":
        value = globals()["__version__"] = _version()
        return value
    if name in _API:
        module, attribute = _API[name]
        value = getattr(importlib.import_module(module), attribute)
        globals()[name] = value
        return value
    if name in _SUBPACKAGES:
        return importlib.import_module(f"balance.{name}")
    raise AttributeError(f"module 'balance' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public API and the subpackages (plus the module's dunders), not its internals."""
    return sorted({*__all__, *_SUBPACKAGES, *(n for n in globals() if n.startswith("__"))})
