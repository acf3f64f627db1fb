"""The exit-code table of specs/errors.md, one row per command and code, each as a user sees it."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import event, given
from hypothesis import strategies as st

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


@pytest.mark.parametrize(
    "command",
    [
        ["solve"],
        ["render", "--format", "text"],
        ["pacmanize"],
        ["stats"],
        ["edit"],
        ["chase"],
        ["generate"],
    ],
)
def test_an_empty_file_name_is_still_named(invoke: Invoke, command: list[str]) -> None:
    """`mazekit solve "$MAZE"` with MAZE unset: the source is the empty name, shown as such
    (as validate shows it), not dropped as if the message had no source."""
    result = invoke([*command, ""])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == "Error: : cannot read: No such file or directory\n"


# --- any argv ---------------------------------------------------------------------------------
# Each command's own options (read from click, so a new option is fuzzed too) with values of
# its kind and odd ones, on odd inputs: the property is "an exit status and a message, never a
# traceback". grade runs programs and view needs a terminal; -j starts worker processes.

_COMMANDS = ("generate", "validate", "solve", "render", "pacmanize", "stats", "edit", "chase")
_SKIPPED = {"jobs", "output", "help"}
_ODD = (
    "0",
    "1",
    "3",
    "-1",
    "abc",
    "",
    "-",
    "9" * 45,
    "nan",
    "1,1",
    "-1,0",
    "2,1,E",
    "0,0,N",
    "pinky=1,1",
    "inky=-1,0",
    "NESW",
    "\x1b[31m",
    "\u00e9",
    "1_0",
    " 2 ",
    "1,0,s",
    "4,5",
)
_INPUTS = (
    SMALL_MAZE,
    "",
    "\ufeffD3\r\nC6\n\n0,0\n1,1\nES\r\n",
    "F\n\n0,0\n0,0\n\n",
    "D3\n9A\nC6\n\n0,0\n0,0\n",
    "95\nC6\n\n0,0\n1,0\nX\n",
    "D553\nD556\n\n9,9\n0,1\n",
)


def _options(name: str) -> list[tuple[str, tuple[str, ...] | None]]:
    """Each option of a command and the values to try (None for a flag)."""
    command = mazekit.cli.cli.get_command(click.Context(mazekit.cli.cli), name)
    assert command is not None
    found: list[tuple[str, tuple[str, ...] | None]] = []
    for param in command.params:
        if not isinstance(param, click.Option) or param.name in _SKIPPED:
            continue
        if param.is_flag:
            found.append((param.opts[0], None))
        elif isinstance(param.type, click.Choice):
            found.append((param.opts[0], (*map(str, param.type.choices), "nope")))
        else:
            found.append((param.opts[0], _ODD))
    return found


@st.composite
def argvs(draw: st.DrawFn) -> list[str]:
    """A command and up to three of its options, each with a value of its kind or an odd one."""
    name = draw(st.sampled_from(_COMMANDS))
    argv = [name]
    for option, values in draw(st.lists(st.sampled_from(_options(name)), max_size=3)):
        argv += [option] if values is None else [option, draw(st.sampled_from(values))]
    return argv


@given(argvs(), st.sampled_from(_INPUTS))
def test_any_argv_ends_with_a_status_and_no_traceback(argv: list[str], data: str) -> None:
    result = CliRunner().invoke(mazekit.cli.cli, argv, input=data)
    event(f"{argv[0]} exit {result.exit_code}")
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        argv,
        result.exception,
    )
    assert result.exit_code in (0, 1, 2), (argv, result.stderr)
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, (
        argv,
        result.stderr,
    )
    if result.exit_code and not (argv[0] in ("validate", "stats") and result.exit_code == 1):
        assert result.stderr.splitlines()[-1].startswith("Error: "), (argv, result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["solve"],
        ["render", "--format", "text"],
        ["stats"],
        ["pacmanize"],
        ["chase"],
        ["edit", "--close", "0,0,E"],
    ],
    ids=lambda args: args[0],
)
def test_every_command_reading_a_terminal_says_so(
    invoke: Invoke, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """A FILE forgotten on the command line: the command says it reads stdin rather than wait
    in silence, as validate does (the real terminal: the test above). From a pipe, nothing."""
    monkeypatch.setattr("mazekit.cli._common.stdin_is_a_terminal", lambda: True)
    said = invoke(args, input=SMALL_MAZE)
    assert said.stderr.splitlines()[0] == "reading the maze from stdin (Ctrl-D to end)"
    monkeypatch.setattr("mazekit.cli._common.stdin_is_a_terminal", lambda: False)
    quiet = invoke(args, input=SMALL_MAZE)
    assert "reading the maze" not in quiet.stderr
    assert quiet.exit_code == said.exit_code
