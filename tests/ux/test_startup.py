"""Start-up: the ``balance`` command imports only what the chosen command needs.

``balance --help`` used to take ~2 s because every command module imported pandas, scipy,
matplotlib and all three rule systems' pydantic models. These tests guard the import list
(timing tests would flake on a loaded CI machine; ``benchmarks/bench_startup.py`` measures
the times as ratios to ``python -c "import numpy"``).
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from pathlib import Path

import pytest

import balance
from balance.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[2]
YAGS_DUEL = ROOT / "tests" / "data" / "duel.yaml"
HEAVY = {"pandas", "scipy", "matplotlib", "dask", "distributed", "pyarrow", "tqdm", "IPython"}


def modules_after(argv: list[str]) -> tuple[set[str], set[str]]:
    """(top-level packages, balance modules) imported by ``balance ARGV`` in a fresh process."""
    code = ("import sys, json, contextlib, io\n"
            "from balance.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n"
            f"        main({argv!r})\n"
            "    except SystemExit:\n"
            "        pass\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    names = json.loads(out.splitlines()[-1])
    return {n.split(".")[0] for n in names}, {n for n in names if n.startswith("balance")}


def test_help_imports_no_numpy_and_no_command_module() -> None:
    top, ours = modules_after(["--help"])
    assert not top & (HEAVY | {"numpy", "pydantic", "yaml"})
    assert not {m for m in ours if m.startswith("balance.commands.")}


def test_validate_imports_only_its_own_ruleset() -> None:
    top, ours = modules_after(["validate", str(YAGS_DUEL)])
    assert not top & HEAVY
    assert "balance.rules.yags" in ours and "balance.models.yags" in ours
    others = {f"balance.{kind}.{name}" for kind in ("rules", "models")
              for name in ("percentile", "ymlad")}
    assert not ours & others
    assert ours & {m for m in ours if m.startswith("balance.commands.")} == \
        {"balance.commands.validate"}


def test_run_needs_no_report_stack() -> None:
    top, _ = modules_after(["run", str(YAGS_DUEL), "--trials", "100", "--quiet"])
    assert not top & {"pandas", "matplotlib", "dask", "distributed", "pyarrow"}


def test_the_short_listing_matches_every_module() -> None:
    """``balance --help`` lists commands without importing them; the text is the same as
    with every module registered, and every module is listed."""
    assert build_parser([]).format_help() == build_parser().format_help()
    found = {p.stem for p in (ROOT / "balance" / "commands").glob("*.py")
             if not p.stem.startswith("_")}                 # _name: helpers shared by commands
    assert set(COMMANDS) == found


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_texts_show_single_percent_signs(command: str, capsys) -> None:
    """argparse %-formats argument help but not descriptions: neither may show '%%'."""
    parser = build_parser([command])
    with pytest.raises(SystemExit):
        parser.parse_args([command, "--help"])
    text = capsys.readouterr().out
    assert "%%" not in text and text.strip()


def test_version_everywhere() -> None:
    installed = importlib.metadata.version("balance-lab")
    assert balance.__version__ == installed
    out = subprocess.run([sys.executable, "-m", "balance.cli", "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert out == f"balance {installed}\n"
