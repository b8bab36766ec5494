"""Shared pieces of the scenario models: strict frozen base class and the core scenario keys.

Models are strict (PyYAML reads ``no`` as ``False``; a strict ``int`` refuses it) and forbid
unknown keys, so a typo is an error rather than a silently ignored setting.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from balance.errors import FieldValueError


class DiceField:
    """Marks a model field that holds a dice expression (``Annotated[str, DiceField(), ...]``):
    the questions step such a field along its ladder (:mod:`balance.dice.ladder`)."""

    def __repr__(self) -> str:
        return "DiceField()"


class Strict(BaseModel):
    """Base of every scenario and table model: strict types, no unknown keys, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


Name = Annotated[str, Field(min_length=1, max_length=80)]
Trials = Annotated[int, Field(gt=0, le=1_000_000_000)]
Seed = Annotated[int, Field(ge=0, lt=2**63)]
MaxRounds = Annotated[int, Field(gt=0, le=10_000)]
Count = Annotated[int, Field(ge=1, le=1000)]
# Start distance between sides, in the rule system's unit (balance.engine.distance).
Distance = Annotated[float, Field(ge=0, le=100_000)]

# A reference from a member to a table row: path in the scenario, the table, and the name.
Reference = tuple[tuple[str | int, ...], str, str]

# Group fights (shared by every rule system): who a fighter attacks, and when a side breaks.
# See balance.engine.targeting for what each policy does and balance.engine.morale.
TargetPolicy = Literal["engage", "first", "weakest", "dangerous", "nearest", "spread", "random",
                       "fixed"]


class Targeting(Strict):
    """A fighter's (or a side's default) choice of target. Targets are kept until they fall.

    Default ``engage``, the lab's order-free reading of a game master splitting a melee
    (seed 002, Group fights: "one against one or more"): fight a foe already attacking you,
    else the foe with the fewest attackers, one not yet busy, the nearest; ties at random.
    ``first`` (the first standing foe in scenario order) is kept as an explicit choice and
    depends on the order fighters are listed in. ``targets`` lists fighter names in order of
    preference for the ``fixed`` policy (foes not listed come after, ties at random).
    docs/engine.md, "Targeting"."""

    target: TargetPolicy = "engage"
    targets: tuple[Name, ...] = ()


class Morale(Strict):
    """When a whole side breaks: once the share of its fighters who are down reaches
    ``breaks_at``, every fighter of the side still standing flees (drawing whatever free
    strikes the rule system gives a fleeing fighter). None: the side never breaks."""

    breaks_at: Annotated[float, Field(gt=0, le=1)] | None = None


def check_side_names(names: list[str]) -> None:
    """Side names must be unique and must not be 'draw' (the name of the draw outcome); the
    error names the field of the first repeat (``sides[i].name``)."""
    for i, name in enumerate(names):
        if name == "draw":
            raise FieldValueError("'draw' is reserved for the draw outcome; rename that side",
                                  ("sides", i, "name"))
        if name in names[:i]:
            raise FieldValueError(f"side names must be unique; {name!r} is also "
                                  f"sides[{names.index(name)}].name", ("sides", i, "name"))
