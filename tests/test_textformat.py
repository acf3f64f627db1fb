"""The format module: exact round trips, lenient reading, and every fatal message's place."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from mazekit import textformat
from mazekit.errors import FormatError, MazeError, TooLargeError, printable
from mazekit.model import Maze
from mazekit.rules import validate
from mazekit.textformat import BOM, GAP, Scan, dump, parse, parse_lenient, scan, write
from tests.conftest import SMALL_MAZE, Invoke

SAMPLE_20X15 = Path(__file__).resolve().parent.parent / "samples" / "valid-20x15-perfect.txt"


@st.composite
def mazes(draw: st.DrawFn) -> Maze:
    """Any grid of digits with any entry, exit and path: the format does not judge content."""
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 12))
    cells = draw(st.lists(st.integers(0, 15), min_size=width * height, max_size=width * height))
    walls = np.array(cells, dtype=np.uint8).reshape(height, width)
    entry = (draw(st.integers(0, 99)), draw(st.integers(0, 99)))
    exit_ = (draw(st.integers(0, 99)), draw(st.integers(0, 99)))
    path = draw(st.text(alphabet="NESW", max_size=30))
    return Maze(walls, entry, exit_, path)


@given(mazes())
def test_parse_inverts_dump(maze: Maze) -> None:
    assert parse(dump(maze)) == maze


@given(mazes())
def test_dump_inverts_parse_byte_for_byte(maze: Maze) -> None:
    text = dump(maze)
    assert dump(parse(text)) == text


@given(mazes())
def test_canonical_files_have_no_format_problems(maze: Maze) -> None:
    assert scan(dump(maze)).problems == []


def test_lowercase_hex_reads_like_uppercase_and_writes_uppercase() -> None:
    maze = parse(SMALL_MAZE.lower().replace("eeeswww", "EEESWWW"))
    assert dump(maze) == SMALL_MAZE


def test_lenient_reader_tolerates_crlf_trailing_blanks_bom_and_no_final_newline() -> None:
    messy = "\ufeff" + SMALL_MAZE.replace("\n", "  \r\n").rstrip("\r\n")
    assert dump(parse(messy)) == SMALL_MAZE
    messages = [p.message for p in scan(messy).problems]
    assert "file starts with a UTF-8 byte order mark" in messages
    assert (
        "trailing whitespace, as do 5 more lines: remove the spaces or tabs at the end of the line"
        in messages
    )
    assert (
        "line ends with CRLF, not LF, as do 4 more lines: end each line with LF alone "
        '(in Python: open(name, "w", newline="\\n"))'
    ) in messages
    assert "missing newline at the end of the file: end the last line with LF too" in messages
    assert all(not p.fatal for p in scan(messy).problems)


def test_missing_path_line_reads_as_empty_path() -> None:
    maze = parse("D553\nD556\n\n0,0\n0,1\n")
    assert maze.path == ""


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("", 1, 1, "empty input: no grid rows"),
        ("\n0,0\n", 1, 1, "no grid rows: the file must start with the grid"),
        (
            "D5x3\nD556\n\n0,0\n0,1\n\n",
            1,
            3,
            "invalid 'x' in the grid: expected a hex digit 0-9 or A-F",
        ),
        (
            "D553\nD5\xff6\n\n0,0\n0,1\n\n",
            2,
            3,
            "invalid byte 0xc3 in the grid: expected a hex digit 0-9 or A-F",
        ),
        ("D553\nD56\n\n0,0\n0,1\n\n", 2, 4, "row 2 has 3 cells but row 1 has 4"),
        (
            "D553\n\nD556\n\n0,0\n0,1\nEEESWWW\n",
            2,
            1,
            "empty line inside the grid: grid rows follow it; "
            "write the rows with no empty line between them",
        ),
        (
            "D553\n\nD556\n\n\nD556\n\n0,0\n0,1\nEEESWWW\n",
            2,
            1,
            "empty line inside the grid, as do 2 more lines: grid rows follow it; "
            "write the rows with no empty line between them",
        ),
        ("D553F\nD556\nD556\n\n0,0\n0,1\n\n", 1, 5, "row 1 has 5 cells but most rows have 4"),
        ("D553F\nD556\n\n0,0\n0,1\n\n", 2, 5, "row 2 has 4 cells but row 1 has 5"),  # a tie
        # hex digits of another width after the empty line are no grid row: the entry line
        (
            "D553\nD556\n\n12\n0,1\n\n",
            4,
            1,
            "entry must be two non-negative integers x,y, got '12'",
        ),
        ("D553\nD556\n", 2, 5, "the file ends after the grid: no entry, exit or path lines"),
        ("D553\nD556", 2, 5, "the file ends after the grid: no entry, exit or path lines"),
        (
            "D553\nD556\n\n\n0,0\n0,1\n\n",
            4,
            1,
            "expected exactly one empty line after the grid, found 2: remove 1",
        ),
        ("D553\nD556\n\n", 4, 1, "missing the entry line (x,y)"),
        ("D553\nD556\n\n0,0\n", 5, 1, "missing the exit line (x,y)"),
        (
            "D553\nD556\n\n-1,0\n0,1\n\n",
            4,
            1,
            "entry must be two non-negative integers x,y, got '-1,0'",
        ),
        (
            "D553\nD556\n\n0,0\n0.1\n\n",
            5,
            1,
            "exit must be two non-negative integers x,y, got '0.1'",
        ),
        ("D553\nD556\n\n0,0\n0,1\nEEX\n", 6, 3, "invalid 'X' in the path: expected N, E, S or W"),
        ("D553\nD556\n\n0,0\n0,1\nEEESWWW\nmore\n", 7, 1, "unexpected content after the path line"),
    ],
)
def test_fatal_problems_name_their_line_and_column(
    text: str, line: int, column: int, message: str
) -> None:
    with pytest.raises(FormatError) as caught:
        parse(text, source="m.txt")
    assert (caught.value.line, caught.value.column, caught.value.message) == (line, column, message)
    assert str(caught.value) == f"m.txt:{line}:{column}: {message}"


def test_ignore_path_drops_a_malformed_path() -> None:
    assert parse("D553\nD556\n\n0,0\n0,1\nEEX\n", ignore_path=True).path == ""


def test_grid_over_the_cell_limit_is_refused_before_allocating() -> None:
    line = b"F" * 4001
    data = b"\n".join([line] * 4000) + b"\n\n0,0\n1,1\n\n"
    with pytest.raises(FormatError, match="grid of 4001x4000 cells is larger than the limit"):
        parse(data)


@given(mazes())
def test_the_whole_array_reader_and_the_line_reader_agree(maze: Maze) -> None:
    """A canonical grid takes the fast path; one CRLF sends the same file down the slow one."""
    text = dump(maze)
    fast = scan(text)
    slow = scan(text.replace("\n", "\r\n", 1))
    assert fast.maze == slow.maze == maze
    assert [p.message for p in slow.problems] == [
        'line ends with CRLF, not LF: end each line with LF alone (in Python: open(name, "w", '
        'newline="\\n"))'
    ]


def test_a_tall_grid_reads_in_whole_array_steps() -> None:
    data = b"F\n" * 300_000 + b"\n0,0\n0,1\n\n"
    maze = parse(data)
    assert (maze.width, maze.height) == (1, 300_000)


@pytest.mark.parametrize("line_end", [b"\n", b"\r\n"])
def test_more_rows_than_the_cell_limit_are_refused_without_splitting(line_end: bytes) -> None:
    data = b"F" + line_end
    with pytest.raises(FormatError, match="grid of 1x16000001 cells is larger than the limit"):
        parse(data * 16_000_001 + b"\n0,0\n0,1\n\n")


def test_missing_path_line_and_trailing_empty_lines_are_tolerated_problems() -> None:
    problems = scan("D553\nD556\n\n0,0\n0,1\n").problems
    assert [(p.line, p.column, p.message, p.fatal) for p in problems] == [
        (6, 1, "missing the path line", False)
    ]
    problems = scan(SMALL_MAZE + "\n\n").problems
    assert [(p.line, p.column, p.message, p.fatal) for p in problems] == [
        (7, 1, "empty line after the path line", False)
    ]


# The fast grid reader and writer (bytes.translate) against plain references.


@st.composite
def mutated_files(draw: st.DrawFn) -> bytes:
    """A canonical file with a few bytes inserted, deleted or replaced anywhere (a BOM too):
    the inputs where the fast grid reader and its reference could part."""
    data = bytearray(dump(draw(mazes())).encode("ascii"))
    for _ in range(draw(st.integers(0, 3))):
        position = draw(st.integers(0, len(data)))
        byte = draw(st.sampled_from(b"\n\r \t0aFgN,\x00\xff"))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        if action == "insert" or position == len(data):
            data.insert(position, byte)
        elif action == "delete":
            del data[position]
        else:
            data[position] = byte
    return (BOM if draw(st.booleans()) else b"") + bytes(data)


def _scan_fields(result: Scan) -> tuple[object, ...]:
    """A Scan as comparable values (its arrays as bytes)."""
    maze = result.maze
    walls = None if result.walls is None else (result.walls.shape, result.walls.tobytes())
    found = None if maze is None else (dump(maze), maze.walls.dtype)
    return found, walls, result.problems


@given(mutated_files())
def test_the_translated_grid_reads_what_the_reference_reads(data: bytes) -> None:
    start = len(BOM) if data.startswith(BOM) else 0
    problems: list[textformat.Problem] = []
    fast = textformat._translated_grid(data, start)
    reference = textformat._canonical_grid_reference(data, start, problems)
    if fast is None:
        assert reference is None
    else:
        assert reference is not None and problems == []
        assert fast.dtype == reference.dtype and np.array_equal(fast, reference)
        fast[0, 0] ^= 1  # a grid the maze owns: writable, not a view of the file
    with mock.patch.object(textformat, "_translated_grid", lambda data, start: None):
        slow = scan(data)
    assert _scan_fields(scan(data)) == _scan_fields(slow)


def _plain_dump(maze: Maze) -> str:
    """The format written the plain way, a character per cell: the reference of dump."""
    rows = "".join("".join("0123456789ABCDEF"[v] for v in row) + "\n" for row in maze.walls)
    return f"{rows}\n{maze.entry[0]},{maze.entry[1]}\n{maze.exit[0]},{maze.exit[1]}\n{maze.path}\n"


@given(mazes(), st.booleans())
def test_dump_and_write_give_the_plain_text(maze: Maze, transposed: bool) -> None:
    if transposed:  # a grid that is not C-contiguous in memory
        maze = Maze(np.asfortranarray(maze.walls), maze.entry, maze.exit, maze.path)
    assert dump(maze) == _plain_dump(maze)


def test_write_to_a_file_gives_the_dumped_bytes(tmp_path: Path) -> None:
    maze = parse(SMALL_MAZE)
    write(maze, tmp_path / "maze.txt")
    assert (tmp_path / "maze.txt").read_bytes() == SMALL_MAZE.encode("ascii")


def test_dump_refuses_wall_values_over_15() -> None:
    maze = Maze(np.array([[16]], dtype=np.uint8), (0, 0), (0, 0))
    with pytest.raises(ValueError):
        dump(maze)


def test_reading_a_file_that_grows_after_its_size_was_taken_reads_it_all(
    tmp_path: Path,
) -> None:
    """read_bytes asks for the file's size first; a file longer than that is still read
    whole (up to the input limit), as one big read would."""
    target = tmp_path / "maze.txt"
    target.write_text(SMALL_MAZE)
    with mock.patch.object(textformat.os, "fstat", return_value=mock.Mock(st_size=5)):
        assert textformat.read_bytes(target) == SMALL_MAZE.encode("ascii")
    with (
        mock.patch.object(textformat, "MAX_INPUT_BYTES", 8),
        pytest.raises(TooLargeError),
    ):
        textformat.read_bytes(target)


# --- reading faults of students' files (specs/errors.md, "Reading a maze") -------------------

_QUOTED_FOOTERS = [
    # the entry line as written, and as every command and format quotes it
    (b"0,0\x1b[2J", r"'0,0\x1b[2J'"),  # an escape sequence that would clear the screen
    (b"0\tx", r"'0\tx'"),
    (b"0,0\x96", r"'0,0\x96'"),  # a Windows-1252 dash: not UTF-8
]


@pytest.mark.parametrize(("entry", "quoted"), _QUOTED_FOOTERS)
def test_a_quoted_line_is_printable_and_the_same_in_every_command_and_format(
    invoke: Invoke, tmp_path: Path, entry: bytes, quoted: str
) -> None:
    """A line of the file quoted in a message shows control characters and bytes that are not
    UTF-8 as escapes, as file names are: the same text in validate's formats, solve, render
    and stats, and nothing that can drive the terminal."""
    (tmp_path / "m.txt").write_bytes(b"93\nC6\n\n" + entry + b"\n1,1\nES\n")
    name = str(tmp_path / "m.txt")
    message = f"entry must be two non-negative integers x,y, got {quoted}"
    text = invoke(["validate", name])
    assert (text.exit_code, text.stdout) == (
        1,
        f"{name}:4:1: format: {message}\n{name}: 1 violation (format 1)\n",
    )
    csv = invoke(["validate", "--format", "csv", name])
    assert csv.stdout.splitlines()[1] == f'{name},4,1,format,,"{message}"'
    document = json.loads(invoke(["validate", "--format", "json", name]).stdout)
    assert document["files"][0]["violations"][0]["message"] == message
    for command in (["solve"], ["render", "--format", "text"]):
        result = invoke([*command, name])
        assert (result.exit_code, result.stderr) == (1, f"Error: {name}:4:1: {message}\n")
    stats = invoke(["stats", name])
    assert stats.exit_code == 0
    assert f"note: {name}:4:1: {message}: not read\n" in stats.stderr
    for output in (text.stdout, csv.stdout, stats.stderr):
        assert all(char.isprintable() or char in "\r\n" for char in output)


# Entry lines whose cell is clear though not written x,y (specs/format.md, "Footers stats
# reads"), each read as 0,0; and lines that are not clear.
_CLEAR_ENTRIES = [
    "0;0",
    "0 0",
    "0\t0",
    "x=0,y=0",
    "x=0, y=0",
    "X=0 Y=0",
    "x: 0, y: 0",
    '"0,0"',
    "'0,0'",
    "0,0,",
    "(0;0)",
    "(0, 0),",
    '("0, 0")',
    "Entry: x=0,y=0",
]
_UNCLEAR_ENTRIES = ["0.0", "0-0", "0/0", "1 2 3", "x=0", "0,,0", "(0, 0"]


@pytest.mark.parametrize("entry", _CLEAR_ENTRIES)
def test_a_clear_entry_gets_the_advice_and_stats_reads_it(invoke: Invoke, entry: str) -> None:
    """validate says what to write, stats reads the cell with a note, and the strict pipeline
    readers (solve) still refuse it with validate's words."""
    maze = f"93\nC6\n\n{entry}\n1,1\nES\n"
    quoted = printable(entry)
    message = f"entry must be two non-negative integers x,y, got '{quoted}': write 0,0"
    text = invoke(["validate"], input=maze)
    assert (text.exit_code, text.stdout) == (
        1,
        f"<stdin>:4:1: format: {message}\n<stdin>: 1 violation (format 1)\n",
    )
    stats = invoke(["stats"], input=maze)
    assert (stats.exit_code, stats.stderr) == (
        0,
        f"note: <stdin>:4:1: entry written as '{quoted}': read as 0,0\n",
    )
    assert "  shortest path: 2 steps, tortuosity 1.00" in stats.stdout.splitlines()
    solve = invoke(["solve"], input=maze)
    assert (solve.exit_code, solve.stderr) == (1, f"Error: <stdin>:4:1: {message}\n")


