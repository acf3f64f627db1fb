"""Grade a submission: copy it, run its program on every case, judge each run, list its files.

``grade`` returns a Grade (never prints); ``grade_all`` grades every sub-folder of a folder,
in parallel threads, each submission in its own sandbox. specs/grade.md is the contract.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import shutil
import signal
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
    last_exception,
    output_problem,
    run_problem,
    says_too_small,
    tail,
)
from .files import FileCheck, entry_problem, find_config, required_files
from .install import install, last_line, setup, use_environment
from .sandbox import Interaction, Limits, Run, Sandbox, cpu_seconds, stop_all
from .tree import CopyFailed, copy_tree

__all__ = [
    "DEFAULT_ENTRY",
    "LINT_SECONDS",
    "WEIGHTS",
    "Grade",
    "Options",
    "Part",
    "grade",
    "grade_all",
    "ranked",
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

# The notes a submission gets, once, when a run is judged by the file it wrote although it
# did not end by itself (specs/grade.md, Programs that do not exit).
NOT_EXITING = "does not exit by itself"
AT_END_OF_INPUT = "stops with a traceback at end of input (EOFError)"
NO_WINDOW = "cannot open its window without a display (--display xvfb)"
NO_TERMINAL = "cannot open its terminal without one (--tty)"
_WRITES = ("own", "valid", "small", "twice")  # the cases whose verdict is the file written
_TERMINAL = re.compile(r"_curses\.error|setupterm|termios\.error|not a (terminal|tty)", re.I)
_WINDOW = re.compile(r"display|\bX11\b|\bmlx", re.IGNORECASE)
_MISSING = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")
# What grade itself writes and removes at the copy's root for each case (the previous output
# of a broken config): not a change of the copy that would make it anew.
_GRADER_NAMES = frozenset({OUTPUT})


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
    install: bool = False  # a virtual environment of the submission's dependencies
    setup: str | None = None  # a shell command run in each copy first (`make install`)
    interaction: Interaction = field(default_factory=Interaction)


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
class Environment:
    """The virtual environment's python the programs ran with, and the option that made it:
    ``./.venv/bin/python`` in the copy (``--setup``; the copy is gone when grade ends), or
    the cache's (``--install``)."""

    python: str
    made_by: str


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
    python: str = ""  # the interpreter the run started from, and its version
    python_version: str = ""
    user: str = ""  # the user they ran as
    environment: Environment | None = None  # --install's or --setup's, when the programs ran in one
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

    def __init__(self, box: Sandbox, options: Options, notes: set[str] | None = None) -> None:
        self.box = box
        self.options = options
        self.notes = set() if notes is None else notes  # the submission's, shared by cases
        self.runs: list[Run] = []  # this case's runs, in order
        self.argv: list[str] = []  # the last run's command line, for a rerun by hand
        self.drawn: glyph.Found | None = None  # the "42" of this case's output
        self.before: dict[str, tuple[int, int]] = {}  # the root's files before the run

    def run(self, config_name: str) -> Run:
        self.argv = [self.box.python, self.options.entry, config_name]
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
            self.box.shown(reason),
            seconds,
            self.tail(shown.stdout) if shown else "",
            self.tail(shown.stderr) if shown else "",
            case.part,
            case.scored and verdict != "SKIP",  # a skipped case is no item of the score
        )

    def tail(self, text: str) -> str:
        """The tail of a run's output, grade's folders left out of its paths (``shown``)."""
        return tail(self.box.shown(text))

    def problem(self, run: Run) -> tuple[Verdict, str] | None:
        limits = self.options.limits
        return run_problem(run, limits, limits.timeout)

    def after(self, run: Run) -> tuple[str, str] | None:
        """(the case's note, the submission's note) when a run that did not end well may be
        judged by its file: it kept waiting at the end of its input, or could not open its
        window or its terminal, after writing it. None for any other crash or hang."""
        wall = self.options.limits.timeout
        if run.timed_out:
            return f"then kept running: stopped after {wall:g} s", NOT_EXITING
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

    def passed(self, case: Case, after: tuple[str, str] | None, *said: str) -> Outcome:
        """A PASS, its notes (``said``, then how a run that did not end by itself ended);
        that run's note for the whole submission is kept once, in ``notes``."""
        if after is not None:
            self.notes.add(after[1])
            said = (*said, after[0])
        return self.outcome(case, "PASS", "; ".join(note for note in said if note))

    def failed(self, case: Case, reason: str, after: tuple[str, str] | None) -> Outcome:
        """A FAIL for ``reason``; after a run that did not end by itself but wrote its file,
        how it ended follows (as a PASS's note), and the submission's note is kept once."""
        if after is not None:
            self.notes.add(after[1])
            reason = f"{reason}; {after[0]}"
        return self.outcome(case, "FAIL", reason)

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
        self.box.fresh(_GRADER_NAMES)  # no case sees what an earlier one left
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
        problem, after = self.finished(case, first)
        if problem is not None and after is None:
            return self.outcome(case, *problem)
        reason = self.judge(case, first, output, config_name)
        if reason is None:
            glyph_said = glyph_note(self.drawn) if case.part == GENERATION else ""
            return self.passed(case, after, glyph_said)
        if problem is not None and self.output(output) is None:
            return self.outcome(case, *problem)  # no file at all: the hang or crash stands
        return self.failed(case, reason, after)  # a wrong file says why, hang or crash after

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
        chosen = (str(self.box.private), str(self.box.root), config_name)  # names grade made
        if case.kind == "small" and not says_too_small(run, chosen):
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
            problem, after = self.finished(case, run)
            if problem is not None and after is None:
                return self.outcome(case, *problem)
            data = self.output(output)
            reason = output_problem(data, config, output, self.options.pattern)
        finally:
            self.box.put_back(output, aside)  # the other cases run on the copy as shipped
        if reason is None:
            return self.passed(case, after, note, glyph_note(drawn_42(data)))
        if problem is not None and data is None:
            return self.outcome(case, *problem)
        return self.failed(case, reason, after)

    def lint(self) -> FileCheck:
        """`make lint` in the copy, with the same limits and a longer time."""
        wall = max(LINT_SECONDS, self.options.limits.timeout)
        self.box.fresh(_GRADER_NAMES)  # the submission as shipped, not what the cases left
        run = self.box.run(["make", "lint"], timeout=wall)
        if run.timed_out:
            return FileCheck("make lint", False, f"no exit after {wall:g} s")
        if run.returncode == 0:
            return FileCheck("make lint", True, "exit 0")
        return FileCheck("make lint", False, f"exit {run.returncode}: {last_line(self.box, run)}")


