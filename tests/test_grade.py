"""mazekit grade on fake submissions: a correct one, and one for each way a program goes wrong.

The programs are tiny; all but the correct one are plain Python that writes a maze made here
with mazekit's API, so each run costs a bare interpreter start. Tests that need one case ask
for it with --case, and the hang is cut with a short --timeout.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from xml.etree import ElementTree

import pytest

from mazekit import dump_maze, generate
from mazekit.config import check_geometry, dump_config, parse_config
from mazekit.errors import ConfigError
from mazekit.grade import CASE_NAMES, CASES, Grade, GradeError, Limits, Outcome, isolation, sandbox
from mazekit.grade.cases import config_text
from mazekit.grade.checks import last_exception, run_problem
from mazekit.grade.report import as_csv, as_json
from mazekit.grade.sandbox import Run, Sandbox, abandon_all, stop_all
from mazekit.model import Maze
from tests.conftest import Invoke, open_wall
from tests.grade_python import runner_python

PYTHON = runner_python()
CONFIG = "WIDTH=20\nHEIGHT=15\nENTRY=0,0\nEXIT=19,14\nOUTPUT_FILE=maze.txt\nPERFECT=True\n"
MAZE = generate(20, 15, seed=1)
TEXT = dump_maze(MAZE)

# The correct submission: mazekit's own reader and generator, errors as messages.
CORRECT = """\
import sys
from mazekit import ConfigError, dump_maze, generate, load_config
from mazekit.pattern import fits

try:
    config = load_config(sys.argv[1])
    maze = generate(config.width, config.height, entry=config.entry, exit=config.exit,
                    perfect=config.perfect, seed=config.seed)
except ConfigError as error:
    sys.exit(f"Error: {error}")
if not fits(config.width, config.height):
    print('maze too small for the "42"', file=sys.stderr)
try:
    with open(config.output_file, "w") as handle:
        handle.write(dump_maze(maze))
except OSError as error:
    sys.exit(f"Error: {config.output_file}: {error.strerror}")
"""


# CORRECT's answers played back: what it prints, exits with and writes for each config grade
# gives it, found here by running it in-process, so that the 20 runs of the test that grades
# every case each cost a bare interpreter start rather than numpy's and mazekit's import.
_ASKED = "asked-config.txt"  # the config's name in the answers: the run's own name replaces it
_REPLAY = """\
import sys
ANSWERS = {answers!r}
with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as handle:
    output, maze, warning, error = ANSWERS[handle.read()]
if error is not None:
    sys.exit(error.replace({asked!r}, sys.argv[1]))
if warning:
    print(warning, file=sys.stderr)
try:
    with open(output, "w") as handle:
        handle.write(maze)
except OSError as error:
    sys.exit(f"Error: {{output}}: {{error.strerror}}")
"""


def _correct_answer(text: str, folder: Path) -> tuple[str, str, str, str | None]:
    """(output file, maze text, stderr, exit message) of CORRECT on the config ``text``, run
    in-process in ``folder``: the config's name is _ASKED."""
    import contextlib
    import io
    import sys

    (folder / _ASKED).write_bytes(text.encode("utf-8", "surrogateescape"))
    stderr, error, argv, cwd = io.StringIO(), None, sys.argv, os.getcwd()
    sys.argv = ["a_maze_ing.py", _ASKED]
    os.chdir(folder)
    try:
        with contextlib.redirect_stderr(stderr):
            exec(compile(CORRECT, "a_maze_ing.py", "exec"), {"__name__": "__main__"})
    except SystemExit as stop:
        error = str(stop.code)
    finally:
        sys.argv = argv
        os.chdir(cwd)
    output = parse_config(text, _ASKED).output_file if error is None else ""
    maze = (folder / output).read_text() if output and (folder / output).is_file() else ""
    return output, maze, stderr.getvalue().rstrip("\n"), error


def correct_replayed(folder: Path) -> str:
    """A program that answers every config of grade's cases (and CONFIG) as CORRECT does."""
    folder.mkdir()
    texts = {CONFIG, *(config_text(case) for case in CASES)}
    answers = {text: _correct_answer(text, folder) for text in sorted(texts)}
    return _REPLAY.format(answers=answers, asked=_ASKED)


def writes(text: str, newline: str = "\n") -> str:
    """A program that writes ``text`` to maze.txt, whatever its config says."""
    return f"open('maze.txt', 'w', newline={newline!r}).write({text!r})\n"