@pytest.mark.parametrize("entry", _UNCLEAR_ENTRIES)
def test_an_unclear_entry_gets_no_advice_and_is_not_read(invoke: Invoke, entry: str) -> None:
    """A point, a dash or a slash can be part of a number or a range; three numbers or one
    are no cell: validate quotes the line alone and stats takes the corner cell."""
    maze = f"93\nC6\n\n{entry}\n1,1\nES\n"
    message = f"entry must be two non-negative integers x,y, got '{entry}'"
    text = invoke(["validate"], input=maze)
    assert (text.exit_code, text.stdout.splitlines()[0]) == (1, f"<stdin>:4:1: format: {message}")
    stats = invoke(["stats"], input=maze)
    assert (stats.exit_code, stats.stderr.splitlines()[0]) == (
        0,
        f"note: <stdin>:4:1: {message}: not read",
    )


# A 4x3 maze with an empty line after its first row, and its south-east border open: the
# violations of the rows after the empty line are placed on their own lines.
_GAPPED = b"D553\n\n9556\nC553\n\n0,0\n3,2\nEEESWWWSEEE\n"
_GAP_MESSAGE = (
    "empty line inside the grid: grid rows follow it; write the rows with no empty line "
    "between them"
)


def test_an_empty_line_inside_the_grid_is_one_problem_and_the_grid_reads_on(
    invoke: Invoke, tmp_path: Path
) -> None:
    (tmp_path / "m.txt").write_bytes(_GAPPED)
    name = str(tmp_path / "m.txt")
    result = invoke(["validate", name])
    assert (result.exit_code, result.stdout) == (
        1,
        f"{name}:2:1: format: {_GAP_MESSAGE}\n"
        f"{name}:4:4: border: south wall of (3,2) is open on the border\n"
        f"{name}: 2 violations (format 1, border 1)\n",
    )
    solved = invoke(["solve", name])
    assert (solved.exit_code, solved.stdout, solved.stderr) == (
        1,
        "",
        f"Error: {name}:2:1: {_GAP_MESSAGE}\n",
    )
    stats = invoke(["stats", name])
    assert stats.exit_code == 0
    assert "  size: 4x3 (12 cells)\n" in stats.stdout
    assert stats.stderr == (
        f"note: {name}:2:1: empty line inside the grid: read the rows on both sides as one grid\n"
    )


