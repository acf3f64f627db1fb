"""A submission's dependencies: its own virtual environment (--install), or its --setup.

The environment is built from what the submission ships (requirements*.txt, a project in
pyproject.toml or setup.py, wheels), by the runner in the submission's copy with the network
allowed for that step only, then kept in a cache under a hash of those files, read-only
for the programs: the next submission with the same files, and the next grading, reuse it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import shlex
import threading
from dataclasses import dataclass
from pathlib import Path

from ..errors import GradeError, printable
from .sandbox import Run, Sandbox
from .tree import copy_tree, remove_tree, search, walk

__all__ = [
    "INSTALL_SECONDS",
    "Dependencies",
    "cache_folder",
    "dependencies",
    "grader_pip",
    "install",
    "last_line",
    "setup",
    "use_environment",
]

# --install and --setup get this long, or --timeout when that is longer.
INSTALL_SECONDS = 600.0
_COMPLETE = ".mazekit-complete"
_WHEEL_DEPTH = 3  # wheels are looked for this many folders down, at most
_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


@dataclass(frozen=True)
class Dependencies:
    """What a submission ships to install, as paths relative to it."""

    requirements: tuple[str, ...] = ()
    project: bool = False  # a pyproject.toml or setup.py at the root: install the project
    wheels: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.requirements or self.project or self.wheels)


def dependencies(root: Path) -> Dependencies:
    """The dependency files of the submission at ``root``."""
    names = sorted(p.name for p in root.iterdir() if p.is_file())
    requirements = tuple(n for n in names if n.startswith("requirements") and n.endswith(".txt"))
    project = "pyproject.toml" in names or "setup.py" in names
    wheels = []
    for where, files in search(root, _WHEEL_DEPTH):
        wheels += [os.path.normpath(os.path.join(where, f)) for f in files if f.endswith(".whl")]
    return Dependencies(requirements, project, tuple(sorted(wheels)))


def _key(root: Path, found: Dependencies, python: str, version: str) -> str:
    """The cache key: the interpreter, and the bytes of every file the install reads (with a
    project to install, every file of the submission but its .git)."""
    digest = hashlib.sha256(f"{python}\0{version}\0".encode())
    names = [*found.requirements, *found.wheels]
    if found.project:
        top = os.fspath(root)
        names = []
        for base, folders, files in walk(top):
            folders[:] = sorted(f for f in folders if f != ".git")
            names += [os.path.relpath(os.path.join(base, f), top) for f in sorted(files)]
    for name in names:
        path = root / name
        if path.is_file() and not path.is_symlink():
            digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def cache_folder() -> Path:
    """Where the environments are kept: $XDG_CACHE_HOME/mazekit/grade-venvs, else
    ~/.cache/... for a user, and /var/cache/... for root (whose home the user nobody, who
    runs the programs, cannot enter)."""
    configured = os.environ.get("XDG_CACHE_HOME")
    if configured:
        base = Path(configured)
    elif os.geteuid() == 0:
        base = Path("/var/cache")
    else:
        base = Path.home() / ".cache"
    return base / "mazekit" / "grade-venvs"


def last_line(box: Sandbox, run: Run) -> str:
    """The last line a step in ``box`` printed (``no output``), grade's folders left out of
    its paths as in a case's tails: the copy is gone when the report is read."""
    lines = box.shown(run.stdout + run.stderr).strip().splitlines()
    return printable(lines[-1]) if lines else "no output"


def _failed(what: str, box: Sandbox, run: Run, wall: float) -> str:
    if run.timed_out:
        return f"{what}: no exit after {wall:g} s"
    return f"{what}: exit {run.returncode}: {last_line(box, run)}"


def grader_pip() -> str | None:
    """The grader's own pip as a script that any interpreter runs (``__pip-runner__.py``,
    what ``pip --python`` runs, pip >= 22.3), or None: a virtual environment made without
    pip (``venv --without-pip``, a fifth of a second against ensurepip's many seconds) is
    then installed into by this pip, run by the environment's own python."""
    try:
        spec = importlib.util.find_spec("pip")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    runner = os.path.join(os.path.dirname(spec.origin), "__pip-runner__.py")
    return runner if os.path.isfile(runner) else None