def submission(folder: Path, program: str, *, config: str | None = CONFIG, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a_maze_ing.py").write_text(program)
    if config is not None:
        (folder / "config.txt").write_bytes(config.encode("utf-8", "surrogateescape"))
    for name, text in files.items():
        (folder / name.replace("__", ".")).write_text(text)
    return folder


# The first line of a text report: the interpreter that ran the programs, and as whom.
INTERPRETER = re.compile(r"interpreter: (\S+) \(Python [0-9][^)]*\), run as (\S+)\n")


def body(stdout: str) -> str:
    """A text report without its first line, which must name the interpreter and the user."""
    found = INTERPRETER.match(stdout)
    assert found is not None, stdout
    assert found[1] == PYTHON
    return stdout[found.end() :]


def grade(invoke: Invoke, folder: Path, *args: str, python: str = PYTHON) -> tuple[int, str, str]:
    result = invoke(["grade", "--python", python, *args, str(folder)])
    return result.exit_code, result.stdout, result.stderr


def reachable(folder: Path) -> Path:
    """``folder``, opened for the user nobody to pass through (a fake interpreter in it)."""
    for path in (folder, folder.parent):
        path.chmod(0o755)
    return folder


def verdict_lines(stdout: str) -> list[str]:
    return [
        line
        for line in stdout.splitlines()
        if line.split(" ")[0] in ("PASS", "FAIL", "CRASH", "TIMEOUT")
    ]


def with_walls(change: str) -> str:
    """The maze of TEXT with some walls opened: a 3x3 room, or a gap in the "42"."""
    walls = MAZE.walls.copy()
    if change == "room":
        for y in range(3):
            for x in range(3):
                if x < 2:
                    open_wall(walls, x, y, "E")
                if y < 2:
                    open_wall(walls, x, y, "S")
    else:
        open_wall(walls, 10, 5, "E")
    return dump_maze(Maze(walls, MAZE.entry, MAZE.exit, MAZE.path))


# --- the correct submission -----------------------------------------------------------------


def test_a_correct_submission_passes_every_case_and_its_folder_is_left_alone(
    invoke: Invoke, tmp_path: Path
) -> None:
    folder = submission(tmp_path / "alice", correct_replayed(tmp_path / "answers"))
    before = sorted((p.name, p.read_bytes()) for p in folder.iterdir())
    code, stdout, _ = grade(invoke, folder, "-j", "2", "--format", "json")
    report = json.loads(stdout)
    assert code == 0
    assert [(c["case"], c["verdict"], c["reason"]) for c in report["cases"]] == [
        (name, "PASS", "") for name in CASE_NAMES
    ]
    assert (report["score"], report["passed"], report["total"]) == (100, 20, 20)
    assert (report["generation"], report["error_handling"]) == (
        {"passed": 7, "total": 7, "percent": 100, "counted": True},
        {"passed": 13, "total": 13, "percent": 100, "counted": True},
    )
    assert report["python"]["path"] == PYTHON
    version = subprocess.run(
        [PYTHON, "-c", "import platform; print(platform.python_version())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert report["python"]["version"] == version.stdout.strip()
    assert sorted((p.name, p.read_bytes()) for p in folder.iterdir()) == before


def test_the_text_report_and_the_required_files(invoke: Invoke, tmp_path: Path) -> None:
    folder = submission(
        tmp_path / "bob",
        writes(TEXT),
        Makefile="install:\n\tpip install .\nrun debug: install\n\tpython3 a_maze_ing.py config.txt\n",
        README__md="*This project has been created as part of the 42 curriculum by bob*\n",
    )
    code, stdout, stderr = grade(invoke, folder, "--case", "perfect-20x15", "--case", "bad-perfect")
    assert code == 1
    assert body(stdout) == (
        "PASS    perfect-20x15\n"
        "FAIL    bad-perfect: printed no error message\n"
        "required files (not scored; --strict scores them):\n"
        "MISSING Makefile: no target clean, lint\n"
        "ok      README.md: the first line is the italic 42 line\n"
        "MISSING LICENSE: no LICENSE file\n"
        "MISSING package: no mazegen-*.whl or mazegen-*.tar.gz\n"
        "ok      config: config.txt\n"
        f"{folder}: 1/2 passed, score 66% (generation 1/1, error handling 0/1)\n"
    )
    if os.geteuid() == 0 and stderr:  # only when nobody cannot start this interpreter
        assert stderr == (
            f"warning: the user nobody cannot run {PYTHON}, "
            "so the programs run with /usr/bin/python3\n"
        )


def test_strict_scores_the_files_and_lint_runs_make(invoke: Invoke, tmp_path: Path) -> None:
    folder = submission(
        tmp_path / "carol",
        writes(TEXT),
        Makefile="install run debug clean:\n\ttrue\nlint:\n\t@echo 'flake8: 3 errors'; exit 3\n",
        README__md="_This project has been created as part of the 42 curriculum by carol, dave_\n",
        LICENSE="MIT\n",
        **{"mazegen-1.0.0-py3-none-any__whl": ""},
    )
    code, stdout, _ = grade(invoke, folder, "--case", "perfect-20x15", "--strict", "--lint")
    assert code == 1
    assert stdout.splitlines()[2:] == [
        "required files (scored):",
        "ok      Makefile: targets install, run, debug, clean, lint",
        "ok      README.md: the first line is the italic 42 line",
        "ok      LICENSE: LICENSE",
        "ok      package: mazegen-1.0.0-py3-none-any.whl",
        "ok      config: config.txt",
        "MISSING make lint: exit 2: make: *** [Makefile:4: lint] Error 3",
        f"{folder}: 6/7 passed, score 94% (generation 1/1, files 5/6)",
    ]


def test_a_readme_without_the_42_line(invoke: Invoke, tmp_path: Path) -> None:
    folder = submission(tmp_path / "s", writes(TEXT), README__md="# A-Maze-ing\n")
    _, stdout, _ = grade(invoke, folder, "--case", "perfect-20x15")
    assert "MISSING README.md: the first line is not the italic 42 line: '# A-Maze-ing'\n" in stdout


def test_required_files_linked_out_of_the_submission_are_not_read(
    invoke: Invoke, tmp_path: Path
) -> None:
    """The grader (root, often) reads README.md and the config: through a link to a file of
    its own, the report would show that file's first line to whoever reads the report."""
    secret = tmp_path / "secret.txt"
    secret.write_text("root:$y$j9T$the-grader-s-secret\n" + CONFIG)
    folder = submission(tmp_path / "s", CORRECT, config=None)
    for name in ("README.md", "config.txt", "Makefile"):
        (folder / name).symlink_to(secret)
    code, stdout, _ = grade(invoke, folder, "--case", "own-config")
    assert code == 1
    assert "secret" not in stdout
    assert verdict_lines(stdout) == ["FAIL    own-config: no default config file at the root"]
    assert "MISSING Makefile: a symbolic link out of the submission (not read)\n" in stdout
    assert "MISSING README.md: a symbolic link out of the submission (not read)\n" in stdout
    assert "MISSING config: no default config file\n" in stdout
    # a link inside the submission is one of its files
    (folder / "docs").mkdir()
    (folder / "docs" / "config.txt").write_text(CONFIG)
    (folder / "config.txt").unlink()
    (folder / "config.txt").symlink_to("docs/config.txt")
    code, stdout, _ = grade(invoke, folder, "--case", "own-config")
    assert verdict_lines(stdout) == ["PASS    own-config"]
    assert "ok      config: config.txt\n" in stdout


def test_links_out_of_the_copy_are_never_followed_by_the_grader(
    invoke: Invoke, tmp_path: Path
) -> None:
    """The grader (root, often) removes a stale output and writes each case's config in the
    copy: through a link the submission ships or its program makes, it removed and wrote the
    grader's own files."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "maze.txt").write_text("precious\n")
    (victim / "config").write_text("precious\n")
    program = f"""\
import os, sys
if sys.argv[1] == "grade-perfect-20x15.txt":  # for the next case's config
    os.symlink({str(victim / "config")!r}, "grade-smallest-42.txt")
"""
    config = CONFIG.replace("OUTPUT_FILE=maze.txt", "OUTPUT_FILE=out/maze.txt")
    folder = submission(tmp_path / "s", program, config=config)
    (folder / "out").symlink_to(victim)
    cases = ("--case", "own-config", "--case", "perfect-20x15", "--case", "smallest-42")
    code, stdout, _ = grade(invoke, folder, *cases)
    assert code == 1
    assert verdict_lines(stdout) == [
        "FAIL    own-config: config.txt: OUTPUT_FILE leaves the submission",
        "FAIL    perfect-20x15: wrote no output file maze.txt",
        "FAIL    smallest-42: wrote no output file maze.txt",
    ]
    assert (victim / "maze.txt").read_text() == (victim / "config").read_text() == "precious\n"


@pytest.mark.parametrize(
    ("output", "shipped"),
    [
        ("a_maze_ing.py", None),  # the program itself
        (".", None),  # the copy itself
        ("docs", "docs/notes.txt"),  # a folder of the submission
        ("maze.txt", "maze.txt"),  # a stale output: no output of this run
    ],
)
def test_the_own_output_file_is_set_aside_for_its_run_only(
    invoke: Invoke, tmp_path: Path, output: str, shipped: str | None
) -> None:
    """own-config runs first, on the copy the other cases use: it removed what OUTPUT_FILE
    named (the entry script, a folder, the copy itself: a traceback of grade's own)."""
    program = (
        "import sys\nif sys.argv[1] == 'config.txt':\n    sys.exit('Error: writes nothing')\n"
        + CORRECT
    )
    config = CONFIG.replace("OUTPUT_FILE=maze.txt", f"OUTPUT_FILE={output}")
    folder = submission(tmp_path / "s", program, config=config)
    if shipped is not None:
        (folder / shipped).parent.mkdir(exist_ok=True)
        (folder / shipped).write_text(TEXT)
    code, stdout, _ = grade(invoke, folder, "--case", "own-config", "--case", "perfect-20x15")
    assert code == 1
    assert verdict_lines(stdout) == [
        f"FAIL    own-config: wrote no output file {output}",
        "PASS    perfect-20x15",
    ]


def test_a_run_that_removes_the_program_leaves_the_next_case_a_fresh_copy(
    invoke: Invoke, tmp_path: Path
) -> None:
    """Cases share a copy: after a run removed the entry script, python's own "can't open
    file" passed for the error message of every broken config, and valid ones wrote nothing."""
    program = f"""\
import os, sys
if sys.argv[1] == "config.txt":
    os.remove(sys.argv[0])
if "ENTRY=0\\n" not in open(sys.argv[1]).read():  # bad-entry: says nothing, writes nothing
    open("maze.txt", "w").write({TEXT!r})
"""
    folder = submission(tmp_path / "s", program)
    cases = ("--case", "own-config", "--case", "perfect-20x15", "--case", "bad-entry")
    code, stdout, _ = grade(invoke, folder, *cases)
    assert (code, verdict_lines(stdout)) == (
        1,
        [
            "PASS    own-config",
            "PASS    perfect-20x15",
            "FAIL    bad-entry: printed no error message",
        ],
    )
    assert (folder / "a_maze_ing.py").read_text() == program


@pytest.mark.parametrize(
    ("state", "jobs"),
    [
        ('os.path.expanduser("~/.amaze")', "1"),  # a HOME file
        ('"history.txt"', "1"),  # a new file of the copy
        ('"history.txt"', "2"),
        ('"runs.log"', "1"),  # a file the submission ships, changed
    ],
)
def test_no_case_sees_what_an_earlier_one_left(
    invoke: Invoke, tmp_path: Path, state: str, jobs: str
) -> None:
    """A program that keeps state across runs (counts them in ~/.amaze or a file of its
    folder) got verdicts that depended on -j and on the order of the cases."""
    program = f"""\
import os
path = {state}
if not os.path.exists(path) or os.path.getsize(path) == 0:
    open("maze.txt", "w").write({TEXT!r})
open(path, "a").write("run\\n")
"""
    folder = submission(tmp_path / "s", program, runs__log="")
    cases = ("--case", "own-config", "--case", "perfect-20x15", "--case", "lowercase-keys")
    code, stdout, _ = grade(invoke, folder, "-j", jobs, *cases)
    assert (code, verdict_lines(stdout)) == (
        0,
        ["PASS    own-config", "PASS    perfect-20x15", "PASS    lowercase-keys (not scored)"],
    )
    assert sorted(p.name for p in folder.iterdir()) == ["a_maze_ing.py", "config.txt", "runs.log"]
    assert (folder / "runs.log").read_text() == ""


def test_the_program_runs_in_a_copy_with_a_clean_environment(
    invoke: Invoke, tmp_path: Path
) -> None:
    folder = tmp_path / "s"
    program = f"""\
import os, sys
facts = [sorted(os.environ), sys.stdin.read(), os.getcwd() == {str(folder)!r}]
facts.append(os.environ["HOME"].startswith(os.path.dirname(os.getcwd())))
if facts != [["HOME", "LANG", "PATH"], "", False, True] or os.environ["LANG"] != "C.UTF-8":
    raise SystemExit(repr(facts))
open("maze.txt", "w").write({TEXT!r})
"""
    _, stdout, _ = grade(invoke, submission(folder, program), "--case", "perfect-20x15")
    assert verdict_lines(stdout) == ["PASS    perfect-20x15"]
    assert not (folder / "maze.txt").exists()


# --- one fake per failure kind --------------------------------------------------------------

CRASHES_ON_BROKEN = """\
import sys
values = dict(line.strip().split("=", 1) for line in open(sys.argv[1]))
width = int(values["WIDTH"])
"""


@pytest.mark.parametrize(
    ("case", "line"),
    [
        ("missing-key", "CRASH   missing-key: KeyError: 'WIDTH'"),
        (
            "no-equals",
            "CRASH   no-equals: ValueError: dictionary update sequence element #1 has length 1; 2 is required",
        ),
        (
            "letters-for-number",
            "CRASH   letters-for-number: ValueError: invalid literal for int() with base 10: 'twenty'",
        ),
    ],
)
def test_a_crash_on_a_broken_config(invoke: Invoke, tmp_path: Path, case: str, line: str) -> None:
    code, stdout, _ = grade(invoke, submission(tmp_path / "s", CRASHES_ON_BROKEN), "--case", case)
    assert (code, verdict_lines(stdout)) == (1, [line])


def test_a_seed_that_does_not_repeat(invoke: Invoke, tmp_path: Path) -> None:
    other = dump_maze(generate(20, 15, seed=2))
    program = f"""\
import os
second = os.path.exists("ran-once")
open("ran-once", "w").close()
open("maze.txt", "w").write({other!r} if second else {TEXT!r})
"""
    code, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "seed-twice")
    assert (code, verdict_lines(stdout)) == (
        1,
        ["FAIL    seed-twice: two runs with SEED=42 wrote different files"],
    )


def test_a_second_run_that_crashes(invoke: Invoke, tmp_path: Path) -> None:
    program = f"""\
import os
if os.path.exists("ran-once"):
    raise SystemError("second time")
open("ran-once", "w").close()
open("maze.txt", "w").write({TEXT!r})
"""
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "seed-twice")
    assert verdict_lines(stdout) == ["FAIL    seed-twice: second run: SystemError: second time"]


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        (
            writes(TEXT, "\r\n"),
            "maze.txt:1:21: format: line ends with CRLF, not LF, as do 18 more lines: end each "
            'line with LF alone (in Python: open(name, "w", newline="\\n"))',
        ),
        (
            writes(TEXT.replace(MAZE.path, "SN" + MAZE.path)),
            f"maze.txt:19:1: path: path has {len(MAZE.path) + 2} steps but the shortest has {len(MAZE.path)}",
        ),
        (
            writes(with_walls("room")),
            "maze.txt:1:1: open-area: 3x3 open area with its top-left cell at (0,0) (and 2 more violations)",
        ),
        (
            writes(with_walls("42")),
            'maze.txt:6:11: pattern: cell (10,5) of the "42" must have all four walls closed (F), '
            "but its E wall is open (D) (and 1 more violation)",
        ),
        ("print('done')\n", "wrote no output file maze.txt"),
    ],
    ids=["wrong-encoding", "path-not-shortest", "3x3-open-area", "missing-42", "no-output"],
)
def test_an_output_that_breaks_a_rule(
    invoke: Invoke, tmp_path: Path, program: str, reason: str
) -> None:
    code, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "perfect-20x15")
    assert (code, verdict_lines(stdout)) == (1, [f"FAIL    perfect-20x15: {reason}"])


