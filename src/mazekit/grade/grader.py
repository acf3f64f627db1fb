"""Grade a submission: copy it, run its program on every case, judge each run, list its files.

``grade`` returns a Grade (never prints); ``grade_all`` grades every sub-folder of a folder,
in parallel threads, each submission in its own sandbox. specs/grade.md is the contract.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from ..config import Config, parse_config
from ..errors import ConfigError, printable
from .cases import (
    CASE_NAMES,
    CASES,
    OUTPUT,
    PREVIOUS_OUTPUT,
    Case,
    config_text,
    own_config_text,
)
from .checks import Outcome, Verdict, last_exception, output_problem, run_problem, says_too_small
from .files import FileCheck, entry_problem, find_config, required_files
from .install import install, setup, use_environment
from .sandbox import GradeError, Interaction, Limits, Run, Sandbox, cpu_seconds, stop_all

__all__ = ["DEFAULT_ENTRY", "LINT_SECONDS", "Grade", "Options", "grade", "grade_all"]

DEFAULT_ENTRY = "a_maze_ing.py"
LINT_SECONDS = 60.0  # `make lint` gets this long, or --timeout when that is longer

# The notes a submission gets, once, when a run is judged by the file it wrote although it
# did not end by itself (specs/grade.md, Programs that do not exit).
NOT_EXITING = "does not exit at end of input"
AT_END_OF_INPUT = "stops with a traceback at end of input (EOFError)"
NO_WINDOW = "cannot open its window without a display (--display xvfb)"
NO_TERMINAL = "cannot open its terminal without one (--tty)"
_WRITES = ("own", "valid", "small", "twice")  # the cases whose verdict is the file written
_TERMINAL = re.compile(r"_curses\.error|setupterm|termios\.error|not a (terminal|tty)", re.I)
_WINDOW = re.compile(r"display|\bX11\b|\bmlx", re.IGNORECASE)
_MISSING = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")


@dataclass(frozen=True)
class Options:
    """How to grade: the entry script, the interpreter, the limits, which cases, extras."""

    entry: str = DEFAULT_ENTRY
    python: str = "python3"
    limits: Limits = field(default_factory=Limits)
    cases: tuple[str, ...] = CASE_NAMES
    lint: bool = False
    strict: bool = False
    install: bool = False  # a virtual environment of the submission's dependencies
    setup: str | None = None  # a shell command run in each copy first (`make install`)
    interaction: Interaction = field(default_factory=Interaction)


@dataclass(frozen=True)
class Grade:
    """The grade of one submission; ``error`` says why it could not be graded at all."""

    submission: str
    outcomes: tuple[Outcome, ...] = ()
    files: tuple[FileCheck, ...] = ()
    strict: bool = False
    error: str | None = None
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # about the whole submission, once: NOT_EXITING
    python: str = ""  # the interpreter that ran the programs, its version, and as whom
    python_version: str = ""
    user: str = ""

    def count(self, verdict: Verdict) -> int:
        """How many cases got ``verdict``."""
        return sum(1 for outcome in self.outcomes if outcome.verdict == verdict)

    @property
    def total(self) -> int:
        """What is scored: the cases, and with --strict the required files (and lint)."""
        return len(self.outcomes) + (len(self.files) if self.strict else 0)

    @property
    def passed(self) -> int:
        scored_files = sum(check.ok for check in self.files) if self.strict else 0
        return self.count("PASS") + scored_files

    @property
    def score(self) -> int:
        """Percent of the scored items passed, rounded down; 0 when nothing could run."""
        return 100 * self.passed // self.total if self.total else 0

    @property
    def all_passed(self) -> bool:
        return self.error is None and self.passed == self.total


def resolve_python(python: str) -> str:
    """The interpreter as an absolute path; GradeError when PATH has no such program."""
    found = shutil.which(python)
    if found is None:
        raise GradeError(f"cannot find '{python}'", "--python")
    return os.path.abspath(found)


T = TypeVar("T")
R = TypeVar("R")


def _parallel(function: Callable[[T], R], items: Iterable[T], workers: int) -> list[R]:
    """``function`` over ``items`` in ``workers`` threads, in order; Ctrl-C stops them all."""
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        return list(pool.map(function, items))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        stop_all()
        raise
    finally:
        pool.shutdown(wait=True)


class _Grader:
    """Runs the cases of one submission in its sandbox."""

    def __init__(self, box: Sandbox, options: Options, notes: set[str] | None = None) -> None:
        self.box = box
        self.options = options
        self.notes = set() if notes is None else notes  # the submission's, shared by cases

    def run(self, config_name: str) -> Run:
        return self.box.run([self.box.python, self.options.entry, config_name])

    def problem(self, run: Run) -> tuple[Verdict, str] | None:
        limits = self.options.limits
        return run_problem(run, limits, limits.timeout)

    def after(self, run: Run) -> tuple[str, str] | None:
        """(the case's note, the submission's note) when a run that did not end well may be
        judged by its file: it kept waiting at the end of its input, or could not open its
        window or its terminal, after writing it. None for any other crash or hang."""
        wall = self.options.limits.timeout
        if run.timed_out:
            return f"then kept waiting for input: stopped after {wall:g} s", NOT_EXITING
        if run.returncode == -signal.SIGXCPU:
            return f"then kept running: used more than {cpu_seconds(wall)} s of CPU time", (
                NOT_EXITING
            )
        exception = last_exception(run.stderr) or last_exception(run.stdout) or ""
        said = printable(exception)
        if exception.startswith("EOFError"):
            return f"then met the end of its input: {said}", AT_END_OF_INPUT
        if _TERMINAL.search(exception):
            return f"then could not open its terminal: {said}", NO_TERMINAL
        if _WINDOW.search(run.stderr + run.stdout):
            if self.options.interaction.display is None:
                return "then could not open its window: no display", NO_WINDOW
            return f"then could not open its window: {said or 'no window'}", NO_WINDOW
        return None

    def finished(
        self, case: Case, run: Run
    ) -> tuple[tuple[Verdict, str] | None, tuple[str, str] | None]:
        """The run's TIMEOUT or CRASH, or None; and when that may yet pass on the file
        written (a case that writes a maze), the notes the PASS gets (``after``)."""
        problem = self.problem(run)
        if problem is None or case.kind not in _WRITES:
            return problem, None
        after = self.after(run)
        if after is None:
            return problem, None
        return problem, after

    def passed(self, case: Case, seconds: float, after: tuple[str, str] | None) -> Outcome:
        """A PASS, with the note of a run that did not end by itself (noted once for all)."""
        if after is None:
            return Outcome(case.name, "PASS", "", seconds)
        self.notes.add(after[1])
        return Outcome(case.name, "PASS", after[0], seconds)

    def output(self, name: str) -> bytes | None:
        """The file the program wrote, or None: none, not a regular file, a symbolic link, or
        in a folder reached through a link out of the copy (either could point anywhere the
        grader may read)."""
        path = self.box.work / name
        if not self.box.inside(name) or path.is_symlink() or not path.is_file():
            return None
        return path.read_bytes()

    def case(self, case: Case) -> Outcome:
        entry = self.options.entry
        if not self.box.inside(entry) or not (self.box.work / entry).is_file():
            self.box.renew()  # an earlier run removed the program: python's "can't open
            # file" would pass for the error message of a broken config
        if case.kind == "own":
            return self.own(case)
        config_name = f"grade-{case.name}.txt"
        self.box.write(config_name, config_text(case).encode())
        output = case.config.output_file
        self.box.remove(OUTPUT)
        self.box.remove(Path(output).parts[0])  # a folder an earlier run made for it, too
        if case.kind == "broken":
            self.box.write(OUTPUT, PREVIOUS_OUTPUT)
        if case.name == "output-unwritable":
            self.box.make_folder(output)
        first = self.run(config_name)
        problem, note = self.finished(case, first)
        if problem is not None and note is None:
            return Outcome(case.name, *problem, first.seconds)
        reason = self.judge(case, first, output, config_name)
        if reason is None:
            return self.passed(case, first.seconds, note)
        if problem is not None:  # no valid file either: the hang or the crash is the verdict
            return Outcome(case.name, *problem, first.seconds)
        return Outcome(case.name, "FAIL", reason, first.seconds)

    def judge(self, case: Case, run: Run, output: str, config_name: str) -> str | None:
        """The FAIL reason of a run that ended by itself, or None for a PASS."""
        said = bool((run.stdout + run.stderr).strip())
        if case.kind == "broken":
            if not said:
                return "printed no error message"
            after = self.output(OUTPUT)
            if after is None:
                return f"removed the previous output file {OUTPUT}"
            return (
                None if after == PREVIOUS_OUTPUT else f"changed the previous output file {OUTPUT}"
            )
        if case.kind == "output":
            if said or output_problem(self.output(output), case.config, output) is None:
                return None
            return "printed no error message"
        data = self.output(output)
        reason = output_problem(data, case.config, output)
        if reason is not None:
            return reason
        if case.kind == "small" and not says_too_small(run, (str(self.box.root), config_name)):
            return 'said nothing about the maze being too small for the "42"'
        if case.kind == "twice":
            self.box.remove(output)
            second = self.run(config_name)
            problem, note = self.finished(case, second)
            if problem is not None and (note is None or self.output(output) != data):
                return f"second run: {problem[1]}"
            if note is not None:
                self.notes.add(note[1])
            if self.output(output) != data:
                return f"two runs with SEED={case.config.seed} wrote different files"
        return None

    def own(self, case: Case) -> Outcome:
        """The submission's own config, with its own OUTPUT_FILE."""
        path = find_config(self.box.work)
        if path is None:
            return Outcome(case.name, "FAIL", "no default config file at the root")
        try:
            text = path.read_bytes().decode("utf-8-sig")
            config: Config = parse_config(own_config_text(text), path.name)
        except UnicodeDecodeError:
            return Outcome(case.name, "FAIL", f"{path.name}: cannot read: not UTF-8 text")
        except ConfigError as error:
            return Outcome(case.name, "FAIL", str(error))
        output = config.output_file
        if os.path.isabs(output) or ".." in Path(output).parts or not self.box.inside(output):
            return Outcome(case.name, "FAIL", f"{path.name}: OUTPUT_FILE leaves the submission")
        aside = self.box.set_aside(output)  # a shipped output is no output of this run
        try:
            run = self.run(path.name)
            problem, note = self.finished(case, run)
            if problem is not None and note is None:
                return Outcome(case.name, *problem, run.seconds)
            reason = output_problem(self.output(output), config, output)
        finally:
            self.box.put_back(output, aside)  # the other cases run on the copy as shipped
        if reason is None:
            return self.passed(case, run.seconds, note)
        if problem is not None:
            return Outcome(case.name, *problem, run.seconds)
        return Outcome(case.name, "FAIL", reason, run.seconds)

    def lint(self) -> FileCheck:
        """`make lint` in the copy, with the same limits and a longer time."""
        wall = max(LINT_SECONDS, self.options.limits.timeout)
        run = self.box.run(["make", "lint"], timeout=wall)
        if run.timed_out:
            return FileCheck("make lint", False, f"no exit after {wall:g} s")
        if run.returncode == 0:
            return FileCheck("make lint", True, "exit 0")
        lines = (run.stdout + run.stderr).strip().splitlines()
        last = printable(lines[-1]) if lines else "no output"
        return FileCheck("make lint", False, f"exit {run.returncode}: {last}")


