"""An interpreter for the programs grade runs in tests: one the user nobody can start, that
imports mazekit, as the grader's own (under /root, often) may not be."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

__all__ = ["runner_python"]

_RUNNER = Path(__file__).resolve().parent.parent / ".venv" / "grade-runner"
SYSTEM = "/usr/bin/python3"


def _nobody_runs(python: str) -> bool:
    try:
        done = subprocess.run(
            [python, "-c", "import mazekit"],
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


def runner_python() -> str:
    """sys.executable, unless grading as root where nobody cannot run it: then a virtual
    environment of the distribution's python3 (the same minor version) that sees this
    checkout's packages, made once in .venv/grade-runner."""
    if os.geteuid() != 0 or _nobody_runs(sys.executable):
        return sys.executable
    python = _RUNNER / "bin" / "python"
    if python.exists() and _nobody_runs(str(python)):
        return str(python)
    subprocess.run([SYSTEM, "-m", "venv", "--without-pip", "--clear", str(_RUNNER)], check=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    packages = _RUNNER / "lib" / version / "site-packages"
    site = sysconfig.get_paths()["purelib"]
    # the checkout's source folder too, as a path of its own: the editable install finds it
    # by a hook, not by sys.path, and grade shows the namespaces only what sys.path names
    source = str(Path(__file__).resolve().parent.parent / "src")
    (packages / "checkout.pth").write_text(f"import site; site.addsitedir({site!r})\n{source}\n")
    assert _nobody_runs(str(python)), f"nobody cannot import mazekit with {python}"
    return str(python)
