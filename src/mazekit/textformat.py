"""The hex wall-per-cell format: ``scan``/``parse``/``dump`` are pure, ``read``/``write`` do I/O.

``scan`` finds every deviation from specs/format.md with its line and column; validate reports
them all. ``parse`` is the lenient reader of the pipeline commands: it tolerates CRLF (and CR
alone, CR CR LF), trailing blanks, a byte order mark and a missing final newline, and raises
FormatError on anything else.
"""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import IO, TYPE_CHECKING, BinaryIO

import numpy as np

from .errors import FormatError, MazeError, TooLargeError, printable
from .model import Maze, Walls

if TYPE_CHECKING:
    from os import PathLike

    PathType = str | PathLike[str]

__all__ = [
    "MAX_CELLS",
    "MAX_INPUT_BYTES",
    "STDIN_NAME",
    "TOO_LARGE",
    "Problem",
    "Scan",
    "dump",
    "looks_like_config",
    "lowercase_digits",
    "parse",
    "parse_lenient",
    "read",
    "read_bytes",
    "scan",
    "source_name",
    "write",
]

MAX_CELLS = 16_000_000
MAX_INPUT_BYTES = 64 * 1024 * 1024
# The message for an input over that size, a maze file's or a config file's.
TOO_LARGE = f"input is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB"
STDIN_NAME = "<stdin>"
BOM = b"\xef\xbb\xbf"

_DECODE = np.full(256, 255, dtype=np.uint8)
for _value, _char in enumerate("0123456789abcdef"):
    _DECODE[ord(_char)] = _value
    _DECODE[ord(_char.upper())] = _value
# Two tables for bytes.translate, which maps a whole grid in one pass at C speed: a hex
# digit to its value (any other byte to 255), and a value to its digit (16: a LF).
_DECODE_TABLE = _DECODE.tobytes()
_ENCODE_TABLE = b"0123456789ABCDEF\n".ljust(256, b"\0")
_NOT_HEX = re.compile(rb"[^0-9A-Fa-f]")
_NOT_STEP = re.compile(rb"[^NESW]")
_BLANK_LINE = re.compile(rb"\n[ \t\r]*\n")
_COORDINATES = re.compile(rb"(\d{1,18}),(\d{1,18})")


@dataclass(frozen=True)
class Problem:
    """One deviation from the format; ``fatal`` ones leave no maze to read."""

    line: int
    column: int
    message: str
    fatal: bool
    on_path_line: bool = False
    note: str | None = None  # what a lenient reader (stats) did about it, when it read on
    # What to write instead, for a fault a writer makes on every line (a CRLF, a 0x before
    # each row): scan says it once, on the first line with this message, with how many more
    # lines have it, and puts it in that message (so what scan returns has None here).
    fix: str | None = None

    @property
    def drops_path(self) -> bool:
        """Whether this problem leaves no path to read (a path line with no lenient reading;
        a label's letters are read): the one test of parse_lenient and validate's path rule."""
        return self.on_path_line and self.note is None


@dataclass
class Scan:
    """What ``scan`` found: the maze (None after a fatal problem) and every problem."""

    maze: Maze | None
    problems: list[Problem] = field(default_factory=list)
    walls: Walls | None = None  # the grid when it could be read, even if the footer cannot
    # The footer as a lenient reader takes it: the entry and exit in any unambiguous form
    # (specs/format.md, "Footers the lenient readers take"), each None when not even that.
    entry: tuple[int, int] | None = None
    exit: tuple[int, int] | None = None
    entry_line: int = 0  # the line of the entry (extra empty lines before it shift it)
    # The line of the path when it is not the line after the exit (written first), else None.
    path_line: int | None = None
    # The line of each grid row when empty lines lie between rows (None: row y on line y+1).
    row_lines: tuple[int, ...] | None = None

    lenient: Maze | None = None  # the maze with that footer, and its path when well formed

    @property
    def footer_maze(self) -> Maze | None:
        """The maze as read, else the one with the leniently read footer: what ``stats``
        measures, and what ``validate`` checks the footer's other lines against."""
        return self.maze if self.maze is not None else self.lenient


def _shown(raw: bytes) -> str:
    """A byte for a message: the character itself when printable ASCII, else its hex code."""
    if len(raw) == 1 and 0x21 <= raw[0] <= 0x7E:
        return f"'{raw.decode('ascii')}'"
    return f"byte 0x{raw[0]:02x}"


_EXCERPT = 40  # characters of a line a message quotes


def _excerpt(raw: bytes) -> str:
    r"""A line of the file as a message quotes it: at most 40 characters, then ``...``, with
    control characters (``\x1b``, ``\t``) and bytes that are not UTF-8 (``\x96``) escaped
    by errors.printable, as file names are, so the quote cannot drive the terminal."""
    head = raw[: 4 * _EXCERPT + 4].decode("utf-8", errors="surrogateescape")
    cut = len(head) > _EXCERPT or len(raw) > 4 * _EXCERPT + 4
    return f"'{printable(head[:_EXCERPT])}{'...' if cut else ''}'"


class _Lines:
    """The file's lines from absolute index ``base`` on: a grid read by the fast path is not
    split into lines at all, yet the tail keeps its true line numbers."""

    def __init__(self, lines: list[bytes], base: int = 0) -> None:
        self.lines = lines
        self.base = base

    def __len__(self) -> int:
        return self.base + len(self.lines)

    def __getitem__(self, index: int) -> bytes:
        return self.lines[index - self.base]

    def after(self, index: int) -> list[bytes]:
        """The lines after absolute index ``index``."""
        return self.lines[index + 1 - self.base :]


