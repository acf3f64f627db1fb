"""The verdict on one run: a timeout, a crash, or what its output file is worth.

Output files are judged by mazekit's own rules (rules.validate with the case's config, and
the Pac-Man rules when PERFECT=False, the "42" as --pattern says); nothing here restates a rule.
"""

from __future__ import annotations

import re
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .. import pattern as glyph
from ..analysis import PatternMode, find_42
from ..board import MAX_DEAD_ENDS
from ..config import Config
from ..errors import printable
from ..rules import validate
from ..textformat import scan
from .cases import GENERATION, Part
from .sandbox import TAIL_CHARS, TAIL_LINES, Limits, Run, cpu_seconds, tail

__all__ = [
    "TAIL_CHARS",
    "TAIL_LINES",
    "TOO_SMALL_WORDS",
    "TRACEBACK",
    "Outcome",
    "Verdict",
    "drawn_42",
    "glyph_note",
    "last_exception",
    "output_problem",
    "run_problem",
    "says_too_small",
    "tail",
]

Verdict = Literal["PASS", "FAIL", "CRASH", "TIMEOUT", "SKIP"]
TRACEBACK = "Traceback (most recent call last):"
# Words of a message that the "42" does not fit (specs/grade.md, the too-small case): the
# subject asks for an error message, not for its words, and students write in their language.
# Each at the start of a word (`smaller`, `Fehlermeldung`), not inside one: `ValueError`,
# `outfit` or `maze42.txt` say nothing of the size.
TOO_SMALL_WORDS = (
    "42",
    "small",
    "fit",
    "pattern",
    "logo",
    "error",
    "petit",
    "motif",
    "erreur",
    "klein",
    "fehler",
    "peque",
)
_TOO_SMALL = re.compile(r"\b(?:" + "|".join(TOO_SMALL_WORDS) + ")", re.IGNORECASE)


@dataclass(frozen=True)
class Outcome:
    """The verdict on one case, its reason (for PASS, a note or ""), the time it took, the
    end of what the program printed (FAIL, CRASH, TIMEOUT), and the part of the score it is."""

    case: str
    verdict: Verdict
    reason: str = ""
    seconds: float = 0.0
    stdout_tail: str = ""
    stderr_tail: str = ""
    part: Part = GENERATION
    scored: bool = True


def last_exception(text: str) -> str | None:
    """The exception line of the last Python traceback in ``text``, or None when there is none.

    That is the first unindented line after the last ``Traceback`` header (frames are
    indented); a traceback cut short ends in ``(traceback cut short)``.
    """
    start = text.rfind(TRACEBACK)
    if start < 0:
        return None
    for line in text[start + len(TRACEBACK) :].splitlines():
        if line.strip() and not line[0].isspace():
            return line.strip()
    return "(traceback cut short)"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def run_problem(run: Run, limits: Limits, wall: float) -> tuple[Verdict, str] | None:
    """TIMEOUT or CRASH with its reason, when the run itself went wrong; else None."""
    if run.timed_out:
        return "TIMEOUT", f"no exit after {wall:g} s"
    if run.returncode == -signal.SIGXCPU:
        return "TIMEOUT", f"used more than {cpu_seconds(wall)} s of CPU time"
    exception = last_exception(run.stderr) or last_exception(run.stdout)
    if exception is not None:
        return "CRASH", printable(exception)  # the program's own text: control bytes escaped
    if run.returncode < 0:
        name = _signal_name(-run.returncode)
        if run.returncode == -signal.SIGXFSZ:
            return "CRASH", f"killed by {name}: a file grew over {limits.file_size // 2**20} MiB"
        return "CRASH", f"killed by {name}"
    return None


def drawn_42(data: bytes | None) -> glyph.Found | None:
    """The "42" an output file draws (pattern.find), or None: no file, no grid, no "42"."""
    walls = None if data is None else scan(data).walls
    return None if walls is None or walls.size == 0 else find_42(walls)


def output_problem(
    data: bytes | None, config: Config, name: str, pattern: PatternMode = "subject"
) -> str | None:
    """Why an output file fails its case (validate's first violation), or None when valid."""
    if data is None:
        return f"wrote no output file {name}"
    board = not config.perfect  # PERFECT=False: the Pac-Man board rules too
    most = MAX_DEAD_ENDS if config.max_dead_ends is None else config.max_dead_ends
    report = validate(data, config=config, pacman=board, pattern=pattern, max_dead_ends=most)
    if report.valid:
        return None
    first = report.violations[0]
    reason = f"{name}:{first.line}:{first.column}: {first.rule}: {first.message}"
    more = report.count() - 1
    if more:
        reason += f" (and {more} more violation{'s' if more > 1 else ''})"
    return reason


def glyph_note(found: glyph.Found | None) -> str:
    """The note on a valid output whose "42" is not the subject's glyph, or ""."""
    if found is None or found.subject:
        return ""
    x, y = found.corner
    return f'the "42" is another glyph: {len(found.cells)} closed cells from ({x},{y})'


def says_too_small(run: Run, names: Sequence[str] = ()) -> bool:
    """Whether the program said something about the "42" not fitting: a word of
    TOO_SMALL_WORDS, in any case.

    ``names`` are the texts grade chose (the config's name, the copy's folder): a program that
    echoes its config path ``grade-too-small.txt``, or a folder whose random name holds "42",
    says nothing by that.
    """
    text = run.stdout + run.stderr
    for name in sorted(names, key=len, reverse=True):  # a path before the name inside it
        text = text.replace(name, "")
    return bool(_TOO_SMALL.search(text))
