"""`--pattern subject`: the "42" wherever a file draws it, in the subject's glyph or another.

Students centre the glyph at x0 = W//2 - 3 (one column right of mazekit's place on even
widths) or draw their own "4"; both are a "42" by the subject's words. A lone closed cell, a
solid block or a bar is none.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazekit import dump_maze, generate
from mazekit.analysis import find_42 as find
from mazekit.model import Maze
from mazekit.pattern import cells_at, origin, pattern_cells
from mazekit.rules import validate
from tests.conftest import Invoke, open_wall

OTHER_FOUR = (  # a "4" closed at the top, then the subject's "2"
    "X.X.XXX",
    "X.X...X",
    "XXX.XXX",
    "..X.X..",
    "..X.XXX",
)
THICK = (  # strokes two cells wide, as some students draw at 50x40
    "XX..XX..XXXXXX",
    "XX..XX..XXXXXX",
    "XX..XX......XX",
    "XXXXXX..XXXXXX",
    "XXXXXX..XXXXXX",
    "....XX..XX....",
    "....XX..XXXXXX",
    "....XX..XXXXXX",
)


def closed_cells(rows: tuple[str, ...], corner: tuple[int, int]) -> np.ndarray:
    """A 20x15 grid with every wall open but the cells marked X, closed all round."""
    walls = np.zeros((15, 20), dtype=np.uint8)
    x0, y0 = corner
    for dy, row in enumerate(rows):
        for dx, mark in enumerate(row):
            if mark == "X":
                walls[y0 + dy, x0 + dx] = 15
    return walls


def shifted() -> Maze:
    """A valid perfect 20x15 maze whose "42" sits at x0 = 7 = W//2 - 3: mazekit's 19x15 maze
    with a corridor added on its west side, joined to it at the top."""
    inner = generate(19, 15, seed=3)
    walls = np.full((15, 20), 15, dtype=np.uint8)
    walls[:, 1:] = inner.walls
    for y in range(14):
        open_wall(walls, 0, y, "S")
    open_wall(walls, 0, 0, "E")
    exit_x, exit_y = inner.exit
    return Maze(walls, (0, 0), (exit_x + 1, exit_y), "E" + inner.path)


def test_the_subjects_glyph_is_found_at_mazekits_place_first_then_anywhere() -> None:
    found = find(generate(20, 15, seed=1).walls)
    assert found is not None and found.subject
    assert found.cells == pattern_cells(20, 15)
    moved = find(closed_cells(("X...XXX", "X.....X", "XXX.XXX", "..X.X..", "..X.XXX"), (7, 5)))
    assert moved is not None and moved.subject
    assert moved.cells == cells_at((7, 5)) and moved.corner == (7, 5) != origin(20, 15)


@pytest.mark.parametrize(
    ("rows", "corner", "cells"), [(OTHER_FOUR, (6, 5), 20), (THICK, (3, 3), 70)]
)
def test_another_glyph_of_a_4_and_a_2_side_by_side(
    rows: tuple[str, ...], corner: tuple[int, int], cells: int
) -> None:
    found = find(closed_cells(rows, corner))
    assert found is not None and not found.subject
    assert (found.corner, len(found.cells)) == (corner, cells)


@pytest.mark.parametrize(
    "rows",
    [
        ("X",),  # a lone closed cell
        ("XXXXXXXXX",) * 7,  # a solid block
        ("XXXXXXX",),  # a bar
        ("XXX.XXX", "..X...X", "XXX.XXX", "X.....X", "XXX.XXX"),  # a "2" and a "2"
        ("X...XXX", "X.....X", "XXX.XXX", "..X.X..", "..X.XX."),  # a "4" and half a "2"
        ("XXX.X..", "..X.X..", "XXX.XXX", "X.....X", "XXX...X"),  # a "2" then a "4"
    ],
)
def test_what_is_no_42(rows: tuple[str, ...]) -> None:
    assert find(closed_cells(rows, (4, 4))) is None


def test_validate_and_stats_take_the_subject_mode(invoke: Invoke) -> None:
    text = dump_maze(shifted())
    assert validate(text.encode(), pattern="subject", perfect=True).valid
    strict = validate(text.encode(), perfect=True)
    assert [v.rule for v in strict.violations][:1] == ["pattern"]
    result = invoke(["validate", "--pattern", "subject", "--perfect"], input=text)
    assert (result.exit_code, result.stdout) == (0, "<stdin>: ok\n")
    stats = invoke(["stats", "--pattern", "subject", "--format", "json"], input=text)
    assert json.loads(stats.stdout)["files"][0]["pattern_cells"] == 18
    strict_stats = invoke(["stats", "--format", "json"], input=text)
    assert json.loads(strict_stats.stdout)["files"][0]["pattern_cells"] < 18


def test_no_42_in_subject_mode_and_one_with_a_cell_left_open(invoke: Invoke) -> None:
    maze = generate(20, 15, seed=1)
    walls = maze.walls.copy()
    walls[walls == 15] = 14  # no closed cell anywhere (incoherent, but the pattern is first)
    result = invoke(
        ["validate", "--pattern", "subject", "--select", "pattern"],
        input=dump_maze(Maze(walls, maze.entry, maze.exit, maze.path)),
    )
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        '<stdin>:1:1: pattern: no "42" of fully closed cells: neither the subject\'s glyph nor '
        'a "4" and a "2" side by side'
    )
    moved = shifted()
    walls = moved.walls.copy()
    open_wall(walls, 11, 5, "E")  # the "2"'s top bar, at x0 = 7
    result = invoke(
        ["validate", "--pattern", "subject", "--select", "pattern"],
        input=dump_maze(Maze(walls, moved.entry, moved.exit, moved.path)),
    )
    assert result.stdout.splitlines()[0] == (
        '<stdin>:6:12: pattern: cell (11,5) of the "42" must have all four walls closed (F), '
        "but its E wall is open (D)"
    )


@pytest.mark.parametrize(("width", "height"), [(9, 7), (10, 8), (31, 12), (50, 40)])
def test_every_maze_mazekit_makes_has_its_42_found_where_strict_puts_it(
    width: int, height: int
) -> None:
    for perfect in (True, False):
        found = find(generate(width, height, perfect=perfect, seed=width).walls)
        assert found is not None and found.subject
        assert found.cells == pattern_cells(width, height)


def test_closed_groups_join_closed_cells_side_by_side_only() -> None:
    from mazekit.search import closed_groups

    walls = closed_cells(("XX.X", "X..X", "..X."), (0, 0))
    labels = closed_groups(walls)
    groups = {(x, y): int(labels[y, x]) for y in range(3) for x in range(4) if walls[y, x] == 15}
    assert groups[(0, 0)] == groups[(1, 0)] == groups[(0, 1)]
    assert groups[(3, 0)] == groups[(3, 1)] != groups[(0, 0)]
    assert groups[(2, 2)] not in (groups[(0, 0)], groups[(3, 0)])  # corners do not join


@given(
    width=st.integers(9, 40),
    height=st.integers(7, 30),
    data=st.data(),
)
def test_the_glyph_is_found_wherever_it_is_put(
    width: int, height: int, data: st.DataObject
) -> None:
    x0 = data.draw(st.integers(0, width - 7), label="x0")
    y0 = data.draw(st.integers(0, height - 5), label="y0")
    walls = np.zeros((height, width), dtype=np.uint8)
    for x, y in cells_at((x0, y0)):
        walls[y, x] = 15
    found = find(walls)
    assert found is not None and found.subject and found.cells == cells_at((x0, y0))


@given(scale=st.integers(1, 3), gap=st.integers(1, 3), closed_top=st.booleans())
def test_a_4_and_a_2_of_any_stroke_and_gap_are_a_42(scale: int, gap: int, closed_top: bool) -> None:
    four = (
        ("X.X", "X.X", "XXX", "..X", "..X") if closed_top else ("X..", "X..", "XXX", "..X", "..X")
    )
    two = ("XXX", "..X", "XXX", "X..", "XXX")

    def wide(part: str) -> str:
        return "".join(mark * scale for mark in part)

    rows = tuple(
        wide(left) + "." * gap + wide(right)
        for left, right in zip(four, two, strict=True)
        for _ in range(scale)
    )
    walls = np.zeros((5 * scale + 4, 6 * scale + gap + 4), dtype=np.uint8)
    for dy, row in enumerate(rows):
        for dx, mark in enumerate(row):
            if mark == "X":
                walls[2 + dy, 2 + dx] = 15
    found = find(walls)
    assert found is not None and found.corner == (2, 2)
    assert len(found.cells) == sum(row.count("X") for row in rows)
    assert found.subject == (scale == 1 and gap == 1 and not closed_top)
