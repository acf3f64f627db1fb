"""The CLI entry maps errors once: a MazeError from any command becomes one message and exit 1.

Commands written against the 0.1 helpers (``fail``, ``CommandError``) keep their output.
"""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from mazekit.cli import LazyGroup
from mazekit.cli._common import CommandError, fail
from mazekit.errors import MazeError


@click.command()
@click.argument("how")
def _probe(how: str) -> None:
    """A command that fails the way ``how`` says."""
    if how == "core":
        raise MazeError("no such thing", "maze.txt")
    if how == "fail-text":
        fail("refusing to do that")
    if how == "fail-error":
        fail(MazeError("bad value", "--opt"))
    raise CommandError("raised directly")


class _Group(LazyGroup):
    """The real group's error mapping, with the probe as its one command."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return ["probe"]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _probe if cmd_name == "probe" else None


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("core", "Error: maze.txt: no such thing\n"),
        ("fail-text", "Error: refusing to do that\n"),
        ("fail-error", "Error: --opt: bad value\n"),
        ("direct", "Error: raised directly\n"),
    ],
)
def test_errors_become_one_message_and_exit_1(how: str, message: str) -> None:
    result = CliRunner().invoke(_Group("mazekit"), ["probe", how])
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", message)
