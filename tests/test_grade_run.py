"""How grade runs programs: interactive ones (menus, windows, curses), dependencies
(--install), isolation between runs, and trees too deep for recursion (issue 23).

The submissions are in tests/data/grade/class (written for these tests); what cannot be
committed (wheels, a folder 100 000 levels deep) is made here.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mazekit.grade import Environment, Options, grade, grade_all
from mazekit.grade.cases import GENERATION
from mazekit.grade.install import grader_pip
from mazekit.grade.isolation import Terminal
from mazekit.grade.report import as_text
from mazekit.grade.sandbox import Interaction, Run
from mazekit.grade.tree import remove_tree
from tests.conftest import Invoke
from tests.deep import make_deep, remove_deep
from tests.grade_class import CLASS, MAZE, PYTHON, ClassRun


def graded(invoke: Invoke, folder: Path, *args: str) -> tuple[int, str, str]:
    result = invoke(["grade", "--python", PYTHON, *args, str(folder)])
    return result.exit_code, result.stdout, result.stderr


def case_lines(stdout: str) -> list[str]:
    verdicts = ("PASS", "FAIL", "CRASH", "TIMEOUT", "note:", "error:")
    return [line for line in stdout.splitlines() if line.split(" ")[0] in verdicts]


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        (
            "ivan",
            ["--case", "perfect-20x15"],
            [
                "PASS    perfect-20x15: then could not open its window: no display",
                "note: cannot open its window without a display (--display xvfb)",
            ],
        ),
        (
            "jade",
            ["--case", "perfect-20x15"],
            [
                "PASS    perfect-20x15: then could not open its terminal: "
                "_curses.error: setupterm: could not find terminal",
                "note: cannot open its terminal without one (--tty)",
            ],
        ),
        (
            "kim",
            ["--case", "perfect-20x15"],
            ["CRASH   perfect-20x15: EOFError: EOF when reading a line"],
        ),
        ("kim", ["--case", "perfect-20x15", "--stdin", "1\\n"], ["PASS    perfect-20x15"]),
        ("kim", ["--case", "perfect-20x15", "--stdin", "1\\n", "--tty"], ["PASS    perfect-20x15"]),
    ],
)
def test_interactive_programs_are_judged_by_the_file_they_wrote(
    invoke: Invoke, name: str, args: list[str], expected: list[str]
) -> None:
    _, stdout, _ = graded(invoke, CLASS / name, *args)
    assert case_lines(stdout) == expected


@pytest.mark.parametrize("name", ["ivan", "jade", "kim"])
def test_a_window_a_terminal_or_a_menu_given_what_it_needs_passes_without_a_note(
    graded_class: ClassRun, name: str
) -> None:
    """The class run gave ivan --display xvfb, jade --tty, kim --stdin '1\\n'."""
    done = graded_class.grades[name]
    assert [(o.case, o.verdict, o.reason) for o in done.outcomes if o.part == GENERATION] == [
        ("own-config", "PASS", ""),
        ("perfect-20x15", "PASS", ""),
        ("seed-twice", "PASS", ""),
    ]
    assert done.notes == ()


def test_a_missing_module_is_one_error_not_a_crash_per_case(invoke: Invoke) -> None:
    code, stdout, _ = graded(invoke, CLASS / "leo", "-j", "2")
    assert code == 1
    assert case_lines(stdout) == [
        "error: No module named 'mlx': the submission needs its dependencies (--install)"
    ]


def test_an_empty_entry_script_names_the_program_to_try(invoke: Invoke) -> None:
    folder = CLASS / "mia"
    assert graded(invoke, folder) == (
        2,
        "",
        f"Error: {folder}: a_maze_ing.py is empty; main.py looks like the program: --entry main.py\n",
    )
    _, stdout, _ = graded(invoke, folder, "--entry", "main.py", "--case", "perfect-20x15")
    assert case_lines(stdout) == ["PASS    perfect-20x15"]


@pytest.fixture
def fast_temp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The copies' temporary folder in memory (/dev/shm): a virtual environment's thousand
    files, or a folder 100 000 levels deep, take many times longer on a disk's file system."""
    folder = Path(tempfile.mkdtemp(prefix="mazekit-test-", dir="/dev/shm"))
    folder.chmod(0o755)
    monkeypatch.setattr("tempfile.tempdir", str(folder))
    yield folder
    remove_tree(folder)