ROOM_REASON = (
    "maze.txt:1:1: open-area: 3x3 open area with its top-left cell at (0,0) (and 2 more violations)"
)


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (
            writes(with_walls("room")) + "input('1) again 2) quit: ')\n",
            [
                f"FAIL    perfect-20x15: {ROOM_REASON}; then met the end of its input: "
                "EOFError: EOF when reading a line",
                "note: stops with a traceback at end of input (EOFError)",
            ],
        ),
        (
            "input('1) generate 2) quit: ')\n" + writes(with_walls("room")),
            ["CRASH   perfect-20x15: EOFError: EOF when reading a line"],
        ),
    ],
    ids=["wrong-maze-then-menu", "menu-first"],
)
def test_a_wrong_maze_from_a_program_that_then_waits_says_why_it_is_wrong(
    invoke: Invoke, tmp_path: Path, program: str, expected: list[str]
) -> None:
    """A menu after a wrong maze showed only CRASH EOFError, hiding what the maze lacks; with
    no file written, the crash is all there is to say."""
    code, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "perfect-20x15")
    shown = [line for line in stdout.splitlines() if line.startswith(("FAIL", "CRASH", "note:"))]
    assert (code, shown) == (1, expected)


@pytest.mark.parametrize(
    ("maze", "expected"),
    [
        (TEXT, ["PASS    perfect-20x15: then kept running: stopped after 1 s"]),
        (
            with_walls("room"),
            [f"FAIL    perfect-20x15: {ROOM_REASON}; then kept running: stopped after 1 s"],
        ),
    ],
    ids=["valid", "wrong"],
)
def test_a_program_that_animates_after_its_maze_kept_running(
    invoke: Invoke, tmp_path: Path, maze: str, expected: list[str]
) -> None:
    """It never reads its input: "kept waiting for input" was untrue of it."""
    program = writes(maze) + "import time\nfor frame in range(600):\n    time.sleep(0.1)\n"
    folder = submission(tmp_path / "s", program)
    _, stdout, _ = grade(invoke, folder, "--case", "perfect-20x15", "--timeout", "1")
    assert verdict_lines(stdout) == expected
    assert stdout.count("\nnote: does not exit by itself\n") == 1


