"""The docs are tested: README examples print what README says, and every command is documented."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mazekit.cli import COMMANDS
from tests.conftest import Invoke

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def _console_examples() -> list[tuple[str, str]]:
    """(command, expected stdout) for each ``$ mazekit ...`` in README's console blocks."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.DOTALL):
        command, output = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    examples.append((command, "".join(output)))
                command, output = line[2:], []
            else:
                output.append(line + "\n")
        if command is not None:
            examples.append((command, "".join(output)))
    return examples


EXAMPLES = _console_examples()


def test_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 1


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example_prints_what_readme_shows(
    command: str, expected: str, tmp_path: Path
) -> None:
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("NO_COLOR", None)
    result = subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert result.stdout == expected, result.stderr


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help_with_an_example_and_a_readme_section(
    invoke: Invoke, name: str
) -> None:
    result = invoke([name, "--help"])
    assert result.exit_code == 0
    assert f"mazekit {name}" in result.stdout.split("Examples:")[-1]
    assert f"### {name}\n" in README
    assert re.search(rf"### {name}\n\n\S", README), f"README section for {name} is empty"


def test_group_help_lists_every_command(invoke: Invoke) -> None:
    result = invoke(["--help"])
    for name in COMMANDS:
        assert name in result.stdout