_GAP_NOTE_ROW = (
    "| `note: <file>:<line>:<column>: empty line inside the grid: read the rows on both sides "
    "as one grid` (`empty line inside the grid, as do <n> more lines: ...`, `as does 1 more "
    "line`) | 0 |"
)


@pytest.mark.parametrize(
    ("gap", "more"), [(1, ""), (2, ", as does 1 more line"), (4, ", as do 3 more lines")]
)
def test_stats_note_of_empty_lines_inside_the_grid_is_the_one_in_the_spec(
    invoke: Invoke, gap: int, more: str
) -> None:
    spec = (SAMPLE_20X15.parent.parent / "specs" / "errors.md").read_text(encoding="utf-8")
    assert _GAP_NOTE_ROW in spec.split("\n## stats\n")[1].split("\n## ")[0]
    result = invoke(["stats", "-"], input=b"D553\n" + b"\n" * gap + _GAPPED[6:])
    assert (result.exit_code, result.stderr) == (
        0,
        f"note: <stdin>:2:1: empty line inside the grid{more}: read the rows on both sides as "
        "one grid\n",
    )


def test_an_empty_line_after_every_row_is_one_problem() -> None:
    rows = ["D553", "9556", "C557"]
    data = "\n\n".join(rows) + "\n\n0,0\n3,2\nEEESWWWSEEE\n"
    found = scan(data)
    message = (
        "empty line inside the grid, as does 1 more line: grid rows follow it; "
        "write the rows with no empty line between them"
    )
    assert [(p.line, p.column, p.message) for p in found.problems] == [(2, 1, message)]
    assert found.walls is not None and found.walls.shape == (3, 4)
    assert found.row_lines == (1, 3, 5) and found.entry_line == 7
    assert found.lenient is not None and dump(found.lenient) == "\n".join(rows) + (
        "\n\n0,0\n3,2\nEEESWWWSEEE\n"
    )


