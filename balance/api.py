"""The Python entry points for notebooks and scripts: load a scenario, run it."""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Mapping
from typing import Any

from balance import rules
from balance.engine.run import run_fight, run_reference
from balance.errors import OptionError, ScenarioError
from balance.io.scenario import LoadedScenario, load_scenario
from balance.result import RunResult

ENGINES = ("vector", "reference")


def _check_count(name: str, value: Any, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise OptionError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return value


def compile_scenario(loaded: LoadedScenario):
    """The rule system and compiled fight of a loaded scenario.

    Some problems only show when the fighters are put together (a weapon too heavy for its
    wielder, a shield held as a weapon, ...): they are reported like the loader's, naming
    the file.
    """
    system = rules.get(loaded.ruleset)
    try:
        return system, system.compile(loaded.model, loaded.tables)
    except ScenarioError as err:
        where = loaded.path or "<dict>"
        raise ScenarioError(p if p.file else dataclasses.replace(p, file=where)
                            for p in err.problems) from None


def run(scenario: LoadedScenario | str | os.PathLike | Mapping, trials: int | None = None,
        seed: int | None = None, *, engine: str = "vector",
        progress: bool = False) -> RunResult:
    """Simulate a scenario and return its outcome probabilities, intervals and rounds.

    ``scenario`` is a loaded scenario, a path to a YAML file or a dict with the same keys.
    ``trials`` and ``seed`` override the scenario's own. ``engine="reference"`` plays the
    trials with the readable scalar reference instead (slow; for checking). ``progress``
    shows a progress bar on stderr for runs longer than a second.
    """
    loaded = scenario if isinstance(scenario, LoadedScenario) else load_scenario(scenario)
    model = loaded.model
    trials = _check_count("trials", model.trials if trials is None else trials, minimum=1)
    seed = _check_count("seed", model.seed if seed is None else seed)
    if engine not in ENGINES:
        raise OptionError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    system, fight = compile_scenario(loaded)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=trials, unit="trial", unit_scale=True, delay=1.0, file=sys.stderr,
                   disable=None, desc=model.name[:30], leave=False)
    driver = run_fight if engine == "vector" else run_reference
    try:
        tally = driver(system, fight, trials, seed, on_block=bar.update if bar else None)
    finally:
        if bar is not None:
            bar.close()
    return RunResult(
        scenario=model.name,
        ruleset=loaded.ruleset,
        seed=seed,
        side_names=fight.side_names,
        fighter_names=fight.fighter_names,
        tally=tally,
        side_of=fight.side_of,
        engine=engine,
    )
