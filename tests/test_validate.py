"""``mazekit validate`` as graders use it: exact messages, places, exit codes, JSON, options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mazekit.model import Maze
from mazekit.textformat import dump, parse
from tests.conftest import SMALL_MAZE, Invoke, closed_grid, open_wall, serpentine

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
PERFECT_20x15 = (SAMPLES / "valid-20x15-perfect.txt").read_text()


def _lines(result_stdout: str) -> list[str]:
    return result_stdout.splitlines()


def _edit(text: str, change: object) -> str:
    maze = parse(text)
    change(maze)  # type: ignore[operator]
    return dump(maze)


def test_valid_file_prints_ok_and_exits_0(invoke: Invoke, tmp_path: Path) -> None:
    maze = tmp_path / "maze.txt"
    maze.write_text(SMALL_MAZE)
    result = invoke(["validate", str(maze)])
    assert (result.exit_code, result.stdout, result.stderr) == (0, f"{maze}: ok\n", "")


def test_stdin_is_named_stdin(invoke: Invoke) -> None:
    assert invoke(["validate"], input=SMALL_MAZE).stdout == "<stdin>: ok\n"
    assert invoke(["validate", "-"], input=SMALL_MAZE).stdout == "<stdin>: ok\n"


def test_quiet_prints_nothing_for_valid_files(invoke: Invoke) -> None:
    result = invoke(["validate", "-q"], input=SMALL_MAZE)
    assert (result.exit_code, result.stdout) == (0, "")


def test_violation_lines_are_linter_style_with_a_summary(invoke: Invoke) -> None:
    def break_walls(maze: Maze) -> None:
        maze.walls[0, 1] &= ~np.uint8(4)  # south of (1,0) opened on one side only
        maze.walls[1, 3] &= ~np.uint8(2)  # east border of (3,1)

    result = invoke(["validate"], input=_edit(SMALL_MAZE, break_walls))
    assert result.exit_code == 1
    assert _lines(result.stdout) == [
        "<stdin>:1:2: coherence: south wall of (1,0) is open but north wall of (1,1) is closed",
        "<stdin>:2:4: border: east wall of (3,1) is open on the border",
        "<stdin>: 2 violations (coherence 1, border 1)",
    ]


def test_at_most_20_lines_per_rule_then_a_count(invoke: Invoke) -> None:
    maze = serpentine(30, 2)
    maze.walls[0, :] &= ~np.uint8(1)  # 30 open north border walls
    result = invoke(["validate", "--skip", "path"], input=dump(maze))
    lines = _lines(result.stdout)
    border = [line for line in lines if ": border: " in line]
    assert len(border) == 20
    assert "<stdin>: +10 more border violations" in lines
    assert lines[-1] == "<stdin>: 30 violations (border 30)"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda m: m.walls.__setitem__((0, 1), m.walls[0, 1] | 2),
            "<stdin>:1:2: coherence: east wall of (1,0) is closed but west wall of (2,0) is open",
        ),
        (
            lambda m: m.walls.__setitem__((0, 0), m.walls[0, 0] & ~np.uint8(4)),
            "<stdin>:1:1: coherence: south wall of (0,0) is open but north wall of (0,1) is closed",
        ),
        (
            lambda m: m.walls.__setitem__((1, 0), m.walls[1, 0] & ~np.uint8(8)),
            "<stdin>:2:1: border: west wall of (0,1) is open on the border",
        ),
        (
            lambda m: setattr(m, "entry", (9, 0)),
            "<stdin>:4:1: entry-exit: entry (9,0) is outside the 4x2 grid: connectivity and the "
            "path cannot be checked from it",
        ),
        (
            lambda m: setattr(m, "exit", (0, 7)),
            "<stdin>:5:1: entry-exit: exit (0,7) is outside the 4x2 grid",
        ),
        (
            lambda m: setattr(m, "path", ""),
            "<stdin>:6:1: path: path is empty: it must lead from the entry (0,0) to the exit (0,1)",
        ),
        (
            lambda m: setattr(m, "path", "N"),
            "<stdin>:6:1: path: step 1 (N) from (0,0) leaves the grid",
        ),
        (
            lambda m: setattr(m, "path", "EES"),
            "<stdin>:6:3: path: step 3 (S) from (2,0) to (2,1) crosses a closed wall",
        ),
        (
            lambda m: setattr(m, "path", "EEE"),
            "<stdin>:6:3: path: path ends at (3,0), not at the exit (0,1)",
        ),
    ],
)
def test_each_violation_message(invoke: Invoke, change: object, expected: str) -> None:
    result = invoke(["validate"], input=_edit(SMALL_MAZE, change))
    assert result.exit_code == 1
    assert expected in _lines(result.stdout)


def test_entry_equal_to_exit(invoke: Invoke) -> None:
    result = invoke(["validate", "--skip", "path"], input="D553\nD556\n\n0,1\n0,1\n\n")
    assert (
        _lines(result.stdout)[0]
        == "<stdin>:5:1: entry-exit: entry and exit are the same cell (0,1)"
    )


def test_entry_on_the_42(invoke: Invoke) -> None:
    text = _edit(PERFECT_20x15, lambda m: setattr(m, "entry", (6, 5)))
    lines = _lines(invoke(["validate"], input=text).stdout)
    assert lines == [  # one root cause, not every cell of the maze unreachable
        '<stdin>:17:1: entry-exit: entry (6,5) lies on the "42" pattern: connectivity and the '
        "path cannot be checked from it",
        "<stdin>: 1 violation (entry-exit 1)",
    ]


def test_pattern_cell_not_closed(invoke: Invoke) -> None:
    def open_42(maze: Maze) -> None:
        open_wall(maze.walls, 6, 5, "N")

    result = invoke(["validate"], input=_edit(PERFECT_20x15, open_42))
    assert _lines(result.stdout) == [
        '<stdin>:6:7: pattern: cell (6,5) of the "42" must have all four walls closed (F), '
        "but its N wall is open (E)",
        "<stdin>: 1 violation (pattern 1)",
    ]


def test_pattern_modes(invoke: Invoke) -> None:
    def erase_42(maze: Maze) -> None:
        for x, y in [(6, 5), (6, 6)]:
            maze.walls[y, x] = 15
        maze.walls[maze.walls == 15] = 15

    no_42 = serpentine(20, 15)
    assert invoke(["validate", "--pattern", "none"], input=dump(no_42)).exit_code == 0
    strict = invoke(["validate"], input=dump(no_42))
    assert strict.exit_code == 1
    assert _lines(strict.stdout)[-1] == "<stdin>: 18 violations (pattern 18)"
    any_mode = invoke(["validate", "--pattern", "any"], input=dump(no_42))
    assert _lines(any_mode.stdout)[0] == (
        '<stdin>:1:1: pattern: no fully closed cell: the "42" pattern is missing'
    )
    assert invoke(["validate", "--pattern", "any"], input=PERFECT_20x15).exit_code == 0


def test_any_mode_requires_unreachable_cells_to_be_closed(invoke: Invoke) -> None:
    maze = parse(PERFECT_20x15)
    maze.walls[0, 0], maze.walls[0, 1] = 13, 7  # the entry and (1,0): a room of two cells
    maze.walls[1, 0] |= 1
    maze.walls[1, 1] |= 1
    maze.walls[0, 2] |= 8
    lines = _lines(
        invoke(["validate", "--pattern", "any", "--skip", "path"], input=dump(maze)).stdout
    )
    assert lines == [  # the "42" cells are F, so any mode exempts them; the rest is one region
        "<stdin>:1:3: connectivity: a region of 280 cells is not reachable from the entry (0,0); "
        "its first cell is (2,0)",
        "<stdin>: 1 violation (connectivity 1)",
    ]


def test_connectivity_and_open_area_messages(invoke: Invoke) -> None:
    walls = closed_grid(3, 3)
    for y in range(3):
        for x in range(3):
            if x < 2:
                open_wall(walls, x, y, "E")
            if y < 2:
                open_wall(walls, x, y, "S")
    room = Maze(walls, (0, 0), (2, 2), "EESS")
    lines = _lines(invoke(["validate"], input=dump(room)).stdout)
    assert "<stdin>:1:1: open-area: 3x3 open area with its top-left cell at (0,0)" in lines
    walls = closed_grid(3, 1)
    open_wall(walls, 0, 0, "E")
    lines = _lines(invoke(["validate"], input=dump(Maze(walls, (0, 0), (1, 0), "E"))).stdout)
    assert lines == [
        '<stdin>:1:3: connectivity: cell (2,0) is fully closed (F) but is not part of the "42", '
        "so it cannot be reached from the entry (0,0)",
        "<stdin>: 1 violation (connectivity 1)",
    ]
    open_wall(walls, 1, 0, "E")
    walls[0, 1] |= 2  # (2,0) open towards (1,0) on its side only: not F, still unreachable
    lines = _lines(invoke(["validate"], input=dump(Maze(walls, (0, 0), (1, 0), "E"))).stdout)
    assert "<stdin>:1:3: connectivity: cell (2,0) is not reachable from the entry (0,0)" in lines


def test_path_longer_than_shortest(invoke: Invoke) -> None:
    maze = parse(SMALL_MAZE)
    maze.path = "EW" + maze.path
    lines = _lines(invoke(["validate"], input=dump(maze)).stdout)
    assert lines[0] == "<stdin>:6:1: path: path has 9 steps but the shortest has 7"


def test_any_shortest_path_is_accepted(invoke: Invoke) -> None:
    walls = closed_grid(2, 2)
    for x, y, d in [(0, 0, "E"), (0, 0, "S"), (1, 0, "S"), (0, 1, "E")]:
        open_wall(walls, x, y, d)
    for path in ("ES", "SE"):
        maze = Maze(walls, (0, 0), (1, 1), path)
        assert invoke(["validate"], input=dump(maze)).exit_code == 0


def test_perfect_flag_finds_a_loop(invoke: Invoke) -> None:
    walls = closed_grid(2, 2)
    for x, y, d in [(0, 0, "E"), (0, 0, "S"), (1, 0, "S"), (0, 1, "E")]:
        open_wall(walls, x, y, d)
    text = dump(Maze(walls, (0, 0), (1, 1), "ES"))
    assert invoke(["validate"], input=text).exit_code == 0
    result = invoke(["validate", "--perfect"], input=text)
    assert _lines(result.stdout)[0] == (
        "<stdin>:1:2: perfect: the wall between (1,0) and (1,1) closes a loop; "
        "a perfect maze has none (1 loop in all)"
    )


def test_config_rule_and_perfect_from_config(invoke: Invoke, tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text("WIDTH=4\nHEIGHT=2\nENTRY=0,0\nEXIT=3,1\nOUTPUT_FILE=m.txt\nPERFECT=True\n")
    result = invoke(["validate", "--config", str(config)], input=SMALL_MAZE)
    assert _lines(result.stdout) == [
        "<stdin>:5:1: config: exit is (0,1) but the config says EXIT=3,1",
        "<stdin>: 1 violation (config 1)",
    ]
    config.write_text("WIDTH=5\nHEIGHT=2\nENTRY=0,0\nEXIT=0,1\nOUTPUT_FILE=m.txt\nPERFECT=False\n")
    lines = _lines(invoke(["validate", "--config", str(config)], input=SMALL_MAZE).stdout)
    assert lines[0] == "<stdin>:1:1: config: maze is 4x2 but the config says WIDTH=5, HEIGHT=2"


def test_config_from_stdin_with_the_maze_named(invoke: Invoke, tmp_path: Path) -> None:
    maze = tmp_path / "m.txt"
    maze.write_text(SMALL_MAZE)
    config = "WIDTH=4\nHEIGHT=2\nENTRY=0,0\nEXIT=0,1\nOUTPUT_FILE=m.txt\nPERFECT=True\n"
    result = invoke(["validate", "--config", "-", str(maze)], input=config)
    assert (result.exit_code, result.stdout) == (0, f"{maze}: ok\n")
    for files in ([], ["-"], [str(maze), "-"]):  # stdin cannot be read twice
        result = invoke(["validate", "--config", "-", *files], input=config)
        assert (result.exit_code, result.stdout) == (2, "")
        assert result.stderr == (
            "Error: --config - reads the config from stdin, so the maze cannot come from it too\n"
        )


def test_config_rule_names_a_wrong_entry(invoke: Invoke, tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text("WIDTH=4\nHEIGHT=2\nENTRY=1,0\nEXIT=0,1\nOUTPUT_FILE=m.txt\nPERFECT=True\n")
    result = invoke(["validate", "--config", str(config)], input=SMALL_MAZE)
    assert result.exit_code == 1
    assert _lines(result.stdout) == [
        "<stdin>:4:1: config: entry is (0,0) but the config says ENTRY=1,0",
        "<stdin>: 1 violation (config 1)",
    ]


def test_perfect_config_turns_on_the_perfect_rule(invoke: Invoke, tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text("WIDTH=20\nHEIGHT=15\nENTRY=0,0\nEXIT=19,14\nOUTPUT_FILE=m\nPERFECT=True\n")
    imperfect = str(SAMPLES / "valid-20x15-imperfect.txt")
    result = invoke(["validate", "--config", str(config), imperfect])
    assert "perfect" in result.stdout.splitlines()[-1]


def test_a_bad_config_is_a_problem_of_the_run(invoke: Invoke, tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text("WIDTH=20\n")
    result = invoke(["validate", "--config", str(config)], input=SMALL_MAZE)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"Error: {config}: missing mandatory keys HEIGHT, ENTRY, EXIT, OUTPUT_FILE, PERFECT\n"
    )


def test_a_config_path_that_is_a_directory_cannot_be_read(invoke: Invoke, tmp_path: Path) -> None:
    result = invoke(["validate", "--config", str(tmp_path)], input=SMALL_MAZE)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"Error: {tmp_path}: cannot read: Is a directory\n"


def test_config_numbers_are_ascii_digits_only(invoke: Invoke, tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text("WIDTH=+4\nHEIGHT=2\nENTRY=0,0\nEXIT=0,1\nOUTPUT_FILE=m.txt\nPERFECT=True\n")
    result = invoke(["validate", "--config", str(config)], input=SMALL_MAZE)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {config}: WIDTH must be a positive integer, got '+4'\n"


def test_skip_turns_a_rule_off(invoke: Invoke) -> None:
    text = _edit(SMALL_MAZE, lambda m: setattr(m, "path", ""))
    assert invoke(["validate", "--skip", "path"], input=text).exit_code == 0


def test_unknown_skip_or_pattern_is_a_usage_error(invoke: Invoke) -> None:
    result = invoke(["validate", "--skip", "nope"], input=SMALL_MAZE)
    assert result.exit_code == 2
    assert "'nope'" in result.stderr and "open-area" in result.stderr  # click lists the choices
    assert invoke(["validate", "--pattern", "loose"], input=SMALL_MAZE).exit_code == 2


def test_format_problems_are_all_reported(invoke: Invoke) -> None:
    messy = SMALL_MAZE.replace("D553\n", "D553 \r\n").rstrip("\n")
    lines = _lines(invoke(["validate"], input=messy).stdout)
    assert lines == [
        "<stdin>:1:5: format: trailing whitespace: remove the spaces or tabs at the end of the line",
        "<stdin>:1:6: format: line ends with CRLF, not LF: end each line with LF alone "
        '(in Python: open(name, "w", newline="\\n"))',
        "<stdin>:6:8: format: missing newline at the end of the file: end the last line with LF too",
        "<stdin>: 3 violations (format 3)",
    ]


def test_fatal_format_problem_stops_the_other_rules(invoke: Invoke) -> None:
    result = invoke(["validate"], input="D5Z3\nD556\n\n0,0\n0,1\nEEESWWW\n")
    assert _lines(result.stdout) == [
        "<stdin>:1:3: format: invalid 'Z' in the grid: expected a hex digit 0-9 or A-F",
        "<stdin>: 1 violation (format 1)",
    ]


def test_malformed_path_line_is_a_format_problem_only(invoke: Invoke) -> None:
    result = invoke(["validate"], input=SMALL_MAZE.replace("EEESWWW", "EEESWWx"))
    assert _lines(result.stdout) == [
        "<stdin>:6:7: format: invalid 'x' in the path: expected N, E, S or W",
        "<stdin>: 1 violation (format 1)",
    ]


def test_a_border_cell_names_its_open_outer_walls_north_west_east_south(invoke: Invoke) -> None:
    """A grid one cell wide has three outer walls per end cell: each is named, in one order,
    by the name the direction table gives it."""
    result = invoke(["validate", "--format", "text"], input="0\n0\n\n0,0\n0,1\nS\n")
    assert _lines(result.stdout)[1:] == [
        "<stdin>:1:1: border: north wall of (0,0) is open on the border",
        "<stdin>:1:1: border: west wall of (0,0) is open on the border",
        "<stdin>:1:1: border: east wall of (0,0) is open on the border",
        "<stdin>:2:1: border: west wall of (0,1) is open on the border",
        "<stdin>:2:1: border: east wall of (0,1) is open on the border",
        "<stdin>:2:1: border: south wall of (0,1) is open on the border",
        "<stdin>: 6 violations (border 6)",
    ]
    assert _lines(result.stdout)[0].startswith("<stdin>: hint: every outer wall is open: ")


def test_a_labelled_wrong_path_gets_the_format_and_the_path_violations(invoke: Invoke) -> None:
    """The letters after a label are read (as stats reads them), so one run shows the label
    and where the path goes wrong, as it does for the same path written before the entry."""
    labelled = invoke(["validate"], input="93\nC6\n\n0,0\n1,1\npath: E\n")
    assert (labelled.exit_code, _lines(labelled.stdout)) == (
        1,
        [
            "<stdin>:6:1: format: path: 'path: E' is not a path: write the letters N E S W "
            "alone, with no label",
            "<stdin>:6:1: path: path ends at (1,0), not at the exit (1,1)",
            "<stdin>: 2 violations (format 1, path 1)",
        ],
    )
    first = invoke(["validate"], input="93\nC6\n\nE\n0,0\n1,1\n")
    assert _lines(first.stdout)[1:] == [
        "<stdin>:4:1: path: path ends at (1,0), not at the exit (1,1)",
        "<stdin>: 2 violations (format 1, path 1)",
    ]


def test_several_files_one_unreadable(invoke: Invoke, tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(SMALL_MAZE)
    locked = tmp_path / "locked.txt"
    locked.symlink_to(locked)  # a loop of links: it exists, but cannot be read
    result = invoke(["validate", str(good), str(locked)])
    assert result.exit_code == 1
    assert _lines(result.stdout) == [f"{good}: ok", "2 files: 1 ok, 1 invalid"]
    assert _lines(result.stderr) == [
        f"Error: {locked}: cannot read: Too many levels of symbolic links",
    ]


def test_a_path_that_names_nothing_is_a_problem_of_the_run(invoke: Invoke, tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(SMALL_MAZE)
    missing = tmp_path / "missing.txt"
    result = invoke(["validate", str(good), str(missing)])
    assert result.exit_code == 2  # a typo of the grader, not a bad submission
    assert _lines(result.stdout) == [f"{good}: ok", "2 files: 1 ok, 0 invalid, 1 not found"]
    assert result.stderr == f"Error: {missing}: cannot read: No such file or directory\n"


def test_json_report(invoke: Invoke, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(
        _edit(SMALL_MAZE, lambda m: m.walls.__setitem__((1, 3), m.walls[1, 3] & ~np.uint8(2)))
    )
    result = invoke(["validate", "--format", "json", str(bad), str(tmp_path / "none.txt")])
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document == {
        "schema_version": 1,
        "valid": False,
        "error": f"{tmp_path / 'none.txt'}: cannot read: No such file or directory",
        "files": [
            {
                "file": str(bad),
                "valid": False,
                "error": None,
                "counts": {"border": 1},
                "violations": [
                    {
                        "rule": "border",
                        "message": "east wall of (3,1) is open on the border",
                        "line": 2,
                        "column": 4,
                        "cell": [3, 1],
                    }
                ],
                "omitted": {},
            },
            {
                "file": str(tmp_path / "none.txt"),
                "valid": False,
                "error": "cannot read: No such file or directory",
                "counts": {},
                "violations": [],
                "omitted": {},
            },
        ],
        "totals": {"files": 2, "valid": 0, "invalid": 2, "violations": {"border": 1}},
    }


def test_json_for_a_valid_file(invoke: Invoke) -> None:
    result = invoke(["validate", "--format", "json"], input=SMALL_MAZE)
    assert result.exit_code == 0
    assert json.loads(result.stdout)["valid"] is True


def test_help_lists_every_rule_and_an_example(invoke: Invoke) -> None:
    for flag in ("--help", "-h"):
        result = invoke(["validate", flag])
        assert result.exit_code == 0, (flag, result.stdout, result.stderr)
        for rule in ("format", "coherence", "open-area", "perfect", "config"):
            assert rule in result.stdout
        assert "mazekit validate maze.txt" in result.stdout


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "<stdin>:1:1: format: empty input: no grid rows"),
        (
            b"\xff\xfe\x00garbage",
            "<stdin>:1:1: format: invalid byte 0xff in the grid: expected a hex digit 0-9 or A-F",
        ),
        (
            b"\xef\xbb\xbfD553\nD556\n\n0,0\n0,1\nEEESWWW\n",
            "<stdin>:1:1: format: file starts with a UTF-8 byte order mark",
        ),
        (
            b"D553\nD556\n\n0,-1\n0,1\n\n",
            "<stdin>:4:1: format: entry must be two non-negative integers x,y, got '0,-1'",
        ),
        (
            b"D553\nD556\n\n0.5,0\n0,1\n\n",
            "<stdin>:4:1: format: entry must be two non-negative integers x,y, got '0.5,0'",
        ),
        (
            b"D553\nD556\n",
            "<stdin>:2:5: format: the file ends after the grid: no entry, exit or path lines",
        ),
        (b"\n\n", "<stdin>:1:1: format: no grid rows: the file must start with the grid"),
    ],
)
def test_bad_input_gets_a_message_not_a_traceback(
    invoke: Invoke, data: bytes, message: str
) -> None:
    result = invoke(["validate"], input=data)
    assert result.exit_code == 1
    assert _lines(result.stdout)[0] == message


def test_a_10_mb_line_is_handled(invoke: Invoke) -> None:
    result = invoke(["validate"], input=b"g" * 10_000_000)
    assert result.exit_code == 1
    assert _lines(result.stdout)[0] == (
        "<stdin>:1:1: format: invalid 'g' in the grid: expected a hex digit 0-9 or A-F"
    )


def test_any_mode_refuses_an_entry_on_a_closed_cell(invoke: Invoke) -> None:
    maze = parse(PERFECT_20x15)
    maze.entry = (6, 5)  # a cell of the "42": fully closed, so a pattern cell in any mode too
    args = ["validate", "--pattern", "any", "--skip", "path", "--skip", "connectivity"]
    lines = _lines(invoke(args, input=dump(maze)).stdout)
    assert lines[0] == (
        '<stdin>:17:1: entry-exit: entry (6,5) lies on the "42" pattern: connectivity and the '
        "path cannot be checked from it"
    )
    none_mode = ["validate", "--pattern", "none", "--skip", "path", "--skip", "connectivity"]
    assert invoke(none_mode, input=dump(maze)).exit_code == 0


# --- issue 25: one hint for a systematic misreading, every footer fault in one run -----------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    ("index", "misread"),
    [
        (0, lambda w: _bits(w, {1: 8, 2: 4, 4: 2, 8: 1})),
        (1, lambda w: _bits(w, {1: 4, 4: 1})),
        (2, lambda w: _bits(w, {2: 8, 8: 2})),
        (3, lambda w: np.ascontiguousarray(w.T)),
        (4, lambda w: w ^ np.uint8(15)),
    ],
    ids=["reversed-bits", "north-south", "east-west", "rows-columns", "inverted"],
)
def test_a_systematic_misreading_gets_one_hint_naming_it(
    seed: int, index: int, misread: Any
) -> None:
    """A writer that gets the bits or the axes wrong the same way everywhere: one hint, the
    right one, though reversed bits and swapped axes each make the other's file coherent."""
    from mazekit import generate, validate
    from mazekit.rules import MISREADINGS

    maze = generate(20, 15, seed=seed, perfect=seed % 2 == 0)
    wrong = Maze(misread(maze.walls), maze.entry, maze.exit, maze.path)
    report = validate(dump(wrong).encode())
    assert report.hints == [
        "the walls would be coherent, with a closed border, if " + MISREADINGS[index][0]
    ]
    assert report.to_dict()["hints"] == report.hints
    assert validate(dump(maze).encode()).hints == []  # a right file has none
    assert "hints" not in validate(dump(maze).encode()).to_dict()