@st.composite
def gapped_files(draw: st.DrawFn) -> bytes:
    """A canonical file with empty lines between some grid rows (LF alone); in half of them,
    a gap line holding a blank or a CR, a row of another width or with a trailing blank."""
    maze = draw(mazes())
    lines = dump(maze).split("\n")
    clean = draw(st.booleans())
    out = []
    for index, row in enumerate(lines[: maze.height]):
        if not clean and draw(st.integers(0, 5)) == 0:
            row += draw(st.sampled_from(["0", " ", "\r"]))
        out.append(row)
        if index < maze.height - 1 and draw(st.booleans()):
            gap = st.just("") if clean else st.sampled_from(["", "", " ", "\r"])
            out.extend(draw(st.lists(gap, min_size=1, max_size=3)))
    return "\n".join(out + lines[maze.height :]).encode("ascii")


def _scan_facts(result: Scan) -> tuple[object, ...]:
    """Everything a reader of a Scan uses, as comparable values."""
    lenient = None if result.lenient is None else dump(result.lenient)
    facts = (result.entry, result.exit, result.entry_line, result.path_line, result.row_lines)
    return *_scan_fields(result), lenient, *facts


@given(gapped_files())
@example(b"D\n\nD\n\n \nD\n\n0,0\n0,2\n\n")  # a gap line holding a blank, after a clean gap
def test_the_whole_array_reader_of_a_gapped_grid_reads_what_the_line_reader_reads(
    data: bytes,
) -> None:
    with mock.patch.object(textformat, "_gapped_grid", lambda *args: None):
        by_lines = scan(data)
    assert _scan_facts(scan(data)) == _scan_facts(by_lines)