def test_a_board_needs_loops_and_the_small_maze_a_message(invoke: Invoke, tmp_path: Path) -> None:
    small = dump_maze(generate(8, 6, seed=1))
    program = f"""\
import sys
text = open(sys.argv[1]).read()
open("maze.txt", "w").write({small!r} if "WIDTH=8" in text else {TEXT!r})
"""
    _, stdout, _ = grade(
        invoke, submission(tmp_path / "s", program), "--case", "imperfect", "--case", "too-small"
    )
    assert verdict_lines(stdout) == [
        'FAIL    too-small: said nothing about the maze being too small for the "42"',
        "FAIL    imperfect: maze.txt:1:1: dead-ends: real dead end at (0,0): 29 in all, "
        "more than the 2 allowed (and 29 more violations)",
    ]


def test_echoing_the_config_path_does_not_say_the_maze_is_too_small(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """grade-too-small.txt holds "small", and the copy's random folder names may hold "42":
    here they all do (before, the folder of the copy inside grade's own was not set aside,
    and one run in nine passed a program that only echoed its path)."""
    real = os.urandom
    monkeypatch.setattr(os, "urandom", lambda size: b"\x42" + real(size - 1))
    small = dump_maze(generate(8, 6, seed=1))
    program = f"""\
import os, sys
print("reading", sys.argv[1], "in", os.getcwd(), "as", os.path.abspath(sys.argv[1]))
open("maze.txt", "w").write({small!r})
"""
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "too-small")
    assert verdict_lines(stdout) == [
        'FAIL    too-small: said nothing about the maze being too small for the "42"'
    ]


@pytest.mark.parametrize(
    ("said", "verdict"),
    [
        ("Attention : labyrinthe trop petit, le motif ne rentre pas", "PASS    too-small"),
        ("Note: the pattern does not fit", "PASS    too-small"),
        ("Fehler: Labyrinth zu klein", "PASS    too-small"),
        (
            "Maze written to maze.txt",
            'FAIL    too-small: said nothing about the maze being too small for the "42"',
        ),
        (  # the words inside other words say nothing of the size
            "saved maze42.txt without a ValueError, outfit ok",
            'FAIL    too-small: said nothing about the maze being too small for the "42"',
        ),
        ("", 'FAIL    too-small: said nothing about the maze being too small for the "42"'),
    ],
)
def test_the_too_small_message_may_be_in_any_words_of_it(
    invoke: Invoke, tmp_path: Path, said: str, verdict: str
) -> None:
    """The subject asks for an error message when the "42" does not fit, not for its words."""
    small = dump_maze(generate(8, 6, seed=1))
    program = f"print({said!r})\nopen('maze.txt', 'w').write({small!r})\n"
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "too-small")
    assert verdict_lines(stdout) == [verdict]


def test_a_hang_is_stopped_at_the_timeout(invoke: Invoke, tmp_path: Path) -> None:
    folder = submission(tmp_path / "s", "while True:\n    pass\n")
    code, stdout, _ = grade(invoke, folder, "--case", "perfect-20x15", "--timeout", "0.5")
    assert (code, verdict_lines(stdout)) == (1, ["TIMEOUT perfect-20x15: no exit after 0.5 s"])


def test_a_timeout_shorter_than_an_interpreter_start_still_grades(
    invoke: Invoke, tmp_path: Path
) -> None:
    # the check that the interpreter starts is not held to --timeout: on a loaded machine a
    # short one made grade say "cannot run python: exit -9" (here the start is slow by design)
    slow = reachable(tmp_path) / "python"
    slow.write_text(f'#!/bin/sh\nsleep 0.3\nexec {PYTHON} "$@"\n')
    slow.chmod(0o755)
    folder = submission(tmp_path / "s", writes(TEXT))
    code, stdout, stderr = grade(
        invoke, folder, "--case", "perfect-20x15", "--timeout", "0.2", python=str(slow)
    )
    assert (code, verdict_lines(stdout)) == (1, ["TIMEOUT perfect-20x15: no exit after 0.2 s"])
    assert "Error" not in stderr


def test_an_interpreter_that_never_starts(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stuck = reachable(tmp_path) / "python"
    stuck.write_text("#!/bin/sh\nexec sleep 30\n")
    stuck.chmod(0o755)
    monkeypatch.setattr("mazekit.grade.sandbox.PROBE_SECONDS", 0.3)
    folder = submission(tmp_path / "s", writes(TEXT))
    assert grade(invoke, folder, "--timeout", "0.2", python=str(stuck)) == (
        2,
        "",
        f"Error: --python: cannot run {stuck}: no exit after 0.3 s\n",
    )


def test_a_slow_interpreter_start_does_not_drop_the_runner_to_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # only a refusal to run as the runner (nobody, under root) falls back to root; a start
    # that is merely slow stays an error, and the process limit is never dropped for it
    stuck = reachable(tmp_path) / "python"
    stuck.write_text("#!/bin/sh\nexec sleep 30\n")
    stuck.chmod(0o755)
    monkeypatch.setattr("mazekit.grade.sandbox.PROBE_SECONDS", 0.3)
    runner = (os.getuid(), os.getgid())  # a runner identity, as root's nobody would be
    box = Sandbox(submission(tmp_path / "s", "pass\n"), str(stuck), Limits(timeout=0.2), runner)
    with pytest.raises(GradeError) as error:
        box.start()
    assert str(error.value) == f"--python: cannot run {stuck}: no exit after 0.3 s"
    assert (box.identity, box.warnings) == (runner, [])


def test_a_copy_with_a_folder_the_program_made_read_only_is_removed(tmp_path: Path) -> None:
    """Only a grader that permissions bind shows it (root removes anything): a program that
    left a read-only folder with files in it (chmod 555) left its copy in the temporary folder,
    one per run. Played by nobody under root."""
    shared = Path(tempfile.mkdtemp(prefix="mazekit-test-", dir="/tmp"))
    shared.chmod(0o777)
    copy = shared / "copy"
    code = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from mazekit.grade.sandbox import _remove\n"
        + ("os.setgroups([])\nos.setgid(65534)\nos.setuid(65534)\n" if os.geteuid() == 0 else "")
        + f"copy = Path({str(copy)!r})\n"
        "(copy / 'submission' / 'out').mkdir(parents=True)\n"
        "(copy / 'submission' / 'out' / 'maze.txt').write_text('x')\n"
        "(copy / 'submission' / 'out').chmod(0o555)\n"
        "(copy / 'submission' / 'locked').mkdir()\n"
        "(copy / 'submission' / 'locked').chmod(0)\n"
        "(copy / 'submission').chmod(0o500)\n"
        "_remove(copy)\n"
        "print(sorted(p.name for p in copy.parent.iterdir()))\n"
    )
    try:
        done = subprocess.run(
            [PYTHON, "-c", code], capture_output=True, text=True, timeout=60, cwd="/"
        )
        assert (done.stderr, done.stdout) == ("", "[]\n")
    finally:
        for base, dirs, _ in os.walk(shared):
            for name in dirs:
                os.chmod(os.path.join(base, name), 0o700)
        shutil.rmtree(shared)


