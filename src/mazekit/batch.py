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
    "worker_count",
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
            continue
        try:
            is_dir = os.path.isdir(argument)  # not pathlib: 2 ms of every start-up
            exists = is_dir or os.path.lexists(argument)
        except OSError:  # a name too long for the OS: it names nothing
            is_dir = exists = False
        if is_dir:
            from pathlib import Path  # only a directory argument pays for pathlib

            found = sorted(
                str(path)
                for path in Path(argument).rglob(glob)
                if path.name != config_name and _walked(path)
            )
            if not found:
                jobs.append(Job(argument, missing=f"no file matches '{glob}' under it"))
            jobs.extend(Job(path, config) for path in found)
        elif not exists:
            jobs.append(Job(argument, missing="cannot read: No such file or directory"))
        else:
            jobs.append(Job(argument, config))
    return jobs


def _walked(path: os.PathLike[str]) -> bool:
    """Whether a file met under a DIR is checked: a regular file, or a name that cannot be
    looked at (a dangling link, reported as unreadable). A directory, a FIFO, a socket or a
    device is left out, as ``grep -r`` leaves them: reading a FIFO nobody writes to would wait
    for good. Named as a FILE argument, any of them is read as given."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True


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
        if entry.is_dir() and (entry / config_name).is_file()
    ]
    return jobs or [Job(folder, missing=f"no sub-directory holds a {config_name}")]


def check(job: Job, options: Options) -> Report:
    """Validate one Job; a file or submission that cannot be checked gives a Report with
    ``error`` set (``-`` reads stdin)."""
    config = job.config
    name = source_name(job.path)
    if job.missing is not None:
        return Report(source=printable(name), error=job.missing)
    if job.submission is not None:
        config_path = os.path.join(job.submission, job.config_name)
        try:
            config = load_config(config_path)
        except MazeError as error:
            return Report(source=printable(config_path), error=printable(error.message))
        name = os.path.join(job.submission, config.output_file)
    try:
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


def _watch_parent(parent: int) -> None:
    """Worker start-up: end this worker when the main process is gone (killed by a closed pipe
    or a signal it had no time to pass on), instead of waiting for work forever."""
    import threading
    import time

    def watch() -> None:
        """Poll the parent's pid; a new parent (init) means the old one is gone."""
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def worker_count(jobs: int) -> int:
    """The number of processes ``-j N`` means: N, or every core this process may use for 0."""
    if jobs > 0:
        return jobs
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


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
    with context.Pool(workers, initializer=_watch_parent, initargs=(os.getpid(),)) as pool:
        for reports in pool.imap(_check_chunk, chunks):
            yield from reports
