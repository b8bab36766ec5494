"""The Python entry points for notebooks and scripts: load a scenario, run it.

Heavy modules (pydantic models, the rule systems, scipy) are imported inside the functions,
so that the ``balance`` command can import this module for its option lists at no cost.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from balance.errors import MAX_SEED, MAX_TRIALS, OptionError, ScenarioError, check_count

if TYPE_CHECKING:
    from balance.io.scenario import LoadedScenario
    from balance.result import RunResult

ENGINES = ("vector", "reference", "exact", "auto")
"""``vector``: the Monte Carlo engine; ``reference``: the scalar reference (slow, for
checking); ``exact``: a duel solved as a Markov chain (balance.exact), an error when the
scenario uses something it does not model; ``auto``: exact when it can, else vector."""


def compile_scenario(loaded: LoadedScenario):
    """The rule system and compiled fight of a loaded scenario.

    Some problems only show when the fighters are put together (a weapon too heavy for its
    wielder, a shield held as a weapon, ...): they are reported like the loader's, naming
    the file, and the line and column of the field.
    """
    from balance import rules
    from balance.io.scenario import locate_problems

    system = rules.get(loaded.ruleset)
    try:
        return system, system.compile(loaded.model, loaded.tables)
    except ScenarioError as err:
        raise ScenarioError(locate_problems(loaded, err.problems)) from None


def run(scenario: LoadedScenario | str | os.PathLike | Mapping, trials: int | None = None,
        seed: int | None = None, *, engine: str = "vector",
        progress: bool = False, breakdown: bool = False) -> RunResult:
    """Simulate a scenario and return its outcome probabilities, intervals and rounds.

    ``scenario`` is a loaded scenario, a path to a YAML file or a dict with the same keys.
    ``trials`` and ``seed`` override the scenario's own. ``engine="reference"`` plays the
    trials with the readable scalar reference instead (slow; for checking);
    ``engine="exact"`` solves a duel exactly (no trials, no seed: docs/exact.md), and
    ``engine="auto"`` does so when the exact engine covers the scenario, else runs the
    vector engine (``RunResult.engine`` and ``engine_note`` say which and why).
    ``breakdown`` counts what each fighter did (``RunResult.breakdown``: attacks, hits,
    damage, fumbles, criticals, rounds standing; Monte Carlo only). ``progress``
    shows a progress bar on stderr for runs longer than a second (a line every ~10 s when
    stderr is not a terminal).
    """
    from balance.engine.run import run_fight, run_reference
    from balance.io.scenario import LoadedScenario, load_scenario
    from balance.progress import progress_bar
    from balance.result import RunResult

    loaded = scenario if isinstance(scenario, LoadedScenario) else load_scenario(scenario)
    model = loaded.model
    trials = check_count("trials", model.trials if trials is None else trials, minimum=1,
                         maximum=MAX_TRIALS)
    seed = check_count("seed", model.seed if seed is None else seed, maximum=MAX_SEED)
    if engine not in ENGINES:
        raise OptionError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    system, fight = compile_scenario(loaded)
    note = ""
    if breakdown and engine == "exact":
        raise OptionError("a breakdown counts what happens in sampled fights: use --engine "
                          "vector or auto (which then samples)")
    if breakdown and engine == "auto":
        engine, note = "vector", "Monte Carlo: a breakdown counts sampled fights"
    if breakdown and engine == "reference":
        raise OptionError("the breakdown is counted by the vector engine; use --engine vector")
    if engine == "auto":
        from balance.exact.run import auto_declines, why_not_exact

        declined = auto_declines(system)
        if declined:     # (a fight that is no duel says so rather than the system's note)
            beyond = why_not_exact(fight)
            engine, note = "vector", "Monte Carlo: " + (
                f"the exact engine does not cover this scenario ({'; '.join(beyond)})"
                if beyond else declined)
    if engine in ("exact", "auto"):
        from balance.exact.run import exact_or_reason

        tally, reason = exact_or_reason(system, fight, engine)
        if tally is not None:
            return RunResult(scenario=model.name, ruleset=loaded.ruleset, seed=seed,
                             side_names=fight.side_names, fighter_names=fight.fighter_names,
                             tally=tally, side_of=fight.side_of, engine="exact",
                             engine_note="exact engine" if engine == "auto" else "")
        if engine == "exact":
            raise OptionError(f"{model.name}: the exact engine cannot play this scenario: "
                              f"{reason} (use --engine auto to fall back to Monte Carlo)")
        note = f"Monte Carlo: the exact engine does not cover this scenario ({reason})"
        engine = "vector"
    bar = progress_bar(total=trials, unit="trial", desc=model.name[:30]) if progress else None
    driver = run_fight if engine == "vector" else run_reference
    try:
        extra = {"with_breakdown": True} if breakdown else {}
        tally = driver(system, fight, trials, seed, on_block=bar.update if bar else None,
                       **extra)
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
        engine_note=note,
        counted=system.breakdown_metrics,
    )