def test_a_tall_grid_with_an_empty_line_reads_in_whole_array_steps() -> None:
    rows, footer = b"D553\n" * 150_000, b"\n0,0\n3,299999\n\n"
    with mock.patch.object(textformat, "_grid_by_lines", side_effect=AssertionError):
        found = scan(rows + b"\n" + rows + footer)
    assert found.lenient is not None and found.lenient == parse(rows * 2 + footer)
    assert [(p.line, p.message.split(":")[0]) for p in found.problems] == [(150_001, GAP)]
    assert found.row_lines == (*range(1, 150_001), *range(150_002, 300_002))


_CR_FIX = 'end each line with LF alone (in Python: open(name, "w", newline="\\n"))'
_CR_CR_LF_FIX = (
    'end each line with LF alone (in Python: write "\\n", not "\\r\\n", to a file opened with '
    'open(name, "w", newline="\\n"))'
)


@pytest.mark.parametrize(
    ("end", "message"),
    [
        (b"\r", f"line ends with CR alone, not LF, as do 6 more lines: {_CR_FIX}"),
        (b"\r\r\n", f"line ends with CR CR LF, not LF, as do 6 more lines: {_CR_CR_LF_FIX}"),
    ],
)
def test_cr_alone_and_cr_cr_lf_line_ends_are_one_problem_and_read_like_lf(
    invoke: Invoke, tmp_path: Path, end: bytes, message: str
) -> None:
    """CR alone (classic Mac OS) and CR CR LF ("\\r\\n" written in Windows' text mode) are
    named as what they are, once, and the file reads as with LF."""
    canonical = b"D553\n9556\nC557\n\n0,0\n3,2\nEEESWWWSEEE\n"
    (tmp_path / "m.txt").write_bytes(canonical.replace(b"\n", end))
    name = str(tmp_path / "m.txt")
    result = invoke(["validate", name])
    assert (result.exit_code, result.stdout) == (
        1,
        f"{name}:1:5: format: {message}\n{name}: 1 violation (format 1)\n",
    )
    solved = invoke(["solve", name])
    assert (solved.exit_code, solved.stdout, solved.stderr) == (0, canonical.decode(), "")


def test_cr_cr_lf_after_a_bom_is_placed_on_its_line_and_column() -> None:
    found = scan(BOM + b"D553\nD556\r\r\n\r\r\n0,0\r\r\n0,1\r\r\nEEESWWW\r\r\n")
    assert [(p.line, p.column, p.message) for p in found.problems] == [
        (2, 5, f"line ends with CR CR LF, not LF, as do 4 more lines: {_CR_CR_LF_FIX}"),
        (1, 1, "file starts with a UTF-8 byte order mark"),
    ]
    assert found.maze is not None and dump(found.maze) == SMALL_MAZE
    first = scan(BOM + b"F\r\r0,0\r0,0\r\r").problems[0]
    assert (first.line, first.column) == (1, 2)


def test_a_long_first_row_is_the_one_blamed(invoke: Invoke, tmp_path: Path) -> None:
    """The grid's width is the one most rows share: a long first row is one problem, not one
    per other row."""
    lines = SAMPLE_20X15.read_text().split("\n")
    lines[0] += "F"
    (tmp_path / "m.txt").write_text("\n".join(lines))
    name = str(tmp_path / "m.txt")
    result = invoke(["validate", name])
    assert (result.exit_code, result.stdout) == (
        1,
        f"{name}:1:21: format: row 1 has 21 cells but most rows have 20\n"
        f"{name}: 1 violation (format 1)\n",
    )
    solved = invoke(["solve", name])
    assert (solved.exit_code, solved.stderr) == (
        1,
        f"Error: {name}:1:21: row 1 has 21 cells but most rows have 20\n",
    )