def test_install_builds_the_shipped_wheels_once(
    invoke: Invoke, graded_class: ClassRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The class run graded leo (its wheels made there) with --install: built once, then
    reused by the next grading; requirements that cannot be met are leo's error."""
    leo = graded_class.grades["leo"]
    assert (leo.error, leo.outcomes[1].case, leo.outcomes[1].verdict) == (
        None,
        "perfect-20x15",
        "PASS",
    )
    built = [p for p in (graded_class.cache / "mazekit" / "grade-venvs").iterdir() if p.is_dir()]
    assert len(built) == 1
    assert leo.environment == Environment(f"{built[0]}/bin/python", "--install")
    # made without pip, installed into by the grader's own pip
    own_pip = list(built[0].glob("lib/python*/site-packages/pip"))
    assert (own_pip == []) == (grader_pip() is not None)
    stamp = (built[0] / ".mazekit-complete").stat().st_mtime_ns
    monkeypatch.setenv("XDG_CACHE_HOME", str(graded_class.cache))
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # offline: the wheels only
    args = ["--install", "--case", "own-config", "--format", "json"]
    _, stdout, _ = graded(invoke, graded_class.leo, *args)
    assert json.loads(stdout)["cases"][0]["verdict"] == "PASS"
    assert (built[0] / ".mazekit-complete").stat().st_mtime_ns == stamp  # reused
    folder = tmp_path / "leo"
    shutil.copytree(graded_class.leo, folder)
    (folder / "requirements.txt").write_text("mlx\nmazegen==9.9\n")
    code, stdout, _ = graded(invoke, folder, "--install", "--case", "perfect-20x15")
    assert code == 1
    assert case_lines(stdout)[0].startswith("error: cannot install its dependencies: exit 1: ")


MAKES_DEEP = f"""\
import os
top = os.open(".", os.O_RDONLY)
for _ in range(10_000):
    os.mkdir("d")
    os.chdir("d")
os.fchdir(top)
open("maze.txt", "w").write({MAZE!r})
"""


def test_a_folder_100000_levels_deep_is_reported_and_the_class_still_graded(
    invoke: Invoke, fast_temp: Path
) -> None:
    ships, makes = fast_temp / "class" / "ships", fast_temp / "class" / "makes"
    for folder, program in ((ships, "pass\n"), (makes, MAKES_DEEP)):
        folder.mkdir(parents=True)
        (folder / "a_maze_ing.py").write_text(program)
    make_deep(ships, 100_000)
    try:
        code, stdout, _ = graded(invoke, fast_temp / "class", "--all", "--case", "perfect-20x15")
    finally:
        remove_deep(ships, 100_000)
    assert code == 1
    rows = stdout.splitlines()[1:]  # under the interpreter line
    assert rows[1].split()[:3] == ["100", "100", "-"] and rows[1].split()[8].endswith("makes")
    assert rows[2].endswith("cannot copy d/d/d/...: folders nested deeper than 256 levels")
    assert [p.name for p in fast_temp.iterdir()] == ["class"]  # every copy removed


NOSY = (
    """\
import glob, os
here = os.path.realpath(".")
for folder in glob.glob("/tmp/**/submission", recursive=True):
    if os.path.realpath(folder) != here:
        try:
            open(os.path.join(folder, "intruder.txt"), "w").write("was here")
        except OSError:
            pass
"""
    + f"open('maze.txt', 'w').write({MAZE!r})\n"
)

VICTIM = f"""\
import os, time
time.sleep(1.5)
if not os.path.exists("intruder.txt"):
    open("maze.txt", "w").write({MAZE!r})
"""


@pytest.mark.parametrize("namespaces", [True, False])
def test_concurrent_runs_cannot_reach_each_other(tmp_path: Path, namespaces: bool) -> None:
    for name, program in (("nosy", NOSY), ("victim", VICTIM)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a_maze_ing.py").write_text(program)
    options = Options(
        python=PYTHON,
        cases=("perfect-20x15",),
        interaction=Interaction(namespaces=namespaces),
    )
    grades = grade_all(tmp_path, options, jobs=2)
    assert [(Path(g.submission).name, g.score) for g in grades] == [("nosy", 100), ("victim", 100)]


# Takes a multiprocessing lock (a POSIX semaphore in /dev/shm) and keeps a file there; writes
# its maze only when no earlier run's file is to be seen.
SHARED_MEMORY = f"""\
import multiprocessing, os
LOCK = multiprocessing.Lock()
with LOCK:
    seen = os.path.exists("/dev/shm/amaze-state")
    open("/dev/shm/amaze-state", "a").write("run\\n")
if not seen:
    open("maze.txt", "w").write({MAZE!r})
"""


def test_each_run_has_a_dev_shm_of_its_own_that_it_may_write(tmp_path: Path) -> None:
    """multiprocessing.Lock, Pool and ProcessPoolExecutor need a writable /dev/shm; what a run
    leaves there is gone for the next one (seed-twice runs twice in one copy)."""
    (tmp_path / "a_maze_ing.py").write_text(SHARED_MEMORY)
    options = Options(
        python=PYTHON,
        cases=("perfect-20x15", "seed-twice"),
        interaction=Interaction(namespaces=True),
    )
    result = grade(tmp_path, options)
    assert [(o.case, o.verdict, o.reason) for o in result.outcomes] == [
        ("perfect-20x15", "PASS", ""),
        ("seed-twice", "PASS", ""),
    ]


def test_nothing_a_run_started_survives_it(tmp_path: Path) -> None:
    marker = f"mazekit-test-{os.getpid()}-survivor"
    program = (
        "import subprocess, sys\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)', "
        f"{marker!r}], start_new_session=True)\n"
        f"open('maze.txt', 'w').write({MAZE!r})\n"
    )
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "a_maze_ing.py").write_text(program)
    grades = grade_all(tmp_path, Options(python=PYTHON, cases=("perfect-20x15",)))
    assert grades[0].score == 100
    deadline = time.monotonic() + 10  # killed, then gone once reaped
    while survivors(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert survivors(marker) == []


def survivors(marker: str) -> list[str]:
    """The processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if marker.encode() in (entry / "cmdline").read_bytes():
                found.append(entry.name)
        except OSError:
            pass
    return found


def test_root_never_runs_a_program_as_root(tmp_path: Path) -> None:
    """The default python3 on root's PATH is often one nobody cannot start (pyenv's, under
    /root): the programs run with the distribution's then, never as root."""
    folder = tmp_path / "s"
    folder.mkdir()
    program = f"import os\nif os.getuid() != 0:\n    open('maze.txt', 'w').write({MAZE!r})\n"
    (folder / "a_maze_ing.py").write_text(program)
    result = grade(folder, Options(cases=("perfect-20x15",)))
    assert result.score == 100
    assert result.user == ("nobody" if os.geteuid() == 0 else result.user)
    assert result.python_version.count(".") == 2


def test_the_tail_of_a_run_is_its_last_five_lines() -> None:
    """The same tail as a report shows under a case: non-blank lines, cut at the front."""
    run = Run(0, "".join(f"line {n}\n\n" for n in range(20)), "x" * 2000, False, 0.1)
    assert run.stdout_tail == "\n".join(f"line {n}" for n in range(15, 20))
    assert run.stderr_tail == "..." + "x" * 497


def test_setup_installs_a_src_layout_that_only_works_installed(
    invoke: Invoke, graded_class: ClassRun
) -> None:
    """The class run graded noor with --setup 'make install' (its Makefile makes .venv)."""
    folder = CLASS / "noor"
    _, stdout, _ = graded(invoke, folder, "--case", "perfect-20x15")
    assert case_lines(stdout) == [
        "error: No module named 'mazegen': the submission needs its dependencies (--install)"
    ]
    noor = graded_class.grades["noor"]
    assert (noor.error, noor.outcomes[1].case, noor.outcomes[1].verdict) == (
        None,
        "perfect-20x15",
        "PASS",
    )
    assert noor.environment == Environment("./.venv/bin/python", "--setup")
    assert "environment: ./.venv/bin/python (made by --setup)\n" in as_text(noor)
    code, stdout, _ = graded(invoke, folder, "--setup", "exit 3", "--case", "perfect-20x15")
    assert (code, case_lines(stdout)) == (1, ["error: 'exit 3' failed: exit 3: no output"])


def test_an_interpreter_nobody_cannot_run_is_replaced_never_run_as_root(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    program = f"import os\nif os.getuid() != 0:\n    open('maze.txt', 'w').write({MAZE!r})\n"
    (folder / "a_maze_ing.py").write_text(program)
    args = ["grade", "--python", sys.executable, "--case", "perfect-20x15", str(folder)]
    result = invoke(args)
    assert case_lines(result.stdout) == ["PASS    perfect-20x15"]
    if os.geteuid() != 0:  # the grader's own user runs its own interpreter
        assert result.stderr == ""
        return
    # under root, this interpreter lies in root's home (pyenv's) where nobody cannot enter
    assert result.stderr == (
        f"warning: the user nobody cannot run {sys.executable}, "
        "so the programs run with /usr/bin/python3\n"
    )
    monkeypatch.setattr("mazekit.grade.sandbox.DISTRIBUTION_PYTHON", sys.executable)
    result = invoke(args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"Error: --python: the user nobody cannot run {sys.executable}: "
        f"mazekit grade: cannot run {sys.executable}: Permission denied\n"
    )


def test_a_display_without_xvfb(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no Xvfb on this PATH
    for folder in (["ivan"], ["--all", "."]):  # --all stops too: no submission is to blame
        *options, name = folder
        args = ["grade", "--python", PYTHON, "--display", "xvfb", *options, str(CLASS / name)]
        result = invoke(args)
        assert (result.exit_code, result.stdout, result.stderr) == (
            2,
            "",
            "Error: --display: cannot start Xvfb: Xvfb is not installed (Debian's package xvfb)\n",
        )


def test_an_xvfb_that_does_not_start(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "Xvfb"
    fake.write_text("#!/bin/sh\necho '(EE) Fatal server error: no screens found' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    result = invoke(["grade", "--python", PYTHON, "--display", "xvfb", str(CLASS / "ivan")])
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        "Error: --display: cannot start Xvfb: Xvfb did not start: "
        "(EE) Fatal server error: no screens found\n",
    )


def test_a_terminal_closes_its_side_once(tmp_path: Path) -> None:
    """--tty with -j or --all -j: the number of the terminal side the grader let go of is
    soon another thread's file (a pipe of another run), which a second close would close."""
    terminal = Terminal(tmp_path / "screen", 1024, b"")
    terminal.started()
    other = os.open(os.devnull, os.O_RDONLY)  # the lowest free number: the one let go
    try:
        terminal.close()
        os.fstat(other)  # still open
    finally:
        os.close(other)


def test_the_interpreters_module_folders_that_the_namespaces_hide_are_shown_to_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A grader whose packages lie under /tmp (a clone there, a venv there) must not see its
    programs fail with 'No module named ...': every folder of the interpreter's search path
    that the private /tmp would hide is bound in, read-only."""
    from mazekit.grade.sandbox import _search_folders

    hidden = tempfile.mkdtemp(dir="/tmp")
    try:
        monkeypatch.setenv("PYTHONPATH", hidden)
        found = _search_folders(sys.executable, 30)
        assert hidden in found
        assert all(
            folder.startswith(("/tmp/", "/var/tmp/", "/run/lock/", "/dev/shm/")) for folder in found
        )
    finally:
        os.rmdir(hidden)
