"""The process edges, run for real: entry points, closed pipes, Ctrl-C, lazy imports, fuzzing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from mazekit import __version__
from mazekit.cli import cli
from mazekit.rules import RULE_IDS
from tests.conftest import SMALL_MAZE, Invoke

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "valid-20x15-perfect.txt"
MAZEKIT = [sys.executable, "-m", "mazekit"]


def run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MAZEKIT, *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        **kwargs,  # type: ignore[call-overload]
    )


def test_python_m_and_version() -> None:
    result = run(["--version"])
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == f"mazekit, version {__version__}"


def test_a_pipeline_of_real_processes() -> None:
    cat = subprocess.run(["cat", str(SAMPLE)], capture_output=True, check=True)
    result = subprocess.run(
        [*MAZEKIT, "validate", "--perfect"], input=cat.stdout, capture_output=True
    )
    assert (result.returncode, result.stdout) == (0, b"<stdin>: ok\n")


def test_exit_codes_seen_by_the_shell(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(SMALL_MAZE.replace("EEESWWW", ""))
    assert run(["validate", str(SAMPLE)]).returncode == 0
    assert run(["validate", str(bad)]).returncode == 1
    usage = run(["validate", "--no-such-option"])
    assert usage.returncode == 2
    assert usage.stderr.startswith("Usage: mazekit validate")
    assert "--no-such-option" in usage.stderr


def test_a_closed_pipe_ends_quietly() -> None:
    # Enough output to fill the pipe after the reader has gone.
    process = subprocess.Popen(
        [*MAZEKIT, "validate", *[str(SAMPLE)] * 6000],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read()
    process.wait(timeout=60)
    assert first == f"{SAMPLE}: ok\n".encode()
    assert stderr == b""


def _wait_until_blocked_on_stdin(pid: int) -> None:
    """Wait until the process sleeps in a read (it has started and reached main)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
            wchan = Path(f"/proc/{pid}/wchan").read_text()
        except OSError:
            time.sleep(0.5)
            return
        if state == "S" and "pipe" in wchan:
            return
        time.sleep(0.05)


