"""``mazekit validate`` for graders: exit codes, JSON/JSONL/CSV a script can trust, batches."""

from __future__ import annotations

import csv
import io
import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import SMALL_MAZE, Invoke
from tests.deep import make_deep, remove_deep

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
VALID = SAMPLES / "valid-20x15-perfect.txt"
BORDER = SAMPLES / "invalid-border-open-outer-wall.txt"
SCHEMA = json.loads((files("mazekit") / "schemas" / "validate.schema.json").read_text())
CONFIG = "WIDTH=20\nHEIGHT=15\nENTRY=0,0\nEXIT=19,14\nOUTPUT_FILE=maze.txt\nPERFECT=True\n"


def _document(stdout: str) -> dict[str, Any]:
    """The JSON document of stdout, checked against the schema shipped in the package."""
    document: dict[str, Any] = json.loads(stdout)
    jsonschema.validate(document, SCHEMA)
    return document


def _submissions(root: Path) -> Path:
    """Four submissions: a valid one, an invalid one, a broken config, a missing maze."""
    subs = root / "subs"
    for name, config, maze in (
        ("alice", CONFIG, VALID.read_text()),
        ("bob", CONFIG.replace("maze.txt", "out/m.txt"), BORDER.read_text()),
        ("carol", "WIDTH=20\n", VALID.read_text()),
        ("dave", CONFIG, None),
    ):
        folder = subs / name
        folder.mkdir(parents=True)
        (folder / "config.txt").write_text(config)
        if maze is not None:
            target = folder / ("out/m.txt" if name == "bob" else "maze.txt")
            target.parent.mkdir(exist_ok=True)
            target.write_text(maze)
    (subs / "no-config").mkdir()  # not a submission: no config.txt
    return subs


# --- exit codes (specs/errors.md, validate) --------------------------------------------------


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ([str(VALID)], 0),
        ([str(VALID), str(BORDER)], 1),
        (["--exit-zero", str(VALID), str(BORDER)], 0),
        ([str(VALID), "nosuch.txt"], 2),
        (["--exit-zero", "nosuch.txt"], 2),
        (["--config", "nosuch-config.txt", str(VALID)], 2),
        (["--min-loops", "3", str(VALID)], 2),
        (["--bogus"], 2),
    ],
)
def test_exit_codes_tell_a_bad_submission_from_a_bad_run(
    invoke: Invoke, args: list[str], code: int
) -> None:
    assert invoke(["validate", *args]).exit_code == code


def test_json_is_one_document_even_when_the_run_fails(invoke: Invoke) -> None:
    result = invoke(["validate", "--format", "json", "--config", "nosuch.txt", str(VALID)])
    assert result.exit_code == 2
    assert result.stderr == "Error: nosuch.txt: cannot read: No such file or directory\n"
    document = _document(result.stdout)
    assert document["error"] == "nosuch.txt: cannot read: No such file or directory"
    assert (document["valid"], document["files"]) == (False, [])
    usage = invoke(["validate", "--format", "json", "--bogus"])
    assert usage.exit_code == 2
    assert _document(usage.stdout)["error"].startswith("No such option")


def test_json_carries_counts_and_totals(invoke: Invoke) -> None:
    result = invoke(["validate", "--format", "json", str(VALID), str(BORDER)])
    document = _document(result.stdout)
    assert document["totals"] == {
        "files": 2,
        "valid": 1,
        "invalid": 1,
        "violations": {"border": 1},
    }
    assert [entry["counts"] for entry in document["files"]] == [{}, {"border": 1}]


def test_jsonl_is_one_object_per_file_equal_to_the_json_entries(invoke: Invoke) -> None:
    args = ["validate", str(VALID), str(BORDER), "nosuch.txt"]
    lines = invoke([*args, "--format", "jsonl"]).stdout.splitlines()
    entries = _document(invoke([*args, "--format", "json"]).stdout)["files"]
    assert [json.loads(line) for line in lines] == entries
    for entry in entries:
        jsonschema.validate(entry, SCHEMA["$defs"]["file"] | {"$defs": SCHEMA["$defs"]})


