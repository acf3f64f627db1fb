"""Validating many files in one run: which files a run means, and checking them, in parallel.

A run is a list of Jobs (a file, or a submission: a directory whose own config names its
maze). ``check`` turns one Job into a Report and never raises for anything a file or a
submission can hold; ``check_all`` checks Jobs in order, in worker processes when asked, and
yields the Reports in the order of the Jobs, so the output never depends on the workers.
The workers are plain top-level functions of picklable arguments: safe under ``spawn``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .board import MAX_DEAD_ENDS, MIN_LOOPS
from .config import Config, load_config
from .errors import MazeError, printable
from .rules import PatternMode, Report, validate
from .textformat import read_bytes, source_name

__all__ = [
    "DEFAULT_CONFIG_NAME",
    "DEFAULT_GLOB",
    "Job",
    "Options",
    "check",
    "check_all",
    "expand",
    "submissions",
]

DEFAULT_GLOB = "*.txt"
DEFAULT_CONFIG_NAME = "config.txt"
STDIN = "-"


@dataclass(frozen=True)
class Options:
    """The rule options of a run, the same for every file (a submission adds its config)."""

    pattern: PatternMode = "strict"
    perfect: bool = False
    skip: tuple[str, ...] = ()
    select: tuple[str, ...] | None = None
    pacman: bool = False
    min_loops: int = MIN_LOOPS
    max_dead_ends: int | None = None  # None: the config's MAX_DEAD_ENDS, else 2
    strict_format: bool = False
    limit: int | None = 20


@dataclass(frozen=True)
class Job:
    """One thing to check: a maze file (``path``) under one config, or a submission directory
    whose config (``submission``/config name) names the maze to check."""

    path: str
    config: Config | None = None
    submission: str | None = None
    config_name: str = DEFAULT_CONFIG_NAME
    missing: str | None = None  # why the argument matched no file: a problem of the run
    unreadable: str | None = None  # why a path found under a DIR cannot be read: the input's


def expand(
    arguments: Sequence[str],
    *,
    config: Config | None = None,
    glob: str = DEFAULT_GLOB,
    config_name: str = DEFAULT_CONFIG_NAME,
) -> list[Job]:
    """The Jobs of FILE arguments: a file as given, every ``glob`` file under a directory
    (sorted, config files left out), and a path that names nothing as a ``missing`` Job."""
    jobs: list[Job] = []
    for argument in arguments:
        if argument == STDIN:
            jobs.append(Job(STDIN, config))
        elif os.path.isdir(argument):  # not pathlib: 2 ms of every start-up
            found = _under(argument, glob, config_name)
            if not found:
                jobs.append(Job(argument, missing=f"no file matches '{glob}' under it"))
            jobs.extend(Job(path, config, unreadable=why) for path, why in found)
        elif not _may_exist(argument):
            jobs.append(Job(argument, missing="cannot read: No such file or directory"))
        else:
            jobs.append(Job(argument, config))
    return jobs


def _may_exist(path: str) -> bool:
    """Whether ``path`` may name something: a name the OS refuses to look up for want of
    permission (a file in a folder the grader may not enter) is not "No such file", so it is
    read, and the read says what is wrong."""
    try:
        os.lstat(path)
    except PermissionError:
        return True
    except (OSError, ValueError):  # none there, or a name too long for the OS
        return False
    return True


def _not_regular(path: str) -> str | None:
    """Why ``path`` is no file to open unasked: a FIFO would block until someone writes to it,
    a device may never end. None for a regular file, a folder, or a name that cannot be
    looked up (the read says what is wrong)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "cannot read: not a regular file"


def _under(folder: str, glob: str, config_name: str) -> list[tuple[str, str | None]]:
    """The paths under ``folder`` that a run checks, sorted, each with why it cannot be read
    (else None): every ``glob`` file but the config files (a FIFO or device among them is
    reported, never opened), and every folder that cannot be listed (too deep for the OS's
    path limit included), reported rather than passed over in silence.

    One loop over a stack of folders, never a call per level: a folder 100 000 levels deep
    costs memory in proportion, not Python's recursion limit. Links to folders are not
    followed (as ``grep -r``); a link to a file is a file."""
    from fnmatch import fnmatchcase
    from pathlib import PurePath

    def matches(name: str, relative: str) -> bool:
        """``rglob``'s test: the name against a plain pattern, the path's tail otherwise."""
        if "/" not in glob:
            return fnmatchcase(name, glob)
        return PurePath(relative).match(glob)

    found: list[tuple[str, str | None]] = []
    stack = [(str(PurePath(folder)), "")]  # spelt as rglob spelt its paths: "dir/" is "dir"
    while stack:
        path, relative = stack.pop()
        try:
            with os.scandir(path) as entries:
                listed = [
                    (
                        entry.name,
                        entry.path,
                        entry.is_dir(follow_symlinks=False),
                        entry.is_symlink(),
                    )
                    for entry in entries
                ]
        except OSError as error:
            found.append((path, f"cannot read: {error.strerror or error}"))
            continue
        for name, full, is_dir, is_link in listed:
            inner = f"{relative}/{name}" if relative else name
            if is_dir:
                stack.append((full, inner))
            elif is_link and os.path.isdir(full):
                continue  # a link to a folder: not followed, and no file either
            elif name != config_name and matches(name, inner):
                found.append((full, _not_regular(full)))
    return sorted(found, key=lambda item: item[0])