def test_crlf_is_counted_on_every_line_empty_lines_after_the_path_too(
    invoke: Invoke, tmp_path: Path
) -> None:
    (tmp_path / "m.txt").write_bytes(b"93\r\nC6\r\n\r\n0,0\r\n1,1\r\nES\r\n\r\n\r\n")
    name = str(tmp_path / "m.txt")
    result = invoke(["validate", name])
    assert (result.exit_code, result.stdout) == (
        1,
        f"{name}:1:3: format: line ends with CRLF, not LF, as do 7 more lines: "
        'end each line with LF alone (in Python: open(name, "w", newline="\\n"))\n'
        f"{name}:7:1: format: empty line after the path line\n"
        f"{name}: 2 violations (format 2)\n",
    )


_UTF16 = (
    "the file is UTF-16 text: save it as ASCII or UTF-8 (in Python: "
    'open(name, "w", encoding="utf-8"); the > of Windows PowerShell 5 writes UTF-16)'
)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_utf16_file_is_one_problem_saying_so(
    invoke: Invoke, tmp_path: Path, encoding: str
) -> None:
    (tmp_path / "m.txt").write_bytes(SMALL_MAZE.encode(encoding))
    name = str(tmp_path / "m.txt")
    result = invoke(["validate", name])
    assert (result.exit_code, result.stdout) == (
        1,
        f"{name}:1:1: format: {_UTF16}\n{name}: 1 violation (format 1)\n",
    )
    for command in ("solve", "stats"):
        failed = invoke([command, name])
        assert (failed.exit_code, failed.stdout, failed.stderr) == (
            1,
            "",
            f"Error: {name}:1:1: {_UTF16}\n",
        )


def test_a_stray_nul_byte_is_no_utf16_file() -> None:
    problems = scan(b"\0" + SMALL_MAZE.encode("ascii")).problems
    assert problems[0].message == "invalid byte 0x00 in the grid: expected a hex digit 0-9 or A-F"


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (b"D553\n\n9556\n\nc557\n\n0,0\n3,2\nEEESWWWSEEE\n", 5),  # empty lines inside the grid
        (b"D553\r9556\rc557\r\r0,0\r3,2\rEEESWWWSEEE\r", 3),  # CR alone
        (b"D553\r\r\n9556\r\r\nc557\r\r\n\r\r\n0,0\r\r\n3,2\r\r\nEEESWWWSEEE\r\r\n", 3),
    ],
)
def test_strict_format_finds_a_lowercase_digit_on_its_grid_rows_line(
    data: bytes, line: int
) -> None:
    """--strict-format reads the grid rows where the reader found them."""
    report = validate(data, strict_format=True, select=["format"])
    found = [v for v in report.violations if v.message.startswith("lowercase")]
    assert [(v.line, v.column) for v in found] == [(line, 1)]
    assert found[0].message.startswith("lowercase hex digit 'c': the strict format")


_PATH_FIRST = (
    "entry must be two non-negative integers x,y, got 'EEES': this is the path; write the "
    "entry line, the exit line, then the path"
)


def test_a_footer_written_path_entry_exit_is_one_problem_and_stats_reads_it(
    invoke: Invoke,
) -> None:
    """A student's program that writes the path first: one problem on the path's line, the
    entry and exit read on their own lines (the path is checked against the grid there
    too: its step 3 leaves the 3x2 grid), and stats measures the maze with a note."""
    maze = "D53\nD56\n\nEEES\n0,0\n2,1\n"
    text = invoke(["validate"], input=maze)
    assert (text.exit_code, text.stdout.splitlines()) == (
        1,
        [
            f"<stdin>:4:1: format: {_PATH_FIRST}",
            "<stdin>:4:3: path: step 3 (E) from (2,0) leaves the grid",
            "<stdin>: 2 violations (format 1, path 1)",
        ],
    )
    stats = invoke(["stats"], input=maze)
    assert (stats.exit_code, stats.stderr) == (
        0,
        "note: <stdin>:4:1: entry line holds the path, 'EEES': read the entry and the exit "
        "on the two lines after it\n",
    )
    assert "  shortest path: 3 steps, tortuosity 1.00" in stats.stdout.splitlines()
    for command in (["solve"], ["render", "--format", "text"]):
        result = invoke([*command], input=maze)
        assert (result.exit_code, result.stderr) == (1, f"Error: <stdin>:4:1: {_PATH_FIRST}\n")
    # a cell line in a clear form, or labelled, still gets its own advice
    labelled = invoke(["validate"], input="D53\nD56\n\nEESWW\nEntry: 0,0\n(0, 1)\n")
    assert labelled.stdout.splitlines() == [
        f"<stdin>:4:1: format: {_PATH_FIRST.replace('EEES', 'EESWW')}",
        "<stdin>:5:1: format: entry must be two non-negative integers x,y, got 'Entry: 0,0': "
        "write 0,0",
        "<stdin>:6:1: format: exit must be two non-negative integers x,y, got '(0, 1)': write 0,1",
        "<stdin>: 3 violations (format 3)",
    ]


def test_steps_on_the_entry_line_without_two_cells_after_them_keep_the_order_advice(
    invoke: Invoke,
) -> None:
    """Only one cell after the steps: not the path-first order; the old advice stays."""
    text = invoke(["validate"], input="D53\nD56\n\nEEES\n0,0\n")
    assert (text.exit_code, text.stdout.splitlines()[0]) == (
        1,
        "<stdin>:4:1: format: entry must be two non-negative integers x,y, got 'EEES': the "
        "entry and exit lines come before the path line",
    )


