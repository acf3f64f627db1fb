"""Issue 9: output never destroys what the user did not ask to replace, and messages stay
readable (specs/errors.md, "Writing output" and "Messages")."""

from __future__ import annotations

import json
import os
import shlex
import signal
import stat
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit import generate, render
from mazekit.cli.solve import _json as solve_json
from mazekit.drawing import RenderOptions, format_from_name, render_bytes
from mazekit.errors import MazeError, printable
from mazekit.model import Maze
from mazekit.outfile import atomic_write
from mazekit.solvers import find_path
from tests.conftest import SMALL_MAZE, Invoke, serpentine

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "samples" / "valid-2x1-tiny.txt"
SOLVED = TINY.read_text()  # already solved: solve writes the same bytes back
MAZEKIT = f"{shlex.quote(sys.executable)} -m mazekit"
NOBODY = 65534


def _shell(script: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["bash", "-c", script], cwd=cwd, capture_output=True, timeout=60, check=False
    )


# -- 1. /dev/stdout, /dev/stderr and /proc/self/fd/N are the descriptors, not their files ------


def test_dev_stdout_appends_to_the_log_the_shell_opened(tmp_path: Path) -> None:
    result = _shell(
        f'echo "log line" > log.txt; {MAZEKIT} solve {TINY} -o /dev/stdout >> log.txt', tmp_path
    )
    assert (result.returncode, result.stderr) == (0, b"")
    assert (tmp_path / "log.txt").read_text() == "log line\n" + SOLVED


def test_dev_stdout_in_a_group_keeps_what_came_before_and_after(tmp_path: Path) -> None:
    script = (
        f"( echo A; {MAZEKIT} solve {TINY} -o /dev/stdout; echo B ) > log3.txt; "
        f"( echo C; {MAZEKIT} solve {TINY} -o /proc/self/fd/1; echo D ) >> log3.txt; "
        f"( echo E >&2; {MAZEKIT} solve {TINY} -o /dev/stderr; echo F >&2 ) 2> log4.txt; "
        f"( echo G >&3; {MAZEKIT} solve {TINY} -o /dev/fd/3; echo H >&3 ) 3> log5.txt"
    )
    result = _shell(script, tmp_path)
    assert (result.returncode, result.stderr) == (0, b"")
    assert (tmp_path / "log3.txt").read_text() == f"A\n{SOLVED}B\nC\n{SOLVED}D\n"
    assert (tmp_path / "log4.txt").read_text() == f"E\n{SOLVED}F\n"
    assert (tmp_path / "log5.txt").read_text() == f"G\n{SOLVED}H\n"


def test_dev_stdout_into_a_pipe_is_stdout(tmp_path: Path) -> None:
    result = _shell(
        f"{MAZEKIT} solve {TINY} -o /dev/stdout | cat; "
        f"{MAZEKIT} render {TINY} -o /dev/stdout | head -1",  # as -o -: text, by default
        tmp_path,
    )
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout.decode() == SOLVED + "+--+--+\n"


# -- 2. an output that is the config it came from ----------------------------------------------


def _config(directory: Path, output: str) -> Path:
    config = directory / "cfg.txt"
    config.write_text(
        f"WIDTH=10\nHEIGHT=10\nENTRY=0,0\nEXIT=9,9\nOUTPUT_FILE={output}\nPERFECT=True\n"
    )
    return config


def test_a_config_is_never_replaced_by_its_maze(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = _config(tmp_path, "cfg.txt")
    before = config.read_text()
    result = invoke(["generate", "cfg.txt"])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "Error: cfg.txt: OUTPUT_FILE=cfg.txt names this config file: the maze would replace it\n"
    )
    (tmp_path / "link.txt").symlink_to("cfg.txt")
    result = invoke(["generate", "cfg.txt", "-o", "link.txt"])
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: --output=link.txt names the config file cfg.txt: the maze would replace it\n",
    )
    assert config.read_text() == before


def test_solve_render_pacmanize_may_still_rewrite_their_input(
    invoke: Invoke, tmp_path: Path
) -> None:
    maze = tmp_path / "maze.txt"
    maze.write_text(SMALL_MAZE.replace("EEESWWW", ""))
    assert invoke(["solve", str(maze), "-o", str(maze)]).exit_code == 0
    assert maze.read_text() == SMALL_MAZE


# -- 3. a NUL byte in OUTPUT_FILE ---------------------------------------------------------------


