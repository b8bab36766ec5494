"""The balance budget: a YAML file of claims a designer promises about the rules and tables.

::

    name: Yags shipped tables
    trials: 32768          # per cell for the first look (whole blocks of 16,384)
    max_trials: 524288     # an inconclusive claim gets more trials, up to this per cell
    seed: 1
    confidence: 0.95       # per claim, over all its cells and looks
    claims:
      - claim: No weapon wins more than 60% against another at equal skill
        scenario: sweeps/weapon_round_robin.yaml   # relative to this file; may hold a sweep
        metric: win                                 # win | draw | survival | standing | rounds
        side: red                                   # default: the first side
        at_most: 0.60
      - claim: Plate raises survival against a long sword by at least 15 points
        scenario: yags/reference_duel.yaml
        metric: survival
        side: blue
        difference: {path: sides.1.members.0.armour, from: [], to: [plate]}
        at_least: 0.15

A claim holds for *every* cell of its scenario (one cell without a sweep). ``set:`` changes
fields of the scenario first, ``sweep:`` gives it a sweep block inline. With ``difference:``
the claim is about the change from one value to another, measured pairwise with common
random numbers. Bounds: ``at_least``, ``at_most`` (both together for a range) or
``between: [lo, hi]``. Probabilities are fractions (0.60); rounds are rounds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from balance.errors import Problem, ScenarioError
from balance.io.problems import validate_model
from balance.io.scenario import read_text
from balance.io.yamlfile import PathIndex, read_yaml
from balance.models.base import Seed, Strict

Metric = Literal["win", "draw", "survival", "standing", "rounds"]
Trials = Annotated[int, Field(ge=1, le=100_000_000)]
Bound = Annotated[float, Field(allow_inf_nan=False)]   # .nan or .inf would judge nothing
SHARES = ("win", "draw", "survival", "standing")


class Difference(Strict):
    """The change a difference claim is about: the field, its first and its second value."""

    model_config = Strict.model_config | {"populate_by_name": True}

    path: str
    from_: Any = Field(alias="from")
    to: Any


class Claim(Strict):
    """One promise, judged in every cell of its scenario."""

    claim: Annotated[str, Field(min_length=1, max_length=300)]
    scenario: Annotated[str, Field(min_length=1)]
    set: dict[str, Any] = Field(default_factory=dict)
    sweep: dict[str, Any] | None = None
    metric: Metric = "win"
    side: str | None = None
    at_least: Bound | None = None
    at_most: Bound | None = None
    between: tuple[Bound, Bound] | None = None
    difference: Difference | None = None
    trials: Trials | None = None
    max_trials: Trials | None = None

    @model_validator(mode="after")
    def _bounds(self) -> Claim:
        if self.between is not None:
            if self.at_least is not None or self.at_most is not None:
                raise ValueError("give between: or at_least:/at_most:, not both")
            if self.between[0] > self.between[1]:
                raise ValueError("between: the first bound must not exceed the second")
        elif self.at_least is None and self.at_most is None:
            raise ValueError("a claim needs a bound: at_least:, at_most: or between:")
        elif self.at_least is not None and self.at_most is not None and \
                self.at_least > self.at_most:
            raise ValueError("at_least: exceeds at_most:")
        if self.metric == "rounds" and self.side is not None:
            raise ValueError("rounds: is about the whole fight; leave out side:")
        self._check_range()
        return self

    def _check_range(self) -> None:
        """A bound the metric can never reach is a typo (``at_most: 60`` for 60%), not a
        claim: shares are fractions from 0 to 1 (changes from -1 to 1), rounds not negative."""
        given = {"at_least": self.at_least, "at_most": self.at_most}
        if self.between is not None:
            given = {"between": self.between[0], "between ": self.between[1]}
        diff = self.difference is not None
        for key, v in given.items():
            if v is None:
                continue
            if self.metric in SHARES and not (-1 if diff else 0) <= v <= 1:
                what = "a change in a share, from -1 to 1" if diff else "a fraction from 0 to 1"
                raise ValueError(f"{key.strip()}: {self.metric} is {what} (0.60 is 60%), "
                                 f"found {v:g}")
            if self.metric == "rounds" and not diff and v < 0:
                raise ValueError(f"{key.strip()}: rounds cannot be negative, found {v:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lowest allowed, highest allowed); infinite where the claim sets no bound."""
        if self.between is not None:
            return self.between
        return (-float("inf") if self.at_least is None else self.at_least,
                float("inf") if self.at_most is None else self.at_most)

    def describe_bounds(self, percent: bool, difference: bool = False) -> str:
        """``<= 60%``, ``>= +15 pts`` (a difference), ``3 to 8``."""
        lo, hi = self.bounds

        def show(v: float) -> str:
            if percent and difference:
                return f"{100 * v:+g} pts"
            return f"{100 * v:g}%" if percent else f"{v:g}"
        if lo == -float("inf"):
            return f"<= {show(hi)}"
        if hi == float("inf"):
            return f">= {show(lo)}"
        return f"{show(lo)} to {show(hi)}"


class Budget(Strict):
    """A budget file: defaults for its claims, and the claims."""

    name: Annotated[str, Field(min_length=1, max_length=200)]
    description: str = ""
    trials: Trials = 32_768
    max_trials: Trials = 524_288
    seed: Seed = 0
    confidence: Annotated[float, Field(gt=0.5, lt=1)] = 0.95
    claims: Annotated[list[Claim], Field(min_length=1, max_length=500)]


@dataclass(frozen=True)
class LoadedBudget:
    """A checked budget, where it came from, and where each claim sits in the file."""

    model: Budget
    path: str
    folder: Path
    index: PathIndex

    def where(self, claim: int) -> tuple[int | None, int | None]:
        return self.index.locate(("claims", claim)) or (None, None)


def load_budget(path: str | os.PathLike[str]) -> LoadedBudget:
    """Read and check a budget file; every problem at once, with line and column."""
    budget, problems, _ = read_budget(path)
    if problems:
        raise ScenarioError(problems)
    return budget


def read_budget(path: str | os.PathLike[str]) -> tuple[LoadedBudget, list[Problem], list[int]]:
    """The budget, the problems of the file itself, and the claims that are good on their
    own. With problems, the budget holds each good claim at its place (None elsewhere), so
    the claims' scenarios can still be checked and *every* problem of the file reported in
    one pass, as the docs promise (a bad bound in claim 1 no longer hides a misspelt path
    in claim 3 until it is fixed)."""
    label = os.fsdecode(path)
    data, index = read_yaml(read_text(label), label)
    model, problems = validate_model(Budget, data, label, index)
    folder = Path(label).resolve().parent
    if model is not None:
        return LoadedBudget(model, label, folder, index), [], list(range(len(model.claims)))
    raw = data.get("claims") if isinstance(data, dict) else None
    claims: list[Claim | None] = []
    for i, entry in enumerate(raw if isinstance(raw, list) else []):
        claim, _ = validate_model(Claim, entry, label, index, base=("claims", i))
        claims.append(claim)
    partial = Budget.model_construct(name=str(data.get("name", label)), claims=claims)
    return (LoadedBudget(partial, label, folder, index), problems,
            [i for i, c in enumerate(claims) if c is not None])