def test_ctrl_c_during_a_removal_finishes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a copy being removed is still listed, so Ctrl-C's handler, arriving mid-removal (and
    # ending the process there), removes the rest, as it does after a second Ctrl-C
    monkeypatch.setattr("mazekit.grade.sandbox._abandoned", False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))  # whatever fails stays in here
    box = Sandbox(submission(tmp_path / "s", "pass\n"), PYTHON, Limits(), identity=None)
    real_remove = sandbox.remove_tree

    def interrupted(path: str, *args: object, **kwargs: object) -> None:
        monkeypatch.setattr(sandbox, "remove_tree", real_remove)
        abandon_all()  # the handler, which then ends the process
        raise SystemExit(130)

    monkeypatch.setattr(sandbox, "remove_tree", interrupted)
    with pytest.raises(SystemExit):
        box.close()
    assert list(box.root.parent.glob(box.root.name + "*")) == []


def test_a_huge_file_is_cut_by_the_file_size_limit(invoke: Invoke, tmp_path: Path) -> None:
    program = "block = b'F' * 2**20\nwith open('maze.txt', 'wb') as f:\n    for _ in range(100):\n        f.write(block)\n"
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "perfect-20x15")
    # Python ignores SIGXFSZ, so the write fails instead of the process being killed
    assert verdict_lines(stdout) == ["CRASH   perfect-20x15: OSError: [Errno 27] File too large"]


def test_a_memory_hog_meets_the_address_space_limit(invoke: Invoke, tmp_path: Path) -> None:
    program = "hog = bytearray(3 * 2**30)\n"  # 3 GiB, over the 2 GiB limit
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "perfect-20x15")
    assert verdict_lines(stdout) == ["CRASH   perfect-20x15: MemoryError"]


def test_control_characters_from_the_program_are_escaped(invoke: Invoke, tmp_path: Path) -> None:
    program = "raise RuntimeError('\\x1b[2J gone')\n"
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "perfect-20x15")
    assert verdict_lines(stdout) == ["CRASH   perfect-20x15: RuntimeError: \\x1b[2J gone"]


@pytest.mark.parametrize(
    ("program", "shown"),
    [
        (
            "import sys\n"
            "print('\\x1b[?1049h\\x1b[1;1H\\x1b]0;A-Maze-ing\\x07\\x1b(B\\x1b[44mmenu\\x1b[0m')\n"
            "sys.exit('\\x1b[31mError: WIDTH is missing\\x1b[0m\\tbye')\n",
            [
                "FAIL    perfect-20x15: wrote no output file maze.txt",
                "        stdout: menu",
                "        stderr: Error: WIDTH is missing\\tbye",
            ],
        ),
        (
            "import os\n"
            "print(os.path.expanduser('~/.amaze'), os.getcwd())\n"
            "open(os.path.join(os.getcwd(), 'missing', 'x'))\n",
            [
                "CRASH   perfect-20x15: FileNotFoundError: [Errno 2] No such file or directory: "
                "'missing/x'",
                "        stdout: ~/.amaze .",
                "        stderr: Traceback (most recent call last):",
            ],
        ),
    ],
    ids=["terminal-escapes", "grades-folders"],
)
def test_what_a_case_shows_is_the_programs_text(
    invoke: Invoke, tmp_path: Path, program: str, shown: list[str]
) -> None:
    """A curses or coloured program's tail showed ``\\x1b[?1049h...``, and paths the random
    names of grade's temporary folders: the program's text is what says why. A terminal's
    escape sequences are left out (a lone control character is still escaped); the copy's
    paths show relative to the submission, HOME's under ``~``."""
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "perfect-20x15")
    assert stdout.splitlines()[1:4] == shown
    assert "mazekit-grade-" not in stdout


def test_a_signal_is_a_crash(invoke: Invoke, tmp_path: Path) -> None:
    program = "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n"
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "perfect-20x15")
    assert verdict_lines(stdout) == ["CRASH   perfect-20x15: killed by SIGSEGV"]


def _interpreter_nobody_can_run() -> str | None:
    """As root, RLIMIT_NPROC binds only another user: an interpreter ``nobody`` can start."""
    if os.geteuid() != 0:
        return PYTHON
    for path in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.path.exists(path) and all(
            os.stat(part).st_mode & 0o001 for part in [*Path(os.path.realpath(path)).parents]
        ):
            return path
    return None


def test_forks_are_stopped_by_the_process_limit(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # RLIMIT_NPROC counts a user's tasks across the machine: as nobody, these forks held up to
    # 5 s would leave the other workers' nobody runs no room to start (a BlockingIOError in
    # another test); as root the bomb runs as a user of its own
    if os.geteuid() == 0:
        monkeypatch.setattr("mazekit.grade.sandbox.default_identity", lambda: (65533, 65533))
    python = _interpreter_nobody_can_run()
    if python is None:
        pytest.skip(
            "as root, the process limit binds only the user nobody, who can run no Python here"
        )
    program = """\
import os, time
for _ in range(1000):
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
"""
    folder = submission(tmp_path / "s", program)
    _code, stdout, _ = grade(
        invoke, folder, "--case", "missing-key", "--timeout", "5", python=python
    )
    assert verdict_lines(stdout) == [
        "CRASH   missing-key: BlockingIOError: [Errno 11] Resource temporarily unavailable"
    ]
    if os.geteuid() == 0:
        assert stdout.splitlines()[0].endswith(", run as 65533")


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        (
            "print('Error: bad config')\nopen('maze.txt', 'w').write('half')\n",
            "changed the previous output file maze.txt",
        ),
        (
            "import os\nos.remove('maze.txt')\nraise SystemExit('Error: bad config')\n",
            "removed the previous output file maze.txt",
        ),
    ],
)
def test_a_broken_config_must_leave_the_previous_output(
    invoke: Invoke, tmp_path: Path, program: str, reason: str
) -> None:
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "bad-entry")
    assert verdict_lines(stdout) == [f"FAIL    bad-entry: {reason}"]


def test_an_unwritable_output_needs_a_message(invoke: Invoke, tmp_path: Path) -> None:
    program = "try:\n    open('maze-folder', 'w')\nexcept OSError:\n    pass\n"
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "output-unwritable")
    assert verdict_lines(stdout) == ["FAIL    output-unwritable: printed no error message"]


@pytest.mark.parametrize(
    ("config", "reason"),
    [
        (None, "no default config file at the root"),
        (
            CONFIG.replace("OUTPUT_FILE=maze.txt\n", ""),
            "config.txt: missing mandatory key OUTPUT_FILE",
        ),
        (
            CONFIG.replace("maze.txt", "../maze.txt"),
            "config.txt: OUTPUT_FILE leaves the submission",
        ),
        ("WIDTH=\udcff\n", "config.txt: cannot read: not UTF-8 text"),
    ],
)
def test_the_own_config(invoke: Invoke, tmp_path: Path, config: str | None, reason: str) -> None:
    folder = submission(tmp_path / "s", writes(TEXT), config=config)
    _, stdout, _ = grade(invoke, folder, "--case", "own-config")
    assert verdict_lines(stdout) == [f"FAIL    own-config: {reason}"]


def test_the_own_config_may_hold_keys_of_its_own(invoke: Invoke, tmp_path: Path) -> None:
    folder = submission(tmp_path / "s", writes(TEXT), config=CONFIG + "DISPLAY=ascii\n")
    _, stdout, _ = grade(invoke, folder, "--case", "own-config")
    assert verdict_lines(stdout) == ["PASS    own-config"]


# --- many submissions -----------------------------------------------------------------------


def test_all_grades_every_folder_best_first(invoke: Invoke, tmp_path: Path) -> None:
    submission(tmp_path / "b-good", writes(TEXT))
    submission(tmp_path / "a-bad", "print('hello')\n")
    (tmp_path / "c-empty").mkdir()
    args = ["--all", "-j", "2", "--case", "perfect-20x15", "--case", "lowercase-keys"]
    code, stdout, _ = grade(invoke, tmp_path, *args)
    assert code == 1
    assert body(stdout) == (
        "score  generation  error_handling  passed  total  fail  crash  timeout  submission  error\n"
        f"  100         100               -       1      1     0      0        0  {tmp_path / 'b-good'}\n"
        f"    0           0               -       0      1     1      0        0  {tmp_path / 'a-bad'}\n"
        f"    0           -               -       0      0     0      0        0  {tmp_path / 'c-empty'}"
        "  no entry script a_maze_ing.py\n"
    )


