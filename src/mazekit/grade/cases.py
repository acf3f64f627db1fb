"""The cases a submission is run on: the configs of the project's evaluation, written by mazekit.

Each case is a Config (what a good output must match) and, for the broken ones, one line of
its text changed or removed; ``config_text`` is the one function that writes a case's file.
The good configs make the generation part of the score, the broken ones the error-handling
part. specs/grade.md lists every case, what it expects, and how the score is made.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from .. import pattern as glyph
from ..config import KNOWN_KEYS, Config, dump_config

__all__ = [
    "CASES",
    "CASE_NAMES",
    "ERRORS",
    "GENERATION",
    "OUTPUT",
    "PREVIOUS_OUTPUT",
    "SEED",
    "Case",
    "Kind",
    "Part",
    "config_text",
    "own_config_text",
]

Kind = Literal["own", "valid", "small", "twice", "broken", "output"]
Part = Literal["generation", "error handling"]
GENERATION: Part = "generation"
ERRORS: Part = "error handling"

OUTPUT = "maze.txt"
# What a broken config finds at OUTPUT_FILE before the run, and must leave as it is.
PREVIOUS_OUTPUT = b"the previous output: a broken config must leave this file as it is\n"
SEED = 42


@dataclass(frozen=True)
class Case:
    """One run (two for ``twice``) of the program on one config file."""

    name: str
    kind: Kind
    summary: str
    config: Config
    key: str | None = None  # the key whose line is changed or removed
    line: str | None = None  # its new line; None removes it
    lowercase: bool = False  # keys written in lower case
    scored: bool = True  # False: reported, but the subject does not ask for it
    on_42: bool = False  # ENTRY moved onto the "42" that the program's own output draws

    @property
    def part(self) -> Part:
        """Generation (a good config: a maze is due) or error handling (a broken one)."""
        return ERRORS if self.kind in ("broken", "output") else GENERATION


def _config(width: int, height: int, **changes: object) -> Config:
    base = Config(width, height, (0, 0), (width - 1, height - 1), OUTPUT, True)
    return replace(base, **changes)  # type: ignore[arg-type]


_BASE = _config(20, 15)
_ON_42 = glyph.pattern_cells(20, 15)[0]


def _broken(name: str, summary: str, key: str, line: str | None) -> Case:
    return Case(name, "broken", summary, _BASE, key, line)


def _inconsistent(name: str, summary: str, **changes: object) -> Case:
    return Case(name, "broken", summary, replace(_BASE, **changes))  # type: ignore[arg-type]


CASES: tuple[Case, ...] = (
    Case("own-config", "own", "the submission's own config file", _BASE),
    Case("perfect-20x15", "valid", "20x15, PERFECT=True", _BASE),
    Case("smallest-42", "valid", 'the smallest maze with the "42": 9x7', _config(9, 7)),
    Case("too-small", "small", 'too small for the "42": 8x6, and a message', _config(8, 6)),
    Case("perfect-50x40", "valid", "50x40, PERFECT=True", _config(50, 40)),
    Case(
        "imperfect",
        "valid",
        "20x15, PERFECT=False: a Pac-Man board",
        _config(20, 15, perfect=False),
    ),
    Case("lowercase-keys", "valid", "keys in lower case", _BASE, lowercase=True, scored=False),
    Case(
        "seed-twice", "twice", f"SEED={SEED}, run twice: the same file", _config(20, 15, seed=SEED)
    ),
    _broken("missing-key", "the mandatory key WIDTH removed", "WIDTH", None),
    _broken("no-equals", "a line without '='", "HEIGHT", "HEIGHT 15"),
    _broken("letters-for-number", "letters where a number belongs", "WIDTH", "WIDTH=twenty"),
    _broken("bad-perfect", "PERFECT neither True nor False", "PERFECT", "PERFECT=maybe"),
    _broken("bad-entry", "ENTRY with one coordinate", "ENTRY", "ENTRY=0"),
    _inconsistent("entry-outside", "ENTRY outside the grid", entry=(20, 0)),
    _inconsistent("exit-outside", "EXIT outside the grid", exit=(19, 15)),
    _inconsistent("entry-is-exit", "ENTRY and EXIT the same cell", exit=(0, 0)),
    _inconsistent("negative-size", "a negative WIDTH", width=-20),
    _inconsistent("zero-size", "HEIGHT=0", height=0),
    Case(
        "entry-on-42",
        "broken",
        'ENTRY on a cell of the "42" the program draws',
        replace(_BASE, entry=_ON_42),
        on_42=True,
    ),
    Case(
        "output-no-dir",
        "output",
        "OUTPUT_FILE in a folder that does not exist",
        replace(_BASE, output_file="no-such-folder/maze.txt"),
    ),
    Case(
        "output-unwritable",
        "output",
        "OUTPUT_FILE names a folder, which no one can write as a file",
        replace(_BASE, output_file="maze-folder"),
    ),
)
CASE_NAMES: tuple[str, ...] = tuple(case.name for case in CASES)


def config_text(case: Case) -> str:
    """The config file of ``case``: dump_config of its Config, then its one change."""
    lines = dump_config(case.config).splitlines()
    if case.key is not None:
        index = next(i for i, line in enumerate(lines) if line.startswith(f"{case.key}="))
        if case.line is None:
            del lines[index]
        else:
            lines[index] = case.line
    if case.lowercase:
        lines = [line.split("=", 1)[0].lower() + "=" + line.split("=", 1)[1] for line in lines]
    return "\n".join(lines) + "\n"


def own_config_text(text: str, keys: tuple[str, ...] = KNOWN_KEYS) -> str:
    """The lines of a submission's config that mazekit reads: those of ``keys``.

    A program may add keys of its own (a display mode, colours); they are left out, so that
    its config is judged on the keys the subject defines (or, ``keys`` the mandatory ones, on
    those alone).
    """
    kept = []
    for line in text.splitlines():
        key = line.partition("=")[0].strip().upper()
        if "=" in line and key in keys:
            kept.append(line)
    return "\n".join(kept) + "\n"