def _bits(walls: Any, moves: dict[int, int]) -> Any:
    """Each wall bit moved as ``moves`` says: how a student's writer misplaces them."""
    out = np.zeros_like(walls)
    for bit, to in moves.items():
        out |= np.where(walls & bit, to, 0).astype(walls.dtype)
    for bit in (1, 2, 4, 8):
        if bit not in moves:
            out |= walls & bit
    return out


def test_the_hint_comes_first_in_text_and_in_json(invoke: Invoke, tmp_path: Path) -> None:
    from importlib.resources import files

    import jsonschema

    from mazekit import generate

    schema = files("mazekit") / "schemas" / "validate.schema.json"

    maze = generate(20, 15, seed=3)
    wrong = Maze(_bits(maze.walls, {1: 4, 4: 1}), maze.entry, maze.exit, maze.path)
    (tmp_path / "maze.txt").write_text(dump(wrong))
    text = invoke(["validate", str(tmp_path / "maze.txt")])
    assert text.exit_code == 1
    assert text.stdout.splitlines()[0] == (
        f"{tmp_path}/maze.txt: hint: the walls would be coherent, with a closed border, if N "
        "and S were read the other way round (the file writes N=4, S=1): write N=1, S=4"
    )
    document = json.loads(invoke(["validate", "--format", "json", str(tmp_path)]).stdout)
    jsonschema.validate(document, json.loads(schema.read_text()))  # hints is in the schema
    assert document["files"][0]["hints"] == [text.stdout.splitlines()[0].split(": hint: ")[1]]


