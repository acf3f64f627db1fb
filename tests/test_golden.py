"""Golden cases: each folder of tests/golden runs one command and compares what a user sees.

A case is tests/golden/<command>/<case>/ holding ``cmd`` (one ``mazekit ...`` line, split as a
shell would), optional input files (copied into an empty working folder, ``stdin`` fed to
standard input), and the expected ``stdout``, ``stderr`` and ``exit``. ``pytest
--update-golden`` rewrites the expected files; tests/golden/README.md says more.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mazekit.cli import COMMANDS, cli

GOLDEN = Path(__file__).parent / "golden"
EXPECTED = ("cmd", "stdout", "stderr", "exit")
CASES = sorted(path for path in GOLDEN.glob("*/*") if (path / "cmd").is_file())


def _run(case: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, bytes, int]:
    """Run the case's command in ``workdir`` (holding its input files), in-process."""
    for item in case.iterdir():
        if item.name not in (*EXPECTED, "stdin"):
            shutil.copy(item, workdir / item.name)
    words = shlex.split((case / "cmd").read_text())
    assert words[0] == "mazekit", f"{case}/cmd must start with mazekit"
    stdin = case / "stdin"
    monkeypatch.chdir(workdir)
    monkeypatch.delenv("NO_COLOR", raising=False)
    result = CliRunner().invoke(
        cli,
        words[1:],
        input=stdin.read_bytes() if stdin.is_file() else None,
        prog_name="mazekit",
        catch_exceptions=False,
    )
    return result.stdout_bytes, result.stderr_bytes, result.exit_code


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_golden_case(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    stdout, stderr, code = _run(case, tmp_path, monkeypatch)
    if request.config.getoption("--update-golden"):
        (case / "stdout").write_bytes(stdout)
        (case / "stderr").write_bytes(stderr)
        (case / "exit").write_text(f"{code}\n")
        return
    assert stderr.decode() == (case / "stderr").read_text()
    assert stdout == (case / "stdout").read_bytes()
    assert code == int((case / "exit").read_text())


def test_every_command_has_golden_cases() -> None:
    covered = {case.parent.name for case in CASES}
    assert sorted(set(COMMANDS) - covered) == []
    assert sorted(covered - set(COMMANDS)) == []  # a folder named after no command is a typo