def test_ctrl_c_exits_130_without_a_traceback() -> None:
    process = subprocess.Popen(
        [*MAZEKIT, "validate"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    _wait_until_blocked_on_stdin(process.pid)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert b"Traceback" not in stderr


def test_validate_does_not_load_pillow() -> None:
    code = (
        "import sys\n"
        "from mazekit.cli import cli\n"
        f"cli.main(['validate', '-q', {str(SAMPLE)!r}], standalone_mode=False)\n"
        "print(sorted(m for m in ('PIL', 'PIL.Image') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.stdout == "[]\n", result.stderr


def test_importing_mazekit_is_cheap() -> None:
    code = "import sys, mazekit; print('numpy' in sys.modules, 'click' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout == "False False\n"


def test_unreadable_file_via_process(tmp_path: Path) -> None:
    result = run(["validate", str(tmp_path / "nope.txt")])
    assert result.returncode == 2  # a path that names no file is the grader's slip
    assert (
        result.stderr == f"Error: {tmp_path / 'nope.txt'}: cannot read: No such file or directory\n"
    )


VALID_BYTES = SAMPLE.read_bytes()


def _check_survives(data: bytes) -> None:
    result = CliRunner().invoke(cli, ["validate", "--format", "json"], input=data)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1)
    document = json.loads(result.stdout)
    for violation in document["files"][0]["violations"]:
        assert violation["rule"] in RULE_IDS


@given(st.binary(max_size=300))
def test_random_bytes_never_crash(data: bytes) -> None:
    _check_survives(data)


@given(
    st.lists(
        st.tuples(st.integers(0, len(VALID_BYTES) - 1), st.binary(min_size=0, max_size=3)),
        min_size=1,
        max_size=6,
    )
)
def test_mutated_valid_files_never_crash(edits: list[tuple[int, bytes]]) -> None:
    data = bytearray(VALID_BYTES)
    for position, replacement in edits:
        position = min(position, len(data))
        data[position : position + 1] = replacement
    _check_survives(bytes(data))


def test_process_environment_is_not_needed() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL")}
    assert run(["validate", "-q", str(SAMPLE)], env=env).returncode == 0


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a shell pipeline with the venv's mazekit first on PATH."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", command],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )


def test_generate_solve_validate_pipeline_from_the_subjects_config() -> None:
    config = ROOT / "samples" / "config.txt"
    result = _shell(
        f"mazekit generate {config} -o - | mazekit solve | mazekit validate --config {config}",
        ROOT,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "<stdin>: ok\n", "")


def test_the_mission_pipeline_draws_a_board(tmp_path: Path) -> None:
    config = ROOT / "samples" / "config.txt"
    result = _shell(
        f"mazekit generate {config} -o - | mazekit pacmanize | mazekit render -o board.png",
        tmp_path,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert (tmp_path / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "maze.txt").exists()  # -o - overrides OUTPUT_FILE


def test_a_full_disk_on_stdout_is_an_error_not_a_crash() -> None:
    for command in (["validate"], ["solve"], ["render"], ["stats"], ["pacmanize"]):
        with open("/dev/full", "w") as full:
            result = subprocess.run(
                [*MAZEKIT, *command, str(SAMPLE)],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                cwd=ROOT,
                timeout=60,
            )
        assert result.returncode == 1, command
        assert result.stderr == "Error: <stdout>: cannot write: No space left on device\n"


@pytest.mark.parametrize("command", ["generate", "solve", "render", "pacmanize"])
def test_an_empty_output_path_is_a_usage_error(invoke: Invoke, command: str) -> None:
    # a usage error needs no process: click's own handling, run in-process
    args = [command, "-o", ""] if command == "generate" else [command, str(SAMPLE), "-o", ""]
    result = invoke(args)
    assert result.exit_code == 2, command
    assert result.stderr.endswith(
        "Error: Invalid value for '-o' / '--output': the path must not be empty "
        "('-' writes to stdout)\n"
    )


def test_closed_standard_streams_get_messages_not_tracebacks() -> None:
    sample = str(SAMPLE)
    cases = {
        "mazekit validate <&-": "Error: <stdin>: cannot read: Bad file descriptor\n",
        f"mazekit validate {sample} >&-": "Error: <stdout>: cannot write: Bad file descriptor\n",
        "mazekit generate --seed 1 >&-": "Error: <stdout>: cannot write: Bad file descriptor\n",
        f"mazekit render {sample} >&-": "Error: <stdout>: cannot write: Bad file descriptor\n",
    }
    for command, message in cases.items():
        result = _shell(command, ROOT)
        assert (result.returncode, result.stderr) == (1, message), command


def test_a_closed_stderr_never_sends_messages_to_stdout(invoke: Invoke) -> None:
    """With stderr closed, click printed the error on stdout, into the data (`mazekit solve
    maze.txt 2>&- > path.txt` left "Error: ..." in path.txt); the exit status still tells."""
    sample = str(SAMPLE)
    cases = {
        "mazekit solve missing.txt 2>&-": 1,
        "mazekit generate --width 0 2>&-": 2,
        "mazekit validate missing.txt 2>&-": 2,
        "mazekit render --format text --cell 1 2>&-": 2,
    }
    for command, code in cases.items():
        result = _shell(command, ROOT)
        assert (result.returncode, result.stdout, result.stderr) == (code, "", ""), command
    result = _shell(f"mazekit solve {sample} 2>&-", ROOT)
    assert (result.returncode, result.stdout) == (0, invoke(["solve", sample]).stdout)
    expect = ["stats", sample, "--expect", "PACMAN-ARCADE"]  # the measures, then the error
    result = _shell(f"mazekit {' '.join(expect)} 2>&-", ROOT)
    assert (result.returncode, result.stdout) == (1, invoke(expect).stdout)


def test_the_console_script_and_python_m_share_the_guarded_entry() -> None:
    script = Path(sys.executable).parent / "mazekit"
    assert "from mazekit.__main__ import main" in script.read_text()
    light = "import sys, mazekit.__main__; print('click' in sys.modules, 'numpy' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", light], capture_output=True, text=True)
    assert result.stdout == "False False\n"  # Ctrl-C is guarded before the heavy imports


def test_input_over_64_mib_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "zero.bin"
    with open(big, "wb") as handle:
        handle.truncate(64 * 1024 * 1024 + 1)
    result = run(["validate", str(big)])
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"Error: {big}: input is larger than 64 MiB\n"


def test_an_internal_error_is_one_line_unless_debug() -> None:
    code = (
        "import sys, mazekit.rules\n"
        "def broken(*args, **kwargs):\n"
        "    raise RuntimeError('simulated bug')\n"
        "mazekit.rules.validate = broken\n"
        "import mazekit.cli.validate\n"
        "mazekit.cli.validate.validate = broken\n"
        "from mazekit.cli import main\n"
        f"main(sys.argv[1:] + ['validate', {str(SAMPLE)!r}])\n"
    )
    quiet = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert quiet.returncode == 2  # a problem of the run, whatever the command
    assert quiet.stderr == (
        "Error: internal error: RuntimeError: simulated bug "
        "(run with --debug for the traceback, and please report it)\n"
    )
    loud = subprocess.run([sys.executable, "-c", code, "--debug"], capture_output=True, text=True)
    assert loud.returncode == 1
    assert "Traceback" in loud.stderr and "RuntimeError: simulated bug" in loud.stderr


def _threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def test_numpy_spins_no_idle_blas_threads_in_a_command(tmp_path: Path) -> None:
    """mazekit does no linear algebra: OpenBLAS's idle workers would only burn another core."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    plain = subprocess.run(
        [sys.executable, "-c", "import numpy, os; print(len(os.listdir('/proc/self/task')))"],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    if int(plain.stdout) == 1:
        pytest.skip("numpy starts no BLAS threads on this machine (one core, or no OpenBLAS)")
    fifo = tmp_path / "maze.fifo"
    os.mkfifo(fifo)
    command = subprocess.Popen([*MAZEKIT, "generate", "--seed", "1", "-o", str(fifo)], env=env)
    try:
        # numpy's import done, the maze carved: generate waits to open the FIFO (a fixed sleep
        # here counted the threads too early on a loaded machine, and the test saw nothing)
        deadline = time.monotonic() + 60
        while Path(f"/proc/{command.pid}/wchan").read_text() != "wait_for_partner":
            assert time.monotonic() < deadline, "generate never came to open the FIFO"
            time.sleep(0.01)
        assert "_multiarray_umath" in Path(f"/proc/{command.pid}/maps").read_text()
        assert _threads(command.pid) == 1
    finally:
        with open(fifo, "rb") as maze:
            assert len(maze.read().splitlines()[0]) == 20  # the default 20x15 maze, whole
        command.wait(timeout=30)


def test_a_users_own_blas_thread_count_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from mazekit.__main__ import one_blas_thread

    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"
    monkeypatch.delenv("OPENBLAS_NUM_THREADS")
    one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
