"""The CI balance gate: a budget of claims about the rules, each judged with intervals.

``balance check BUDGET`` runs :func:`check_budget` and exits 1 when a claim fails.
"""

from __future__ import annotations

from balance.gate.budget import Budget, Claim, load_budget
from balance.gate.check import ClaimResult, check_claim
from balance.gate.run import BudgetResult, check_budget, to_markdown, write_results

__all__ = ["Budget", "BudgetResult", "Claim", "ClaimResult", "check_budget", "check_claim",
           "load_budget", "to_markdown", "write_results"]