@pytest.mark.parametrize("written", ["Path: ES", "PATH=ES", "path: ES", "path : ES"])
def test_a_labelled_path_line_gets_the_advice_and_the_lenient_reader_reads_it(
    invoke: Invoke, written: str
) -> None:
    """validate says to drop the label; stats measures with a note and parse_lenient gives
    the letters; solve ignores the path line as it ignores any malformed one."""
    maze = f"93\nC6\n\n0,0\n1,1\n{written}\n"
    text = invoke(["validate"], input=maze)
    assert (text.exit_code, text.stdout) == (
        1,
        f"<stdin>:6:1: format: path: '{written}' is not a path: write the letters N E S W "
        "alone, with no label\n<stdin>: 1 violation (format 1)\n",
    )
    stats = invoke(["stats"], input=maze)
    assert (stats.exit_code, stats.stderr) == (
        0,
        f"note: <stdin>:6:1: path line holds a label, '{written}': read the letters after it\n",
    )
    assert textformat.parse_lenient(maze)[0].path == "ES"
    solve = invoke(["solve"], input=maze)
    assert (solve.exit_code, solve.stdout) == (0, "93\nC6\n\n0,0\n1,1\nES\n")


@pytest.mark.parametrize("written", ["Path: es", "Path:", "Path: E S", "Route: ES"])
def test_a_label_before_no_capital_letters_is_the_bad_byte(invoke: Invoke, written: str) -> None:
    """Only the letters in capitals after the label are clear: anything else names its byte,
    and the lenient reader takes no path."""
    maze = f"93\nC6\n\n0,0\n1,1\n{written}\n"
    text = invoke(["validate"], input=maze)
    assert text.stdout.splitlines()[0] == (
        f"<stdin>:6:1: format: invalid '{written[0]}' in the path: expected N, E, S or W"
    )
    assert textformat.parse_lenient(maze)[0].path == ""


def test_the_lenient_reader_gives_the_path_of_a_clear_footer() -> None:
    """parse_lenient returns the path with a footer read past (here the entry's form)."""
    maze, notes = textformat.parse_lenient("93\nC6\n\n(0, 0)\n1,1\nES\n")
    assert (maze.entry, maze.exit, maze.path) == ((0, 0), (1, 1), "ES")
    assert notes == ["<stdin>:4:1: entry written as '(0, 0)': read as 0,0"]


@pytest.mark.parametrize("entry", ["0;0", "x=0 y=0", '"0,0"'])
def test_a_clear_entry_right_after_the_grid_is_the_entry(invoke: Invoke, entry: str) -> None:
    """The newer clear forms end the grid as 0,0 does, with the one advice."""
    text = invoke(["validate"], input=f"93\nC6\n{entry}\n1,1\nES\n")
    assert (text.exit_code, text.stdout.splitlines()[0]) == (
        1,
        f"<stdin>:3:1: format: expected an empty line after the grid, found '{entry}': write "
        "one empty line between the grid and the entry",
    )


def test_digits_with_blanks_between_stay_a_grid_row(invoke: Invoke) -> None:
    """``8 2`` reads as a cell but is a row of a grid written with spaces: the grid's fault."""
    text = invoke(["validate"], input="9 3\n8 2\nC 6\n\n0,0\n1,2\nSS\n")
    assert (text.exit_code, text.stdout) == (
        1,
        "<stdin>:1:2: format: invalid byte 0x20 in the grid: expected a hex digit 0-9 or A-F, "
        "as do 2 more lines: write the hex digits with nothing between them\n"
        "<stdin>: 1 violation (format 1)\n",
    )


# A fault a writer makes on every grid row is told once, on the first row, with how many more
# rows have it and what to write instead (specs/errors.md, "Reading a maze").
_ROWS = ("9153", "AC3A", "C456")
_FOOTER = "\n0,0\n3,2\nESESE\n"
_GRID_FAULT = "in the grid: expected a hex digit 0-9 or A-F"


@pytest.mark.parametrize(
    ("rows", "column", "message"),
    [
        (
            [r.encode() + b"\xa0" for r in _ROWS],
            5,
            f"invalid byte 0xa0 {_GRID_FAULT}, as do 2 more lines: a non-breaking space; "
            "remove it and save the file as ASCII",
        ),
        (
            [r.encode() + b"\xc2\xa0" for r in _ROWS],
            5,
            f"invalid byte 0xc2 {_GRID_FAULT}, as do 2 more lines: a non-breaking space; "
            "remove it and save the file as ASCII",
        ),
        (
            [b"0x" + r.encode() for r in _ROWS],
            2,
            f"invalid 'x' {_GRID_FAULT}, as do 2 more lines: remove the 0x before the digits",
        ),
        (
            [" ".join(r).encode() for r in _ROWS],
            2,
            f"invalid byte 0x20 {_GRID_FAULT}, as do 2 more lines: "
            "write the hex digits with nothing between them",
        ),
        (
            ["\t".join(r).encode() for r in _ROWS],
            2,
            f"invalid byte 0x09 {_GRID_FAULT}, as do 2 more lines: "
            "write the hex digits with nothing between them",
        ),
        (
            [",".join(r).encode() for r in _ROWS],
            2,
            f"invalid ',' {_GRID_FAULT}, as do 2 more lines: "
            "write the hex digits with nothing between them",
        ),
    ],
)
def test_a_fault_on_every_grid_row_is_one_line(
    invoke: Invoke, rows: list[bytes], column: int, message: str
) -> None:
    """validate says it once with the advice; solve, render and stats refuse with that line."""
    data = b"\n".join(rows) + b"\n" + _FOOTER.encode()
    text = invoke(["validate"], input=data)
    assert (text.exit_code, text.stdout) == (
        1,
        f"<stdin>:1:{column}: format: {message}\n<stdin>: 1 violation (format 1)\n",
    )
    for command in (["solve"], ["render", "--format", "text"], ["stats"]):
        refused = invoke(command, input=data)
        assert (refused.exit_code, refused.stderr) == (
            1,
            f"Error: <stdin>:1:{column}: {message}\n",
        ), command


