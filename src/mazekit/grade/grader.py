"""Grade a submission: copy it, run its program on every case, judge each run, list its files.

``grade`` returns a Grade (never prints); ``grade_all`` grades every sub-folder of a folder,
in parallel threads, each submission in its own sandbox. specs/grade.md is the contract.
"""

from __future__ import annotations

import os
import pwd
import queue
import shlex
import shutil
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

from .. import pattern as glyph
from ..analysis import PatternMode
from ..config import MANDATORY_KEYS, Config, parse_config
from ..errors import ConfigError, GradeError, printable
from ..textformat import scan
from .cases import (
    CASE_NAMES,
    CASES,
    ERRORS,
    GENERATION,
    OUTPUT,
    PREVIOUS_OUTPUT,
    Case,
    config_text,
    own_config_text,
)
from .checks import (
    Outcome,
    Verdict,
    drawn_42,
    glyph_note,
    output_problem,
    run_problem,
    says_too_small,
    tail,
)
from .files import FileCheck, find_config, required_files
from .sandbox import Limits, Run, Sandbox, _copy_tree, _CopyFailed, stop_all

__all__ = [
    "DEFAULT_ENTRY",
    "LINT_SECONDS",
    "WEIGHTS",
    "Grade",
    "Options",
    "Part",
    "grade",
    "grade_all",
]

DEFAULT_ENTRY = "a_maze_ing.py"
LINT_SECONDS = 60.0  # `make lint` gets this long, or --timeout when that is longer
# How much each part weighs in the score (specs/grade.md, Scoring, says why).
WEIGHTS = {GENERATION: 2, ERRORS: 1, "files": 1}
_MAZE_BYTES = 4 * 2**20  # a larger new file at the root is not read as a maze
_ON_42 = next(case for case in CASES if case.on_42)
_NO_42 = 'no output of a good config of its size draws a "42" to put the entry on'
# The good configs of entry-on-42's size (in order), whose output gives it the "42" to use.
_SAME_SIZE = tuple(
    case
    for case in CASES
    if case.kind in ("valid", "twice")
    and (case.config.width, case.config.height) == (_ON_42.config.width, _ON_42.config.height)
)


@dataclass(frozen=True)
class Options:
    """How to grade: the entry script, the interpreter, the limits, which cases, extras."""

    entry: str = DEFAULT_ENTRY
    python: str = "python3"
    limits: Limits = field(default_factory=Limits)
    cases: tuple[str, ...] = CASE_NAMES
    lint: bool = False
    strict: bool = False
    pattern: PatternMode = "subject"  # how outputs' "42" is judged (specs/rules.md)
    keep: str | None = None  # leave the copy of the one case run here, for a rerun by hand


@dataclass(frozen=True)
class Part:
    """One part of the score: how many of its items passed, and whether it counts."""

    name: str
    passed: int
    total: int
    counted: bool = True

    @property
    def percent(self) -> int:
        """Percent passed, rounded down; 0 for an empty part."""
        return 100 * self.passed // self.total if self.total else 0


