"""The exit-code table of specs/errors.md, one row per command and code, each as a user sees it."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import mazekit.cli
from tests.conftest import SMALL_MAZE, Invoke

ROOT = Path(__file__).resolve().parent.parent
VALID = str(ROOT / "samples" / "valid-20x15-perfect.txt")
BORDER = str(ROOT / "samples" / "invalid-border-open-outer-wall.txt")
FORMAT = str(ROOT / "samples" / "invalid-format-bad-hex-digit.txt")

# (command line, exit status): the rows of the table in specs/errors.md
ROWS = [
    (["validate", VALID], 0),
    (["validate", "--exit-zero", BORDER], 0),
    (["validate", BORDER], 1),
    (["validate", FORMAT], 1),
    (["validate", "missing.txt"], 2),
    (["validate", "--config", "missing-config.txt", VALID], 2),
    (["validate", "--nope"], 2),
    (["generate", "--seed", "1"], 0),
    (["generate", "--entry", "25,3"], 1),
    (["generate", str(ROOT / "samples")], 1),
    (["generate", "--width", "0"], 2),
    (["generate", "--width"], 2),
    (["solve", VALID], 0),
    (["solve", FORMAT], 1),
    (["solve", "--from", "x", VALID], 2),
    (["render", "--format", "text", VALID], 0),
    (["render", "--format", "text", FORMAT], 1),
    (["render", "--format", "gif", VALID], 2),
    (["pacmanize", VALID], 0),
    (["pacmanize", BORDER], 1),
    (["pacmanize", "--min-loops", "-1", VALID], 2),
    (["stats", VALID], 0),
    (["stats", "--expect", "PACMAN-ARCADE", VALID], 1),
    (["stats", "--expect", "GOOD", VALID], 2),
]


@pytest.mark.parametrize(("args", "code"), ROWS, ids=[" ".join(r[0][:2]) for r in ROWS])
def test_every_row_of_the_exit_code_table(invoke: Invoke, args: list[str], code: int) -> None:
    result = invoke(args)
    assert result.exit_code == code, result.stderr


@pytest.fixture
def sigpipe_kept() -> Iterator[None]:
    """mazekit.cli.main, run in pytest's own process, makes SIGPIPE end the process (as a
    command should): put pytest's back, or any later write to a closed pipe would kill it."""
    saved = signal.getsignal(signal.SIGPIPE)
    yield
    signal.signal(signal.SIGPIPE, saved)


@pytest.mark.usefixtures("sigpipe_kept")
@pytest.mark.parametrize(
    "command", ["validate", "generate", "solve", "render", "pacmanize", "stats"]
)
def test_an_internal_error_exits_2_for_every_command(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(mazekit.cli.LazyGroup, "get_command", broken)
    with pytest.raises(SystemExit) as stopped:
        mazekit.cli.main([command, VALID])
    assert stopped.value.code == 2
    assert capsys.readouterr().err == (
        "Error: internal error: RuntimeError: simulated bug "
        "(run with --debug for the traceback, and please report it)\n"
    )


def test_validate_on_a_terminal_says_it_reads_stdin() -> None:
    """Only a process on a pseudo-terminal shows this: CliRunner's stdin is never a TTY."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "mazekit", "validate"],
        stdin=follower,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    os.close(follower)
    os.write(leader, SMALL_MAZE.encode() + b"\x04")  # the maze, then Ctrl-D
    out, err = process.communicate(timeout=60)
    os.close(leader)
    assert (process.returncode, out) == (0, b"<stdin>: ok\n")
    assert err == b"reading the maze from stdin (Ctrl-D to end)\n"


def test_validate_from_a_pipe_says_nothing_about_stdin(invoke: Invoke) -> None:
    result = invoke(["validate"], input=SMALL_MAZE)
    assert (result.exit_code, result.stderr) == (0, "")


@pytest.mark.usefixtures("sigpipe_kept")
def test_an_internal_error_under_json_still_prints_the_document(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    import mazekit.batch

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(mazekit.batch, "validate", broken)
    with pytest.raises(SystemExit) as stopped:
        mazekit.cli.main(["validate", "--format", "json", VALID])
    assert stopped.value.code == 2
    printed = capsys.readouterr()
    document = json.loads(printed.out)
    assert document["error"] == "internal error: RuntimeError: simulated bug"
    assert (document["valid"], document["files"]) == (False, [])
    assert printed.err.startswith("Error: internal error: RuntimeError: simulated bug")
