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


def _console_blocks() -> list[list[tuple[str, str]]]:
    """Each console block as its (command, shown output) steps, in order."""
    blocks = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.DOTALL):
        steps: list[tuple[str, str]] = []
        for line in block.splitlines(keepends=True):
            if line.startswith("$ "):
                steps.append((line[2:].rstrip("\n"), ""))
            elif steps:
                steps[-1] = (steps[-1][0], steps[-1][1] + line)
        blocks.append(steps)
    return blocks


BLOCKS = _console_blocks()


def test_readme_has_a_console_example_per_command() -> None:
    commands = {
        command.split()[1]
        for steps in BLOCKS
        for command, _ in steps
        if command.startswith("mazekit ")
    }
    assert set(COMMANDS) <= commands


@pytest.mark.parametrize("steps", BLOCKS, ids=[b[0][0] if b else "empty" for b in BLOCKS])
def test_readme_console_blocks_print_what_readme_shows(
    steps: list[tuple[str, str]], tmp_path: Path
) -> None:
    """Run each ``$ command`` in a copy of samples/; output (stdout and stderr) must match.

    A ``cat FILE`` of a file that samples/ lacks is the transcript showing the file: it is
    written first, so the block's later commands can read it.
    """
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("NO_COLOR", None)
    for command, shown in steps:
        words = command.split()
        if len(words) == 2 and words[0] == "cat" and not (tmp_path / words[1]).exists():
            (tmp_path / words[1]).write_text(shown)
        result = subprocess.run(
            ["bash", "-c", command],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            cwd=tmp_path,
            env=env,
            timeout=120,
        )
        assert result.stdout == shown, command


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
    """The Commands section names each registered command once, with its summary."""
    result = invoke(["--help"])
    section = result.stdout.split("\nCommands:\n", 1)[1]
    listed = [line.split()[0] for line in section.splitlines() if line.startswith("  ")]
    assert listed == sorted(COMMANDS)
    for line in section.splitlines():
        assert len(line.split(maxsplit=1)) == 2, f"no summary: {line!r}"


@pytest.mark.parametrize(
    ("picture", "options"),
    [
        ("maze.png", []),
        ("maze.svg", []),
        ("maze-dark-dead-ends.png", ["--theme", "dark", "--dead-ends"]),
        ("board-pacman.png", None),
        ("heat-betweenness.png", ["--heat", "betweenness", "--no-path"]),
    ],
)
def test_readme_pictures_are_what_mazekit_draws_today(
    invoke: Invoke, tmp_path: Path, picture: str, options: list[str] | None
) -> None:
    """docs/ holds what `make docs` makes now: a drawing change must come with new pictures."""
    sample = str(ROOT / "samples" / "valid-20x15-perfect.txt")
    target = tmp_path / picture
    if options is None:  # the board: pacmanize, then the pacman theme
        board = invoke(["pacmanize", sample]).stdout
        args = ["render", "--theme", "pacman", "--cell", "24", "--wall", "4", "-o", str(target)]
        result = invoke(args, input=board)
    else:
        result = invoke(["render", sample, "-o", str(target), *options])
    assert result.exit_code == 0, result.stderr
    expected = ROOT / "docs" / picture
    if picture.endswith(".png"):  # by decoded pixels: another Pillow may compress otherwise
        from PIL import Image

        with Image.open(target) as made, Image.open(expected) as shown:
            assert made.size == shown.size
            assert made.convert("RGBA").tobytes() == shown.convert("RGBA").tobytes()
    else:
        assert target.read_bytes() == expected.read_bytes()


def test_make_run_recipe_works_in_a_fresh_folder(tmp_path: Path) -> None:
    """The commands of `make run` (minus the venv set-up), as the Makefile spells them."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nrun: ", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert len(recipe) >= 5
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    bin_dir = str(Path(sys.executable).parent)
    for line in recipe:
        command = line.strip().lstrip("@").replace("$(BIN)", bin_dir)
        result = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
        )
        assert result.returncode == 0, (command, result.stderr)
    for made in ("maze.txt", "maze.png", "board.png"):
        assert (tmp_path / made).stat().st_size > 0
