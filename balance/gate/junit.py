"""``balance check --junit FILE``: the budget's verdicts as JUnit XML, the format CI servers
(GitLab, Jenkins, GitHub test reporters, Azure) read into their test views.

One ``<testsuite>`` per claim and one ``<testcase>`` per cell of the claim, so a CI view lists
"claim 2: no weapon wins more than 60% / red.weapon=spear" as its own test, with the cell's
value, interval and bound. A failed cell is a ``<failure>``; an inconclusive cell is
``<skipped>`` (it was not decided either way), or a ``<failure>`` under ``--strict``, as
``--strict`` fails the build on it. Written whole or not at all, beside ``check.md`` and
``check.json``.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from typing import Any

from balance import __version__


def to_junit(result: Any, *, strict: bool = False) -> str:
    """The JUnit XML text of a :class:`~balance.gate.run.BudgetResult`."""
    b = result.budget.model
    seconds = list(result.seconds) + [0.0] * (len(result.claims) - len(result.seconds))
    suites = []
    total = {"tests": 0, "failures": 0, "skipped": 0}
    for claim, spent in zip(result.claims, seconds, strict=True):
        suite, counts = _suite(result, claim, spent, strict)
        suites.append(suite)
        for k in total:
            total[k] += counts[k]
    root = ET.Element("testsuites", {
        "name": f"balance check: {b.name}", "tests": str(total["tests"]),
        "failures": str(total["failures"]), "errors": "0", "skipped": str(total["skipped"]),
        "time": _time(sum(seconds)), "timestamp": result.started})
    root.extend(suites)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") \
        + "\n"


def _suite(result: Any, claim: Any, spent: float, strict: bool) -> tuple[ET.Element, dict]:
    b = result.budget.model
    failed = [c for c in claim.cells if c.verdict == "fail" or
              (strict and c.verdict == "inconclusive")]
    skipped = [] if strict else [c for c in claim.cells if c.verdict == "inconclusive"]
    suite = ET.Element("testsuite", {
        "name": f"claim {claim.number}: {claim.claim.claim}", "tests": str(len(claim.cells)),
        "failures": str(len(failed)), "errors": "0", "skipped": str(len(skipped)),
        "time": _time(spent), "timestamp": result.started})
    props = ET.SubElement(suite, "properties")
    for name, value in (("budget", str(result.budget.path)), ("verdict", claim.verdict),
                        ("metric", claim.claim.metric), ("side", claim.claim.side or ""),
                        ("bound", claim.bound_text()),
                        ("cell_confidence", f"{100 * claim.level:.4g}%"),
                        ("looks", str(claim.looks)), ("seed", str(b.seed)),
                        ("balance", __version__),
                        *(("set", f"{k} = {v}") for k, v in claim.claim.set.items()),
                        *(("--set", o.text) for o in result.sets)):
        ET.SubElement(props, "property", {"name": name, "value": value})
    per_cell = spent / max(len(claim.cells), 1)
    for cell in claim.cells:
        case = ET.SubElement(suite, "testcase", {
            "classname": f"{_slug(b.name)}.claim{claim.number}", "name": cell.cell,
            "time": _time(per_cell)})
        evidence = (f"{claim.evidence(cell)}; bound {claim.bound_text()}; {cell.trials:,} "
                    f"trials, {100 * claim.level:.4g}% interval")
        if cell.verdict == "fail" or (strict and cell.verdict == "inconclusive"):
            kind = "fail" if cell.verdict == "fail" else "inconclusive (--strict)"
            failure = ET.SubElement(case, "failure", {"type": kind, "message": evidence})
            failure.text = "\n".join([claim.line(), *claim.details()])
        elif cell.verdict == "inconclusive":
            ET.SubElement(case, "skipped", {"message": f"inconclusive: {evidence}; "
                                                       f"{claim.advice()}"})
        ET.SubElement(case, "system-out").text = evidence
    return suite, {"tests": len(claim.cells), "failures": len(failed), "skipped": len(skipped)}


def _time(seconds: float) -> str:
    return f"{max(seconds, 0.0):.3f}"


def _slug(name: str) -> str:
    """A budget name as a JUnit class-name prefix (dots and spaces would split it)."""
    out = "".join(ch if ch.isalnum() else "_" for ch in name).strip("_")
    return out or "budget"


def write_junit(result: Any, path: str | os.PathLike, *, strict: bool = False) -> None:
    """The JUnit XML into ``path``, whole or not at all."""
    from balance.io.atomic import write_text

    write_text(path, to_junit(result, strict=strict))