def submissions(folder: str, config_name: str = DEFAULT_CONFIG_NAME) -> list[Job]:
    """One Job per sub-directory of ``folder`` holding ``config_name``, in sorted order."""
    from pathlib import Path

    if not folder:  # Path("") is the current folder; "" (an unset variable) names none
        return [Job(folder, missing="cannot read: No such file or directory")]
    try:
        entries = sorted(Path(folder).iterdir())
    except OSError as error:
        return [Job(folder, missing=f"cannot read: {error.strerror or error}")]
    jobs = [
        Job(str(entry), submission=str(entry), config_name=config_name)
        for entry in entries
        if entry.is_dir() and _holds_file(os.path.join(entry, config_name))
    ]
    return jobs or [Job(folder, missing=f"no sub-directory holds a {config_name}")]


def _holds_file(path: str) -> bool:
    """Whether ``path`` names anything (a file, but also a FIFO, a device, a folder or a
    link loop, each reported by ``check``), or may in a folder the grader may not enter: that
    submission is then reported, never passed over in silence."""
    try:
        os.lstat(path)
    except PermissionError:
        return True
    except (OSError, ValueError):
        return False
    return True


def check(job: Job, options: Options) -> Report:
    """Validate one Job; a file or submission that cannot be checked gives a Report with
    ``error`` set (``-`` reads stdin)."""
    config = job.config
    name = source_name(job.path)
    if job.missing is not None:
        return Report(source=printable(name), error=job.missing)
    if job.unreadable is not None:
        return Report(source=printable(name), error=printable(job.unreadable))
    if job.submission is not None:
        config_path = os.path.join(job.submission, job.config_name)
        try:
            why = _not_regular(config_path)  # a FIFO or device would block the run
            if why is not None:
                raise MazeError(why, config_path)
            config = load_config(config_path)
        except MazeError as error:
            return Report(source=printable(config_path), error=printable(error.message))
        if config.output_leaves(job.submission):
            message = f"OUTPUT_FILE '{config.output_file}' leaves the submission"
            return Report(source=printable(config_path), error=printable(message))
        name = os.path.join(job.submission, config.output_file)
    try:
        # a submission's OUTPUT_FILE is a name its author chose: a FIFO would wait for a
        # writer, and a link could point anywhere the grader may read, so neither is read
        why = None if job.submission is None else _not_regular(name)
        if job.submission is not None and os.path.islink(name):
            why = "a symbolic link, not read"
        if why is not None:
            raise MazeError(why, name)
        data = read_bytes(job.path if job.submission is None else name)
    except MazeError as error:
        message = error.message
        if job.submission is not None:
            message += f" (the OUTPUT_FILE of {os.path.join(job.submission, job.config_name)})"
        return Report(source=printable(name), error=printable(message))
    max_dead_ends = options.max_dead_ends
    if max_dead_ends is None:
        max_dead_ends = MAX_DEAD_ENDS
        if config is not None and config.max_dead_ends is not None:
            max_dead_ends = config.max_dead_ends
    return validate(
        data,
        pattern=options.pattern,
        perfect=options.perfect,
        config=config,
        skip=options.skip,
        select=options.select,
        limit=options.limit,
        source=printable(name),  # control bytes and non-UTF-8 names escaped
        pacman=options.pacman,
        min_loops=options.min_loops,
        max_dead_ends=max_dead_ends,
        strict_format=options.strict_format,
    )


def _check_chunk(chunk: tuple[Options, list[Job]]) -> list[Report]:
    """The worker: check a slice of Jobs (one pickle each way per slice, not per file)."""
    options, jobs = chunk
    return [check(job, options) for job in jobs]


def _start_worker(parent: int) -> None:
    """Worker start-up: the default SIGTERM, SIGINT and SIGHUP, and a watch on the parent.

    A forked worker inherits the entry's Python-level handler (mazekit.__main__), which runs
    only between bytecodes of the main thread: a worker blocked on the pool's queue lock
    never ran it, and a run hung at teardown. With the default action the kernel ends the
    worker at once. The watch ends this worker when the main process is gone (killed by a
    closed pipe or a signal it had no time to pass on), instead of waiting for work forever.
    """
    import signal
    import threading
    import time

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        if signal.getsignal(signum) != signal.SIG_IGN:
            signal.signal(signum, signal.SIG_DFL)

    def watch() -> None:
        """Poll the parent's pid; a new parent (init) means the old one is gone."""
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def check_all(
    jobs: Sequence[Job],
    options: Options,
    workers: int = 1,
    start_method: str | None = None,
) -> Iterator[Report]:
    """Check ``jobs`` and yield their Reports in the same order, as each is known.

    With ``workers`` > 1 the Jobs are cut into slices checked by a pool of processes; a run
    that reads stdin is checked here, in this process. ``start_method`` picks the way workers
    start (the platform's default when None; the workers work under ``spawn`` too).
    """
    if workers <= 1 or len(jobs) < 2 * workers or any(job.path == STDIN for job in jobs):
        for job in jobs:
            yield check(job, options)
        return
    import multiprocessing  # only a parallel run pays for it

    # Slices small enough to keep every worker busy to the end, big enough to pickle rarely.
    size = max(1, min(256, len(jobs) // (workers * 4)))
    chunks = [(options, list(jobs[i : i + size])) for i in range(0, len(jobs), size)]
    context = multiprocessing.get_context(start_method)
    pool = context.Pool(workers, initializer=_start_worker, initargs=(os.getpid(),))
    finished = False
    try:
        for reports in pool.imap(_check_chunk, chunks):
            yield from reports
        finished = True
    finally:
        # Every result is in: the workers are told there is no more work and left to end
        # on their own (close, join), never signalled in the middle of a queue operation.
        # Only a run stopped early (an error, a closed consumer) terminates them.
        if finished:
            pool.close()
        else:
            pool.terminate()
        pool.join()