@dataclass(frozen=True)
class Grade:
    """The grade of one submission; ``error`` says why it could not be graded at all."""

    submission: str
    outcomes: tuple[Outcome, ...] = ()
    files: tuple[FileCheck, ...] = ()
    strict: bool = False
    error: str | None = None
    warnings: tuple[str, ...] = ()
    python: str = ""  # the interpreter the programs ran with, and its version
    python_version: str = ""
    user: str = ""  # the user they ran as
    kept: str = ""  # with Options.keep: the command that reruns the kept case by hand

    def count(self, verdict: Verdict) -> int:
        """How many cases got ``verdict``."""
        return sum(1 for outcome in self.outcomes if outcome.verdict == verdict)

    def _cases(self, part: str) -> Part:
        scored = [o for o in self.outcomes if o.scored and o.verdict != "SKIP" and o.part == part]
        return Part(part, sum(o.verdict == "PASS" for o in scored), len(scored))

    @property
    def generation(self) -> Part:
        """The good configs: a valid maze is due."""
        return self._cases(GENERATION)

    @property
    def error_handling(self) -> Part:
        """The broken configs; counted only once some generation case passed (or none ran)."""
        part = self._cases(ERRORS)
        generation = self.generation
        return replace(part, counted=generation.passed > 0 or generation.total == 0)

    @property
    def file_part(self) -> Part:
        """The required files (and lint): scored with --strict only."""
        return Part("files", sum(c.ok for c in self.files), len(self.files), self.strict)

    @property
    def parts(self) -> tuple[Part, ...]:
        """The parts of the score that hold items: generation, error handling, files."""
        every = (self.generation, self.error_handling, self.file_part)
        return tuple(part for part in every if part.total and (part.name != "files" or self.strict))

    @property
    def total(self) -> int:
        """What is scored: the scored cases, and with --strict the required files (and lint)."""
        return sum(part.total for part in self.parts)

    @property
    def passed(self) -> int:
        """The scored items passed, error handling's too when not counted."""
        return sum(part.passed for part in self.parts)

    @property
    def score(self) -> int:
        """The weighted mean of the parts' percentages (WEIGHTS), rounded down; 0 when no
        generation case passed, whatever else did (specs/grade.md, Scoring)."""
        generation = self.generation
        if self.error is not None or (generation.total and not generation.passed):
            return 0
        parts = self.parts
        weight = sum(WEIGHTS[part.name] for part in parts)
        if not weight:
            return 0
        earned = sum(
            Fraction(100 * WEIGHTS[part.name] * part.passed, part.total)
            for part in parts
            if part.counted
        )
        return int(earned / weight)

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

    def __init__(self, box: Sandbox, python: str, options: Options) -> None:
        self.box = box
        self.python = python
        self.options = options
        self.runs: list[Run] = []  # this case's runs, in order
        self.argv: list[str] = []  # the last run's command line, for a rerun by hand
        self.drawn: glyph.Found | None = None  # the "42" of this case's output
        self.before: dict[str, tuple[int, int]] = {}  # the root's files before the run

    def run(self, config_name: str) -> Run:
        self.argv = [self.python, self.options.entry, config_name]
        self.runs.append(self.box.run(self.argv))
        return self.runs[-1]

    def outcome(self, case: Case, verdict: Verdict, reason: str = "") -> Outcome:
        """The outcome of ``case``: the first run's time; the last run's tails unless PASS."""
        runs = self.runs
        seconds = runs[0].seconds if runs else 0.0
        shown = runs[-1] if runs and verdict in ("FAIL", "CRASH", "TIMEOUT") else None
        return Outcome(
            case.name,
            verdict,
            reason,
            seconds,
            self.tail(shown.stdout) if shown else "",
            self.tail(shown.stderr) if shown else "",
            case.part,
            case.scored and verdict != "SKIP",  # a skipped case is no item of the score
        )

    def tail(self, text: str) -> str:
        """The tail of a run's output, the copy's paths shown relative to the submission
        (``File "a_maze_ing.py"``, not a temporary folder's random name)."""
        return tail(text.replace(f"{self.box.work}{os.sep}", ""))

    def problem(self, run: Run) -> tuple[Verdict, str] | None:
        limits = self.options.limits
        return run_problem(run, limits, limits.timeout)

    def output(self, name: str) -> bytes | None:
        """The file the program wrote, or None: none, not a regular file, a symbolic link, or
        in a folder reached through a link out of the copy (either could point anywhere the
        grader may read)."""
        path = self.box.work / name
        if not self.box.inside(name) or path.is_symlink() or not path.is_file():
            return None
        return path.read_bytes()

    def root_files(self) -> dict[str, tuple[int, int]]:
        """The regular files at the copy's root (links left out): name -> (size, mtime)."""
        found = {}
        try:
            with os.scandir(self.box.work) as listing:
                for entry in listing:
                    if entry.is_file(follow_symlinks=False):
                        status = entry.stat(follow_symlinks=False)
                        found[entry.name] = (status.st_size, status.st_mtime_ns)
        except OSError:  # the run removed its copy, or left it unreadable: nothing to list
            pass
        return found

    def wrote_a_maze(self) -> str | None:
        """Why a run on a broken config fails although it printed a message: it wrote a maze
        file at the copy's root all the same (a program that ignores its argument)."""
        for name, status in sorted(self.root_files().items()):
            if self.before.get(name) == status or status[0] > _MAZE_BYTES:
                continue
            data = self.output(name)
            walls = None if data is None else scan(data).walls
            if walls is not None and walls.size:
                return f"wrote a maze to {printable(name)} all the same"
        return None

    def case(self, case: Case, on_42: glyph.Found | None = None) -> Outcome:
        """Run ``case`` and judge it; entry-on-42 puts the entry on ``on_42``'s first cell."""
        if case.on_42:
            if on_42 is None:
                return self.outcome(case, "SKIP", _NO_42)
            case = replace(case, config=replace(case.config, entry=on_42.cells[0]))
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
        self.before = self.root_files()
        first = self.run(config_name)
        problem = self.problem(first)
        if problem is not None:
            return self.outcome(case, *problem)
        reason = self.judge(case, first, output, config_name)
        if reason is not None:
            return self.outcome(case, "FAIL", reason)
        return self.outcome(case, "PASS", glyph_note(self.drawn) if case.part == GENERATION else "")

    def judge(self, case: Case, run: Run, output: str, config_name: str) -> str | None:
        """The FAIL reason of a run that ended by itself, or None for a PASS."""
        said = bool((run.stdout + run.stderr).strip())
        if case.kind == "broken":
            if not said:
                return "printed no error message"
            after = self.output(OUTPUT)
            if after is None:
                return f"removed the previous output file {OUTPUT}"
            if after != PREVIOUS_OUTPUT:
                return f"changed the previous output file {OUTPUT}"
            return self.wrote_a_maze()
        pattern = self.options.pattern
        if case.kind == "output":
            valid = output_problem(self.output(output), case.config, output, pattern) is None
            return None if said or valid else "printed no error message"
        data = self.output(output)
        self.drawn = drawn_42(data)
        reason = output_problem(data, case.config, output, pattern)
        if reason is not None:
            return reason
        if case.kind == "small" and not says_too_small(run, (str(self.box.root), config_name)):
            return 'said nothing about the maze being too small for the "42"'
        if case.kind == "twice":
            self.box.remove(output)
            second = self.run(config_name)
            problem = self.problem(second)
            if problem is not None:
                return f"second run: {problem[1]}"
            if self.output(output) != data:
                return f"two runs with SEED={case.config.seed} wrote different files"
        return None

    def own(self, case: Case) -> Outcome:
        """The submission's own config, run as shipped, with its own OUTPUT_FILE.

        An optional key that mazekit's reader refuses (``SEED=`` blank, ``SEED=abc``) does
        not stop the run: the output is judged on the mandatory keys, with a note.
        """
        path = find_config(self.box.work)
        if path is None:
            return self.outcome(case, "FAIL", "no default config file at the root")
        note = ""
        try:
            text = path.read_bytes().decode("utf-8-sig")
            config: Config = parse_config(own_config_text(text), path.name)
        except UnicodeDecodeError:
            return self.outcome(case, "FAIL", f"{path.name}: cannot read: not UTF-8 text")
        except ConfigError as error:
            try:
                config = parse_config(own_config_text(text, MANDATORY_KEYS), path.name)
            except ConfigError as mandatory:
                return self.outcome(case, "FAIL", str(mandatory))
            note = f"{error}: an optional key, judged on the mandatory ones"
        output = config.output_file
        if os.path.isabs(output) or ".." in Path(output).parts or not self.box.inside(output):
            return self.outcome(case, "FAIL", f"{path.name}: OUTPUT_FILE leaves the submission")
        aside = self.box.set_aside(output)  # a shipped output is no output of this run
        try:
            run = self.run(path.name)
            problem = self.problem(run)
            if problem is not None:
                return self.outcome(case, *problem)
            data = self.output(output)
            reason = output_problem(data, config, output, self.options.pattern)
        finally:
            self.box.put_back(output, aside)  # the other cases run on the copy as shipped
        if reason is not None:
            return self.outcome(case, "FAIL", reason)
        notes = [note, glyph_note(drawn_42(data))]
        return self.outcome(case, "PASS", "; ".join(n for n in notes if n))

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


