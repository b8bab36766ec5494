"""``balance dice``: output shapes, seeded sampling in independent blocks, clean errors.

Driven through a local argparse parser with the command's own ``register``, so these tests do
not depend on the other sub-commands existing.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from balance.commands import dice as command
from balance.dice import parse
from balance.errors import DiceExpressionError, OptionError


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    parser = argparse.ArgumentParser(prog="balance")
    command.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["dice", *argv])
    assert args.func(args) == 0
    return capsys.readouterr().out


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    out = run(capsys, *argv, "--json")
    assert out.count("\n") == 1  # exactly one JSON object on one line
    return json.loads(out)


def test_json_distribution(capsys):
    doc = run_json(capsys, "2d6+1")
    assert list(doc) == ["expr", "pmf", "mean", "sd"]
    assert doc["expr"] == "2d6+1"
    assert list(doc["pmf"]) == [str(k) for k in range(3, 14)]
    assert doc["pmf"]["8"] == pytest.approx(6 / 36)
    assert sum(doc["pmf"].values()) == pytest.approx(1)
    assert doc["mean"] == pytest.approx(8) and doc["sd"] == pytest.approx((35 / 6) ** 0.5)


def test_json_keys_sort_numerically_across_negatives(capsys):
    doc = run_json(capsys, "d12-6")
    assert list(doc["pmf"]) == [str(k) for k in range(-5, 7)]


def test_json_comparison_is_exact(capsys):
    doc = run_json(capsys, "d20+12", "--vs", "d20+10")
    assert doc == {"expr": "d20+12", "vs": "d20+10", "p_at_least": pytest.approx(247 / 400)}


def test_json_with_samples_is_seeded_and_close_to_exact(capsys):
    n = 200_000
    doc = run_json(capsys, "2d6", "--samples", str(n), "--seed", "7")
    assert (doc["samples"], doc["seed"]) == (n, 7)
    sampled = doc["sampled"]["pmf"]
    assert list(sampled) == sorted(sampled, key=int)
    assert sum(sampled.values()) == pytest.approx(1)
    for k, p in doc["pmf"].items():  # 6 standard errors: noise never fails, a bias does
        assert abs(sampled[k] - p) < 6 * (p * (1 - p) / n) ** 0.5
    assert run_json(capsys, "2d6", "--samples", str(n), "--seed", "7") == doc
    assert run_json(capsys, "2d6", "--samples", str(n), "--seed", "8") != doc


def test_json_comparison_with_samples(capsys):
    n = 200_000
    doc = run_json(capsys, "d20+12", "--vs", "d20+10", "--samples", str(n))
    assert set(doc) == {"expr", "vs", "p_at_least", "samples", "seed", "sampled_p_at_least"}
    assert doc["seed"] == 0
    p = 247 / 400
    assert abs(doc["sampled_p_at_least"] - p) < 6 * (p * (1 - p) / n) ** 0.5


def test_sampling_blocks_use_spawned_streams():
    expr, n, block, seed = parse("3d6+drift"), 2500, 1000, 11
    children = np.random.SeedSequence(seed).spawn(3)
    rolls = np.concatenate([
        expr.sample(np.random.Generator(np.random.PCG64(child)), size)
        for child, size in zip(children, [1000, 1000, 500], strict=True)])
    values, counts = np.unique(rolls, return_counts=True)
    expected = dict(zip(values.tolist(), counts.tolist(), strict=True))
    assert command.sampled_counts(expr, n, seed, block=block) == expected


def test_table_shows_exact_and_sampled_columns(capsys):
    out = run(capsys, "3D6 - 2", "--samples", "1000", "--seed", "3")
    lines = out.splitlines()
    assert lines[0] == "3D6 - 2  (3d6-2)"
    assert lines[1].split() == ["outcome", "P(=)", "P(>=)", "sampled", "P(=)"]
    assert lines[2].split()[:3] == ["1", "0.4630%", "100.0000%"]
    assert any(line.startswith("mean  8.500000   sampled") for line in lines)
    assert lines[-1] == "sampled: 1,000 rolls, seed 3"


def test_table_hides_negligible_drift_tails(capsys):
    out = run(capsys, "drift")
    firsts = [line.split()[0] for line in out.splitlines()[2:]]
    rows = [word for word in firsts if word.lstrip("-").isdigit()]
    assert rows[0] == "-24" and rows[-1] == "24"  # P(24) = (2/3) 3**-24 > 1e-12 > P(25)
    assert "(20 outcomes with probability below 1e-12 not shown)" in out


def test_text_comparison(capsys):
    out = run(capsys, "d20+12", "--vs", "d20+10", "--samples", "1000")
    first, second = out.splitlines()
    assert first == "P(d20+12 >= d20+10) = 0.617500  (61.7500%)"
    assert second.startswith("sampled: ") and "95% Wilson" in second and "seed 0" in second


@pytest.mark.parametrize("argv", [["--samples", "0"], ["--samples", "-5"],
                                  ["--samples", "10", "--seed", "-1"]])
def test_bad_options_are_option_errors(capsys, argv):
    with pytest.raises(OptionError, match="--s"):
        run(capsys, "2d6", *argv)


def test_bad_expressions_are_clean_errors(capsys):
    with pytest.raises(DiceExpressionError, match=r"unexpected 'x' at column 5"):
        run(capsys, "2d6+x")
    with pytest.raises(DiceExpressionError, match=r"'2d' at column 1"):
        run(capsys, "d6", "--vs", "2d")