def test_every_footer_fault_comes_in_one_run(invoke: Invoke) -> None:
    """The example of issue 25: before, only the entry was reported."""
    result = invoke(["validate"], input="93\nC6\n\n(0, 0)\n(1, 1)\nEx\n")
    assert (result.exit_code, result.stdout.splitlines()) == (
        1,
        [
            "<stdin>:4:1: format: entry must be two non-negative integers x,y, got '(0, 0)': "
            "write 0,0",
            "<stdin>:5:1: format: exit must be two non-negative integers x,y, got '(1, 1)': "
            "write 1,1",
            "<stdin>:6:2: format: invalid 'x' in the path: expected N, E, S or W",
            "<stdin>: 3 violations (format 3)",
        ],
    )
    # an entry that cannot be read at all: the exit and path lines are still format-checked
    unread = invoke(["validate"], input="93\nC6\n\nEx\n1.1\ne,s\n")
    assert unread.stdout.splitlines() == [
        "<stdin>:4:1: format: entry must be two non-negative integers x,y, got 'Ex'",
        "<stdin>:5:1: format: exit must be two non-negative integers x,y, got '1.1'",
        "<stdin>:6:1: format: path: 'e,s' is not a path: write the letters N E S W with "
        "nothing between them",
        "<stdin>: 3 violations (format 3)",
    ]
    # the exit alone can be read: it is still checked against the grid
    alone = invoke(["validate"], input="93\nC6\n\nEx\n(2, 1)\nEE\n")
    assert (alone.exit_code, alone.stdout.splitlines()) == (
        1,
        [
            "<stdin>:4:1: format: entry must be two non-negative integers x,y, got 'Ex'",
            "<stdin>:5:1: format: exit must be two non-negative integers x,y, got '(2, 1)': "
            "write 2,1",
            "<stdin>:5:1: entry-exit: exit (2,1) is outside the 2x2 grid",
            "<stdin>: 3 violations (format 2, entry-exit 1)",
        ],
    )