def test_csv_is_one_row_per_violation_rfc_4180(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke(["validate", "--format", "csv", str(VALID), str(BORDER), "nosuch.txt"])
    text = result.stdout_bytes.decode()  # .stdout would turn CRLF into LF
    assert text.startswith("file,line,column,rule,cell,message\r\n")
    assert text.count("\r\n") == 3
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[1:] == [
        [str(BORDER), "1", "4", "border", "3,0", "north wall of (3,0) is open on the border"],
        ["nosuch.txt", "", "", "", "", "cannot read: No such file or directory"],
    ]


def test_statistics_count_violations_per_rule_over_all_files(invoke: Invoke) -> None:
    names = (
        "invalid-format-crlf-line-ends.txt",
        "invalid-path-detour.txt",
        "valid-9x7-smallest-42.txt",
    )
    borders = [str(BORDER)] * 10
    result = invoke(["validate", "--statistics", *borders, *(str(SAMPLES / n) for n in names)])
    assert (result.exit_code, result.stdout.splitlines()) == (
        1,
        [  # most frequent first, counts right-aligned, ties in rule order
            "10  border        every outer wall is closed",
            " 1  format        the file follows specs/format.md to the byte",
            " 1  path          the path is a shortest walk from entry to exit",
            "13 files: 1 ok, 12 invalid",
        ],
    )


def test_select_checks_only_the_rules_named(invoke: Invoke) -> None:
    border = invoke(["validate", "--select", "connectivity", str(BORDER)])
    assert (border.exit_code, border.stdout) == (0, f"{BORDER}: ok\n")
    loops = SAMPLES / "valid-20x15-imperfect.txt"
    perfect = invoke(["validate", "--select", "perfect", str(loops)])  # opt-in, selected
    assert perfect.exit_code == 1
    assert perfect.stdout.splitlines()[-1] == f"{loops}: 1 violation (perfect 1)"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--statistics", "--format", "json"], "--statistics needs --format text"),
        (["--select", "config"], "--select config needs --config or --submissions"),
        (["--submissions", ".", "x.txt"], "give either FILEs or --submissions DIR, not both"),
        (["--submissions", ".", "--config", "c.txt"], "--config cannot be combined"),
        (["-j", "-1", "."], "--jobs must be a non-negative integer, got '-1'"),
    ],
)
def test_options_that_exclude_each_other(invoke: Invoke, args: list[str], message: str) -> None:
    result = invoke(["validate", *args])
    assert result.exit_code == 2
    assert f"Error: {message}" in result.stderr


# --- batches --------------------------------------------------------------------------------


def test_a_directory_means_every_maze_under_it_sorted(invoke: Invoke, tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "maze.txt").write_text(SMALL_MAZE)
    (tmp_path / "a.txt").write_text(SMALL_MAZE)
    (tmp_path / "config.txt").write_text(CONFIG)  # left out: it is a config
    (tmp_path / "notes.md").write_text("not a maze")
    result = invoke(["validate", str(tmp_path)])
    assert (result.exit_code, result.stdout.splitlines()) == (
        0,
        [f"{tmp_path}/a.txt: ok", f"{tmp_path}/b/maze.txt: ok", "2 files: 2 ok, 0 invalid"],
    )
    only_md = invoke(["validate", "--glob", "*.md", str(tmp_path)])
    assert only_md.exit_code == 1  # notes.md is checked, and is no maze


