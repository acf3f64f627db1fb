"""The files the subject asks a submission to hold at its root, each checked on its own."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import printable
from .tree import search

__all__ = [
    "MAKE_TARGETS",
    "README_LINE",
    "FileCheck",
    "entry_problem",
    "find_config",
    "required_files",
]

MAKE_TARGETS = ("install", "run", "debug", "clean", "lint")
# The first line of README.md, in italics (*...* or _..._), with one or more logins.
README_LINE = re.compile(
    r"([*_])This project has been created as part of the 42 curriculum by \S.*\1"
)
_TARGET = re.compile(r"^([A-Za-z0-9_.\- ]+):(?!=)", re.MULTILINE)
_CONFIG_SUFFIXES = ("", ".txt", ".cfg", ".conf", ".ini")
_LINK_OUT = "a symbolic link out of the submission (not read)"
# Where a program of the entry's name is looked for when the root has none: folders this deep
# at most (tree.search: not those that hold environments, builds or caches).
_SEARCH_DEPTH = 3


@dataclass(frozen=True)
class FileCheck:
    """One required thing: its name, whether it is there, and what was found or is missing."""

    name: str
    ok: bool
    detail: str


def _within(root: Path, path: Path) -> bool:
    """Whether ``path`` is a file of the submission, its symbolic links followed: a link out
    of it could point at any file the grader may read (``/etc/shadow`` as root), and the
    report would show that file's first line."""
    try:
        return path.is_file() and path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a link loop
        return False


def find_config(root: Path) -> Path | None:
    """The default config: ``config.txt``, else the first root file named like a config
    (a symbolic link out of the submission is none of its files)."""
    if _within(root, root / "config.txt"):
        return root / "config.txt"
    for path in sorted(root.iterdir()):
        named = "config" in path.name.lower() and path.suffix in _CONFIG_SUFFIXES
        if named and _within(root, path):
            return path
    return None


def _first_line(path: Path) -> str:
    with open(path, "rb") as handle:
        return handle.readline(4096).decode("utf-8", errors="replace").strip()


def _makefile(root: Path) -> FileCheck:
    path = root / "Makefile"
    if not path.is_file():
        return FileCheck("Makefile", False, "no Makefile")
    if not _within(root, path):
        return FileCheck("Makefile", False, _LINK_OUT)
    text = path.read_bytes()[: 1 << 20].decode("utf-8", errors="replace")
    targets = {name for group in _TARGET.findall(text) for name in group.split()}
    missing = [target for target in MAKE_TARGETS if target not in targets]
    if missing:
        return FileCheck("Makefile", False, f"no target {', '.join(missing)}")
    return FileCheck("Makefile", True, f"targets {', '.join(MAKE_TARGETS)}")


def _readme(root: Path) -> FileCheck:
    path = root / "README.md"
    if not path.is_file():
        return FileCheck("README.md", False, "no README.md")
    if not _within(root, path):
        return FileCheck("README.md", False, _LINK_OUT)
    line = _first_line(path)
    if README_LINE.fullmatch(line):
        return FileCheck("README.md", True, "the first line is the italic 42 line")
    shown = printable(line if len(line) <= 40 else f"{line[:40]}...")
    return FileCheck("README.md", False, f"the first line is not the italic 42 line: '{shown}'")


def _named(root: Path, name: str, found: list[Path], missing: str) -> FileCheck:
    if found:
        return FileCheck(name, True, printable(", ".join(sorted(path.name for path in found))))
    return FileCheck(name, False, missing)


def required_files(root: Path) -> list[FileCheck]:
    """Makefile targets, README.md's first line, a LICENSE, a mazegen package, a config."""
    files = [path for path in root.iterdir() if path.is_file()]
    licences = [p for p in files if p.name.upper().startswith(("LICENSE", "LICENCE"))]
    packages = [
        p for p in files if p.name.startswith("mazegen-") and p.name.endswith((".whl", ".tar.gz"))
    ]
    config = find_config(root)
    return [
        _makefile(root),
        _readme(root),
        _named(root, "LICENSE", licences, "no LICENSE file"),
        _named(root, "package", packages, "no mazegen-*.whl or mazegen-*.tar.gz"),
        _named(root, "config", [config] if config else [], "no default config file"),
    ]


def _looks_like_the_program(path: Path) -> bool:
    """A script that reads its arguments or runs as ``__main__``."""
    try:
        text = path.read_bytes()[: 1 << 20].decode("utf-8", errors="replace")
    except OSError:
        return False
    return "__main__" in text or "sys.argv" in text


def _same_name_below(root: Path, entry: str) -> str | None:
    """A regular file named like ``entry`` in a folder of the submission (``src/a_maze_ing.py``),
    the shallowest, then first by path; None when there is none."""
    name = Path(entry).name
    found: list[Path] = []
    for where, files in search(root, _SEARCH_DEPTH):
        path = root / where / name
        if where != "." and name in files and path.is_file() and not path.is_symlink():
            found.append(Path(where, name))
    found = [path for path in found if path.as_posix() != Path(entry).as_posix()]
    if not found:
        return None
    return min(found, key=lambda path: (len(path.parts), path.as_posix())).as_posix()


def entry_problem(root: Path, entry: str) -> str | None:
    """Why ``entry`` cannot be the submission's program (missing, outside it, empty), with
    the ``--entry`` to try when another root script looks like the program; None when fine.
    """
    inside = not os.path.isabs(entry) and ".." not in Path(entry).parts
    path = root / entry
    if inside and path.is_file():
        try:
            empty = not path.read_bytes()[: 1 << 16].strip()
        except OSError:
            empty = False  # the run will say why it cannot be read
        if not empty:
            return None
        problem = f"{entry} is empty"
    else:
        problem = f"no entry script {entry}"
    below = _same_name_below(root, entry) if inside else None
    if below is not None:
        shown = printable(below)
        return f"{problem}; {shown} looks like the program: --entry {shown}"
    others = [
        p
        for p in sorted(root.glob("*.py"))
        if p.name not in (entry, "setup.py") and p.is_file() and _looks_like_the_program(p)
    ]
    if not others:
        return problem
    best = min(others, key=lambda p: (p.name != "main.py", -p.stat().st_size))
    shown = printable(best.name)
    return f"{problem}; {shown} looks like the program: --entry {shown}"