def test_different_faults_on_grid_rows_keep_their_own_lines(invoke: Invoke) -> None:
    """A 0x on one row, a space on another, a typo on a third: each row says its own, and a
    lone row with a writer's fault still gets the advice, with no count."""
    data = "0x9153\nA C3A\nC4G6\n" + _FOOTER
    text = invoke(["validate"], input=data)
    assert (text.exit_code, text.stdout.splitlines()) == (
        1,
        [
            f"<stdin>:1:2: format: invalid 'x' {_GRID_FAULT}: remove the 0x before the digits",
            f"<stdin>:2:2: format: invalid byte 0x20 {_GRID_FAULT}: "
            "write the hex digits with nothing between them",
            f"<stdin>:3:3: format: invalid 'G' {_GRID_FAULT}",
            "<stdin>: 3 violations (format 3)",
        ],
    )


def test_the_same_typo_on_several_rows_is_not_summarised(invoke: Invoke) -> None:
    """A bad letter that is no writer's habit (a 'G') keeps a line per row: it is a typo to
    find, not one fix for the whole file."""
    text = invoke(["validate"], input="9G53\nAC3G\nC456\n" + _FOOTER)
    assert text.stdout.splitlines()[:2] == [
        f"<stdin>:1:2: format: invalid 'G' {_GRID_FAULT}",
        f"<stdin>:2:4: format: invalid 'G' {_GRID_FAULT}",
    ]


# No bytes a student can feed in crash a reader: the one fuzz of every reader.

_CONFIG_LINES = [
    "# A-Maze-ing config",
    "WIDTH=20",
    "HEIGHT=15",
    "ENTRY=0,0",
    "EXIT=19,14",
    "OUTPUT_FILE=maze.txt",
    "PERFECT=True",
    "",
]


@st.composite
def student_files(draw: st.DrawFn) -> bytes:
    """A maze file or a config file as students write them: each line may end in a blank, a
    tab or a CR, lines end in LF, CRLF, CR or CR CR LF, a BOM or the final newline may be
    there or not, and a few bytes may be changed anywhere (the config file given as a maze
    included, which a mutated maze never is: its first line is hex digits)."""
    if draw(st.booleans()):
        lines = draw(st.lists(st.sampled_from(_CONFIG_LINES), min_size=1, max_size=8))
    else:
        lines = dump(draw(mazes())).splitlines()
    ends = st.sampled_from(["", "", " ", "\t", "\r", " \r"])
    text = draw(st.sampled_from(["\n", "\n", "\r\n", "\r", "\r\r\n"])).join(
        line + draw(ends) for line in lines
    )
    data = bytearray(text.encode("ascii") + (b"\n" if draw(st.booleans()) else b""))
    for _ in range(draw(st.integers(0, 2))):
        position = draw(st.integers(0, len(data)))
        data[position:position] = draw(st.sampled_from([b"\n", b" ", b"=", b"0", b"\xff"]))
    return (BOM if draw(st.booleans()) else b"") + bytes(data)


@given(student_files())
@example(b"WIDTH=20 \nHEIGHT=15\n")  # a config with a trailing blank given to stats or solve
def test_no_bytes_make_a_reader_raise_anything_but_a_maze_error(data: bytes) -> None:
    scanned = scan(data)
    assert scanned.maze is not None or any(p.fatal for p in scanned.problems)
    readers = [
        lambda: parse(data),
        lambda: parse(data, ignore_path=True),
        lambda: parse_lenient(data),
        lambda: validate(data, strict_format=True),
    ]
    for reader in readers:
        with contextlib.suppress(MazeError):  # anything else fails the test
            reader()


@pytest.mark.parametrize("trailing", [" ", "\t", "\r"])
def test_a_config_with_a_trailing_blank_or_cr_is_a_config_given_as_a_maze(
    invoke: Invoke, tmp_path: Path, trailing: str
) -> None:
    (tmp_path / "c.txt").write_bytes(f"WIDTH=20{trailing}\nHEIGHT=15\n".encode("ascii"))
    expected = (
        f"Error: {tmp_path / 'c.txt'}:1:1: invalid 'W' in the grid: expected a hex digit 0-9 "
        f"or A-F: {textformat.CONFIG_GIVEN}\n"
    )
    for command in ("stats", "solve"):
        result = invoke([command, str(tmp_path / "c.txt")])
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", expected)
