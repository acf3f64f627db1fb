"""Golden chase traces: tests/data/chase/golden/<case>/args gives the command, expected.jsonl
its ``--format jsonl`` output. A port of the kernel (the HTML page's) replays the same cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import Invoke

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "tests" / "data" / "chase" / "golden").iterdir())


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_golden_trace(invoke: Invoke, case: Path) -> None:
    words = (case / "args").read_text().split()
    args = [str(ROOT / word) if (ROOT / word).is_file() else word for word in words]
    result = invoke([*args, "--format", "jsonl"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (case / "expected.jsonl").read_text()
