"""balance: a Monte Carlo balance and statistics lab for tabletop combat rules.

For notebooks::

    import balance
    sc = balance.load_scenario("scenarios/yags/reference_duel.yaml")
    res = balance.run(sc, trials=100_000, seed=7)
    res.outcomes, res.ci95, res.rounds
    res.to_frame()

    table = balance.load("results/weapon_vs_armour")   # a sweep's tidy table (pandas)
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("balance-lab")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = ["__version__", "load", "load_scenario", "run"]


def __getattr__(name: str):
    # Lazy, so that `import balance.engine` (numpy only) does not pull in pydantic or scipy.
    if name == "load_scenario":
        from balance.io.scenario import load_scenario

        return load_scenario
    if name == "run":
        from balance.api import run

        return run
    if name == "load":
        from balance.io.store import load

        return load
    raise AttributeError(f"module 'balance' has no attribute {name!r}")