def test_all_shows_each_submissions_notes_under_its_row(invoke: Invoke, tmp_path: Path) -> None:
    """A TA grading a class sees which submissions need --stdin, --tty or --display: each
    note of a submission's own report, in the table, the CSV, the JSON and the JUnit."""
    menu = submission(tmp_path / "menu", writes(TEXT) + "input('1. again 2. quit\\n> ')\n")
    plain = submission(tmp_path / "plain", writes(TEXT))
    args = ["--all", "--case", "perfect-20x15"]
    code, stdout, _ = grade(invoke, tmp_path, *args)
    note = "stops with a traceback at end of input (EOFError)"
    indent = " " * len("  100         100               -       1      1     0      0        0  ")
    assert code == 0
    assert body(stdout) == (
        "score  generation  error_handling  passed  total  fail  crash  timeout  submission  error\n"
        f"  100         100               -       1      1     0      0        0  {menu}\n"
        f"{indent}note: {note}\n"
        f"  100         100               -       1      1     0      0        0  {plain}\n"
    )
    code, stdout, _ = grade(invoke, tmp_path, *args, "--format", "csv")
    assert (code, stdout) == (
        0,
        "score,generation,error_handling,passed,total,fail,crash,timeout,submission,error,notes\n"
        f"100,100,-,1,1,0,0,0,{menu},,{note}\n"
        f"100,100,-,1,1,0,0,0,{plain},,\n",
    )
    code, stdout, _ = grade(invoke, tmp_path, *args, "--format", "json")
    assert (code, [g["notes"] for g in json.loads(stdout)]) == (0, [[note], []])
    code, stdout, _ = grade(invoke, tmp_path, *args, "--format", "junit")
    suites = ElementTree.fromstring(stdout).findall("testsuite")
    found = [
        [p.get("value") for p in s.iter("property") if p.get("name") == "note"] for s in suites
    ]
    assert (code, found) == (0, [[note], []])


def test_the_environment_that_setup_made_is_named_as_the_ta_can_use_it(
    invoke: Invoke, tmp_path: Path
) -> None:
    """--setup's venv lies in the copy, gone when grade ends: the report names the interpreter
    the run started from, and the venv by its path in the copy, as in a --keep copy; under
    --all, under the row of the submission that made one."""
    made = submission(tmp_path / "class" / "a-venv", writes(TEXT), make__venv="")
    submission(tmp_path / "class" / "b-none", writes(TEXT))
    setup = f"test -f make.venv || exit 0; {shlex.quote(PYTHON)} -m venv --without-pip .venv"
    args = ["--setup", setup, "--case", "perfect-20x15"]
    code, stdout, _ = grade(invoke, made, *args)
    assert (code, body(stdout).splitlines()[:2]) == (
        0,
        ["environment: ./.venv/bin/python (made by --setup)", "PASS    perfect-20x15"],
    )
    kept = tmp_path / "kept"
    code, _, stderr = grade(invoke, made, *args, "--keep", str(kept))
    rerun = f"cd {kept} && ./.venv/bin/python a_maze_ing.py grade-perfect-20x15.txt"
    assert (code, stderr.splitlines()[-1]) == (
        0,
        f"kept the copy in {kept}; rerun it with: {rerun}",
    )
    again = subprocess.run(rerun, shell=True, capture_output=True, text=True, check=False)
    assert (again.returncode, (kept / "maze.txt").read_text()) == (0, TEXT)
    code, stdout, _ = grade(invoke, tmp_path / "class", "--all", *args)
    indent = " " * len("  100         100               -       1      1     0      0        0  ")
    assert (code, body(stdout)) == (
        0,
        "score  generation  error_handling  passed  total  fail  crash  timeout  submission  error\n"
        f"  100         100               -       1      1     0      0        0  {made}\n"
        f"{indent}environment: ./.venv/bin/python (made by --setup)\n"
        f"  100         100               -       1      1     0      0        0  {made.parent / 'b-none'}\n",
    )
    code, stdout, _ = grade(invoke, tmp_path / "class", "--all", *args, "--format", "json")
    assert [g["environment"] for g in json.loads(stdout)] == [
        {"python": "./.venv/bin/python", "made_by": "--setup"},
        None,
    ]


def test_a_failed_setup_shows_the_copys_paths_as_the_cases_do(
    invoke: Invoke, tmp_path: Path
) -> None:
    """The last line of a failed --setup named the copy's random folders, gone when grade
    ends: it shows them as a case's tails do, the copy's paths relative to it, HOME as ~."""
    folder = submission(tmp_path / "s", writes(TEXT))
    setup = 'echo "cannot write $PWD/venv, $PWD or $HOME/.cache" >&2; exit 3'
    code, stdout, _ = grade(invoke, folder, "--setup", setup, "--case", "perfect-20x15")
    assert (code, body(stdout).splitlines()[0]) == (
        1,
        f"error: '{setup}' failed: exit 3: cannot write venv, . or ~/.cache",
    )
    code, stdout, _ = grade(invoke, tmp_path, "--all", "--setup", setup, "--case", "perfect-20x15")
    assert (code, body(stdout).splitlines()[1].split("  ")[-1]) == (
        1,
        f"'{setup}' failed: exit 3: cannot write venv, . or ~/.cache",
    )


def test_the_table_as_csv_and_json() -> None:
    crash = Outcome(
        "imperfect",
        "CRASH",
        "KeyError: 'X'",
        stderr_tail="Traceback (most recent call last):\nKeyError: 'X'",
    )
    good = Grade("b", (Outcome("perfect-20x15", "PASS"), crash))
    broken = Grade("a", error="no entry script a_maze_ing.py")
    assert as_csv([good, broken]) == (
        "score,generation,error_handling,passed,total,fail,crash,timeout,submission,error,notes\n"
        "50,50,-,1,2,0,1,0,b,,\n"
        "0,-,-,0,0,0,0,0,a,no entry script a_maze_ing.py,\n"
    )
    case = {"seconds": 0.0, "part": "generation", "scored": True, "stdout_tail": ""}
    assert json.loads(as_json([good, broken]))[0] == {
        "submission": "b",
        "error": None,
        "score": 50,
        "generation": {"passed": 1, "total": 2, "percent": 50, "counted": True},
        "error_handling": {"passed": 0, "total": 0, "percent": 0, "counted": True},
        "passed": 1,
        "total": 2,
        "strict": False,
        "python": {"path": "", "version": ""},
        "user": "",
        "environment": None,
        "warnings": [],
        "notes": [],
        "cases": [
            {"case": "perfect-20x15", "verdict": "PASS", "reason": "", **case, "stderr_tail": ""},
            {
                "case": "imperfect",
                "verdict": "CRASH",
                "reason": "KeyError: 'X'",
                **case,
                "stderr_tail": "Traceback (most recent call last):\nKeyError: 'X'",
            },
        ],
        "files": [],
    }


# --- the grading cannot run: exit 2 ---------------------------------------------------------