def _keep(box: Sandbox, target: str) -> None:
    """Copy the box's copy, as the case left it, to ``target`` (a new folder), with the
    sandbox's own copier (links stay links, any depth, no parent folder made)."""
    try:
        copy_tree(os.fspath(box.work), target)
    except CopyFailed as failed:  # one file of the copy (a named pipe the program made)
        where = os.path.relpath(failed.source, box.work)
        why = failed.why.replace(f"{box.work}{os.sep}", "")  # the copy's folder is no more
        raise GradeError(f"cannot keep the copy: {where}: {why}", target) from None
    except OSError as error:
        raise GradeError(f"cannot keep the copy: {error.strerror or error}", target) from None


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


def _programs_python(box: Sandbox) -> str:
    """The python the programs of ``box`` run with, as a TA can use it after grade: one in the
    copy (--setup's venv) as ``./<path>``, the same in a --keep copy; another as it is."""
    work = os.fspath(box.work)
    inside = box.python.startswith(work + os.sep)
    return f"./{os.path.relpath(box.python, work)}" if inside else box.python


def _graded(
    box: Sandbox,
    base: str,
    name: str,
    outcomes: tuple[Outcome, ...],
    files: list[FileCheck],
    options: Options,
    error: str | None,
    notes: Iterable[str] = (),
    kept: str = "",
) -> Grade:
    """The Grade, with what the first copy learnt: warnings, the interpreter ``base`` it
    started from and the environment it ran in (if another), user."""
    shown = _programs_python(box)
    made_by = "--setup" if shown.startswith("./") else "--install"
    environment = None if box.python == base else Environment(shown, made_by)
    return Grade(
        name,
        outcomes,
        tuple(files),
        options.strict,
        error,
        tuple(box.warnings),
        tuple(sorted(notes)),
        base,
        box.python_version,
        box.user,
        environment,
        kept,
    )