def _missing_module(outcomes: Iterable[Outcome]) -> str | None:
    """The module a CRASH found missing (the first), or None."""
    for outcome in outcomes:
        found = _MISSING.fullmatch(outcome.reason) if outcome.verdict == "CRASH" else None
        if found:
            return found.group(1)
    return None


def _prepare(boxes: list[Sandbox], options: Options) -> None:
    """--install and --setup, before the cases: every copy gets the environment."""
    first = boxes[0]
    if options.install:
        venv = install(first, first.python)
        if venv is not None:
            for box in boxes:
                use_environment(box, venv)
    command = options.setup
    if command is not None:
        for box in boxes:
            setup(box, command)
            box.after_copy = lambda box=box: setup(box, command)


def _graded(
    box: Sandbox,
    name: str,
    outcomes: tuple[Outcome, ...],
    files: list[FileCheck],
    options: Options,
    error: str | None,
    notes: Iterable[str] = (),
) -> Grade:
    """The Grade, with what the first copy learnt: warnings, interpreter, user."""
    return Grade(
        name,
        outcomes,
        tuple(files),
        options.strict,
        error,
        tuple(box.warnings),
        tuple(sorted(notes)),
        box.python,
        box.python_version,
        box.user,
    )


def grade(submission: str | os.PathLike[str], options: Options = Options(), jobs: int = 1) -> Grade:
    """Grade one submission folder, ``jobs`` cases at a time (each in its own copy).

    GradeError when it cannot be graded at all: no folder, no entry script (or an empty
    one), no interpreter. What only the submission is to blame for (its dependencies do not
    install, a module is missing) is the Grade's ``error``.
    """
    name = os.fspath(submission)
    root = Path(submission)
    if not name or not root.is_dir():  # Path("") is the current folder: "" names none
        reason = "not a folder" if name and root.exists() else "no such folder"
        raise GradeError(reason, name)
    problem = entry_problem(root, options.entry)
    if problem is not None:
        raise GradeError(problem, name)
    python = resolve_python(options.python)
    first = Sandbox(root, python, options.limits, interaction=options.interaction)
    boxes = [first]
    notes: set[str] = set()
    try:
        first.start()  # decides the user and the interpreter, for every copy
        chosen = [case for case in CASES if case.name in set(options.cases)]
        for _ in range(min(jobs, len(chosen)) - 1):
            box = Sandbox(root, first.python, options.limits, first.identity, options.interaction)
            boxes.append(box)
        files = required_files(first.work)
        try:
            _prepare(boxes, options)
        except GradeError as failed:  # the submission's dependencies: its own problem
            return _graded(first, name, (), files, options, failed.message)
        free: queue.SimpleQueue[Sandbox] = queue.SimpleQueue()
        for box in boxes:
            free.put(box)

        def run_case(case: Case) -> Outcome:
            box = free.get()
            try:
                return _Grader(box, options, notes).case(case)
            finally:
                free.put(box)

        outcomes = tuple(_parallel(run_case, chosen, len(boxes)))
        if options.lint:
            files.append(_Grader(first, options).lint())
    finally:
        for box in boxes:
            box.close()
    missing = _missing_module(outcomes)
    if missing is not None and not options.install and options.setup is None:
        hint = f"No module named '{missing}': the submission needs its dependencies (--install)"
        return _graded(first, name, (), files, options, hint)
    return _graded(first, name, outcomes, files, options, None, notes)