def test_a_nul_byte_in_output_file_is_a_config_error_at_its_line(
    invoke: Invoke, tmp_path: Path
) -> None:
    config = _config(tmp_path, "maze\0.txt")
    result = invoke(["generate", str(config)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: {config}: line 5: OUTPUT_FILE must not contain a NUL byte, got 'maze\\x00.txt'\n"
    )
    with pytest.raises(MazeError, match=r"^a\\x00b: cannot write: the name contains a NUL byte"):
        atomic_write("a\0b", b"x")


# -- 4. what the shell would refuse, or keep ---------------------------------------------------


def test_a_read_only_file_is_refused_unless_forced(invoke: Invoke, tmp_path: Path) -> None:
    target = tmp_path / "keep.txt"
    target.write_text("precious")
    target.chmod(0o444)
    result = invoke(["solve", str(TINY), "-o", str(target)])
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"Error: {target}: cannot write: the file is read-only (--force replaces it)\n"
    )
    assert target.read_text() == "precious"
    result = invoke(["solve", str(TINY), "-o", str(target), "--force"])
    assert (result.exit_code, result.stderr) == (0, "")
    assert target.read_text() == SOLVED
    assert stat.S_IMODE(target.stat().st_mode) == 0o444  # still protected for next time
    for command in ("generate", "render", "pacmanize"):
        assert "--force" in invoke([command, "--help"]).stdout, command


def test_hard_links_are_kept(tmp_path: Path) -> None:
    first = tmp_path / "a.txt"
    first.write_text("old content, longer than the new one")
    second = tmp_path / "b.txt"
    os.link(first, second)
    atomic_write(second, [b"new ", b"content"])
    assert first.read_text() == second.read_text() == "new content"
    assert first.stat().st_ino == second.stat().st_ino
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


