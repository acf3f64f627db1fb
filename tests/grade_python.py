"""An interpreter for the programs grade runs in tests: one the user nobody can start, that
imports mazekit, as the grader's own (under /root, often) may not be."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

__all__ = ["runner_python"]

_CHECKOUT = Path(__file__).resolve().parent.parent
_SOURCE = _CHECKOUT / "src"
SYSTEM = "/usr/bin/python3"
# Where the runner goes when nobody cannot enter the checkout: a folder the namespaces show
# as it is (they hide /tmp), so that a wrapper in a test that execs the runner still finds it.
_SHARED = Path("/var/cache/mazekit-tests")
# What the graded programs of the tests import from the grader's environment: mazekit and
# what it needs to run.
_RUNTIME = ("click", "numpy", "pillow")


def _nobody_runs(python: str, probe: str = "import mazekit") -> bool:
    try:
        done = subprocess.run(
            [python, "-c", probe],
            user=65534,
            group=65534,
            extra_groups=[],
            capture_output=True,
            cwd="/",
            check=False,
        )
    except PermissionError:
        return False
    return done.returncode == 0


def _nobody_reads(folder: str) -> bool:
    """Whether nobody can list ``folder``: each folder above it lets nobody through."""
    return _nobody_runs(SYSTEM, f"import os; os.listdir({folder!r})")


def _stamp() -> str:
    """What the copied runner was made from: every file of mazekit's source by size and time,
    and the versions of what it needs."""
    digest = hashlib.sha256()
    for path in sorted((_SOURCE / "mazekit").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            info = path.stat()
            digest.update(
                f"{path.relative_to(_SOURCE)}:{info.st_size}:{info.st_mtime_ns}\n".encode()
            )
    for name in _RUNTIME:
        digest.update(f"{name}=={metadata.version(name)}\n".encode())
    return digest.hexdigest()


def _venv(runner: Path) -> Path:
    """A fresh virtual environment of the distribution's python3 at ``runner``; its
    site-packages folder."""
    subprocess.run([SYSTEM, "-m", "venv", "--without-pip", "--clear", str(runner)], check=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    return runner / "lib" / version / "site-packages"


def _linked(runner: Path) -> None:
    """The runner beside the checkout: it sees this checkout's packages through a .pth file."""
    packages = _venv(runner)
    site = sysconfig.get_paths()["purelib"]
    # the checkout's source folder too, as a path of its own: the editable install finds it
    # by a hook, not by sys.path, and grade shows the namespaces only what sys.path names
    (packages / "checkout.pth").write_text(f"import site; site.addsitedir({site!r})\n{_SOURCE}\n")


def _copied(runner: Path, stamp: str) -> None:
    """The runner in _SHARED, for a checkout nobody may enter (CI clones into a root-only
    folder): mazekit and what it needs, copied."""
    _SHARED.mkdir(mode=0o755, exist_ok=True)
    packages = _venv(runner)
    runner.chmod(0o755)
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(_SOURCE / "mazekit", packages / "mazekit", ignore=ignore)
    for name in _RUNTIME:
        distribution = metadata.distribution(name)
        for file in distribution.files or ():
            source = Path(str(distribution.locate_file(file)))
            if "__pycache__" in file.parts or not source.is_file():
                continue
            target = packages / file
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    # compiled once here: nobody cannot write the caches, and each graded program would
    # compile numpy and mazekit again
    compile_all = [str(runner / "bin" / "python"), "-m", "compileall", "-q", "-j", "0"]
    subprocess.run([*compile_all, "-x", "/tests/", str(packages)], check=True)
    (runner / "stamp").write_text(stamp)


def runner_python() -> str:
    """sys.executable, unless grading as root where nobody cannot run it: then a virtual
    environment of the distribution's python3 (the same minor version) that imports this
    checkout's mazekit, made once (under a lock: each pytest-xdist worker asks)."""
    if os.geteuid() != 0 or _nobody_runs(sys.executable):
        return sys.executable
    beside = _nobody_reads(sysconfig.get_paths()["purelib"]) and _nobody_reads(str(_SOURCE))
    if beside:
        runner = _CHECKOUT / ".venv" / "grade-runner"
    else:
        key = hashlib.sha256(str(_CHECKOUT).encode()).hexdigest()[:12]
        runner = _SHARED / f"grade-runner-{key}"
    python = runner / "bin" / "python"
    lock = _CHECKOUT / ".venv" / "grade-runner.lock"
    with open(lock, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        stamp = "" if beside else _stamp()
        made = runner / "stamp"
        current = beside or (made.is_file() and made.read_text() == stamp)
        if not (current and python.exists() and _nobody_runs(str(python))):
            if beside:
                _linked(runner)
            else:
                shutil.rmtree(runner, ignore_errors=True)
                _copied(runner, stamp)
    assert _nobody_runs(str(python)), f"nobody cannot import mazekit with {python}"
    return str(python)