def submissions(folder: str | os.PathLike[str]) -> list[Path]:
    """The sub-folders of ``folder`` (hidden ones left out), sorted by name."""
    root = Path(folder)
    if not os.fspath(folder) or not root.is_dir():  # Path("") is the current folder
        reason = "not a folder" if os.fspath(folder) and root.exists() else "no such folder"
        raise GradeError(reason, os.fspath(folder))
    found = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not found:
        raise GradeError("no submissions: no sub-folders", os.fspath(folder))
    return found


def _grade_or_error(path: Path, options: Options) -> Grade:
    try:
        return grade(path, options)
    except GradeError as error:
        if error.source in ("--python", "--display"):  # the grading's own problem: stop
            raise
        return Grade(os.fspath(path), strict=options.strict, error=error.message)


def grade_all(
    folder: str | os.PathLike[str], options: Options = Options(), jobs: int = 1
) -> list[Grade]:
    """Grade every sub-folder, ``jobs`` at a time; best score first, then by name.

    A sub-folder that cannot be graded (no entry script) gets its error and score 0; a
    missing interpreter stops everything (GradeError).
    """
    paths = submissions(folder)
    resolve_python(options.python)
    grades = _parallel(lambda path: _grade_or_error(path, options), paths, jobs)
    return sorted(grades, key=lambda g: (-g.score, g.submission))
