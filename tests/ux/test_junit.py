"""``balance check --junit FILE`` (issue 30, item 11): the verdicts as JUnit XML beside
check.md and check.json, one test suite per claim and one test case per cell. The file is
validated against a schema of the JUnit XML CI servers read (``tests/data/junit.xsd``), and
its counts and verdicts are checked against the gate's own."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from balance.cli import main
from tests.ux.helpers import WEAPONS, write_budget

SCHEMA = Path(__file__).resolve().parents[1] / "data" / "junit.xsd"

CLAIMS = [
    {"claim": "red wins", "scenario": "duel.yaml", "metric": "win", "side": "red",
     "at_least": 0.9, "sweep": WEAPONS, "set": {"sides.0.members.0.skills.single_weapon": 1}},
    {"claim": "even", "scenario": "duel.yaml", "metric": "win", "side": "red",
     "at_least": 0.492},
    {"claim": "fights end", "scenario": "duel.yaml", "metric": "rounds", "at_most": 60},
]


def validate(path: Path) -> ET.Element:
    xmlschema = pytest.importorskip("xmlschema")
    xmlschema.XMLSchema(str(SCHEMA)).validate(str(path))
    return ET.parse(path).getroot()


def test_junit_has_a_suite_per_claim_and_a_case_per_cell(tmp_path, capsys) -> None:
    budget = write_budget(tmp_path, CLAIMS)
    junit = tmp_path / "ci" / "check-junit.xml"
    assert main(["check", budget, "--out", str(tmp_path / "out"), "--junit", str(junit)]) == 1
    assert f"and {junit}" in capsys.readouterr().out
    root = validate(junit)
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["claim 1: red wins", "claim 2: even",
                                               "claim 3: fights end"]
    fail, even, ends = suites
    cells = fail.findall("testcase")
    assert [c.get("name") for c in cells] == ["red.weapon=long_sword", "red.weapon=spear",
                                              "red.weapon=club"]
    assert all(c.find("failure") is not None for c in cells) and fail.get("failures") == "3"
    failure = cells[0].find("failure")
    assert failure.get("type") == "fail" and "bound >= 90%" in failure.get("message")
    assert "set: sides.0.members.0.skills.single_weapon = 1" in failure.text
    [case] = even.findall("testcase")
    assert case.find("skipped") is not None and even.get("skipped") == "1"
    assert "inconclusive" in case.find("skipped").get("message")
    assert ends.find("testcase").find("failure") is None and ends.get("failures") == "0"
    props = {p.get("name"): p.get("value") for p in fail.find("properties")}
    assert props["verdict"] == "fail" and props["bound"] == ">= 90%"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("5", "3", "1")


def test_strict_makes_an_inconclusive_cell_a_failure(tmp_path, capsys) -> None:
    budget = write_budget(tmp_path, CLAIMS[1:2])
    junit = tmp_path / "junit.xml"
    assert main(["check", budget, "--out", str(tmp_path / "out"), "--junit", str(junit),
                 "--strict"]) == 1
    root = validate(junit)
    failure = root.find("testsuite/testcase/failure")
    assert failure.get("type") == "inconclusive (--strict)"
    assert (root.get("failures"), root.get("skipped")) == ("1", "0")


def test_a_junit_path_that_cannot_be_written_stops_before_any_claim(tmp_path, capsys) -> None:
    budget = write_budget(tmp_path, CLAIMS[2:])
    (tmp_path / "notes.txt").write_text("keep")
    for bad, words in ((tmp_path / "notes.txt" / "j.xml", "notes.txt is a file"),
                       (tmp_path, "is a folder"),
                       (tmp_path / "out" / "check-budget" / "j.xml",
                        "inside the output folder")):
        assert main(["check", budget, "--out", str(tmp_path / "out"),
                     "--junit", str(bad)]) == 2
        captured = capsys.readouterr()
        assert words in captured.err and captured.out == ""
    assert not (tmp_path / "out").exists()