def _build(box: Sandbox, found: Dependencies, base: str, target: Path) -> None:
    """Build the environment in the runner's copy, then move it to ``target``, the
    grader's, where the programs can only read it."""
    wall = max(INSTALL_SECONDS, box.limits.timeout)
    building = box.private / "venv"
    remove_tree(building)
    pip = grader_pip()
    venv = [base, "-m", "venv", *(["--without-pip"] if pip else []), os.fspath(building)]
    made = box.run(venv, timeout=wall, network=True)
    if made.returncode != 0 or made.timed_out:
        raise GradeError(_failed("cannot make a virtual environment", box, made, wall), "--install")
    python = os.fspath(building / "bin" / "python")
    if pip:  # the namespaces show it, read-only, wherever it lies
        box.readable.append(os.path.dirname(os.path.dirname(pip)))
    command = [python, pip, "install"] if pip else [python, "-m", "pip", "install"]
    command += ["--disable-pip-version-check", "--no-input"]
    for folder in sorted({os.path.dirname(wheel) or "." for wheel in found.wheels}):
        command += ["--find-links", folder]
    for name in found.requirements:
        command += ["-r", name]
    command += [f"./{wheel}" for wheel in found.wheels]
    if found.project:
        command.append(".")
    done = box.run(command, timeout=wall, network=True)
    if done.returncode != 0 or done.timed_out:
        raise GradeError(_failed("cannot install its dependencies", box, done, wall), "--install")
    partial = target.with_name(target.name + ".partial")
    remove_tree(partial)
    try:
        os.rename(building, partial)
    except OSError:  # another file system
        copy_tree(os.fspath(building), os.fspath(partial))
        remove_tree(building)
    for folder, folders, files in walk(partial):  # the grader's now: no program changes it
        for name in [*folders, *files]:
            path = os.path.join(folder, name)
            os.chown(path, os.geteuid(), os.getegid(), follow_symlinks=False)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode & 0o755 | 0o444)
    os.chown(partial, os.geteuid(), os.getegid())
    os.chmod(partial, 0o755)
    (partial / _COMPLETE).write_text(" ".join(shlex.quote(c) for c in command) + "\n")
    remove_tree(target)
    os.rename(partial, target)


def install(box: Sandbox, base: str) -> Path | None:
    """The virtual environment of the submission copied in ``box``, built with the
    interpreter ``base`` unless the cache holds it; None when it ships nothing to install.

    GradeError (source ``--install``) when the install fails: the submission's problem.
    """
    found = dependencies(box.work)
    if not found:
        return None
    cache = cache_folder()
    key = _key(box.work, found, base, box.python_version)
    target = cache / key
    with _LOCKS_LOCK:
        lock = _LOCKS.setdefault(key, threading.Lock())
    with lock:
        cache.mkdir(parents=True, exist_ok=True)
        with open(cache / f"{key}.lock", "wb") as held:
            fcntl.flock(held, fcntl.LOCK_EX)  # another grade building the same one
            try:
                if not (target / _COMPLETE).is_file():
                    _build(box, found, base, target)
            finally:
                fcntl.flock(held, fcntl.LOCK_UN)
    return target


def use_environment(box: Sandbox, venv: Path) -> None:
    """Run the programs of ``box`` with the environment's python, as if activated."""
    box.python = os.fspath(venv / "bin" / "python")
    box.path = [os.fspath(venv / "bin")]
    box.env = {"VIRTUAL_ENV": os.fspath(venv)}
    box.readable = [os.fspath(venv)]


def setup(box: Sandbox, command: str) -> None:
    """Run ``command`` (``make install``) in the copy, with the network, then use the
    virtual environment it made in the copy, if any. GradeError (source ``--setup``) when
    it fails."""
    wall = max(INSTALL_SECONDS, box.limits.timeout)
    done = box.run(["/bin/sh", "-c", command], timeout=wall, network=True)
    if done.returncode != 0 or done.timed_out:
        raise GradeError(_failed(f"'{printable(command)}' failed", box, done, wall), "--setup")
    with contextlib.suppress(OSError):
        for folder in sorted(box.work.iterdir()):
            python = folder / "bin" / "python"
            if (folder / "pyvenv.cfg").is_file() and python.exists():
                box.python = os.fspath(python)
                box.path = [os.fspath(folder / "bin")]
                box.env = {"VIRTUAL_ENV": os.fspath(folder)}
                return