@given(st.lists(st.binary(max_size=300), max_size=8), st.sampled_from(["new", "old", "linked"]))
def test_any_chunks_land_whole_and_leave_nothing_behind(chunks: list[bytes], kind: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        target = folder / "out.bin"
        if kind != "new":
            target.write_bytes(b"previous content " * 30)
        if kind == "linked":
            os.link(target, folder / "other.bin")
        atomic_write(target, iter(chunks))
        assert target.read_bytes() == b"".join(chunks)
        names = ["other.bin", "out.bin"] if kind == "linked" else ["out.bin"]
        assert sorted(p.name for p in folder.iterdir()) == names
        if kind == "linked":
            assert (folder / "other.bin").read_bytes() == b"".join(chunks)


def test_a_private_file_is_never_staged_readable_by_others(tmp_path: Path) -> None:
    target = tmp_path / "secret.txt"
    target.write_text("old")
    target.chmod(0o600)
    seen: list[int] = []

    def chunks() -> Iterator[bytes]:
        yield b"new "
        seen.extend(stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir() if p != target)
        yield b"secret"

    atomic_write(target, chunks())
    assert seen == [0o600]
    assert (target.read_text(), stat.S_IMODE(target.stat().st_mode)) == ("new secret", 0o600)


def test_a_symlink_loop_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(MazeError, match="a: cannot write: Too many levels of symbolic links"):
        atomic_write(tmp_path / "a", b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]
    assert (tmp_path / "a").is_symlink() and (tmp_path / "b").is_symlink()


def test_the_owner_of_a_replaced_file_is_kept(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("giving a file to another owner needs root")
    target = tmp_path / "theirs.txt"
    target.write_text("old")
    os.chown(target, NOBODY, NOBODY)
    atomic_write(target, b"new")
    info = target.stat()
    assert (info.st_uid, info.st_gid, target.read_text()) == (NOBODY, NOBODY, "new")


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A world-writable folder (like /tmp) that another user can reach."""
    directory = Path(tempfile.mkdtemp(prefix="mazekit-shared-", dir="/tmp"))
    directory.chmod(0o777)
    yield directory
    for path in directory.iterdir():
        path.unlink()
    directory.rmdir()


def _as_nobody(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` as user nobody, after loading mazekit.outfile as root (the interpreter
    and its library live under /root, where nobody cannot read)."""
    prelude = (
        "import os\n"
        "from mazekit.outfile import atomic_write\n"
        "from mazekit.errors import MazeError\n"
        f"os.setgroups([])\nos.setgid({NOBODY})\nos.setuid({NOBODY})\n"
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + code], capture_output=True, text=True, timeout=60
    )


def test_another_users_file_in_a_shared_folder_keeps_its_owner(shared_dir: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("playing another user needs root")
    writable = shared_dir / "writable.txt"
    writable.write_text("root's old content")
    writable.chmod(0o666)
    protected = shared_dir / "protected.txt"
    protected.write_text("root's")
    protected.chmod(0o644)
    code = (
        f"atomic_write({str(writable)!r}, b'new')\n"
        "try:\n"
        f"    atomic_write({str(protected)!r}, b'new')\n"
        "except MazeError as error:\n"
        "    print(error)\n"
    )
    result = _as_nobody(code)
    assert result.stderr == ""
    assert result.stdout == (
        f"{protected}: cannot write: the file is read-only (--force replaces it)\n"
    )
    assert (writable.stat().st_uid, writable.read_text()) == (0, "new")  # written in place
    assert (protected.stat().st_uid, protected.read_text()) == (0, "root's")
    assert sorted(p.name for p in shared_dir.iterdir()) == ["protected.txt", "writable.txt"]


def test_devices_are_written_in_place_never_renamed_over(tmp_path: Path) -> None:
    # Our own null and full devices: a bug here must never turn the real /dev/null into a file.
    null, full = tmp_path / "null", tmp_path / "full"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except PermissionError:
        pytest.skip("making device nodes needs root")
    atomic_write(null, [b"into ", b"nothing"])
    assert stat.S_ISCHR(null.stat().st_mode)
    with pytest.raises(MazeError, match=r"full: cannot write: No space left on device$"):
        atomic_write(full, b"x" * 10000)
    assert stat.S_ISCHR(full.stat().st_mode)
    with pytest.raises(MazeError, match="cannot write: Is a directory"):
        atomic_write(tmp_path, b"x")
    with pytest.raises(MazeError, match="cannot write: Is a directory"):
        atomic_write(f"{tmp_path}/new/", b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "null"]


# -- 5. Ctrl-C from the first moment mazekit runs ---------------------------------------------


def test_the_entry_imports_nothing_slow_before_guarding_ctrl_c() -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import mazekit.__main__\n"
        "print(sorted(set(sys.modules) - before))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout == "['__future__', 'mazekit', 'mazekit.__main__']\n", result.stderr


def test_ctrl_c_at_any_moment_of_start_up_is_quiet() -> None:
    code = (
        "import os, sys\n"
        "import mazekit.__main__ as entry\n"
        "entry.guard_interrupts()\n"
        "os.write(2, b'started\\n')\n"
        "sys.argv = ['mazekit', 'validate']\n"  # reads stdin, which stays open: never ends
        "entry.main()\n"
    )
    for delay in (0.0, 0.005, 0.02, 0.05, 0.12):
        process = subprocess.Popen(
            [sys.executable, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stderr is not None
        assert process.stderr.readline() == b"started\n"
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
        assert (process.returncode, stdout, stderr) == (130, b"", b""), delay


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    code = (
        "import os, signal\n"
        "import mazekit.__main__ as entry\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"  # as nohup leaves it
        "entry.guard_interrupts()\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "print('still here')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (result.returncode, result.stdout, result.stderr) == (0, "still here\n", "")


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
def test_ctrl_c_sigterm_and_sighup_remove_the_temporary_file(
    tmp_path: Path, signum: int, status: int
) -> None:
    """Ctrl-C, `timeout 10 mazekit render big.txt -o big.svg` (SIGTERM) or a closed terminal
    (SIGHUP) mid-write: the half-written .big.svg.<random>.tmp is removed (SIGTERM and SIGHUP
    once left it behind), and the status says which signal."""
    code = (
        "import os, sys\n"
        "import mazekit.__main__ as entry\n"
        "from mazekit.outfile import atomic_write\n"
        "entry.guard_interrupts()\n"
        "def chunks():\n"
        "    yield b'partial'\n"
        f"    os.kill(os.getpid(), {int(signum)})\n"
        "    yield b'never'\n"
        f"atomic_write({str(tmp_path / 'out.txt')!r}, chunks())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert (result.returncode, result.stderr) == (status, b"")
    assert list(tmp_path.iterdir()) == []


def test_a_forked_worker_leaves_its_parents_temporary_files(tmp_path: Path) -> None:
    """A worker forked by validate -j inherits the handler and the list of temporary files:
    a SIGTERM to it (Pool.terminate) ends it, and leaves the parent's file alone."""
    code = (
        "import os, signal\n"
        "import mazekit.__main__ as entry\n"
        "from mazekit import outfile\n"
        "entry.guard_interrupts()\n"
        f"name = {str(tmp_path / 'parent.tmp')!r}\n"
        "open(name, 'w').close()\n"
        "outfile._TEMPORARIES.add(name)\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "_, status = os.waitpid(child, 0)\n"
        "print(os.waitstatus_to_exitcode(status), os.path.exists(name))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (result.stdout, result.stderr) == ("143 True\n", "")


# -- 6. config lines end at LF only --------------------------------------------------------------


@pytest.mark.parametrize("separator", ["\x0b", "\x0c", "\x1c", "\x85", "\u2028"])
def test_config_lines_end_only_at_a_newline(invoke: Invoke, tmp_path: Path, separator: str) -> None:
    config = tmp_path / "cfg.txt"
    config.write_text(
        f"# a comment{separator}that goes on\n"
        f"WIDTH=10{separator}HEIGHT=10\nHEIGHT=10\nENTRY=0,0\nEXIT=9,9\nOUTPUT_FILE=-\n"
        "PERFECT=True\r\n",
        encoding="utf-8",
    )
    result = invoke(["generate", str(config)])
    assert (result.exit_code, result.stdout) == (1, "")
    shown = printable(separator)
    assert result.stderr == (
        f"Error: {config}: WIDTH must be a positive integer, got '10{shown}HEIGHT=10'\n"
    )


# -- 7. messages show control bytes and undecodable names escaped ------------------------------


@given(st.text())
def test_printable_output_is_printable_and_idempotent(text: str) -> None:
    shown = printable(text)
    assert shown.isprintable()
    assert printable(shown) == shown
    if text.isprintable():
        assert shown == text


def test_a_nul_from_a_config_value_is_shown_escaped(invoke: Invoke, tmp_path: Path) -> None:
    config = tmp_path / "cfg.txt"
    config.write_text("WIDTH=1\x000\nHEIGHT=10\nENTRY=0,0\nEXIT=9,9\nOUTPUT_FILE=-\nPERFECT=True\n")
    result = invoke(["generate", str(config)])
    assert result.stderr == f"Error: {config}: WIDTH must be a positive integer, got '1\\x000'\n"


def test_an_output_name_in_a_usage_error_is_shown_escaped(invoke: Invoke) -> None:
    result = invoke(["render", str(TINY), "-o", "maze\x1b[2J.bmp"])
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: cannot tell the format of 'maze\\x1b[2J.bmp': name it .png, .svg, .txt or "
        ".html, or give --format png|svg|text|html\n"
    )


def test_undecodable_names_are_escaped_and_json_stays_utf8(invoke: Invoke, tmp_path: Path) -> None:
    bad = os.fsdecode(os.fsencode(tmp_path) + b"/bad\xff\x1b.txt")  # as Python reads argv
    Path(bad).write_text(SMALL_MAZE)
    shown = f"{tmp_path}/bad\\xff\\x1b.txt"
    text = invoke(["validate", bad, str(tmp_path / "gone\xe9\x07.txt")])
    assert text.stdout == f"{shown}: ok\n2 files: 1 ok, 0 invalid, 1 not found\n"
    assert text.stderr == (
        f"Error: {tmp_path}/gone\xe9\\x07.txt: cannot read: No such file or directory\n"
    )
    for command in ("validate", "stats"):
        document = invoke([command, "--format", "json", bad]).stdout_bytes
        files = json.loads(document.decode("utf-8"))["files"]  # strict UTF-8: no lone surrogate
        assert files[0]["file"] == shown, command


# -- 8. text and SVG are written as they are drawn -----------------------------------------------


@pytest.mark.parametrize(
    ("name", "charset"), [("maze.svg", "ascii"), ("maze.txt", "ascii"), ("maze.txt", "unicode")]
)
def test_text_and_svg_are_streamed_to_the_file(tmp_path: Path, name: str, charset: str) -> None:
    maze = generate(200, 200, seed=1)
    target = tmp_path / name
    tracemalloc.start()
    try:
        render(maze, target, charset=charset)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # The whole picture as one string took 120 to 190 bytes per cell; streamed, about 30.
    assert peak < 50 * 200 * 200
    options = RenderOptions(format=format_from_name(name), charset=charset)  # type: ignore[arg-type]
    assert target.read_bytes() == render_bytes(maze, options)


@pytest.mark.parametrize("name", ["maze.txt", "maze.png"])
def test_a_long_path_costs_under_20_bytes_a_step(tmp_path: Path, name: str) -> None:
    walls = np.full((100, 100), 15, dtype=np.uint8)
    walls[0, :2] = (13, 7)  # one open wall, between (0,0) and (1,0)
    steps = 2_000_000
    maze = Maze(walls, (0, 0), (99, 99), "EW" * (steps // 2))  # drawn as is, walls crossed
    tracemalloc.start()
    try:
        render(maze, tmp_path / name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * steps  # 64-bit cells over the whole path took 25 (text) to 50 (PNG)


def test_solve_json_writes_its_cells_as_it_makes_them() -> None:
    solution = find_path(serpentine(300, 300), None, None)
    steps = len(solution.path)
    tracemalloc.start()
    try:
        size = sum(len(chunk) for chunk in solve_json(solution))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert size > 10 * steps  # "[x, y]" per cell: the whole document went by
    assert peak < 20 * steps  # a list of 89,999 [x, y] lists took about 200 bytes a step
