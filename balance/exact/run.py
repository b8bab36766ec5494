"""The exact engine's driver: a compiled fight to an exact tally, or the reason it cannot.

Both ``balance.run(..., engine="exact" | "auto")`` and the analysis commands come here, so
every caller gets the same coverage rules and the same messages.
"""

from __future__ import annotations

from balance.exact.chain import MAX_STATES, ChainTooLarge
from balance.exact.duel import ExactTally, Unsupported, solve_duel


def why_not_exact(fight) -> list[str]:
    """What makes a fight more than a duel the exact engine can take (empty: nothing)."""
    reasons = []
    if len(fight.side_of) != 2 or len(fight.side_names) != 2:
        reasons.append(f"{len(fight.side_of)} fighters on {len(fight.side_names)} sides (the "
                       "exact engine plays duels: one fighter a side)")
    if getattr(fight, "aftermath", None) is not None:
        reasons.append("an aftermath (who survives the hours after the fight)")
    return reasons


def coverage(system, fight) -> str:
    """Why the exact engine does not cover the fight ("" when it does), without building or
    solving its chain (a system's ``exact_duel`` only describes the model): callers that
    need every variant of a scenario covered ask this first, and build only when all are."""
    reasons = why_not_exact(fight)
    if not reasons:
        try:
            system.exact_duel(fight)
        except Unsupported as err:
            reasons = err.features
    return "; ".join(reasons)


def exact_tally(system, fight, max_states: int = MAX_STATES) -> ExactTally:
    """The fight's exact tally; raises :class:`Unsupported` (naming the features) when the
    exact engine does not cover it, or when its chain passes the size limits."""
    reasons = why_not_exact(fight)
    if reasons:
        raise Unsupported(reasons)
    model = system.exact_duel(fight)
    try:
        return solve_duel(model, fight.side_of, len(fight.side_names), fight.max_rounds,
                          max_states=max_states)
    except ChainTooLarge as err:
        raise Unsupported(f"its state space is too large ({err})") from None


def auto_declines(system) -> str:
    """Why ``engine="auto"`` samples the duels this system's exact engine covers ("": it
    solves them; ``RuleSystem.exact_by_default``)."""
    if system.has_exact_duels and not system.exact_by_default:
        return system.exact_auto_note or (f"{system.ruleset} duels are solved exactly only "
                                          "with --engine exact")
    return ""


def exact_or_reason(system, fight, engine: str = "exact") -> tuple[ExactTally | None, str]:
    """``(tally, "")`` when the exact engine covers the fight (and, for ``engine="auto"``,
    the system lets ``auto`` use it: ``auto_declines``), else ``(None, reason)``."""
    if engine == "auto" and auto_declines(system):
        return None, auto_declines(system)
    try:
        return exact_tally(system, fight), ""
    except Unsupported as err:
        return None, str(err)