def _user_name(identity: tuple[int, int] | None) -> str:
    """The name of the user the programs run as (``identity``'s, else this process's)."""
    uid = os.geteuid() if identity is None else identity[0]
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _version(box: Sandbox) -> str:
    """The version of the box's interpreter, as the programs' user starts it ("" if none)."""
    run = box.run([box.python, "-c", "import sys; print(sys.version.split()[0])"])
    lines = run.stdout.split()
    return printable(lines[0]) if run.returncode == 0 and lines else ""


def _keep(box: Sandbox, target: str) -> None:
    """Copy the box's copy, as the case left it, to ``target`` (a new folder), with the
    sandbox's own copier (links stay links, no parent folder made)."""
    try:
        _copy_tree(os.fspath(box.work), target)
    except _CopyFailed as failed:  # one file of the copy (a named pipe the program made)
        where = os.path.relpath(failed.source, box.work)
        why = failed.why.replace(f"{box.work}{os.sep}", "")  # the copy's folder is no more
        raise GradeError(f"cannot keep the copy: {where}: {why}", target) from None
    except OSError as error:
        raise GradeError(f"cannot keep the copy: {error.strerror or error}", target) from None


def grade(submission: str | os.PathLike[str], options: Options = Options(), jobs: int = 1) -> Grade:
    """Grade one submission folder, ``jobs`` cases at a time (each in its own copy).

    entry-on-42 runs last: its entry is a cell of the "42" that an earlier good config's
    output draws. GradeError when it cannot be graded at all: no folder, no entry script, no
    interpreter; ValueError for ``keep`` with other than one case.
    """
    name = os.fspath(submission)
    root = Path(submission)
    if not name or not root.is_dir():  # Path("") is the current folder: "" names none
        reason = "not a folder" if name and root.exists() else "no such folder"
        raise GradeError(reason, name)
    inside = not os.path.isabs(options.entry) and ".." not in Path(options.entry).parts
    if not inside or not (root / options.entry).is_file():
        raise GradeError(f"no entry script {options.entry}", name)
    chosen = [case for case in CASES if case.name in set(options.cases)]
    if options.keep is not None and len(chosen) != 1:
        raise ValueError("keep needs exactly one case")
    python = resolve_python(options.python)
    first = Sandbox(root, python, options.limits)
    boxes = [first]
    kept = ""
    try:
        first.start()  # decides the user the program runs as, for every copy
        python = first.python
        version = _version(first)
        for _ in range(min(jobs, len(chosen)) - 1):
            boxes.append(Sandbox(root, python, options.limits, first.identity))
        files = required_files(first.work)
        free: queue.SimpleQueue[Sandbox] = queue.SimpleQueue()
        for box in boxes:
            free.put(box)
        drawn: dict[str, glyph.Found | None] = {}

        def run_case(case: Case, on_42: glyph.Found | None = None) -> Outcome:
            nonlocal kept
            box = free.get()
            try:
                grader = _Grader(box, python, options)
                outcome = grader.case(case, on_42)
                drawn[case.name] = grader.drawn
                if options.keep is not None and case in chosen:
                    _keep(box, options.keep)
                    kept = f"cd {shlex.quote(options.keep)} && {shlex.join(grader.argv)}"
                return outcome
            finally:
                free.put(box)

        later = [case for case in chosen if case.on_42]
        now = [case for case in chosen if not case.on_42]
        # entry-on-42 alone: the first good config of its size runs first, unreported
        probe = [_SAME_SIZE[0]] if later and not set(_SAME_SIZE) & set(now) else []
        outcomes = _parallel(run_case, now + probe, len(boxes))[: len(now)]
        found = next((drawn[c.name] for c in _SAME_SIZE if drawn.get(c.name)), None)
        outcomes += [run_case(case, found) for case in later]
        outcomes.sort(key=lambda outcome: CASE_NAMES.index(outcome.case))
        if options.lint:
            files.append(_Grader(first, python, options).lint())
    finally:
        for box in boxes:
            box.close()
    return Grade(
        name,
        tuple(outcomes),
        tuple(files),
        options.strict,
        warnings=tuple(first.warnings),
        python=python,
        python_version=version,
        user=_user_name(first.identity),
        kept=kept,
    )


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
        if error.source == "--python":
            raise
        return Grade(os.fspath(path), strict=options.strict, error=error.message)


def grade_all(
    folder: str | os.PathLike[str], options: Options = Options(), jobs: int = 1
) -> list[Grade]:
    """Grade every sub-folder, ``jobs`` at a time; best score first, then the better
    generation, then by name.

    A sub-folder that cannot be graded (no entry script) gets its error and score 0; a
    missing interpreter stops everything (GradeError).
    """
    paths = submissions(folder)
    resolve_python(options.python)
    grades = _parallel(lambda path: _grade_or_error(path, options), paths, jobs)
    return sorted(grades, key=lambda g: (-g.score, -g.generation.percent, g.submission))