def grade(submission: str | os.PathLike[str], options: Options = Options(), jobs: int = 1) -> Grade:
    """Grade one submission folder, ``jobs`` cases at a time (each in its own copy).

    entry-on-42 runs last: its entry is a cell of the "42" that an earlier good config's
    output draws. GradeError when it cannot be graded at all: no folder, no entry script (or
    an empty one), no interpreter; ValueError for ``keep`` with other than one case. What only
    the submission is to blame for (its dependencies do not install, a module is missing) is
    the Grade's ``error``.
    """
    name = os.fspath(submission)
    root = Path(submission)
    if not name or not root.is_dir():  # Path("") is the current folder: "" names none
        reason = "not a folder" if name and root.exists() else "no such folder"
        raise GradeError(reason, name)
    problem = entry_problem(root, options.entry)
    if problem is not None:
        raise GradeError(problem, name)
    chosen = [case for case in CASES if case.name in set(options.cases)]
    if options.keep is not None and len(chosen) != 1:
        raise ValueError("keep needs exactly one case")
    python = resolve_python(options.python)
    first = Sandbox(root, python, options.limits, interaction=options.interaction)
    boxes = [first]
    kept = ""
    notes: set[str] = set()
    try:
        first.start()  # decides the user and the interpreter, for every copy
        for _ in range(min(jobs, len(chosen)) - 1):
            box = Sandbox(root, first.python, options.limits, first.identity, options.interaction)
            box.search = first.search
            boxes.append(box)
        files = required_files(first.work)
        base = first.python
        try:
            _prepare(boxes, options)
        except GradeError as failed:  # the submission's dependencies: its own problem
            return _graded(first, base, name, (), files, options, failed.message)
        free: queue.SimpleQueue[Sandbox] = queue.SimpleQueue()
        for box in boxes:
            free.put(box)
        drawn: dict[str, glyph.Found | None] = {}

        def run_case(case: Case, on_42: glyph.Found | None = None) -> Outcome:
            nonlocal kept
            box = free.get()
            try:
                grader = _Grader(box, options, notes)
                outcome = grader.case(case, on_42)
                drawn[case.name] = grader.drawn
                if options.keep is not None and case in chosen:
                    _keep(box, options.keep)
                    argv = [_programs_python(box), *grader.argv[1:]]
                    kept = f"cd {shlex.quote(options.keep)} && {shlex.join(argv)}"
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
            files.append(_Grader(first, options).lint())
    finally:
        for box in boxes:
            box.close()
    missing = _missing_module(outcomes)
    if missing is not None and not options.install and options.setup is None:
        hint = f"No module named '{missing}': the submission needs its dependencies (--install)"
        return _graded(first, base, name, (), files, options, hint, kept=kept)
    return _graded(first, base, name, tuple(outcomes), files, options, None, notes, kept)


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
    """Grade every sub-folder, ``jobs`` at a time; best score first, then the better
    generation, then by name.

    A sub-folder that cannot be graded (no entry script) gets its error and score 0; a
    missing interpreter stops everything (GradeError).
    """
    paths = submissions(folder)
    resolve_python(options.python)
    return ranked(_parallel(lambda path: _grade_or_error(path, options), paths, jobs))


def ranked(grades: Iterable[Grade]) -> list[Grade]:
    """The order of ``--all``: best score first, then the better generation, then by name."""
    return sorted(grades, key=lambda g: (-g.score, -g.generation.percent, g.submission))