def test_errors_of_the_run(invoke: Invoke, tmp_path: Path) -> None:
    folder = submission(tmp_path / "s", writes(TEXT))
    missing = tmp_path / "nope"
    assert grade(invoke, missing) == (2, "", f"Error: {missing}: no such folder\n")
    assert grade(invoke, folder / "a_maze_ing.py") == (
        2,
        "",
        f"Error: {folder / 'a_maze_ing.py'}: not a folder\n",
    )
    assert grade(invoke, folder, "--entry", "main.py") == (
        2,
        "",
        f"Error: {folder}: no entry script main.py\n",
    )
    # the program in a folder of the submission: the --entry to try
    (folder / "src").mkdir()
    (folder / "src" / "main.py").write_text(writes(TEXT))
    assert grade(invoke, folder, "--entry", "main.py") == (
        2,
        "",
        f"Error: {folder}: no entry script main.py; src/main.py looks like the program: "
        "--entry src/main.py\n",
    )
    shutil.rmtree(folder / "src")
    (tmp_path / "outside.py").write_text("")
    assert grade(invoke, folder, "--entry", "../outside.py") == (
        2,
        "",
        f"Error: {folder}: no entry script ../outside.py\n",
    )
    assert grade(invoke, folder, python="no-such-python") == (
        2,
        "",
        "Error: --python: cannot find 'no-such-python'\n",
    )
    assert grade(invoke, folder, python="/bin/false") == (
        2,
        "",
        "Error: --python: cannot run /bin/false: exit 1\n",
    )
    assert grade(invoke, folder, "--all") == (
        2,
        "",
        f"Error: {folder}: no submissions: no sub-folders\n",
    )
    os.mkfifo(folder / "pipe")  # copying it would block: refused
    assert grade(invoke, folder) == (
        2,
        "",
        f"Error: {folder}: cannot copy pipe: `{folder / 'pipe'}` is a named pipe\n",
    )
    code, _, stderr = grade(invoke, folder, "--format", "csv")
    assert (code, stderr.splitlines()[-1]) == (2, "Error: --format csv needs --all")
    code, _, stderr = grade(invoke, folder, "--case", "nope")
    assert code == 2 and "Invalid value for '--case': 'nope' is not one of" in stderr


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "inf", "1e300", "604801"])
def test_a_timeout_out_of_range_is_a_usage_error(
    invoke: Invoke, tmp_path: Path, timeout: str
) -> None:
    """nan and inf were internal errors, 1e300 an interpreter that "cannot run": RLIMIT_CPU
    of a C long overflowed in the wrapper."""
    folder = submission(tmp_path / "s", writes(TEXT))
    code, stdout, stderr = grade(invoke, folder, "--timeout", timeout)
    shown = {"1e300": "1e+300", "604801": "604801.0"}.get(timeout, f"{float(timeout)}")
    assert (code, stdout) == (2, "")
    assert stderr.splitlines()[-1] == (
        f"Error: Invalid value for '--timeout': {shown} is not in the range 0<x<=604800."
    )