def _split_lines(data: bytes, problems: list[Problem], base: int = 0) -> _Lines:
    """Split into lines numbered from ``base``, noting (not fatal) a missing final newline."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    else:
        problems.append(
            Problem(
                base + len(lines),
                len(lines[-1]) + 1,
                "missing newline at the end of the file: end the last line with LF too",
                False,
            )
        )
    return _Lines(lines, base)


def _without_cr(lines: _Lines, index: int, problems: list[Problem]) -> bytes:
    """Line ``index`` without its tolerated CR, noting it."""
    line = lines[index]
    if line.endswith(b"\r"):
        line = line[:-1]
        problems.append(Problem(index + 1, len(line) + 1, CRLF, False, fix=_LINE_END_FIXES[CRLF]))
    return line


def _bare(line: bytes) -> bytes:
    """``line`` without the blanks and CR a reader tolerates at its end, for a quick look at
    what it holds (_strip also notes them)."""
    return line.rstrip(b" \t\r")


def _strip(lines: _Lines, index: int, problems: list[Problem]) -> bytes:
    """Line ``index`` without its tolerated CR and trailing blanks, noting each."""
    line = _without_cr(lines, index, problems)
    stripped = line.rstrip(b" \t")
    if len(stripped) != len(line):
        fix = _LINE_END_FIXES[TRAILING]
        problems.append(Problem(index + 1, len(stripped) + 1, TRAILING, False, fix=fix))
    return stripped


def _labelled(*names: bytes) -> re.Pattern[bytes]:
    """The one grammar of a footer line written with a label: ``Entry: 0,0``, ``EXIT=0,0``,
    ``path : ES`` (any case, blanks around ``:`` or ``=``); group 1 the label, 2 the rest."""
    return re.compile(rb"(?i)(" + b"|".join(names) + rb")\s*[:=]\s*(.*)")


_LABEL = _labelled(b"entry", b"exit")
_PATH_LABEL = _labelled(b"path")
# Two integers between commas, semicolons or blanks (``0, 0``, ``0;0``, ``0 0``), labelled
# ``x=0,y=0``, or each quoted (``'0', '0'``); never ``.``, ``-`` or ``/``, which a number or
# a range can hold.
_PAIR = re.compile(rb"(\d{1,18})(?:\s*[,;]\s*|[ \t]+)(\d{1,18})")
_XY = re.compile(rb"(?i)x\s*[:=]\s*(\d{1,18})\s*[,;]?\s*y\s*[:=]\s*(\d{1,18})")
_QUOTED = re.compile(rb"""(['"])(\d{1,18})\1\s*[,;]\s*(['"])(\d{1,18})\3""")
_FORMS = ((_PAIR, 1, 2), (_XY, 1, 2), (_QUOTED, 2, 4))  # each with the groups of x and y
_WRAPPERS = (b"()", b"[]", b"''", b'""')  # around the pair: a tuple, a list, a string
_STEPS = re.compile(rb"(?i)[NESW]+")
_BETWEEN_STEPS = b" \t,;'\"[]()"  # what students put between and around their steps


def _separated_steps(line: bytes) -> bool:
    """Whether ``line`` is steps in any case with something between or around them
    (``n,e,s``, ``['N', 'E']``): bytes.translate, linear in the line, not a regular
    expression that could backtrack on a long line of blanks."""
    letters = line.translate(None, _BETWEEN_STEPS)
    return 0 < len(letters) < len(line) and not letters.upper().translate(None, b"NESW")


def _lenient_pair(line: bytes) -> tuple[str | None, tuple[int, int]] | None:
    """An entry or exit line in an unambiguous form other than ``x,y``: its label (``entry``,
    ``exit``, or None) and the cell, for ``(x, y)``, ``x, y``, ``x;y``, ``x y``, ``[x, y]``,
    ``['x', 'y']``, ``"x,y"``, ``x=0,y=0``, a trailing comma, ``Entry: x,y`` and
    ``ENTRY=x,y``; None for anything else. The one recogniser of the clear forms."""
    label = None
    labelled = _LABEL.fullmatch(line)
    if labelled is not None:
        label, line = labelled.group(1).decode("ascii").lower(), labelled.group(2)
    if line[-1:] in (b",", b";"):  # a tuple or list item: (0, 0),
        line = line[:-1].rstrip()
    for _ in range(3):  # at most two wrappers: "(0, 0)"
        for form, x, y in _FORMS:
            match = form.fullmatch(line)
            if match is not None:
                return label, (int(match.group(x)), int(match.group(y)))
        if len(line) < 2 or line[:1] + line[-1:] not in _WRAPPERS:
            return None
        line = line[1:-1].strip()
    return None


def _coordinates(
    lines: _Lines, index: int, what: str, problems: list[Problem]
) -> tuple[tuple[int, int] | None, tuple[str | None, tuple[int, int]] | None]:
    """The entry or exit line: the cell as the format writes it (else None, with the
    problem), and as the lenient readers take it (label and cell, else None)."""
    if index >= len(lines):
        problems.append(Problem(index + 1, 1, f"missing the {what} line (x,y)", True, note=""))
        return None, None
    line = _strip(lines, index, problems)
    match = _COORDINATES.fullmatch(line)
    if match is not None:
        cell = int(match.group(1)), int(match.group(2))
        return cell, (what, cell)
    message = f"{what} must be two non-negative integers x,y, got {_excerpt(line)}"
    lenient = _lenient_pair(line)
    note = None
    if lenient is not None:
        label, (x, y) = lenient
        if label not in (None, what):
            message += f": this is the {label}; write the entry line, then the exit line"
            note = f"{what} line holds the {label}, {_excerpt(line)}: read as the {label} {x},{y}"
        else:
            message += f": write {x},{y}"
            note = f"{what} written as {_excerpt(line)}: read as {x},{y}"
    elif _STEPS.fullmatch(line) or _separated_steps(line):
        message += ": the entry and exit lines come before the path line"
    problems.append(Problem(index + 1, 1, message, True, note=note))
    return None, lenient


def _too_big(width: int, height: int) -> Problem:
    return Problem(
        1,
        1,
        f"grid of {width}x{height} cells is larger than the limit of {MAX_CELLS:,} cells",
        True,
    )


def _canonical_grid(data: bytes, start: int, problems: list[Problem]) -> Walls | None:
    """The grid, read in whole-array steps, when it is canonical: rows of equal length, hex
    digits only, LF line ends, then an empty line. None sends the caller to the line-by-line
    reader, which finds and places every problem."""
    walls = _translated_grid(data, start)
    return walls if walls is not None else _canonical_grid_reference(data, start, problems)


def _translated_grid(data: bytes, start: int) -> Walls | None:
    """The canonical grid in a few C-speed passes (about 10 ms for 16 million cells), or None
    for anything else, a grid over the limit included: then the reference below decides.

    The first LF gives the width; the first row start that holds a LF, the empty line. The
    grid is canonical when its LFs are exactly the row ends; bytes.translate then maps every
    digit to its value and drops the LFs in one pass. This accepts exactly the grids the
    reference accepts, with the same values (tests/test_textformat.py checks both on mutated
    files); it skips the reference's search for the empty line, slow on a big grid.
    """
    width = data.find(b"\n", start) - start
    if width <= 0:
        return None
    row_starts = np.frombuffer(data, dtype=np.uint8, offset=start)[width + 1 :: width + 1]
    blank = np.flatnonzero(row_starts == ord("\n"))
    if blank.size == 0:
        return None
    height = int(blank[0]) + 1
    if width * height > MAX_CELLS:
        return None
    end = start + height * (width + 1)
    rows = np.frombuffer(data, dtype=np.uint8, count=end - start, offset=start)
    if data.count(b"\n", start, end) != height or not (rows[width :: width + 1] == 10).all():
        return None
    grid = bytearray(memoryview(data)[start:end]).translate(_DECODE_TABLE, b"\n")
    if 255 in grid:  # a byte that is not a hex digit
        return None
    walls: Walls = np.frombuffer(grid, dtype=np.uint8).reshape(height, width)
    return walls


def _canonical_grid_reference(data: bytes, start: int, problems: list[Problem]) -> Walls | None:
    """The plain whole-array reader: the reference of _translated_grid, and the one that
    refuses a canonical grid over the cell limit."""
    end = data.find(b"\n\n", start)
    if end <= start:
        return None
    first_end = data.find(b"\n", start, end)
    width = (end if first_end == -1 else first_end) - start
    size = end + 1 - start  # every row with its LF
    if width == 0 or size % (width + 1):
        return None
    height = size // (width + 1)
    if width * height > MAX_CELLS:
        if _NOT_HEX.search(data, start, start + width) is not None:
            return None  # the first row is not plain hex: the line reader says what is wrong
        problems.append(_too_big(width, height))
        return np.zeros((0, 0), dtype=np.uint8)  # refused: no maze, one problem
    rows = np.frombuffer(data, dtype=np.uint8, count=size, offset=start).reshape(height, -1)
    if not (rows[:, width] == ord("\n")).all():
        return None
    walls: Walls = _DECODE[rows[:, :width]]
    if (walls == 255).any():
        return None
    return walls


CRLF = "line ends with CRLF, not LF"
TRAILING = "trailing whitespace"
# What to write instead, after a line-end problem (and how many more lines have it).
_LINE_END_FIXES = {
    CRLF: """end each line with LF alone (in Python: open(name, "w", newline="\\n"))""",
    TRAILING: "remove the spaces or tabs at the end of the line",
}


def _more_lines(more: int) -> str:
    """``, as do 4 more lines`` (nothing for 0): how many more lines share a problem."""
    if more == 0:
        return ""
    return f", as does {more} more line" if more == 1 else f", as do {more} more lines"


def _one_per_kind(problems: list[Problem]) -> list[Problem]:
    """Each problem with a ``fix`` (CRLF, trailing blanks, a grid row's 0x) as one problem,
    on the first line that has it, saying how many more lines do and what to write instead:
    a writer that adds it adds it everywhere, and one line tells the student what to change."""
    kept: list[Problem] = []
    seen: dict[tuple[str, str], int] = {}
    counts = Counter((p.message, p.fix) for p in problems if p.fix is not None)
    for problem in problems:
        if problem.fix is not None:
            kind = (problem.message, problem.fix)
            if kind in seen:
                continue
            seen[kind] = len(kept)
        kept.append(problem)
    for (message, fix), index in seen.items():
        text = f"{message}{_more_lines(counts[message, fix] - 1)}: {fix}"
        kept[index] = replace(kept[index], message=text, fix=None)
    return kept


def scan(data: bytes | str) -> Scan:
    """Read ``data`` as a maze file, collecting every format problem with its place."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if _utf16(data):  # every other byte NUL: one problem, not one per row
        return Scan(None, [Problem(1, 1, UTF16, True)])
    data, line_ends = _other_line_ends(data)
    found = _scan(data)
    found.problems = _one_per_kind(found.problems)
    if line_ends is not None:
        found.problems.insert(0, line_ends)
    return found


UTF16 = (
    "the file is UTF-16 text: save it as ASCII or UTF-8 (in Python: "
    'open(name, "w", encoding="utf-8"); the > of Windows PowerShell 5 writes UTF-16)'
)


def _utf16(data: bytes) -> bool:
    """Whether ``data`` is UTF-16: its byte order mark and an ASCII character, or (without
    a mark) four ASCII characters, each with a NUL byte beside it, little- or big-endian."""
    mark, first = data[:2], data[2:4]
    if len(first) == 2 and (
        (mark == b"\xff\xfe" and first[1] == 0 and 0x09 <= first[0] <= 0x7E)
        or (mark == b"\xfe\xff" and first[0] == 0 and 0x09 <= first[1] <= 0x7E)
    ):
        return True
    head = data[:8]
    if len(head) < 8:
        return False
    for chars, nuls in ((head[0::2], head[1::2]), (head[1::2], head[0::2])):
        if not nuls.strip(b"\0") and all(0x09 <= char <= 0x7E for char in chars):
            return True
    return False


# Line ends other than LF and CRLF, as what writes them: CR alone (classic Mac OS, or
# newline="\r"), and CR CR LF ("\r\n" written to a file in Windows' text mode, which turns
# each "\n" into CRLF).
CR_ALONE = "line ends with CR alone, not LF"
CR_CR_LF = "line ends with CR CR LF, not LF"
_OTHER_LINE_END_FIXES = {
    CR_ALONE: _LINE_END_FIXES[CRLF],
    CR_CR_LF: 'end each line with LF alone (in Python: write "\\n", not "\\r\\n", to a file '
    'opened with open(name, "w", newline="\\n"))',
}


def _other_line_ends(data: bytes) -> tuple[bytes, Problem | None]:
    """``data`` with CR-alone or CR CR LF line ends turned into LF, and the one problem that
    names them (on the first line that has one, with how many more do), so the file reads as
    far as it is clear, as with CRLF; a file with neither is returned as it is."""
    if b"\r" not in data:
        return data, None
    if b"\n" not in data:
        kind, end = CR_ALONE, b"\r"
    elif b"\r\r\n" in data:
        kind, end = CR_CR_LF, b"\r\r\n"
    else:
        return data, None
    first = data.find(end)
    line_start = data.rfind(end[-1:], 0, first) + 1
    if line_start == 0 and data.startswith(BOM):
        line_start = len(BOM)
    more = _more_lines(data.count(end) - 1)
    problem = Problem(
        data.count(end[-1:], 0, first) + 1,
        first - line_start + 1,
        f"{kind}{more}: {_OTHER_LINE_END_FIXES[kind]}",
        False,
    )
    return data.replace(end, b"\n"), problem


def _scan(data: bytes) -> Scan:
    """scan, with every line-end problem on its own line."""
    problems: list[Problem] = []
    if not data or data == BOM:
        return Scan(None, [Problem(1, 1, "empty input: no grid rows", True)])
    start = 0
    if data.startswith(BOM):
        problems.append(Problem(1, 1, "file starts with a UTF-8 byte order mark", False))
        start = len(BOM)

    walls = _canonical_grid(data, start, problems)
    if walls is not None and walls.size and _grid_goes_on(data, start, walls.shape):
        gapped = _gapped_grid(data, start, walls.shape[1], problems)
        if gapped is not None:  # canonical rows with empty lines between: read whole
            return gapped
        walls = None  # else the line reader reads on past them, placing every problem
    if walls is not None:
        if walls.size == 0:
            return Scan(None, problems)
        height = walls.shape[0]
        lines = _split_lines(data[start + height * (walls.shape[1] + 1) :], problems, height)
    else:
        blank = _BLANK_LINE.search(data, start)
        rows = data.count(b"\n", start, blank.start() if blank else len(data)) + 1
        if rows > MAX_CELLS:  # refuse before splitting millions of lines
            first = _bare(data[start : data.find(b"\n", start)])
            problems.append(_too_big(len(first), rows))
            return Scan(None, problems)
        lines = _split_lines(data[start:], problems)
        known = len(problems)
        walls, row_lines = _grid_by_lines(lines, problems)
        if walls is None:
            if looks_like_config(data):  # a config given as a maze: its first fatal
                # problem says so (not a trailing blank or CRLF before it); the rest is noise
                said = next(p for p in problems[known:] if p.fatal)
                said = replace(said, message=f"{said.message}: {CONFIG_GIVEN}", fix=None)
                problems[known:] = [said]
            return Scan(None, problems)
        return _tail(walls, lines, problems, row_lines)
    return _tail(walls, lines, problems)


def looks_like_config(raw: bytes) -> bool:
    """Whether input is a config file rather than a maze: its first line that is not blank
    or a ``#`` comment holds ``=`` (a maze file starts with hex digits)."""
    for line in raw.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(b"#"):
            return b"=" in stripped
    return False


CONFIG_GIVEN = "this is a config file, not a maze: make its maze with mazekit generate CONFIG -o -"


_BLANKS = re.compile(rb"[ \t\r\n]*")


def _grid_goes_on(data: bytes, start: int, shape: tuple[int, ...]) -> bool:
    """Whether a grid read whole (``shape``, from ``start``) may go on after its empty line:
    the next line that is not blank is hex digits of the grid's width. A quick test (it
    also skips blanks at the start of that line): the line reader decides."""
    height, width = shape
    gap = _BLANKS.match(data, start + height * (width + 1))
    after = len(data) if gap is None else gap.end()
    end = data.find(b"\n", after)
    return _continues(data[after : len(data) if end == -1 else end], width)


def _gapped_grid(data: bytes, start: int, width: int, problems: list[Problem]) -> Scan | None:
    """The grid and the rest of the file, as the line reader reads them, when canonical rows
    of ``width`` have empty lines (LF alone) between them: the gap lines dropped, the rows
    read by _translated_grid in one pass. None for anything else (a blank or a CR in a gap,
    a row of another width, a grid over the limit): the line reader decides."""
    segments: list[tuple[int, int]] = []  # the rows between gaps, each ending in its LF
    numbers: list[range] = []  # the line numbers of each segment's rows
    gaps: list[int] = []
    position, line = start, 0
    while True:
        end = data.find(b"\n\n", position) + 1  # after the last row's LF
        if end == 0 or (end - position) % (width + 1):
            return None
        segments.append((position, end))
        rows = (end - position) // (width + 1)
        numbers.append(range(line + 1, line + rows + 1))
        line += rows
        after = end
        while data[after : after + 1] == b"\n":
            after += 1
        next_end = data.find(b"\n", after)
        following = data[after : len(data) if next_end == -1 else next_end]
        if after < len(data) and not following.strip():
            return None  # a gap line holding blanks or a CR: the line reader notes them
        if not _continues(following, width):
            break
        gaps.extend(range(line, line + after - end))
        line += after - end
        position = after
    if len(segments) == 1:
        return None
    walls = _translated_grid(b"".join(data[a:b] for a, b in segments) + b"\n", 0)
    row_lines = tuple(chain.from_iterable(numbers))
    if walls is None or walls.shape != (len(row_lines), width):
        return None
    lines = _split_lines(data[segments[-1][1] :], problems, line)
    problems.append(_gap_problem(gaps))
    return _tail(walls, lines, problems, row_lines)


def _continues(line: bytes, width: int) -> bool:
    """Whether ``line``, after an empty line inside the grid, is a grid row of ``width``."""
    row = _bare(line)
    return len(row) == width and _NOT_HEX.search(row) is None


# Hex digits and blanks: a line of only these is a grid row, even one that reads as a cell
# (``8 2``, a two-cell row written with a space), never an entry.
_ROW_BYTES = b"0123456789ABCDEFabcdef \t"

GAP = "empty line inside the grid"
_GAP_FIX = "grid rows follow it; write the rows with no empty line between them"


def _gap_problem(gaps: list[int]) -> Problem:
    """The one problem of the empty lines inside the grid (``gaps``: their line indexes)."""
    more = _more_lines(len(gaps) - 1)
    return Problem(
        gaps[0] + 1,
        1,
        f"{GAP}{more}: {_GAP_FIX}",
        True,
        note=f"{GAP}{more}: read the rows on both sides as one grid",
    )


def _grid_by_lines(lines: _Lines, problems: list[Problem]) -> tuple[Walls | None, tuple[int, ...]]:
    """The grid read line by line, placing each problem, and the line number of each row;
    None when it cannot be read. Rows after an empty line that are hex digits of the width
    of the row before it still belong to the grid: the empty line is reported once."""
    rows: list[bytes] = []
    numbers: list[int] = []
    gaps: list[int] = []
    index = 0
    while index < len(lines):
        row = _strip(lines, index, problems)
        if not row:
            after = index + 1
            while after < len(lines) and not lines[after].strip():
                after += 1
            if not rows or after == len(lines) or not _continues(lines[after], len(rows[-1])):
                break
            gaps.extend(range(index, after))
            for blank in range(index + 1, after):
                _strip(lines, blank, problems)  # its CR is counted with the others
            index = after
            continue
        if rows and row.translate(None, _ROW_BYTES) and _lenient_pair(row) is not None:
            break  # an entry line with no empty line before it (_tail says so)
        rows.append(row)
        numbers.append(index + 1)
        index += 1
    if not rows:
        problems.append(Problem(1, 1, "no grid rows: the file must start with the grid", True))
        return None, ()
    if gaps:
        problems.append(_gap_problem(gaps))
    # The grid's width is the one most rows share (ties: the first row's), so one row of
    # another length is blamed alone, the first row too.
    width = Counter(len(row) for row in rows).most_common(1)[0][0]
    reference = "row 1 has" if len(rows[0]) == width else "most rows have"
    if width * len(rows) > MAX_CELLS:
        problems.append(_too_big(width, len(rows)))
        return None, ()
    readable = True
    for index, (row, line) in enumerate(zip(rows, numbers, strict=True)):
        bad = _NOT_HEX.search(row)
        if bad is not None:
            column = bad.start()
            problems.append(
                Problem(
                    line,
                    column + 1,
                    f"invalid {_shown(row[column : column + 1])} in the grid: "
                    "expected a hex digit 0-9 or A-F",
                    True,
                    fix=_row_fix(row, column),
                )
            )
            readable = False
        elif len(row) != width:
            problems.append(
                Problem(
                    line,
                    min(len(row), width) + 1,
                    f"row {index + 1} has {len(row)} cells but {reference} {width}",
                    True,
                )
            )
            readable = False
    if not readable:
        # The tail is still checked, so its problems are reported too.
        _tail(np.zeros((len(rows), width), dtype=np.uint8), lines, problems, tuple(numbers))
        return None, ()
    joined = np.frombuffer(b"".join(rows), dtype=np.uint8)
    walls: Walls = _DECODE[joined].reshape(len(rows), width)
    return walls, tuple(numbers)


NBSP_FIX = "a non-breaking space; remove it and save the file as ASCII"
PREFIX_FIX = "remove the 0x before the digits"
BETWEEN_FIX = "write the hex digits with nothing between them"
_BETWEEN_DIGITS = b" \t,;"  # what students put between a row's digits


def _row_fix(row: bytes, column: int) -> str | None:
    """What to write instead of a grid row whose first bad byte, at ``column``, is one a
    writer puts on every row: a non-breaking space (cp1252 0xa0, UTF-8 0xc2 0xa0), a 0x
    before the digits, blanks, commas or semicolons between them; None for anything else."""
    if row[column : column + 1] == b"\xa0" or row[column : column + 2] == b"\xc2\xa0":
        return NBSP_FIX
    if column == 1 and row[:2] in (b"0x", b"0X") and _NOT_HEX.search(row, 2) is None:
        return PREFIX_FIX
    digits = row.translate(None, _BETWEEN_DIGITS)
    if column and row[column] in _BETWEEN_DIGITS and _NOT_HEX.search(digits) is None:
        return BETWEEN_FIX
    return None


def _tail(
    walls: Walls, lines: _Lines, problems: list[Problem], row_lines: tuple[int, ...] = ()
) -> Scan:
    """Everything after the grid: one empty line, the entry, the exit, the path. Every line
    is checked whatever the others hold, so one run reports all of the footer's faults.
    ``row_lines``: the line number of each grid row, when not simply 1 to height."""
    height = walls.shape[0]
    last = row_lines[-1] if row_lines else height  # the grid's last line
    row_lines = row_lines if last != height else ()
    blank = last  # index of the line that must be empty
    if blank >= len(lines):
        message = "the file ends after the grid: no entry, exit or path lines"
        problems.append(Problem(last, walls.shape[1] + 1, message, True, note=""))
        return Scan(None, problems, walls, row_lines=row_lines or None)
    entry_index = blank + 1
    if lines[blank].strip():  # the grid reader stopped at an entry line: no empty line
        problems.append(
            Problem(
                blank + 1,
                1,
                f"expected an empty line after the grid, found {_excerpt(lines[blank].strip())}: "
                "write one empty line between the grid and the entry",
                True,
                note="no empty line after the grid: read the entry on this line",
            )
        )
        entry_index = blank
    extra = 0
    while entry_index + extra < len(lines) and not lines[entry_index + extra].strip():
        extra += 1
    if extra:
        problems.append(
            Problem(
                entry_index + 1,
                1,
                f"expected exactly one empty line after the grid, found {extra + 1}: "
                f"remove {extra}",
                True,
                note=f"{extra + 1} empty lines after the grid: read the entry after them",
            )
        )
        entry_index += extra
    path = ""
    path_first = _path_first(lines, entry_index)
    if path_first:  # path, entry, exit: one problem on the path's line, each read as it is
        line = _strip(lines, entry_index, problems)
        path = line.decode("ascii")
        problems.append(
            Problem(
                entry_index + 1,
                1,
                f"entry must be two non-negative integers x,y, got {_excerpt(line)}: "
                "this is the path; write the entry line, the exit line, then the path",
                True,
                note=f"entry line holds the path, {_excerpt(line)}: read the entry and the "
                "exit on the two lines after it",
            )
        )
        entry_index += 1
    entry, entry_read = _coordinates(lines, entry_index, "entry", problems)
    exit_, exit_read = (None, None)
    if entry_index < len(lines):
        exit_, exit_read = _coordinates(lines, entry_index + 1, "exit", problems)
    if entry_read and exit_read and (entry_read[0], exit_read[0]) == ("exit", "entry"):
        entry_read, exit_read = exit_read, entry_read  # labelled, in the other order

    path_index = entry_index + 2  # the footer's last line (the exit's when the path came first)
    if path_first:
        path_index -= 1
    if path_index - 1 < len(lines):
        if path_index >= len(lines):
            problems.append(
                Problem(path_index + 1, 1, "missing the path line", False, on_path_line=True)
            )
        else:
            if not path_first:
                line = _strip(lines, path_index, problems)
                # translate drops the four letters at C speed: a path of millions of steps
                # is checked in milliseconds; the regular expression only places a bad byte.
                bad = _NOT_STEP.search(line) if line.translate(None, b"NESW") else None
                if bad is None:
                    path = line.decode("ascii")
                else:
                    problem, path = _path_problem(line, bad.start(), path_index)
                    problems.append(problem)
            rest = lines.after(path_index)
            for index in range(path_index + 1, len(lines)):
                _without_cr(lines, index, problems)  # those after the path are counted too
            for offset, extra_line in enumerate(rest):
                if extra_line.strip():
                    problems.append(
                        Problem(
                            path_index + 2 + offset,
                            1,
                            "unexpected content after the path line",
                            True,
                            note="unexpected content after the path line: ignored",
                        )
                    )
                    break
            else:
                if rest:
                    problems.append(
                        Problem(path_index + 2, 1, "empty line after the path line", False)
                    )

    found = Scan(None, problems, walls, entry_line=entry_index + 1, row_lines=row_lines or None)
    found.path_line = entry_index if path_first else None
    found.entry = entry_read[1] if entry_read else None
    found.exit = exit_read[1] if exit_read else None
    if found.entry is not None and found.exit is not None:
        found.lenient = Maze(walls, found.entry, found.exit, path)
    if any(p.fatal and not p.on_path_line for p in problems) or entry is None or exit_ is None:
        return found
    found.maze = found.lenient
    return found


def _path_first(lines: _Lines, index: int) -> bool:
    """Whether the footer from line ``index`` is written path, entry, exit: a line of the
    steps N E S W, then two lines each holding a cell (``x,y`` or a clear form)."""
    if index + 2 >= len(lines):
        return False
    steps = _bare(lines[index])
    if not steps or steps.translate(None, b"NESW"):
        return False
    cells = (_bare(lines[at]) for at in (index + 1, index + 2))
    return all(_COORDINATES.fullmatch(c) or _lenient_pair(c) is not None for c in cells)


def _path_problem(line: bytes, column: int, index: int) -> tuple[Problem, str]:
    """A path line with a byte that is no step: what to write instead when the steps are
    clear (lowercase, letters with something between them, a label before them), else the
    byte; and the path a lenient reader takes (the letters after a label, else none)."""
    labelled = _PATH_LABEL.fullmatch(line)
    steps = b"" if labelled is None else labelled.group(2)
    if steps.translate(None, b"NESW"):
        steps = b""  # a label before anything but steps in capitals: no path to read
    note = None
    if steps:
        message = (
            f"path: {_excerpt(line)} is not a path: write the letters N E S W alone, with no label"
        )
        note = f"path line holds a label, {_excerpt(line)}: read the letters after it"
        column = 0
    elif _STEPS.fullmatch(line):
        message = f"path: {_excerpt(line)} is not a path: write the letters N E S W in capitals"
        column = 0
    elif _separated_steps(line):
        message = (
            f"path: {_excerpt(line)} is not a path: "
            "write the letters N E S W with nothing between them"
        )
        column = 0
    else:
        message = f"invalid {_shown(line[column : column + 1])} in the path: expected N, E, S or W"
    path = steps.decode("ascii")
    return Problem(index + 1, column + 1, message, True, on_path_line=True, note=note), path


_LOWERCASE = re.compile(rb"[a-f]")


def lowercase_digits(
    data: bytes, height: int, row_lines: tuple[int, ...] | None = None
) -> list[Problem]:
    """The first lowercase hex digit of the ``height`` grid rows, as one problem that says
    how many more rows have one: valid, but not the strict format
    (``validate --strict-format``). ``row_lines``: each row's line, as ``Scan.row_lines``
    gives it when empty lines lie between the rows."""
    data = _other_line_ends(data)[0]
    start = len(BOM) if data.startswith(BOM) else 0
    numbers = row_lines or range(1, height + 1)
    lines = data[start:].split(b"\n", numbers[-1] if numbers else 0)
    found: list[tuple[int, int, str]] = []
    for number in numbers:
        row = lines[number - 1]
        bad = _LOWERCASE.search(row)
        if bad is not None:
            found.append((number, bad.start() + 1, chr(row[bad.start()])))
    if not found:
        return []
    line, column, digit = found[0]
    message = (
        f"lowercase hex digit '{digit}'{_more_lines(len(found) - 1)}: the strict format "
        'writes A-F in capitals (in Python: f"{value:X}")'
    )
    return [Problem(line, column, message, False)]


def parse(data: bytes | str, *, ignore_path: bool = False, source: str | None = None) -> Maze:
    """The lenient reader: a Maze, or FormatError at the first problem it cannot tolerate.

    With ``ignore_path`` a malformed path line is dropped (the maze gets an empty path), for
    commands such as solve that compute a new one.
    """
    result = scan(data)
    for problem in sorted(result.problems, key=lambda p: (p.line, p.column)):
        if problem.fatal and not (ignore_path and problem.on_path_line):
            raise FormatError(problem.message, problem.line, problem.column, source)
    assert result.maze is not None  # no fatal problem means a maze was built
    if any(p.fatal for p in result.problems):
        result.maze.path = ""
    return result.maze


def parse_lenient(data: bytes | str, *, source: str | None = None) -> tuple[Maze, list[str]]:
    """The reader of ``stats``: the grid as ``parse`` reads it, and whatever the footer
    clearly means (specs/format.md, "Footers stats reads"), with one note per thing it read
    past. A footer with no entry or exit to read takes the corner cells (0,0) and
    (W-1,H-1) for them, so the verdicts that need none still come. FormatError when the
    grid itself cannot be read."""
    result = scan(data)
    name = STDIN_NAME if source is None else source
    fatal = sorted((p for p in result.problems if p.fatal), key=lambda p: (p.line, p.column))
    walls = result.walls
    if walls is None or walls.size == 0:  # a grid problem: every other one leaves the walls
        first = fatal[0]
        raise FormatError(first.message, first.line, first.column, source)
    notes = []
    for problem in fatal:
        if problem.on_path_line:
            note = problem.note or f"{problem.message}: the path line was ignored"
        elif problem.note == "":
            continue  # a missing line: the corner cells' note below says it
        else:
            note = problem.note or f"{problem.message}: not read"
        notes.append(f"{name}:{problem.line}:{problem.column}: {note}")
    height, width = walls.shape
    corners = {"entry": (0, 0), "exit": (width - 1, height - 1)}
    entry = result.entry if result.entry is not None else corners["entry"]
    exit_ = result.exit if result.exit is not None else corners["exit"]
    taken = [
        f"the {what} {cell[0]},{cell[1]}"
        for what, read, cell in (("entry", result.entry, entry), ("exit", result.exit, exit_))
        if read is None
    ]
    if taken:
        missing = " or ".join(t.split()[1] for t in taken)
        cells = "cells" if len(taken) > 1 else "cell"
        notes.append(
            f"{name}: no {missing} to read: reachability is judged from the corner {cells}, "
            f"{' and '.join(taken)}"
        )
    maze = result.maze if result.maze is not None else Maze(walls, entry, exit_, "")
    if result.lenient is not None:
        maze.path = result.lenient.path  # the letters after a label too
    if any(p.drops_path for p in fatal):
        maze.path = ""
    return maze, notes


def dump(maze: Maze) -> str:
    """The canonical text of ``maze``: uppercase hex, LF line ends, a final newline."""
    return _grid_text(maze.walls).decode("ascii") + _footer(maze)


def _grid_text(walls: Walls) -> bytearray:
    """The grid's rows as text, each ending in LF: the values and a column of 16s laid out in
    one array, then bytes.translate turns each into its digit or LF in one pass."""
    height, width = walls.shape
    if walls.size and int(walls.max()) > 15:
        raise ValueError("wall values must be 0-15")
    text = bytearray(height * (width + 1))
    rows = np.frombuffer(text, dtype=np.uint8).reshape(height, width + 1)
    rows[:, :width] = walls
    rows[:, width] = 16
    return text.translate(_ENCODE_TABLE)


def _footer(maze: Maze) -> str:
    """Everything after the grid: the empty line, the entry, the exit, the path."""
    return f"\n{maze.entry[0]},{maze.entry[1]}\n{maze.exit[0]},{maze.exit[1]}\n{maze.path}\n"


def source_name(source: PathType | None) -> str:
    """How messages name an input: ``<stdin>`` for None or ``-``, else the path as given."""
    return STDIN_NAME if source is None or str(source) == "-" else str(source)


def read_bytes(source: PathType | None, stdin: BinaryIO | None = None) -> bytes:
    """The raw bytes of a file, or of stdin for None or ``-``; MazeError when unreadable."""
    name = source_name(source)
    try:
        if name == STDIN_NAME:
            stream = stdin if stdin is not None else sys.stdin.buffer
            data = stream.read(MAX_INPUT_BYTES + 1)
        else:
            with open(source, "rb") as handle:  # type: ignore[arg-type]
                data = _read_file(handle)
    except OSError as error:
        reason = error.strerror or str(error)
        raise MazeError(f"cannot read: {reason}", name) from error
    if len(data) > MAX_INPUT_BYTES:
        raise TooLargeError(TOO_LARGE, name)
    return data


def _read_file(handle: IO[bytes]) -> bytes:
    """At most MAX_INPUT_BYTES + 1 bytes of an open file, as ``read(MAX_INPUT_BYTES + 1)``
    gives them, but asking for the file's own size first: a read of 64 MiB maps and unmaps a
    buffer that size, about 60 µs, 3 times the cost of reading a small file (-j batches)."""
    try:
        size = os.fstat(handle.fileno()).st_size
    except OSError:
        size = 0
    if not 0 < size <= MAX_INPUT_BYTES:  # a pipe or device (size 0), or too big anyway
        return handle.read(MAX_INPUT_BYTES + 1)
    data = handle.read(size + 1)  # the whole file, and one byte more if it grew
    if len(data) > size:
        data += handle.read(MAX_INPUT_BYTES + 1 - len(data))
    return data


def read(
    source: PathType | None = None, *, ignore_path: bool = False, stdin: BinaryIO | None = None
) -> Maze:
    """Read and leniently parse a maze from a path, or from stdin for None or ``-``."""
    name = source_name(source)
    return parse(read_bytes(source, stdin), ignore_path=ignore_path, source=name)


def write(maze: Maze, target: PathType | None = None) -> None:
    """Write ``maze`` to a path (atomically: temp file then rename), or to stdout for None/``-``."""
    if target is None or str(target) == "-":
        sys.stdout.write(dump(maze))
        sys.stdout.flush()
    else:
        from .outfile import atomic_write  # tempfile is only needed when writing a file

        # in two chunks: the grid is never copied into one text with the footer
        atomic_write(target, [_grid_text(maze.walls), _footer(maze).encode("ascii")])
