"""Every sample validates to exactly the rules its name promises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import Invoke

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
OPTIONS = {
    "perfect": ["--perfect"],
    "config": ["--config", str(SAMPLES / "config.txt")],
}
RULES = [
    "format",
    "coherence",
    "border",
    "entry-exit",
    "pattern",
    "connectivity",
    "open-area",
    "path",
    "perfect",
    "config",
]


def _rule_of(name: str) -> str:
    rest = name.removeprefix("invalid-")
    return next(
        rule for rule in sorted(RULES, key=len, reverse=True) if rest.startswith(rule + "-")
    )


VALID = sorted(SAMPLES.glob("valid-*.txt"))
INVALID = sorted(SAMPLES.glob("invalid-*.txt"))


def test_there_are_enough_samples() -> None:
    assert len(VALID) >= 6
    assert {_rule_of(p.name) for p in INVALID} == set(RULES)


@pytest.mark.parametrize("sample", VALID, ids=lambda p: p.name)
def test_valid_samples_are_valid(invoke: Invoke, sample: Path) -> None:
    result = invoke(["validate", str(sample)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{sample}: ok\n"


@pytest.mark.parametrize("sample", INVALID, ids=lambda p: p.name)
def test_invalid_samples_break_exactly_their_rule(invoke: Invoke, sample: Path) -> None:
    rule = _rule_of(sample.name)
    result = invoke(["validate", "--format", "json", *OPTIONS.get(rule, []), str(sample)])
    assert result.exit_code == 1
    (entry,) = json.loads(result.stdout)["files"]
    assert {v["rule"] for v in entry["violations"]} == {rule}
