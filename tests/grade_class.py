"""The class of tests/data/grade/class graded once per session (``graded_class`` in conftest),
each submission with the options a teaching assistant gives it (the folder's README):
test_grade_class.py reads the ranking and the verdicts, test_grade_run.py what the options
did (--install, --setup, --stdin, --tty, --display, programs that do not exit).

It runs as ``python -m tests.grade_class FOLDER`` in a process of its own
(tests.background), started as soon as the run's tests are known.
"""

from __future__ import annotations

import os
import sys
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from mazekit import dump_maze, generate
from mazekit.grade import Grade, Interaction, Limits, Options, grade, grade_all
from tests.background import publish
from tests.grade_python import runner_python

__all__ = [
    "BROKEN",
    "CLASS",
    "HANA_TIMEOUT",
    "MAZE",
    "PYTHON",
    "SHORT",
    "WORKING",
    "ClassRun",
    "grade_class",
    "wheel",
]

PYTHON = runner_python()
CLASS = Path(__file__).parent / "data" / "grade" / "class"
MAZE = dump_maze(generate(20, 15, seed=1))
# Each fixture by what it is: a working program writes valid mazes, a broken one never does.
WORKING = ("ada", "ben", "cleo", "dan", "hana", "ivan", "jade", "kim", "leo", "noor")
BROKEN = ("eve", "finn", "gus", "mia")
# Graded as they are, in one `grade --all -j 2` (mia is its error row: an empty entry script).
PLAIN = ("ada", "ben", "cleo", "dan", "eve", "finn", "gus", "mia")
HANA_TIMEOUT = 2.0  # hana's menu waits for ever: each case that writes a maze takes this long
# The cases of the submissions that need options: both parts of the score, the own config,
# and seed-twice's second run (a note said once for two runs). Every case of all of them
# would triple the time (hana waits out each good config) for no verdict that is not here.
SHORT = ("own-config", "perfect-20x15", "seed-twice", "missing-key", "bad-perfect")


@dataclass(frozen=True)
class ClassRun:
    """Every submission's Grade by name; leo's copy with its wheels, and the cache that holds
    the environment --install built for it."""

    grades: dict[str, Grade]
    leo: Path
    cache: Path


def wheel(folder: Path, name: str, version: str, code: str) -> Path:
    """A pure-Python wheel of one module ``name`` holding ``code``."""
    path = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}/__init__.py", code)
        archive.writestr(
            f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        )
        archive.writestr(
            f"{info}/WHEEL",
            "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        archive.writestr(f"{info}/RECORD", "")
    return path


def _with_wheels(folder: Path) -> Path:
    """leo as a student ships it: the subject's mlx wheel and its own mazegen wheel (binary
    files are not committed: made here)."""
    folder.mkdir()
    for source in (CLASS / "leo").iterdir():
        (folder / source.name).write_bytes(source.read_bytes())
    wheel(folder, "mlx", "2.2", "class Mlx:\n    def mlx_init(self):\n        return 'mlx ready'\n")
    wheel(folder, "mazegen", "1.0.0", f"def maze_text():\n    return {MAZE!r}\n")
    return folder


def grade_class(base: Path) -> ClassRun:
    """Grade the class: PLAIN with --all -j 2, the others each with its options, two at a time;
    leo offline (PIP_NO_INDEX) with a cache of its own. Run in a process of its own: it sets
    the environment that --install reads."""
    plain = base / "plain"
    plain.mkdir()
    for name in PLAIN:
        (plain / name).symlink_to(CLASS / name, target_is_directory=True)
    options = Options(python=PYTHON, limits=Limits(timeout=15))
    grades = {Path(g.submission).name: g for g in grade_all(plain, options, jobs=2)}
    leo, cache = _with_wheels(base / "leo"), base / "cache"
    os.environ.update(XDG_CACHE_HOME=os.fspath(cache), PIP_NO_INDEX="1")  # offline: the wheels
    short = replace(options, cases=SHORT)
    special = {
        "noor": (CLASS / "noor", replace(short, setup="make install")),
        "hana": (CLASS / "hana", replace(short, limits=Limits(timeout=HANA_TIMEOUT))),
        "leo": (leo, replace(short, install=True)),
        "ivan": (CLASS / "ivan", replace(short, interaction=Interaction(display="xvfb"))),
        "jade": (CLASS / "jade", replace(short, interaction=Interaction(tty=True))),
        "kim": (CLASS / "kim", replace(short, interaction=Interaction(stdin=b"1\n"))),
    }
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = pool.map(lambda item: grade(*item), special.values())
        grades.update(zip(special, done, strict=True))
    return ClassRun(grades, leo, cache)


if __name__ == "__main__":
    # through the module's own name, so that ClassRun pickles as tests.grade_class.ClassRun
    from tests import grade_class as module

    sys.exit(publish(module.grade_class))