def test_a_failure_in_the_interpreter_check_leaves_no_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check that the interpreter starts ran before the copies were in the hands of the
    code that removes them: anything it raised (a limit of the API no run can hold) left the
    copy behind."""
    from mazekit.grade import Options, grade

    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(temp))
    folder = submission(tmp_path / "s", writes(TEXT))
    with pytest.raises(OverflowError):  # RLIMIT_CPU of an endless run
        grade(folder, Options(python=PYTHON, limits=Limits(timeout=float("inf"))))
    assert list(temp.iterdir()) == []


def test_a_report_that_cannot_be_written_is_refused_before_any_run(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--all`` over a class takes minutes: a mistyped -o must not throw them away at the end.
    grade's exit 1 says a submission failed: its own report that cannot be written is exit 2."""
    import mazekit.cli.grade

    graded: list[str] = []
    monkeypatch.setattr(mazekit.cli.grade, "grade", lambda folder, *_: graded.append(folder))
    monkeypatch.setattr(mazekit.cli.grade, "grade_all", lambda folder, *_: graded.append(folder))
    folder = submission(tmp_path / "s", writes(TEXT))
    read_only = tmp_path / "read-only.txt"
    read_only.write_text("last year's grades\n")
    read_only.chmod(0o444)
    for target, reason in (
        (tmp_path / "no-such-folder" / "grades.csv", "No such file or directory"),
        (tmp_path, "Is a directory"),
        (folder / "a_maze_ing.py" / "grades.csv", "Not a directory"),
        (read_only, "the file is read-only (--force replaces it)"),
    ):
        for every in ([], ["--all"]):
            result = invoke(["grade", *every, "-o", str(target), str(folder)])
            assert (result.exit_code, result.stdout, result.stderr) == (
                2,
                "",
                f"Error: {target}: cannot write: {reason}\n",
            )
    assert graded == []
    assert read_only.read_text() == "last year's grades\n"
    monkeypatch.undo()
    report = tmp_path / "grades.txt"
    result = invoke(
        ["grade", "--python", PYTHON, "--case", "bad-entry", "-o", str(report), str(folder)]
    )
    assert (result.exit_code, result.stdout) == (1, "")  # writes() ignores its config
    assert body(report.read_text()).startswith("FAIL    bad-entry: printed no error message\n")
    report.unlink()
    # a report refused only when written, after the runs (a full disk): exit 2 all the same
    result = invoke(
        ["grade", "--python", PYTHON, "--case", "bad-entry", "-o", "/dev/full", str(folder)]
    )
    assert (result.exit_code, result.stdout, result.stderr) == (
        2,
        "",
        "Error: /dev/full: cannot write: No space left on device\n",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["read-only.txt", "s"]  # no temporary


def test_an_empty_folder_name_grades_nothing(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`mazekit grade "$SUB"` with SUB unset: Path("") is the current folder, which was copied
    and graded (a home folder, say); "" names no folder."""
    submission(tmp_path, writes(TEXT))  # the current folder is a gradable submission
    monkeypatch.chdir(tmp_path)
    for args in ([""], ["--all", ""]):
        result = invoke(["grade", "--python", PYTHON, *args])
        assert (result.exit_code, result.stdout, result.stderr) == (
            2,
            "",
            "Error: : no such folder\n",
        )


# --- the parts --------------------------------------------------------------------------------


def test_every_case_config_is_written_by_dump_config() -> None:
    for case in CASES:
        text = config_text(case)
        if case.kind in ("valid", "small", "twice", "output"):
            assert parse_config(text) == case.config
        elif case.kind == "broken":  # mazekit's own reader refuses every broken config
            with pytest.raises(ConfigError):
                config = parse_config(text)
                check_geometry(config.width, config.height, config.entry, config.exit)
    base = parse_config(CONFIG)
    assert parse_config(dump_config(base)) == base


def test_the_last_exception_of_a_chained_traceback() -> None:
    text = (
        "Traceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'WIDTH'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        'Traceback (most recent call last):\n  File "a.py", line 3\n    raise\n'
        "ValueError: bad\nlater output\n"
    )
    assert last_exception(text) == "ValueError: bad"
    assert last_exception("Traceback (most recent call last):\n  File") == "(traceback cut short)"
    assert last_exception("all fine\n") is None


def test_signals_of_the_limits() -> None:
    cpu = Run(-signal.SIGXCPU, "", "", False, 3.0)
    assert run_problem(cpu, Limits(), 1.5) == ("TIMEOUT", "used more than 3 s of CPU time")
    size = Run(-signal.SIGXFSZ, "", "", False, 0.1)  # a program that does not ignore it
    assert run_problem(size, Limits(), 1.5) == (
        "CRASH",
        "killed by SIGXFSZ: a file grew over 32 MiB",
    )


def test_stop_all_ends_the_runs_of_other_threads(tmp_path: Path) -> None:
    """What Ctrl-C does with -j: the main thread stops the programs that threads wait for."""
    box = Sandbox(submission(tmp_path / "s", "while True:\n    pass\n"), PYTHON, Limits(timeout=30))
    runs: list[Run] = []
    box.start()
    try:
        worker = threading.Thread(target=lambda: runs.append(box.run([PYTHON, "a_maze_ing.py"])))
        worker.start()
        deadline = time.monotonic() + 60
        while box._running is None:  # until the program runs (a fixed sleep was not enough)
            assert time.monotonic() < deadline, "the run never started"
            time.sleep(0.01)
        stop_all()
        worker.join(timeout=60)
        assert runs[0].returncode == -signal.SIGKILL
        assert runs[0].seconds < 30  # by stop_all, not at the time limit
        assert box.run([PYTHON, "-c", "pass"]).timed_out  # no new run starts
    finally:
        box.close()


def test_ctrl_c_stops_every_run_and_removes_the_copies(tmp_path: Path) -> None:
    folder = submission(tmp_path / "s", "while True:\n    pass\n")
    temp = tmp_path / "temp"
    temp.mkdir()
    process = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "mazekit",
            "grade",
            "-j",
            "2",
            "--timeout",
            "60",
            "--python",
            PYTHON,
            str(folder),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(temp)},
    )
    deadline = time.monotonic() + 20
    while len(list(temp.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # until both copies exist: the runs have begun
    time.sleep(0.2)
    start = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert time.monotonic() - start < 10  # not the 60 s of the time limit
    assert b"Traceback" not in stderr
    assert list(temp.iterdir()) == []


def test_abandoning_removes_a_copy_that_a_thread_is_still_writing_into(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C's handler runs while the -j threads go on; one that makes the next case's files
    # as the copy is removed must not leave any of them behind
    monkeypatch.setattr("mazekit.grade.sandbox._abandoned", False)  # for the tests after this
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))  # whatever fails stays in here
    box = Sandbox(submission(tmp_path / "s", "pass\n"), PYTHON, Limits(), identity=None)
    done = threading.Event()

    def keep_writing() -> None:
        for number in range(100_000):
            if done.is_set():
                return
            try:
                box.make_folder(f"folder-{number}")
                box.write(f"folder-{number}/config.txt", b"WIDTH=20\n")
            except OSError:
                pass  # the copy is gone: this thread's later files have nowhere to go

    writer = threading.Thread(target=keep_writing)
    writer.start()
    time.sleep(0.05)
    try:
        abandon_all()
        done.set()
        writer.join()
        assert list(box.root.parent.glob(box.root.name + "*")) == []
    finally:
        done.set()
        box.close()


def test_abandoning_stops_the_copies_that_grade_all_threads_are_making(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # with --all -j the threads copy the next submissions while Ctrl-C's handler runs: a copy
    # half made must not come back after its removal (copytree made its missing parents
    # again), and no new copy may start
    monkeypatch.setattr("mazekit.grade.sandbox._abandoned", False)  # for the tests after this
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(temp))
    folder = submission(tmp_path / "s", "pass\n")
    (folder / "mazegen" / "sub").mkdir(parents=True)
    (folder / "mazegen" / "sub" / "__init__.py").write_text("")
    copying, abandoned = threading.Event(), threading.Event()
    real_mkdir = os.mkdir

    def mkdir(path: str, *args: int, **kwargs: int) -> None:
        """Hold the copy once it has made mazegen, until Ctrl-C's handler is done."""
        real_mkdir(path, *args, **kwargs)
        if os.path.basename(path) == "mazegen" and not copying.is_set():
            copying.set()
            abandoned.wait(30)

    monkeypatch.setattr(os, "mkdir", mkdir)
    refused: list[str] = []

    def copy() -> None:
        try:
            Sandbox(folder, PYTHON, Limits(), identity=None)
        except GradeError as error:
            refused.append(str(error))

    worker = threading.Thread(target=copy)
    worker.start()
    try:
        assert copying.wait(30)
        abandon_all()
    finally:
        abandoned.set()
        worker.join(30)
    assert list(temp.iterdir()) == []
    assert len(refused) == 1 and refused[0].startswith(f"{folder}: cannot copy mazegen/sub: ")
    with pytest.raises(GradeError) as error:
        Sandbox(folder, PYTHON, Limits(), identity=None)
    assert str(error.value) == f"{folder}: cannot copy: interrupted"
    assert list(temp.iterdir()) == []


def test_a_submission_without_a_config_file_misses_it(invoke: Invoke, tmp_path: Path) -> None:
    folder = submission(tmp_path / "s", writes(TEXT), config=None, my_config__cfg=CONFIG)
    _, stdout, _ = grade(invoke, folder, "--case", "own-config")
    assert "PASS    own-config\n" in stdout  # my_config.cfg is the default config
    assert "ok      config: my_config.cfg\n" in stdout
    (folder / "my_config.cfg").unlink()
    _, stdout, _ = grade(invoke, folder, "--case", "perfect-20x15")
    assert "MISSING config: no default config file\n" in stdout


def test_a_long_output_keeps_its_end_where_the_traceback_is(invoke: Invoke, tmp_path: Path) -> None:
    program = "import sys\nsys.stderr.write('x' * 300_000)\nraise RuntimeError('at the end')\n"
    _, stdout, _ = grade(invoke, submission(tmp_path / "s", program), "--case", "perfect-20x15")
    assert verdict_lines(stdout) == ["CRASH   perfect-20x15: RuntimeError: at the end"]


def test_lint_without_make_and_lint_that_hangs(
    invoke: Invoke, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = submission(tmp_path / "s", writes(TEXT), Makefile="lint:\n\tsleep 30\n")
    args = ["grade", "--python", PYTHON, "--case", "perfect-20x15", "--lint", str(folder)]
    # bwrap is looked up once a process, on the PATH of the first run: found before the PATH
    # below, or this worker's later grade tests would all run without the namespaces
    isolation.namespaces_work()
    with monkeypatch.context() as patch:
        # no make on this PATH; a folder that is nowhere, so that the runner finds none with
        # the namespaces or without (tmp_path lies under root's private pytest folder)
        patch.setenv("PATH", str(tmp_path / "nowhere"))
        result = invoke(args)
    assert (
        "MISSING make lint: exit 127: mazekit grade: cannot run make: No such file or directory\n"
        in result.stdout
    )
    monkeypatch.setattr("mazekit.grade.grader.LINT_SECONDS", 0.3)
    result = invoke([*args[:-1], "--timeout", "0.2", str(folder)])
    assert "MISSING make lint: no exit after 0.3 s\n" in result.stdout


def test_the_copy_leaves_out_git_and_keeps_links_as_links(tmp_path: Path) -> None:
    folder = submission(tmp_path / "s", "pass\n")
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref: main\n")
    (folder / "pkg").mkdir()
    (folder / "pkg" / "maze.py").write_text("x = 1\n")
    (folder / "link.py").symlink_to("pkg/maze.py")
    box = Sandbox(folder, PYTHON, Limits(), identity=None)
    try:
        copied = sorted(str(p.relative_to(box.work)) for p in box.work.rglob("*"))
        assert copied == ["a_maze_ing.py", "config.txt", "link.py", "pkg", "pkg/maze.py"]
        assert os.readlink(box.work / "link.py") == "pkg/maze.py"
    finally:
        box.close()
    assert not box.root.exists()


def test_a_submission_that_cannot_be_copied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("mazekit.grade.sandbox.copy_tree", refuse)
    with pytest.raises(GradeError) as error:
        Sandbox(tmp_path, PYTHON, Limits())
    assert str(error.value) == f"{tmp_path}: cannot copy: Permission denied"


def test_a_temporary_folder_that_cannot_be_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    monkeypatch.setattr("tempfile.tempdir", str(not_a_folder))
    with pytest.raises(GradeError) as error:
        Sandbox(tmp_path, PYTHON, Limits())
    assert str(error.value) == f"{tmp_path}: cannot copy: Not a directory"