def test_submissions_of_an_empty_name_are_not_the_current_folders(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate --submissions "$DIR"` with DIR unset checked the current folder's
    submissions (Path("") is "."); "" names no folder, as for a FILE."""
    _submissions(tmp_path)
    monkeypatch.chdir(tmp_path / "subs")
    result = invoke(["validate", "--submissions", ""])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == "Error: : cannot read: No such file or directory\n"


def test_a_directory_without_mazes_is_a_problem_of_the_run(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke(["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == f"Error: {tmp_path}: no file matches '*.txt' under it\n"


def test_submissions_each_against_their_own_config(invoke: Invoke, tmp_path: Path) -> None:
    subs = _submissions(tmp_path)
    result = invoke(["validate", "--submissions", str(subs)])
    assert result.exit_code == 1  # broken submissions are the students' failures, not the run's
    assert result.stdout.splitlines() == [
        f"{subs}/alice/maze.txt: ok",
        f"{subs}/bob/out/m.txt:1:4: border: north wall of (3,0) is open on the border",
        f"{subs}/bob/out/m.txt: 1 violation (border 1)",
        "4 files: 1 ok, 3 invalid",
    ]
    assert result.stderr.splitlines() == [
        f"Error: {subs}/carol/config.txt: missing mandatory keys HEIGHT, ENTRY, EXIT, "
        "OUTPUT_FILE, PERFECT",
        f"Error: {subs}/dave/maze.txt: cannot read: No such file or directory "
        f"(the OUTPUT_FILE of {subs}/dave/config.txt)",
    ]


def test_submissions_take_the_config_name_and_json(invoke: Invoke, tmp_path: Path) -> None:
    subs = _submissions(tmp_path)
    for folder in subs.iterdir():
        if (folder / "config.txt").exists():
            (folder / "config.txt").rename(folder / "settings.cfg")
    result = invoke(
        [
            "validate",
            "--submissions",
            str(subs),
            "--config-name",
            "settings.cfg",
            "--format",
            "json",
        ]
    )
    document = _document(result.stdout)
    assert [entry["valid"] for entry in document["files"]] == [True, False, False, False]
    assert document["files"][2]["file"] == f"{subs}/carol/settings.cfg"
    empty = invoke(["validate", "--submissions", str(tmp_path / "subs" / "no-config")])
    assert empty.exit_code == 2
    assert empty.stderr == f"Error: {subs}/no-config: no sub-directory holds a config.txt\n"


def test_jobs_give_the_same_bytes_in_the_same_order(invoke: Invoke, tmp_path: Path) -> None:
    for index in range(24):
        source = BORDER if index % 5 == 0 else VALID
        (tmp_path / f"m{index:02d}.txt").write_text(source.read_text())
    for output_format in ("text", "json", "csv"):
        args = ["validate", "--format", output_format, str(tmp_path)]
        serial = invoke([*args, "--jobs", "1"])
        parallel = invoke([*args, "-j", "2"])
        assert serial.exit_code == parallel.exit_code == 1
        assert (parallel.stdout, parallel.stderr) == (serial.stdout, serial.stderr)
    assert invoke(["validate", "-j", "0", str(tmp_path)]).stdout == serial_text(invoke, tmp_path)


def serial_text(invoke: Invoke, folder: Path) -> str:
    """The text output of one process, to compare ``-j 0`` (every core) against."""
    return str(invoke(["validate", str(folder)]).stdout)


def test_workers_started_by_spawn_give_the_same_reports(tmp_path: Path) -> None:
    """spawn (macOS's and Windows' default) imports the workers afresh: they must not rely on
    anything but their arguments."""
    from mazekit.batch import Options, check_all, expand

    for index in range(4):
        (tmp_path / f"m{index}.txt").write_text((BORDER if index % 2 else VALID).read_text())
    jobs = expand([str(tmp_path)])
    serial = [report.to_dict() for report in check_all(jobs, Options())]
    spawned = [report.to_dict() for report in check_all(jobs, Options(), 2, "spawn")]
    assert spawned == serial
    assert [entry["valid"] for entry in spawned] == [True, False, True, False]


def _left_behind(argument: str) -> str:
    """The processes whose command line holds ``argument``, once none is left or 30 s have
    passed: a worker notices within 0.2 s that its parent is gone, later on a loaded
    machine; the point is that it goes, so wait for that rather than count polls."""
    import subprocess
    import time

    deadline = time.monotonic() + 30
    while True:
        left = subprocess.run(["pgrep", "-f", argument], capture_output=True, text=True)
        if not left.stdout or time.monotonic() > deadline:
            return left.stdout
        time.sleep(0.1)


def test_a_closed_pipe_leaves_no_worker_behind(tmp_path: Path) -> None:
    """Only processes show it: the main process dies of SIGPIPE, its workers must follow."""
    import shlex
    import subprocess
    import sys

    for index in range(40):
        (tmp_path / f"m{index:02d}.txt").write_text(VALID.read_text())
    mazekit = f"{shlex.quote(sys.executable)} -m mazekit"
    shell = f"{mazekit} validate -j 2 {' '.join([shlex.quote(str(tmp_path))] * 10)} | head -1"
    done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=20)
    assert done.stdout == f"{tmp_path}/m00.txt: ok\n"
    assert _left_behind(str(tmp_path)) == ""


def test_jsonl_writes_each_file_as_soon_as_it_is_done() -> None:
    """A process shows it: the first file's line arrives while the second (stdin) still waits."""
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "mazekit", "validate", "--format", "jsonl", str(VALID), "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stdin is not None
    first = json.loads(process.stdout.readline())  # stdin is still open: nothing else is done
    assert (first["file"], first["valid"]) == (str(VALID), True)
    out, err = process.communicate(SMALL_MAZE.encode(), timeout=60)
    assert json.loads(out)["file"] == "<stdin>"
    assert (process.returncode, err) == (0, b"")


# --- what a grader's account may not read ----------------------------------------------------

NOBODY = 65534


def _validate_unprivileged(args: list[str]) -> tuple[int, str, str]:
    """``mazekit validate ARGS`` as a user that permissions bind: this one, or nobody under
    root (after a first run that loads mazekit: the interpreter and its libraries live where
    nobody cannot read)."""
    import os
    import subprocess
    import sys

    drop = f"os.setgroups([])\nos.setgid({NOBODY})\nos.setuid({NOBODY})\n"
    code = (
        "import json, os, sys\n"
        "from click.testing import CliRunner\n"
        "from mazekit.cli import cli\n"
        # a first run as this user loads every module the second one needs
        "CliRunner().invoke(cli, sys.argv[1:])\n"
        f"{drop if os.geteuid() == 0 else ''}"
        "result = CliRunner().invoke(cli, sys.argv[1:], catch_exceptions=False)\n"
        "print(json.dumps([result.exit_code, result.stdout, result.stderr]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "validate", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd="/",
    )
    assert done.stderr == ""
    code_out, stdout, stderr = json.loads(done.stdout)
    return code_out, stdout, stderr


@pytest.fixture
def reachable_dir() -> Any:
    """A folder under /tmp that nobody can reach (tmp_path lies under root's 0700 folders)."""
    import shutil
    import tempfile

    directory = Path(tempfile.mkdtemp(prefix="mazekit-perm-", dir="/tmp"))
    directory.chmod(0o755)
    yield directory
    for path in directory.rglob("*"):
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    shutil.rmtree(directory)


def test_a_folder_that_cannot_be_listed_is_reported_not_passed_over(reachable_dir: Path) -> None:
    """rglob skips such a folder in silence: its mazes were never checked, and the run said
    every file was fine."""
    (reachable_dir / "a.txt").write_text(VALID.read_text())
    locked = reachable_dir / "locked"
    locked.mkdir()
    (locked / "b.txt").write_text(BORDER.read_text())
    (reachable_dir / "z.txt").write_text(VALID.read_text())
    locked.chmod(0)
    code, stdout, stderr = _validate_unprivileged([str(reachable_dir)])
    assert (code, stdout.splitlines(), stderr) == (
        1,
        [f"{reachable_dir}/a.txt: ok", f"{reachable_dir}/z.txt: ok", "3 files: 2 ok, 1 invalid"],
        f"Error: {reachable_dir}/locked: cannot read: Permission denied\n",
    )
    # the folder named itself, and a file in it: it exists, it cannot be read (not "No such
    # file", not a problem of the run)
    code, stdout, stderr = _validate_unprivileged([str(locked), f"{locked}/b.txt"])
    assert (code, stdout, stderr.splitlines()) == (
        1,
        "2 files: 0 ok, 2 invalid\n",
        [
            f"Error: {locked}: cannot read: Permission denied",
            f"Error: {locked}/b.txt: cannot read: Permission denied",
        ],
    )


def test_a_submission_that_cannot_be_entered_is_reported(reachable_dir: Path) -> None:
    subs = _submissions(reachable_dir)
    (subs / "alice").chmod(0)
    code, stdout, stderr = _validate_unprivileged(["--submissions", str(subs)])
    assert code == 1
    assert stdout.splitlines()[-1] == "4 files: 0 ok, 4 invalid"
    assert (
        stderr.splitlines()[0] == f"Error: {subs}/alice/config.txt: cannot read: Permission denied"
    )


def test_a_fifo_is_reported_never_opened(tmp_path: Path) -> None:
    """A FIFO under a DIR, or named by a submission's OUTPUT_FILE (/dev/stdin too), would wait
    forever for a writer: a process shows it, so a run that hangs fails here, not forever."""
    import os
    import subprocess
    import sys

    folder = tmp_path / "dir"
    folder.mkdir()
    (folder / "a.txt").write_text(VALID.read_text())
    os.mkfifo(folder / "pipe.txt")
    subs = tmp_path / "subs"
    for name, output in (("fifo", "maze.txt"), ("stdin", "/dev/stdin")):
        (subs / name).mkdir(parents=True)
        (subs / name / "config.txt").write_text(CONFIG.replace("maze.txt", output))
    os.mkfifo(subs / "fifo" / "maze.txt")
    mazekit = [sys.executable, "-m", "mazekit", "validate"]
    silent = subprocess.Popen(["sleep", "600"], stdout=subprocess.PIPE)  # a pipe, no writer
    try:
        on_dir = subprocess.run(
            [*mazekit, str(folder / "a.txt"), str(folder)],
            stdin=silent.stdout,
            capture_output=True,
            text=True,
            timeout=60,
        )
        done = subprocess.run(
            [*mazekit, "--submissions", str(subs)],
            stdin=silent.stdout,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        silent.kill()
        silent.wait()
    assert (on_dir.returncode, on_dir.stdout.splitlines()[-1], on_dir.stderr) == (
        1,
        "3 files: 2 ok, 1 invalid",
        f"Error: {folder}/pipe.txt: cannot read: not a regular file\n",
    )
    assert (done.returncode, done.stderr.splitlines()) == (
        1,
        [
            f"Error: {subs}/fifo/maze.txt: cannot read: not a regular file "
            f"(the OUTPUT_FILE of {subs}/fifo/config.txt)",
            f"Error: {subs}/stdin/config.txt: OUTPUT_FILE '/dev/stdin' leaves the submission",
        ],
    )


# --- no hang, no recursion, nothing read outside a submission (issues 23 and 26) -------------


def _handlers(_: int) -> tuple[object, object, object]:
    """In a worker: its handlers of SIGTERM, SIGINT and SIGHUP."""
    import signal

    return tuple(signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP))


def test_workers_take_the_default_signal_actions() -> None:
    """A worker forked from the guarded entry must not keep its Python-level handler: that
    handler runs only between bytecodes, and a worker blocked on the pool's queue lock never
    ran it when Pool.terminate signalled it (validate -j hung at teardown)."""
    import multiprocessing
    import os
    import signal

    import mazekit.__main__ as entry
    from mazekit.batch import _start_worker

    saved = [signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)]
    entry.guard_interrupts()
    try:
        context = multiprocessing.get_context("fork")
        pool = context.Pool(1, initializer=_start_worker, initargs=(os.getpid(),))
        try:
            found = pool.map(_handlers, [0])
        finally:
            pool.close()
            pool.join()
    finally:
        for signum, handler in zip(
            (signal.SIGTERM, signal.SIGINT, signal.SIGHUP), saved, strict=True
        ):
            signal.signal(signum, handler)
    assert found == [(signal.SIG_DFL, signal.SIG_DFL, signal.SIG_DFL)]


def test_two_hundred_pools_under_load_each_end(tmp_path: Path) -> None:
    """200 runs of -j 2 while two busy processes load both cores: every pool is closed and
    joined, and ends. A hang is the failure; the timeout only turns it into one."""
    import subprocess
    import sys

    for index in range(4):
        (tmp_path / f"m{index}.txt").write_text((BORDER if index % 2 else VALID).read_text())
    code = (
        "import sys\n"
        "import mazekit.__main__ as entry\n"
        "from mazekit.batch import Options, check_all, expand\n"
        "entry.guard_interrupts()\n"
        f"jobs = expand([{str(tmp_path)!r}])\n"
        "for run in range(200):\n"
        "    valid = [report.valid for report in check_all(jobs, Options(), 2)]\n"
        "    assert valid == [True, False, True, False], valid\n"
        "print(run + 1)\n"
    )
    # at the lowest priority: the machine is loaded, yet the suite does not wait on them
    busy = ["nice", "-n", "19", sys.executable, "-c", "while True: pass"]
    burners = [subprocess.Popen(busy) for _ in range(2)]
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=600
        )
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert (done.returncode, done.stdout, done.stderr) == (0, "200\n", "")


@pytest.mark.parametrize(("signum", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_to_the_parent_of_workers_leaves_nothing(
    tmp_path: Path, signum: str, status: int
) -> None:
    """Ctrl-C or a SIGTERM to `validate -j 2` in the middle of a run: exit 130 or 143 at once,
    quietly, and its workers follow it (no process of the run is left)."""
    import signal
    import subprocess
    import sys
    import time

    folder = tmp_path / "many"
    folder.mkdir()
    text = VALID.read_text()
    for index in range(200):
        (folder / f"m{index:03d}.txt").write_text(text)
    args = [sys.executable, "-m", "mazekit", "validate", "-q", "-j", "2", *[str(folder)] * 50]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # wait for the workers: the run is under way
            children = subprocess.run(
                ["pgrep", "-P", str(process.pid)], capture_output=True, text=True
            ).stdout.split()
            if len(children) >= 2 or process.poll() is not None:
                break
            time.sleep(0.05)
        assert process.poll() is None, "the run ended before the signal"
        process.send_signal(getattr(signal, signum))
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (process.returncode, stderr) == (status, b"")
    assert _left_behind(str(folder)) == ""


DEPTH = 100_000


@pytest.fixture
def memory_path(tmp_path: Path) -> Any:
    """A fresh folder in /dev/shm (a memory file system: 100 000 folders are made and
    removed there in about 3 s, against minutes on a journaled disk), else tmp_path."""
    import os
    import shutil
    import tempfile

    if not os.access("/dev/shm", os.W_OK):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="mazekit-deep-", dir="/dev/shm"))
    yield folder
    shutil.rmtree(folder)


def test_a_folder_100000_levels_deep_is_reported_and_the_run_goes_on(
    invoke: Invoke, memory_path: Path
) -> None:
    """A student's program that nests folders without end: `validate DIR` and `validate
    --submissions` report what they cannot reach and write the whole report."""
    subs = _submissions(memory_path)
    deep = subs / "alice" / "deep"
    deep.mkdir()
    # a maze no path reaches at the bottom: never read, never hidden
    make_deep(deep, DEPTH - 1, leaf=("m.txt", BORDER.read_text()))
    try:
        on_dir = invoke(["validate", str(subs / "alice")])
        on_class = invoke(["validate", "--submissions", str(subs)])
    finally:
        remove_deep(deep, DEPTH - 1)
    assert on_dir.exit_code == 1
    assert on_dir.stdout.splitlines() == [f"{subs}/alice/maze.txt: ok", "2 files: 1 ok, 1 invalid"]
    error = on_dir.stderr.splitlines()
    assert len(error) == 1
    assert error[0].startswith(f"Error: {subs}/alice/deep/d/d/")
    assert error[0].endswith("/d: cannot read: File name too long")
    assert on_class.exit_code == 1
    assert on_class.stdout.splitlines()[0] == f"{subs}/alice/maze.txt: ok"
    assert on_class.stdout.splitlines()[-1] == "4 files: 1 ok, 3 invalid"


def test_a_submission_whose_config_is_no_file_still_gets_its_line(
    invoke: Invoke, tmp_path: Path
) -> None:
    """A FIFO would block the run, a device might never end; a folder or a link loop cannot
    be read: each is that submission's failure, in its place, and the others are checked."""
    import os

    subs = _submissions(tmp_path)
    for name in ("fifo", "folder", "loop", "device"):
        (subs / name).mkdir()
    os.mkfifo(subs / "fifo" / "config.txt")
    (subs / "folder" / "config.txt").mkdir()
    (subs / "loop" / "config.txt").symlink_to("config.txt")
    (subs / "device" / "config.txt").symlink_to("/dev/zero")
    result = invoke(["validate", "--submissions", str(subs)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "8 files: 1 ok, 7 invalid"
    assert result.stderr.splitlines() == [
        f"Error: {subs}/carol/config.txt: missing mandatory keys HEIGHT, ENTRY, EXIT, "
        "OUTPUT_FILE, PERFECT",
        f"Error: {subs}/dave/maze.txt: cannot read: No such file or directory "
        f"(the OUTPUT_FILE of {subs}/dave/config.txt)",
        f"Error: {subs}/device/config.txt: cannot read: not a regular file",
        f"Error: {subs}/fifo/config.txt: cannot read: not a regular file",
        f"Error: {subs}/folder/config.txt: cannot read: Is a directory",
        f"Error: {subs}/loop/config.txt: cannot read: Too many levels of symbolic links",
    ]


@pytest.mark.parametrize(
    ("output", "make", "message"),
    [
        ("/etc/hostname", None, "{config}: OUTPUT_FILE '/etc/hostname' leaves the submission"),
        (
            "../alice/maze.txt",
            None,
            "{config}: OUTPUT_FILE '../alice/maze.txt' leaves the submission",
        ),
        (
            "out/maze.txt",
            "folder-link",
            "{config}: OUTPUT_FILE 'out/maze.txt' leaves the submission",
        ),
        (
            "maze.txt",
            "file-link",
            "{sub}/maze.txt: a symbolic link, not read (the OUTPUT_FILE of {config})",
        ),
    ],
    ids=["absolute", "dot-dot", "through-a-folder-link", "a-file-link"],
)
def test_a_submission_never_has_a_file_outside_it_read(
    invoke: Invoke, tmp_path: Path, output: str, make: str | None, message: str
) -> None:
    """A student's config names the file to check: it must not make the grader read another
    student's maze or a file of the machine (grade refuses the same names)."""
    subs = _submissions(tmp_path)
    sub = subs / "eve"
    sub.mkdir()
    (sub / "config.txt").write_text(CONFIG.replace("maze.txt", output))
    if make == "folder-link":
        (sub / "out").symlink_to(subs / "alice")
    elif make == "file-link":
        (sub / "maze.txt").symlink_to(subs / "alice" / "maze.txt")
    result = invoke(["validate", "--submissions", str(subs)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "Error: " + message.format(
        config=f"{sub}/config.txt", sub=sub
    )
    assert result.stdout.splitlines()[-1] == "5 files: 1 ok, 4 invalid"
