"""Golden cases from real-looking student files: tests/data/students/cases.txt, run as written.

Each case is a command (``$ mazekit ...``), its exit status (``? N``), its stderr lines
(``! ...``) and its stdout; adding a case means adding a few lines to that file.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import Invoke

FOLDER = Path(__file__).resolve().parent / "data" / "students"


@dataclass
class Case:
    """One command of cases.txt and what it must print."""

    args: list[str]
    code: int = 0
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)


def _cases() -> list[Case]:
    cases: list[Case] = []
    for line in (FOLDER / "cases.txt").read_text().splitlines():
        if line.startswith("$ mazekit "):
            cases.append(Case(shlex.split(line.removeprefix("$ mazekit "))))
        elif not cases or line.startswith("#") or (not line and not cases[-1].stdout):
            continue
        elif line.startswith("? "):
            cases[-1].code = int(line.removeprefix("? "))
        elif line.startswith("! "):
            cases[-1].stderr.append(line.removeprefix("! "))
        elif line or cases[-1].stdout:
            cases[-1].stdout.append(line)
    for case in cases:
        while case.stdout and not case.stdout[-1]:
            case.stdout.pop()  # the blank line that ends a case
    return cases


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=[" ".join(c.args) for c in CASES])
def test_student_file(case: Case, invoke: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FOLDER)
    result = invoke(case.args)
    assert result.stdout.splitlines() == case.stdout
    assert result.stderr.splitlines() == case.stderr
    assert result.exit_code == case.code


def test_every_case_file_is_used() -> None:
    used = {arg for case in CASES for arg in case.args}
    assert {path.name for path in FOLDER.glob("*.txt")} - {"cases.txt"} <= used
